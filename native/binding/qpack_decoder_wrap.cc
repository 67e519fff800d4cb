// QpackDecoder: new QpackDecoder(maxTableCapacity, maxBlockedStreams, maxFieldSectionSize,
// maxStringLength, maxBlockedBytes); decode(streamId, section) -> fields or null when blocked;
// feedEncoder(bytes) -> [streamId, fields, streamId, fields, ...] for the sections it unblocked;
// cancelStream(streamId); readDecoderStream(output, offset) -> bytes moved.
// Fields are [name, value] latin1 strings.
#include "qpack_decoder_wrap.h"

#include <new>
#include <string>
#include <vector>

#include "qpack.h"
#include "class_wrap.h"
#include "js_errors.h"
#include "qpack_stream_into.h"

namespace {

const char kStreamIdMessage[] = "streamId must be an integer from 0 to 2^32 - 1";

struct DecodedSection {
    uint64_t stream_id;
    std::vector<std::string> strings; // name, value, name, value, ...
    bool complete;
};

int CollectField(void *ctx, uint64_t stream_id, const struct hpack_header *field)
{
    auto *sections = static_cast<std::vector<DecodedSection> *>(ctx);
    try {
        if (sections->empty() || sections->back().complete)
            sections->push_back({ stream_id, {}, false });
        DecodedSection &s = sections->back();
        if (!field) {
            s.complete = true;
            return 0;
        }
        s.strings.emplace_back(reinterpret_cast<const char *>(field->name), field->name_len);
        s.strings.emplace_back(reinterpret_cast<const char *>(field->value), field->value_len);
    } catch (const std::bad_alloc &) {
        return QPACK_ERR_NOMEM;
    }
    return 0;
}

// A latin1 string (node-addon-api makes strings from UTF-8 or UTF-16 only), or
// empty when it could not be made (see js_errors.h).
Napi::Value Latin1String(Napi::Env env, const std::string &s)
{
    napi_value str;
    if (napi_create_string_latin1(env, s.data(), s.size(), &str) != napi_ok)
        return Napi::Value();
    return Napi::Value(env, str);
}

// A section's fields as [[name, value], ...], or empty (see js_errors.h).
Napi::Value FieldsToJs(Napi::Env env, const DecodedSection &s)
{
    Napi::Array fields = Napi::Array::New(env, s.strings.size() / 2);
    if (fields.IsEmpty())
        return fields;
    for (size_t i = 0; i < s.strings.size(); i += 2) {
        Napi::Array pair = Napi::Array::New(env, 2);
        if (pair.IsEmpty())
            return Napi::Value();
        Napi::Value name = Latin1String(env, s.strings[i]), value = Latin1String(env, s.strings[i + 1]);
        if (name.IsEmpty() || value.IsEmpty() || !pair.Set(0u, name).IsJust() || !pair.Set(1u, value).IsJust() ||
            !fields.Set((uint32_t)(i / 2), pair).IsJust())
            return Napi::Value();
    }
    return fields;
}

class QpackDecoder : public CoreWrap<QpackDecoder, struct qpack_decoder, qpack_decoder_free, Codec::kQpack> {
public:
    explicit QpackDecoder(const Napi::CallbackInfo &info);

    Napi::Value Decode(const Napi::CallbackInfo &info);
    Napi::Value FeedEncoder(const Napi::CallbackInfo &info);
    Napi::Value CancelStream(const Napi::CallbackInfo &info);
    Napi::Value ReadDecoderStream(const Napi::CallbackInfo &info);
};

QpackDecoder::QpackDecoder(const Napi::CallbackInfo &info) : CoreWrap(info)
{
    struct qpack_decoder_settings s;
    if (!GetUint32(info[0], "maxTableCapacity must be a 32-bit unsigned integer", &s.max_table_capacity, Codec::kQpack) ||
        !GetUint32(info[1], "maxBlockedStreams must be a 32-bit unsigned integer", &s.max_blocked_streams, Codec::kQpack) ||
        !GetUint32(info[2], "maxFieldSectionSize must be a 32-bit unsigned integer", &s.max_field_section_size,
                   Codec::kQpack) ||
        !GetUint32(info[3], "maxStringLength must be a 32-bit unsigned integer", &s.max_string_length, Codec::kQpack) ||
        !GetUint32(info[4], "maxBlockedBytes must be a 32-bit unsigned integer", &s.max_blocked_bytes, Codec::kQpack))
        return;
    // The setting qpack_decoder_new refuses, so that its NULL means out of memory.
    if (s.max_table_capacity > HPACK_MAX_TABLE_SIZE) {
        ThrowRangeError(info.Env(), "maxTableCapacity must be an integer from 0 to " + std::to_string(HPACK_MAX_TABLE_SIZE),
                        Codec::kQpack);
        return;
    }
    Adopt(qpack_decoder_new(&s), "cannot create QPACK decoder");
}

Napi::Value QpackDecoder::Decode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    uint32_t stream_id;
    const uint8_t *src;
    size_t len;
    std::vector<DecodedSection> sections;
    if (!GetUint32(info[0], kStreamIdMessage, &stream_id, Codec::kQpack) ||
        !GetBytes(info[1], "section", &src, &len, Codec::kQpack))
        return Napi::Value();
    int rc = qpack_decoder_decode(core_, stream_id, src, len, CollectField, &sections);
    if (rc == QPACK_BLOCKED)
        return env.Null();
    if (rc != QPACK_OK) {
        ThrowQpackError(env, rc, "QPACK decoding failed", qpack_decoder_error_reason(core_));
        return Napi::Value();
    }
    return FieldsToJs(env, sections.back());
}

Napi::Value QpackDecoder::FeedEncoder(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    const uint8_t *src;
    size_t len;
    std::vector<DecodedSection> sections;
    if (!GetBytes(info[0], "encoder stream bytes", &src, &len, Codec::kQpack))
        return Napi::Value();
    int rc = qpack_decoder_feed_encoder(core_, src, len, CollectField, &sections);
    if (rc != QPACK_OK) {
        ThrowQpackError(env, rc, "QPACK encoder stream rejected", qpack_decoder_error_reason(core_));
        return Napi::Value();
    }
    Napi::Array result = Napi::Array::New(env, 2 * sections.size());
    if (result.IsEmpty())
        return result;
    for (size_t i = 0; i < sections.size(); i++) {
        Napi::Value fields = FieldsToJs(env, sections[i]);
        if (fields.IsEmpty() || !result.Set((uint32_t)(2 * i), (double)sections[i].stream_id).IsJust() ||
            !result.Set((uint32_t)(2 * i + 1), fields).IsJust())
            return Napi::Value();
    }
    return result;
}

Napi::Value QpackDecoder::CancelStream(const Napi::CallbackInfo &info)
{
    uint32_t stream_id;
    if (!GetUint32(info[0], kStreamIdMessage, &stream_id, Codec::kQpack))
        return Napi::Value();
    int rc = qpack_decoder_cancel_stream(core_, stream_id);
    if (rc != QPACK_OK)
        ThrowQpackError(info.Env(), rc, "QPACK stream cancellation failed", qpack_decoder_error_reason(core_));
    return Napi::Value();
}

Napi::Value QpackDecoder::ReadDecoderStream(const Napi::CallbackInfo &info)
{
    return ReadStreamInto<struct qpack_decoder, qpack_decoder_stream_pending, qpack_decoder_read_stream>(info, core_);
}

} // namespace

bool ExportQpackDecoder(Napi::Object exports)
{
    return QpackDecoder::Export(exports, "QpackDecoder",
                                { QpackDecoder::Method<&QpackDecoder::Decode>("decode"),
                                  QpackDecoder::Method<&QpackDecoder::FeedEncoder>("feedEncoder"),
                                  QpackDecoder::Method<&QpackDecoder::CancelStream>("cancelStream"),
                                  QpackDecoder::Method<&QpackDecoder::ReadDecoderStream>("readDecoderStream") });
}
