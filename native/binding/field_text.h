// The fields of a block or section as the encoders' encode takes them: text is
// every name and value concatenated, a latin1 string or its bytes (a Uint8Array,
// read in place: it must not change during the call), and lengths an Int32Array
// with, per field, its name length, value length and HPACK_HEADER_* flags
// (native/js/field-packer.js builds both). So a block crosses in one call with
// no per-field N-API work.
#ifndef HPACK_BINDING_FIELD_TEXT_H
#define HPACK_BINDING_FIELD_TEXT_H

#include <napi.h>

#include <vector>

#include "hpack.h"
#include "js_errors.h"

class FieldText {
public:
    // Points fields() at the first count fields of text and lengths (into a
    // copy when text is a string), or throws (the codec's ERR_*_INVALID_ARGUMENT) when an
    // argument has the wrong type, a length is negative, the lengths do not add
    // up to the text's length, or a name or value has a code unit above 0xFF.
    bool Read(Napi::Value text, Napi::Value lengths, Napi::Value count, Codec codec);

    const struct hpack_header *fields() const { return fields_.data(); }
    size_t count() const { return fields_.size(); }

private:
    bool ReadFields(Napi::Env env, napi_value text, const int32_t *lengths, size_t count, Codec codec);
    bool CopyText(Napi::Env env, napi_value text, size_t total, const int32_t *lengths, Codec codec);

    // Reused across blocks so a block costs no allocation once they are warm.
    std::vector<char16_t> units_;
    std::vector<uint8_t> bytes_;
    std::vector<struct hpack_header> fields_;
};

#endif
