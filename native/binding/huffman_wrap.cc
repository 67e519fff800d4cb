// huffman.encodeInto / decodeInto / encodedLength over bytes. Results go into
// the caller's output slab (index.js carves Buffers from it), because a Buffer
// made here costs a backing store each, several times the coding itself.
//
// encodeInto(input, output, offset) and decodeInto(...) return the bytes
// written at output[offset...], or, when that room is too small, the room they
// need (more than there is), having written nothing.
#include "huffman_wrap.h"

#include "hpack.h"
#include "export_property.h"
#include "js_errors.h"

namespace {

// The input and output room of an ...Into call, or false with an error thrown.
bool IntoArgs(const Napi::CallbackInfo &info, const uint8_t **src, size_t *len, uint8_t **dst, size_t *room)
{
    return GetBytes(info[0], "input", src, len) && GetRoom(info[1], info[2], dst, room);
}

Napi::Value EncodeInto(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    uint8_t *dst;
    size_t len, room;
    if (!IntoArgs(info, &src, &len, &dst, &room))
        return Napi::Value();
    size_t need = hpack_huffman_encoded_length(src, len);
    if (need > room)
        return Napi::Number::New(info.Env(), (double)need);
    ssize_t n = hpack_huffman_encode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(info.Env(), (int)n, "Huffman encoding failed");
        return Napi::Value();
    }
    return Napi::Number::New(info.Env(), (double)n);
}

Napi::Value DecodeInto(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    uint8_t *dst;
    size_t len, room;
    if (!IntoArgs(info, &src, &len, &dst, &room))
        return Napi::Value();
    // The shortest code is 5 bits.
    size_t bound = len * 8 / 5;
    if (bound > room)
        return Napi::Number::New(info.Env(), (double)bound);
    ssize_t n = hpack_huffman_decode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(info.Env(), (int)n, "Huffman decoding failed");
        return Napi::Value();
    }
    return Napi::Number::New(info.Env(), (double)n);
}

Napi::Value EncodedLength(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "input", &src, &len))
        return Napi::Value();
    return Napi::Number::New(info.Env(), (double)hpack_huffman_encoded_length(src, len));
}

template <Napi::Function::Callback cb>
bool ExportFunction(Napi::Object target, const char *name)
{
    return ExportProperty(target, name, Napi::Function::New<cb>(target.Env(), name));
}

} // namespace

bool ExportHuffman(Napi::Object exports)
{
    Napi::Object huffman = Napi::Object::New(exports.Env());
    return !huffman.IsEmpty() && ExportFunction<EncodeInto>(huffman, "encodeInto") &&
           ExportFunction<DecodeInto>(huffman, "decodeInto") && ExportFunction<EncodedLength>(huffman, "encodedLength") &&
           ExportProperty(exports, "huffman", huffman);
}
