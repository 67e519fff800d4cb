// QpackEncoder: new QpackEncoder(maxTableCapacity, tableCapacity, maxBlockedStreams, flags);
// encode(streamId, text, fields, count) -> [section, encoderStreamBytes];
// feedDecoder(bytes); assumeAcknowledged(); state() -> [insertCount, knownReceivedCount, blockedStreams].
// As for the HPACK Encoder, a section's names and values come as one latin1
// string and an Int32Array of (name length, value length, flags) per field.
#include "qpack_wrap.h"

#include <vector>

#include "js_errors.h"
#include "qpack.h"

namespace {

class QpackEncoder : public Napi::ObjectWrap<QpackEncoder> {
public:
    explicit QpackEncoder(const Napi::CallbackInfo &info);
    ~QpackEncoder() override { qpack_encoder_free(enc_); }

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value FeedDecoder(const Napi::CallbackInfo &info);
    Napi::Value AssumeAcknowledged(const Napi::CallbackInfo &info);
    Napi::Value State(const Napi::CallbackInfo &info);

private:
    struct qpack_encoder *enc_ = nullptr;
    std::vector<char> text_;
    std::vector<struct hpack_header> fields_;
};

QpackEncoder::QpackEncoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<QpackEncoder>(info)
{
    napi_env env = info.Env();
    struct qpack_encoder_settings s;
    if (!GetUint32(env, info[0], "maxTableCapacity must be a 32-bit unsigned integer", &s.max_table_capacity) ||
        !GetUint32(env, info[1], "tableCapacity must be a 32-bit unsigned integer", &s.table_capacity) ||
        !GetUint32(env, info[2], "maxBlockedStreams must be a 32-bit unsigned integer", &s.max_blocked_streams) ||
        !GetUint32(env, info[3], "flags must be a 32-bit unsigned integer", &s.flags))
        return;
    enc_ = qpack_encoder_new(&s);
    if (!enc_)
        ThrowRangeError(env, "tableCapacity must be at most maxTableCapacity and 16777216");
}

// The encoder-stream bytes waiting, as a new Buffer.
Napi::Value TakeEncoderStream(Napi::Env env, struct qpack_encoder *enc)
{
    Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::New(env, qpack_encoder_stream_pending(enc));
    qpack_encoder_read_stream(enc, out.Data(), out.Length());
    return out;
}

Napi::Value QpackEncoder::Encode(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    uint32_t stream_id, count;
    int32_t *lens;
    size_t lens_count, text_len;
    if (!GetUint32(env, info[0], "streamId must be an integer from 0 to 2^32 - 1", &stream_id) ||
        !GetInt32s(env, info[2], "fields", &lens, &lens_count) ||
        !GetUint32(env, info[3], "count must be a 32-bit unsigned integer", &count))
        return Napi::Value();
    if (napi_get_value_string_latin1(env, info[1], nullptr, 0, &text_len) != napi_ok) {
        ThrowTypeError(env, "text must be a string");
        return Napi::Value();
    }
    if ((size_t)count * 3 > lens_count) {
        ThrowRangeError(env, "fields is shorter than count");
        return Napi::Value();
    }
    text_.resize(text_len + 1);
    if (napi_get_value_string_latin1(env, info[1], text_.data(), text_.size(), &text_len) != napi_ok) {
        ThrowTypeError(env, "text must be a string");
        return Napi::Value();
    }
    fields_.resize(count);
    size_t pos = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t name_len = (size_t)lens[3 * i], value_len = (size_t)lens[3 * i + 1];
        if (lens[3 * i] < 0 || lens[3 * i + 1] < 0 || pos + name_len + value_len > text_len) {
            ThrowRangeError(env, "field lengths run past the text");
            return Napi::Value();
        }
        const uint8_t *base = reinterpret_cast<const uint8_t *>(text_.data());
        fields_[i] = { base + pos, name_len, base + pos + name_len, value_len, (unsigned)lens[3 * i + 2] };
        pos += name_len + value_len;
    }
    size_t bound = qpack_encoder_bound(enc_, fields_.data(), count);
    Napi::Buffer<uint8_t> section = Napi::Buffer<uint8_t>::New(env, bound);
    ssize_t n = qpack_encoder_encode(enc_, stream_id, fields_.data(), count, section.Data(), bound);
    if (n < 0) {
        ThrowQpackError(env, (int)n, "QPACK encoding failed", qpack_encoder_error_reason(enc_));
        return Napi::Value();
    }
    Napi::Array result = Napi::Array::New(env, 2);
    result.Set(0u, Napi::Buffer<uint8_t>::Copy(env, section.Data(), (size_t)n));
    result.Set(1u, TakeEncoderStream(env, enc_));
    return result;
}

Napi::Value QpackEncoder::FeedDecoder(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    const uint8_t *src;
    size_t len;
    if (!GetBytes(env, info[0], "decoder stream bytes", &src, &len))
        return Napi::Value();
    int rc = qpack_encoder_feed_decoder(enc_, src, len);
    if (rc != QPACK_OK)
        ThrowQpackError(env, rc, "QPACK decoder stream rejected", qpack_encoder_error_reason(enc_));
    return Napi::Value();
}

Napi::Value QpackEncoder::AssumeAcknowledged(const Napi::CallbackInfo &)
{
    qpack_encoder_assume_acknowledged(enc_);
    return Napi::Value();
}

Napi::Value QpackEncoder::State(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Array state = Napi::Array::New(env, 3);
    state.Set(0u, Napi::Number::New(env, (double)qpack_encoder_insert_count(enc_)));
    state.Set(1u, Napi::Number::New(env, (double)qpack_encoder_known_received_count(enc_)));
    state.Set(2u, Napi::Number::New(env, (double)qpack_encoder_blocked_streams(enc_)));
    return state;
}

} // namespace

Napi::Function InitQpackEncoder(Napi::Env env)
{
    return QpackEncoder::DefineClass(env, "QpackEncoder",
                                     { QpackEncoder::InstanceMethod("encode", &QpackEncoder::Encode),
                                       QpackEncoder::InstanceMethod("feedDecoder", &QpackEncoder::FeedDecoder),
                                       QpackEncoder::InstanceMethod("assumeAcknowledged", &QpackEncoder::AssumeAcknowledged),
                                       QpackEncoder::InstanceMethod("state", &QpackEncoder::State) });
}
