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

struct Encoder {
    ~Encoder() { hpack_encoder_free(core); }

    bool CopyText(napi_env env, napi_value text, size_t total, const int32_t *lengths);
    bool ReadFields(napi_env env, napi_value text, const int32_t *lengths, size_t count);

    struct hpack_encoder *core = nullptr;
    // Reused across blocks so a block costs no allocation once they are warm.
    std::vector<char16_t> units;
    std::vector<uint8_t> bytes;
    std::vector<struct hpack_header> fields;
};

// Names and values are latin1: one byte per character. A code unit above 0xFF
// has no byte, and dropping its high bits (as a latin1 copy would) turns, say,
// U+010D U+010A into CR LF inside a header value.
void ThrowNotLatin1(napi_env env, const std::vector<char16_t> &units, size_t at, const int32_t *lengths)
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

// Copies text, which must be exactly total latin1 characters, into bytes (via
// units, sized by ReadFields): as UTF-16, so that a unit above 0xFF is seen rather than cut to its low byte.
bool Encoder::CopyText(napi_env env, napi_value text, size_t total, const int32_t *lengths)
{
    size_t copied = 0;
    napi_status status = napi_get_value_string_utf16(env, text, units.data(), units.size(), &copied);
    if (status == napi_string_expected) {
        ThrowTypeError(env, "text must be a string");
        return false;
    }
    if (!Ok(env, status))
        return false;
    if (copied != total) {
        ThrowRangeError(env, "field lengths must add up to the text's length");
        return false;
    }
    // Local restrict pointers let the compiler vectorize this loop.
    const char16_t *__restrict in = units.data();
    uint8_t *__restrict out = bytes.data();
    unsigned all = 0;
    for (size_t i = 0; i < total; i++) {
        all |= in[i];
        out[i] = (uint8_t)in[i];
    }
    if (all <= 0xFF)
        return true;
    size_t at = 0;
    while (units[at] <= 0xFF)
        at++;
    ThrowNotLatin1(env, units, at, lengths);
    return false;
}

// Copies text into bytes and points fields into it, checking that the lengths add up to it.
bool Encoder::ReadFields(napi_env env, napi_value text, const int32_t *lengths, size_t count)
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
        units.resize(total + 2);
        bytes.resize(total);
        fields.resize(count);
    } catch (const std::bad_alloc &) {
        ThrowHpackError(env, HPACK_ERR_NOMEM, "cannot copy the header block");
        return false;
    }
    if (!CopyText(env, text, total, lengths))
        return false;
    const uint8_t *p = bytes.data();
    for (size_t i = 0; i < count; i++, lengths += 3) {
        fields[i].name = p;
        fields[i].name_len = (size_t)lengths[0];
        fields[i].value = p + lengths[0];
        fields[i].value_len = (size_t)lengths[1];
        fields[i].flags = (unsigned)lengths[2];
        p += fields[i].name_len + fields[i].value_len;
    }
    return true;
}

napi_value New(napi_env env, napi_callback_info info)
{
    napi_value argv[3], receiver;
    uint32_t table_size, indexing, flags;
    if (!GetNewArgs(env, info, 3, argv, &receiver) || !GetUint32(env, argv[0], kTableSizeMessage, &table_size) ||
        !GetUint32(env, argv[1], "indexing must be 0, 1 or 2", &indexing) ||
        !GetUint32(env, argv[2], "flags must be a 32-bit unsigned integer", &flags))
        return nullptr;
    if (indexing > HPACK_INDEX_LINEAR || table_size > (1u << 24)) {
        ThrowRangeError(env, "tableSize must be at most 16777216 and indexing 0, 1 or 2");
        return nullptr;
    }
    auto make = [&] { return hpack_encoder_new(table_size, (enum hpack_indexing)indexing, flags); };
    return WrapNew<Encoder>(env, receiver, make, "cannot create encoder");
}

napi_value Encode(napi_env env, napi_callback_info info)
{
    napi_value argv[5];
    void *self;
    int32_t *lengths;
    size_t lengths_len;
    uint32_t count;
    uint8_t *dst;
    size_t room;
    if (!GetArgs(env, info, 5, argv, &self) || !GetInt32s(env, argv[1], "fields", &lengths, &lengths_len) ||
        !GetUint32(env, argv[2], "count must be an integer", &count) || !GetRoom(env, argv[3], argv[4], &dst, &room))
        return nullptr;
    if ((size_t)count * 3 > lengths_len) {
        ThrowRangeError(env, "fields has fewer than 3 * count entries");
        return nullptr;
    }
    Encoder *e = static_cast<Encoder *>(self);
    if (!e->ReadFields(env, argv[0], lengths, count))
        return nullptr;
    size_t bound = hpack_encoder_bound(e->core, e->fields.data(), count);
    if (bound > room)
        return Number(env, (double)bound);
    ssize_t n = hpack_encoder_encode(e->core, e->fields.data(), count, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "HPACK encoding failed");
        return nullptr;
    }
    return Number(env, (double)n);
}

napi_value SetTableSize(napi_env env, napi_callback_info info)
{
    napi_value size_arg;
    void *self;
    uint32_t size;
    if (GetArgs(env, info, 1, &size_arg, &self) && GetUint32(env, size_arg, kTableSizeMessage, &size))
        ThrowResizeError(env, hpack_encoder_set_table_size(static_cast<Encoder *>(self)->core, size),
                         "cannot resize the encoder's table");
    return nullptr;
}

} // namespace

bool ExportEncoder(napi_env env, napi_value exports)
{
    static const Method methods[] = { { "encode", Encode }, { "setTableSize", SetTableSize }, { nullptr, nullptr } };
    return ExportClass(env, exports, "Encoder", New, methods);
}
