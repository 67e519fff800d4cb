// QpackDecoder: new QpackDecoder(maxTableCapacity, maxBlockedStreams, maxFieldSectionSize,
// maxStringLength, maxBlockedBytes); decode(streamId, section) -> fields or null when blocked;
// feedEncoder(bytes) -> [streamId, fields, streamId, fields, ...] for the sections it unblocked;
// cancelStream(streamId); readDecoderStream() -> Buffer. Fields are [name, value] latin1 strings.
#include "qpack_wrap.h"

#include <string>
#include <vector>

#include "js_errors.h"
#include "qpack.h"

namespace {

struct DecodedSection {
    uint64_t stream_id;
    std::vector<std::string> strings; // name, value, name, value, ...
    bool complete;
};

int CollectField(void *ctx, uint64_t stream_id, const struct hpack_header *field)
{
    auto *sections = static_cast<std::vector<DecodedSection> *>(ctx);
    if (sections->empty() || sections->back().complete)
        sections->push_back({ stream_id, {}, false });
    DecodedSection &s = sections->back();
    if (!field) {
        s.complete = true;
        return 0;
    }
    s.strings.emplace_back(reinterpret_cast<const char *>(field->name), field->name_len);
    s.strings.emplace_back(reinterpret_cast<const char *>(field->value), field->value_len);
    return 0;
}

Napi::Value FieldsToJs(Napi::Env env, const DecodedSection &s)
{
    Napi::Array fields = Napi::Array::New(env, s.strings.size() / 2);
    for (size_t i = 0; i < s.strings.size(); i += 2) {
        Napi::Array pair = Napi::Array::New(env, 2);
        napi_value name, value;
        // Fails only when V8 cannot allocate; an exception is then pending.
        if (napi_create_string_latin1(env, s.strings[i].data(), s.strings[i].size(), &name) != napi_ok ||
            napi_create_string_latin1(env, s.strings[i + 1].data(), s.strings[i + 1].size(), &value) != napi_ok)
            return Napi::Value();
        pair.Set(0u, Napi::Value(env, name));
        pair.Set(1u, Napi::Value(env, value));
        fields.Set((uint32_t)(i / 2), pair);
    }
    return fields;
}

class QpackDecoder : public Napi::ObjectWrap<QpackDecoder> {
public:
    explicit QpackDecoder(const Napi::CallbackInfo &info);
    ~QpackDecoder() override { qpack_decoder_free(dec_); }

    Napi::Value Decode(const Napi::CallbackInfo &info);
    Napi::Value FeedEncoder(const Napi::CallbackInfo &info);
    Napi::Value CancelStream(const Napi::CallbackInfo &info);
    Napi::Value ReadDecoderStream(const Napi::CallbackInfo &info);

private:
    struct qpack_decoder *dec_ = nullptr;
};

QpackDecoder::QpackDecoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<QpackDecoder>(info)
{
    napi_env env = info.Env();
    struct qpack_decoder_settings s;
    if (!GetUint32(env, info[0], "maxTableCapacity must be a 32-bit unsigned integer", &s.max_table_capacity) ||
        !GetUint32(env, info[1], "maxBlockedStreams must be a 32-bit unsigned integer", &s.max_blocked_streams) ||
        !GetUint32(env, info[2], "maxFieldSectionSize must be a 32-bit unsigned integer", &s.max_field_section_size) ||
        !GetUint32(env, info[3], "maxStringLength must be a 32-bit unsigned integer", &s.max_string_length) ||
        !GetUint32(env, info[4], "maxBlockedBytes must be a 32-bit unsigned integer", &s.max_blocked_bytes))
        return;
    dec_ = qpack_decoder_new(&s);
    if (!dec_)
        ThrowRangeError(env, "maxTableCapacity must be an integer from 0 to 16777216");
}

Napi::Value QpackDecoder::Decode(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    uint32_t stream_id;
    const uint8_t *src;
    size_t len;
    std::vector<DecodedSection> sections;
    if (!GetUint32(env, info[0], "streamId must be an integer from 0 to 2^32 - 1", &stream_id) ||
        !GetBytes(env, info[1], "section", &src, &len))
        return Napi::Value();
    int rc = qpack_decoder_decode(dec_, stream_id, src, len, CollectField, &sections);
    if (rc == QPACK_BLOCKED)
        return Napi::Env(env).Null();
    if (rc != QPACK_OK) {
        ThrowQpackError(env, rc, "QPACK decoding failed", qpack_decoder_error_reason(dec_));
        return Napi::Value();
    }
    return FieldsToJs(env, sections.back());
}

Napi::Value QpackDecoder::FeedEncoder(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    const uint8_t *src;
    size_t len;
    std::vector<DecodedSection> sections;
    if (!GetBytes(env, info[0], "encoder stream bytes", &src, &len))
        return Napi::Value();
    int rc = qpack_decoder_feed_encoder(dec_, src, len, CollectField, &sections);
    if (rc != QPACK_OK) {
        ThrowQpackError(env, rc, "QPACK encoder stream rejected", qpack_decoder_error_reason(dec_));
        return Napi::Value();
    }
    Napi::Array result = Napi::Array::New(env, 2 * sections.size());
    for (size_t i = 0; i < sections.size(); i++) {
        Napi::Value fields = FieldsToJs(env, sections[i]);
        if (fields.IsEmpty())
            return fields;
        result.Set((uint32_t)(2 * i), Napi::Number::New(env, (double)sections[i].stream_id));
        result.Set((uint32_t)(2 * i + 1), fields);
    }
    return result;
}

Napi::Value QpackDecoder::CancelStream(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    uint32_t stream_id;
    if (!GetUint32(env, info[0], "streamId must be an integer from 0 to 2^32 - 1", &stream_id))
        return Napi::Value();
    int rc = qpack_decoder_cancel_stream(dec_, stream_id);
    if (rc != QPACK_OK)
        ThrowQpackError(env, rc, "QPACK stream cancellation failed", qpack_decoder_error_reason(dec_));
    return Napi::Value();
}

Napi::Value QpackDecoder::ReadDecoderStream(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::New(env, qpack_decoder_stream_pending(dec_));
    size_t n = qpack_decoder_read_stream(dec_, out.Data(), out.Length());
    return n == out.Length() ? out : Napi::Buffer<uint8_t>::Copy(env, out.Data(), n);
}

} // namespace

Napi::Function InitQpackDecoder(Napi::Env env)
{
    return QpackDecoder::DefineClass(env, "QpackDecoder",
                                     { QpackDecoder::InstanceMethod("decode", &QpackDecoder::Decode),
                                       QpackDecoder::InstanceMethod("feedEncoder", &QpackDecoder::FeedEncoder),
                                       QpackDecoder::InstanceMethod("cancelStream", &QpackDecoder::CancelStream),
                                       QpackDecoder::InstanceMethod("readDecoderStream", &QpackDecoder::ReadDecoderStream) });
}

void ThrowQpackError(Napi::Env env, int err, const char *what, const char *reason)
{
    Napi::Error error = Napi::Error::New(env, std::string(what) + ": " + reason);
    error.Set("code", Napi::String::New(env, qpack_strerror(err)));
    if (qpack_h3_error_code(err))
        error.Set("h3Code", Napi::Number::New(env, qpack_h3_error_code(err)));
    error.ThrowAsJavaScriptException();
}
