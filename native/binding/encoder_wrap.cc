// Encoder: new Encoder(tableSize, indexing, flags); encode(fields, flags); setTableSize(n).
// The constructor's flags are HPACK_ENCODER_* bits.
// fields is a flat [name, value, name, value, ...] array of strings and flags a
// Uint8Array with one HPACK_HEADER_* byte per field (index.js builds both).
#include "encoder_wrap.h"

#include <string>
#include <vector>

#include "hpack.h"
#include "js_errors.h"
#include "js_strings.h"

namespace {

class Encoder : public Napi::ObjectWrap<Encoder> {
public:
    explicit Encoder(const Napi::CallbackInfo &info);
    ~Encoder() override { hpack_encoder_free(enc_); }

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    struct hpack_encoder *enc_ = nullptr;
    // Reused across blocks so a block costs no allocation once they are warm.
    std::string bytes_;
    std::vector<size_t> offsets_;
    std::vector<struct hpack_header> fields_;
    std::vector<uint8_t> out_;
};

Encoder::Encoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Encoder>(info)
{
    uint32_t table_size, indexing, flags;
    if (!GetUint32(info[0], "tableSize must be an integer from 0 to 16777216", &table_size) ||
        !GetUint32(info[1], "indexing must be 0, 1 or 2", &indexing) ||
        !GetUint32(info[2], "flags must be a 32-bit unsigned integer", &flags))
        return;
    if (indexing > HPACK_INDEX_LINEAR || table_size > (1u << 24)) {
        ThrowRangeError(info.Env(), "tableSize must be at most 16777216 and indexing 0, 1 or 2");
        return;
    }
    enc_ = hpack_encoder_new(table_size, (enum hpack_indexing)indexing, flags);
    if (!enc_)
        ThrowHpackError(info.Env(), HPACK_ERR_NOMEM, "cannot create encoder");
}

Napi::Value Encoder::Encode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    if (!info[0].IsArray()) {
        ThrowTypeError(env, "fields must be an array");
        return env.Undefined();
    }
    Napi::Array list = info[0].As<Napi::Array>();
    size_t count = list.Length() / 2;
    const uint8_t *flags = nullptr;
    size_t flags_len = 0;
    if (!info[1].IsUndefined() && !GetBytes(info[1], "flags", &flags, &flags_len))
        return env.Undefined();

    bytes_.clear();
    offsets_.clear();
    for (uint32_t i = 0; i < 2 * count; i++) {
        napi_value item;
        napi_get_element(env, list, i, &item);
        offsets_.push_back(bytes_.size());
        if (!AppendLatin1(env, item, &bytes_))
            return env.Undefined();
    }
    offsets_.push_back(bytes_.size());
    // Pointers are taken only now: bytes_ may have moved while growing.
    fields_.resize(count);
    const uint8_t *base = reinterpret_cast<const uint8_t *>(bytes_.data());
    for (size_t i = 0; i < count; i++) {
        fields_[i].name = base + offsets_[2 * i];
        fields_[i].name_len = offsets_[2 * i + 1] - offsets_[2 * i];
        fields_[i].value = base + offsets_[2 * i + 1];
        fields_[i].value_len = offsets_[2 * i + 2] - offsets_[2 * i + 1];
        fields_[i].flags = i < flags_len ? flags[i] : 0;
    }
    out_.resize(hpack_encoder_bound(enc_, fields_.data(), count));
    ssize_t n = hpack_encoder_encode(enc_, fields_.data(), count, out_.data(), out_.size());
    if (n < 0) {
        ThrowHpackError(env, (int)n, "HPACK encoding failed");
        return env.Undefined();
    }
    return Napi::Buffer<uint8_t>::Copy(env, out_.data(), (size_t)n);
}

Napi::Value Encoder::SetTableSize(const Napi::CallbackInfo &info)
{
    uint32_t size;
    if (!GetUint32(info[0], "tableSize must be an integer from 0 to 16777216", &size))
        return info.Env().Undefined();
    int rc = hpack_encoder_set_table_size(enc_, size);
    if (rc == HPACK_ERR_INVALID_ARGUMENT)
        ThrowRangeError(info.Env(), "tableSize must be an integer from 0 to 16777216");
    else if (rc != HPACK_OK)
        ThrowHpackError(info.Env(), rc, "cannot resize the encoder's table");
    return info.Env().Undefined();
}

} // namespace

Napi::Function InitEncoder(Napi::Env env)
{
    return Encoder::DefineClass(env, "Encoder",
                                { Encoder::InstanceMethod("encode", &Encoder::Encode),
                                  Encoder::InstanceMethod("setTableSize", &Encoder::SetTableSize) });
}
