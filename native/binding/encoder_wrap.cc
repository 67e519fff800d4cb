// Encoder: new Encoder(tableSize, indexing, flags); setTableSize(n);
// encode(text, fields, count, output, offset) -> bytes written.
//
// The constructor's flags are HPACK_ENCODER_* bits. A block crosses in one
// call with no per-header N-API work: text is every name and value
// concatenated, and fields an Int32Array with, per header, its name length,
// value length and HPACK_HEADER_* flags (index.js builds both). The block is
// written at output[offset...]; when that room may be too small, encode writes
// nothing, leaves the encoder as it was and returns the room it needs (more
// than there is).
#include "encoder_wrap.h"

#include <vector>

#include "hpack.h"
#include "js_errors.h"

namespace {

class Encoder : public Napi::ObjectWrap<Encoder> {
public:
    explicit Encoder(const Napi::CallbackInfo &info);
    ~Encoder() override { hpack_encoder_free(enc_); }

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    bool ReadFields(napi_env env, napi_value text, const int32_t *lengths, size_t count);

    struct hpack_encoder *enc_ = nullptr;
    // Reused across blocks so a block costs no allocation once they are warm.
    std::vector<char> bytes_;
    std::vector<struct hpack_header> fields_;
};

Encoder::Encoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Encoder>(info)
{
    napi_env env = info.Env();
    uint32_t table_size, indexing, flags;
    if (!GetUint32(env, info[0], kTableSizeMessage, &table_size) ||
        !GetUint32(env, info[1], "indexing must be 0, 1 or 2", &indexing) ||
        !GetUint32(env, info[2], "flags must be a 32-bit unsigned integer", &flags))
        return;
    if (indexing > HPACK_INDEX_LINEAR || table_size > (1u << 24)) {
        ThrowRangeError(env, "tableSize must be at most 16777216 and indexing 0, 1 or 2");
        return;
    }
    enc_ = hpack_encoder_new(table_size, (enum hpack_indexing)indexing, flags);
    if (!enc_)
        ThrowHpackError(env, HPACK_ERR_NOMEM, "cannot create encoder");
}

// Copies text into bytes_ and points fields_ into it, checking that the lengths add up to it.
bool Encoder::ReadFields(napi_env env, napi_value text, const int32_t *lengths, size_t count)
{
    size_t total = 0, copied = 0;
    for (size_t i = 0; i < count; i++) {
        const int32_t *field = lengths + 3 * i;
        if (field[0] < 0 || field[1] < 0) {
            ThrowRangeError(env, "field lengths must not be negative");
            return false;
        }
        total += (size_t)field[0] + (size_t)field[1];
    }
    // Room for one byte more than the lengths add up to (and the NUL napi
    // writes) tells a longer text by the copy alone.
    bytes_.resize(total + 2);
    if (napi_get_value_string_latin1(env, text, bytes_.data(), bytes_.size(), &copied) != napi_ok) {
        ThrowTypeError(env, "text must be a string");
        return false;
    }
    if (copied != total) {
        ThrowRangeError(env, "field lengths must add up to the text's length");
        return false;
    }
    fields_.resize(count);
    const uint8_t *p = reinterpret_cast<const uint8_t *>(bytes_.data());
    for (size_t i = 0; i < count; i++, lengths += 3) {
        fields_[i].name = p;
        fields_[i].name_len = (size_t)lengths[0];
        fields_[i].value = p + lengths[0];
        fields_[i].value_len = (size_t)lengths[1];
        fields_[i].flags = (unsigned)lengths[2];
        p += fields_[i].name_len + fields_[i].value_len;
    }
    return true;
}

Napi::Value Encoder::Encode(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    int32_t *lengths;
    size_t lengths_len;
    uint32_t count;
    uint8_t *dst;
    size_t room;
    if (!GetInt32s(env, info[1], "fields", &lengths, &lengths_len) ||
        !GetUint32(env, info[2], "count must be an integer", &count) || !GetRoom(env, info[3], info[4], &dst, &room))
        return Napi::Value();
    if ((size_t)count * 3 > lengths_len) {
        ThrowRangeError(env, "fields has fewer than 3 * count entries");
        return Napi::Value();
    }
    if (!ReadFields(env, info[0], lengths, count))
        return Napi::Value();
    size_t bound = hpack_encoder_bound(enc_, fields_.data(), count);
    if (bound > room)
        return Napi::Number::New(env, (double)bound);
    ssize_t n = hpack_encoder_encode(enc_, fields_.data(), count, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "HPACK encoding failed");
        return Napi::Value();
    }
    return Napi::Number::New(env, (double)n);
}

Napi::Value Encoder::SetTableSize(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    uint32_t size;
    if (GetUint32(env, info[0], kTableSizeMessage, &size))
        ThrowResizeError(env, hpack_encoder_set_table_size(enc_, size), "cannot resize the encoder's table");
    return Napi::Value();
}

} // namespace

Napi::Function InitEncoder(Napi::Env env)
{
    return Encoder::DefineClass(env, "Encoder",
                                { Encoder::InstanceMethod("encode", &Encoder::Encode),
                                  Encoder::InstanceMethod("setTableSize", &Encoder::SetTableSize) });
}
