// Encoder: new Encoder(tableSize, indexing, flags); setTableSize(n);
// encode(text, fields, count, output, offset) -> bytes written.
//
// The constructor's flags are HPACK_ENCODER_* bits. A block crosses in one
// call with no per-header N-API work: text is every name and value
// concatenated, and fields an Int32Array with, per header, its name length,
// value length and HPACK_HEADER_* flags (index.js builds both). The block is
// written at output[offset...]; when that room may be too small, encode writes
// nothing, leaves the encoder as it was and returns the room it needs (more
// than there is). Every argument is read and checked before the encoder's
// state changes, so a refused block leaves it as it was.
#include "encoder_wrap.h"

#include <cstdio>
#include <string>
#include <new>
#include <vector>

#include "hpack.h"
#include "class_wrap.h"
#include "js_errors.h"

namespace {

class Encoder : public CoreWrap<Encoder, struct hpack_encoder, hpack_encoder_free> {
public:
    explicit Encoder(const Napi::CallbackInfo &info);

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    bool CopyText(Napi::Env env, napi_value text, size_t total, const int32_t *lengths);
    bool ReadFields(Napi::Env env, napi_value text, const int32_t *lengths, size_t count);

    // Reused across blocks so a block costs no allocation once they are warm.
    std::vector<char16_t> units_;
    std::vector<uint8_t> bytes_;
    std::vector<struct hpack_header> fields_;
};

// Names and values are latin1: one byte per character. A code unit above 0xFF
// has no byte, and dropping its high bits (as a latin1 copy would) turns, say,
// U+010D U+010A into CR LF inside a header value.
void ThrowNotLatin1(Napi::Env env, const std::vector<char16_t> &units, size_t at, const int32_t *lengths)
{
    size_t field = 0, start = 0;
    for (;; field++, lengths += 3) {
        size_t name_end = start + (size_t)lengths[0], end = name_end + (size_t)lengths[1];
        if (at < end) {
            char code[8];
            snprintf(code, sizeof code, "%04X", (unsigned)units[at]);
            ThrowTypeError(env, "header " + std::to_string(field) + (at < name_end ? " name" : " value") +
                                    " has U+" + code +
                                    ": header names and values must be latin1 strings (no code unit above 0xFF)");
            return;
        }
        start = end;
    }
}

// Copies text, which must be exactly total latin1 characters, into bytes_ (via
// units_, sized by ReadFields): as UTF-16, so that a unit above 0xFF is seen rather than cut to its low byte.
bool Encoder::CopyText(Napi::Env env, napi_value text, size_t total, const int32_t *lengths)
{
    size_t copied = 0;
    // One N-API call, into a buffer reused across blocks (String::Utf16Value
    // would allocate a std::u16string per block). It fails only on a non-string.
    if (napi_get_value_string_utf16(env, text, units_.data(), units_.size(), &copied) != napi_ok) {
        ThrowTypeError(env, "text must be a string");
        return false;
    }
    if (copied != total) {
        ThrowRangeError(env, "field lengths must add up to the text's length");
        return false;
    }
    // Local restrict pointers let the compiler vectorize this loop.
    const char16_t *__restrict in = units_.data();
    uint8_t *__restrict out = bytes_.data();
    unsigned all = 0;
    for (size_t i = 0; i < total; i++) {
        all |= in[i];
        out[i] = (uint8_t)in[i];
    }
    if (all <= 0xFF)
        return true;
    size_t at = 0;
    while (units_[at] <= 0xFF)
        at++;
    ThrowNotLatin1(env, units_, at, lengths);
    return false;
}

// Copies text into bytes_ and points fields_ into it, checking that the lengths add up to it.
bool Encoder::ReadFields(Napi::Env env, napi_value text, const int32_t *lengths, size_t count)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        const int32_t *field = lengths + 3 * i;
        if (field[0] < 0 || field[1] < 0) {
            ThrowRangeError(env, "field lengths must not be negative");
            return false;
        }
        total += (size_t)field[0] + (size_t)field[1];
    }
    try {
        // Room for one unit more than total (and the NUL napi writes) tells a
        // longer text by the copy alone.
        units_.resize(total + 2);
        bytes_.resize(total);
        fields_.resize(count);
    } catch (const std::bad_alloc &) {
        ThrowHpackError(env, HPACK_ERR_NOMEM, "cannot copy the header block");
        return false;
    }
    if (!CopyText(env, text, total, lengths))
        return false;
    const uint8_t *p = bytes_.data();
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

Encoder::Encoder(const Napi::CallbackInfo &info) : CoreWrap(info)
{
    uint32_t table_size, indexing, flags;
    if (!GetUint32(info[0], kTableSizeMessage, &table_size) ||
        !GetUint32(info[1], "indexing must be 0, 1 or 2", &indexing) ||
        !GetUint32(info[2], "flags must be a 32-bit unsigned integer", &flags))
        return;
    if (indexing > HPACK_INDEX_LINEAR || table_size > (1u << 24)) {
        ThrowRangeError(info.Env(), "tableSize must be at most 16777216 and indexing 0, 1 or 2");
        return;
    }
    Adopt(hpack_encoder_new(table_size, (enum hpack_indexing)indexing, flags), "cannot create encoder");
}

Napi::Value Encoder::Encode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    int32_t *lengths;
    size_t lengths_len;
    uint32_t count;
    uint8_t *dst;
    size_t room;
    if (!GetInt32s(info[1], "fields", &lengths, &lengths_len) || !GetUint32(info[2], "count must be an integer", &count) ||
        !GetRoom(info[3], info[4], &dst, &room))
        return Napi::Value();
    if ((size_t)count * 3 > lengths_len) {
        ThrowRangeError(env, "fields has fewer than 3 * count entries");
        return Napi::Value();
    }
    if (!ReadFields(env, info[0], lengths, count))
        return Napi::Value();
    size_t bound = hpack_encoder_bound(core_, fields_.data(), count);
    if (bound > room)
        return Napi::Number::New(env, (double)bound);
    ssize_t n = hpack_encoder_encode(core_, fields_.data(), count, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "HPACK encoding failed");
        return Napi::Value();
    }
    return Napi::Number::New(env, (double)n);
}

Napi::Value Encoder::SetTableSize(const Napi::CallbackInfo &info)
{
    uint32_t size;
    if (GetUint32(info[0], kTableSizeMessage, &size))
        ThrowResizeError(info.Env(), hpack_encoder_set_table_size(core_, size), "cannot resize the encoder's table");
    return Napi::Value();
}

} // namespace

bool ExportEncoder(Napi::Object exports)
{
    return Encoder::Export(exports, "Encoder",
                           { Encoder::Method<&Encoder::Encode>("encode"),
                             Encoder::Method<&Encoder::SetTableSize>("setTableSize") });
}
