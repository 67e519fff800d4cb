// Reading an encoder's fields from JS (see field_text.h).
#include "field_text.h"

#include <cstdio>
#include <new>
#include <string>

namespace {

// Names and values are latin1: one byte per character. A code unit above 0xFF
// has no byte, and dropping its high bits (as a latin1 copy would) turns, say,
// U+010D U+010A into CR LF inside a field value.
void ThrowNotLatin1(Napi::Env env, const std::vector<char16_t> &units, size_t at, const int32_t *lengths, Codec codec)
{
    const char *noun = codec == Codec::kHpack ? "header" : "field";
    size_t field = 0, start = 0;
    for (;; field++, lengths += 3) {
        size_t name_end = start + (size_t)lengths[0], end = name_end + (size_t)lengths[1];
        if (at < end) {
            char code[8];
            snprintf(code, sizeof code, "%04X", (unsigned)units[at]);
            ThrowTypeError(env,
                           std::string(noun) + " " + std::to_string(field) + (at < name_end ? " name" : " value") +
                               " has U+" + code + ": " + noun +
                               " names and values must be latin1 strings (no code unit above 0xFF)",
                           codec);
            return;
        }
        start = end;
    }
}

} // namespace

// Copies text, which must be exactly total latin1 characters, into bytes_ (via
// units_, sized by Read): as UTF-16, so that a unit above 0xFF is seen rather than cut to its low byte.
bool FieldText::CopyText(Napi::Env env, napi_value text, size_t total, const int32_t *lengths, Codec codec)
{
    size_t copied = 0;
    // One N-API call, into a buffer reused across blocks (String::Utf16Value
    // would allocate a std::u16string per block). It fails only on a non-string.
    if (napi_get_value_string_utf16(env, text, units_.data(), units_.size(), &copied) != napi_ok) {
        ThrowTypeError(env, "text must be a string", codec);
        return false;
    }
    if (copied != total) {
        ThrowRangeError(env, "field lengths must add up to the text's length", codec);
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
    ThrowNotLatin1(env, units_, at, lengths, codec);
    return false;
}

bool FieldText::Read(Napi::Value text, Napi::Value lengths, Napi::Value count, Codec codec)
{
    int32_t *data;
    size_t len;
    uint32_t n;
    if (!GetInt32s(lengths, "fields", &data, &len, codec) || !GetUint32(count, "count must be an integer", &n, codec))
        return false;
    if ((size_t)n * 3 > len) {
        ThrowRangeError(text.Env(), "fields has fewer than 3 * count entries", codec);
        return false;
    }
    return ReadFields(text.Env(), text, data, n, codec);
}

// Points fields_ into text (bytes, or a latin1 string copied into bytes_), checking that the
// lengths add up to it.
bool FieldText::ReadFields(Napi::Env env, napi_value text, const int32_t *lengths, size_t count, Codec codec)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        const int32_t *field = lengths + 3 * i;
        if (field[0] < 0 || field[1] < 0) {
            ThrowRangeError(env, "field lengths must not be negative", codec);
            return false;
        }
        total += (size_t)field[0] + (size_t)field[1];
    }
    // Bytes (a PackedHeaders list, native/index.js) are used where they are, without a
    // copy: that is what makes a list encoded once per response cheap.
    const uint8_t *p = nullptr;
    size_t byte_length;
    bool is_bytes = GetBytesIfAny(Napi::Value(env, text), &p, &byte_length);
    if (is_bytes && byte_length != total) {
        ThrowRangeError(env, "field lengths must add up to the text's length", codec);
        return false;
    }
    try {
        if (!is_bytes) {
            // Room for one unit more than total (and the NUL napi writes) tells a
            // longer text by the copy alone.
            units_.resize(total + 2);
            bytes_.resize(total);
        }
        fields_.resize(count);
    } catch (const std::bad_alloc &) {
        ThrowOutOfMemory(env, codec, "cannot copy the fields");
        return false;
    }
    if (!is_bytes) {
        if (!CopyText(env, text, total, lengths, codec))
            return false;
        p = bytes_.data();
    }
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
