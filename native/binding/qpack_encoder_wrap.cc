// QpackEncoder: new QpackEncoder(maxTableCapacity, tableCapacity, maxBlockedStreams, flags);
// encode(streamId, text, fields, count, output, offset) -> section bytes written;
// readEncoderStream(output, offset) -> bytes moved; feedDecoder(bytes);
// assumeAcknowledged(); state() -> [insertCount, knownReceivedCount, blockedStreams].
//
// text, fields and count are a section's fields, as for the HPACK Encoder (see
// field_text.h); flags are HPACK_ENCODER_* bits. The section is written at
// output[offset...]; when that room may be too small, encode writes nothing,
// leaves the encoder as it was and returns the room it needs (more than there
// is). Every argument is read and checked before the encoder's state changes,
// so a refused section leaves it as it was. The encoder-stream instructions a
// section needs wait in the encoder until readEncoderStream.
#include "qpack_encoder_wrap.h"

#include "qpack.h"
#include "class_wrap.h"
#include "field_text.h"
#include "js_errors.h"
#include "qpack_stream_into.h"

namespace {

const char kStreamIdMessage[] = "streamId must be an integer from 0 to 2^32 - 1";

class QpackEncoder : public CoreWrap<QpackEncoder, struct qpack_encoder, qpack_encoder_free, Codec::kQpack> {
public:
    explicit QpackEncoder(const Napi::CallbackInfo &info);

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value ReadEncoderStream(const Napi::CallbackInfo &info);
    Napi::Value FeedDecoder(const Napi::CallbackInfo &info);
    Napi::Value AssumeAcknowledged(const Napi::CallbackInfo &info);
    Napi::Value State(const Napi::CallbackInfo &info);

private:
    FieldText section_;
};

QpackEncoder::QpackEncoder(const Napi::CallbackInfo &info) : CoreWrap(info)
{
    struct qpack_encoder_settings s;
    if (!GetUint32(info[0], "maxTableCapacity must be a 32-bit unsigned integer", &s.max_table_capacity, Codec::kQpack) ||
        !GetUint32(info[1], "tableCapacity must be a 32-bit unsigned integer", &s.table_capacity, Codec::kQpack) ||
        !GetUint32(info[2], "maxBlockedStreams must be a 32-bit unsigned integer", &s.max_blocked_streams, Codec::kQpack) ||
        !GetUint32(info[3], "flags must be a 32-bit unsigned integer", &s.flags, Codec::kQpack))
        return;
    // The settings qpack_encoder_new refuses, so that its NULL means out of memory.
    if (s.table_capacity > s.max_table_capacity || s.table_capacity > HPACK_MAX_TABLE_SIZE) {
        ThrowRangeError(info.Env(),
                        "tableCapacity must be at most maxTableCapacity and " + std::to_string(HPACK_MAX_TABLE_SIZE),
                        Codec::kQpack);
        return;
    }
    Adopt(qpack_encoder_new(&s), "cannot create QPACK encoder");
}

Napi::Value QpackEncoder::Encode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    uint32_t stream_id;
    uint8_t *dst;
    size_t room;
    if (!GetUint32(info[0], kStreamIdMessage, &stream_id, Codec::kQpack) ||
        !GetRoom(info[4], info[5], &dst, &room, Codec::kQpack) ||
        !section_.Read(info[1], info[2], info[3], Codec::kQpack))
        return Napi::Value();
    size_t bound = qpack_encoder_bound(core_, section_.fields(), section_.count());
    if (bound > room)
        return Napi::Number::New(env, (double)bound);
    ssize_t n = qpack_encoder_encode(core_, stream_id, section_.fields(), section_.count(), dst, room);
    if (n < 0) {
        ThrowQpackError(env, (int)n, "QPACK encoding failed", qpack_encoder_error_reason(core_));
        return Napi::Value();
    }
    return Napi::Number::New(env, (double)n);
}

Napi::Value QpackEncoder::ReadEncoderStream(const Napi::CallbackInfo &info)
{
    return ReadStreamInto<struct qpack_encoder, qpack_encoder_stream_pending, qpack_encoder_read_stream>(info, core_);
}

Napi::Value QpackEncoder::FeedDecoder(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "decoder stream bytes", &src, &len, Codec::kQpack))
        return Napi::Value();
    int rc = qpack_encoder_feed_decoder(core_, src, len);
    if (rc != QPACK_OK)
        ThrowQpackError(info.Env(), rc, "QPACK decoder stream rejected", qpack_encoder_error_reason(core_));
    return Napi::Value();
}

Napi::Value QpackEncoder::AssumeAcknowledged(const Napi::CallbackInfo &)
{
    qpack_encoder_assume_acknowledged(core_);
    return Napi::Value();
}

Napi::Value QpackEncoder::State(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    const double counts[] = { (double)qpack_encoder_insert_count(core_),
                              (double)qpack_encoder_known_received_count(core_),
                              (double)qpack_encoder_blocked_streams(core_) };
    Napi::Array state = Napi::Array::New(env, 3);
    if (state.IsEmpty())
        return state;
    for (uint32_t i = 0; i < 3; i++)
        if (!state.Set(i, counts[i]).IsJust())
            return Napi::Value();
    return state;
}

} // namespace

bool ExportQpackEncoder(Napi::Object exports)
{
    return QpackEncoder::Export(exports, "QpackEncoder",
                                { QpackEncoder::Method<&QpackEncoder::Encode>("encode"),
                                  QpackEncoder::Method<&QpackEncoder::ReadEncoderStream>("readEncoderStream"),
                                  QpackEncoder::Method<&QpackEncoder::FeedDecoder>("feedDecoder"),
                                  QpackEncoder::Method<&QpackEncoder::AssumeAcknowledged>("assumeAcknowledged"),
                                  QpackEncoder::Method<&QpackEncoder::State>("state") });
}
