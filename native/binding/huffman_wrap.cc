// huffman.encodeInto / decodeInto / encodedLength over bytes. Results go into
// the caller's output slab (index.js carves Buffers from it), because a Buffer
// made here costs a backing store each, several times the coding itself.
//
// encodeInto(input, output, offset) and decodeInto(...) return the bytes
// written at output[offset...], or, when that room is too small, the room they
// need (more than there is), having written nothing.
#include "huffman_wrap.h"

#include "hpack.h"
#include "js_errors.h"

namespace {

napi_value Size(napi_env env, size_t n)
{
    napi_value v;
    napi_create_double(env, (double)n, &v);
    return v;
}

// The input and output room of an ...Into call, or false with an error thrown.
bool IntoArgs(napi_env env, napi_callback_info info, const uint8_t **src, size_t *len, uint8_t **dst, size_t *room)
{
    size_t argc = 3;
    napi_value argv[3];
    napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
    return GetBytes(env, argv[0], "input", src, len) && GetRoom(env, argv[1], argv[2], dst, room);
}

napi_value EncodeInto(napi_env env, napi_callback_info info)
{
    const uint8_t *src;
    uint8_t *dst;
    size_t len, room;
    if (!IntoArgs(env, info, &src, &len, &dst, &room))
        return nullptr;
    size_t need = hpack_huffman_encoded_length(src, len);
    if (need > room)
        return Size(env, need);
    ssize_t n = hpack_huffman_encode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "Huffman encoding failed");
        return nullptr;
    }
    return Size(env, (size_t)n);
}

napi_value DecodeInto(napi_env env, napi_callback_info info)
{
    const uint8_t *src;
    uint8_t *dst;
    size_t len, room;
    if (!IntoArgs(env, info, &src, &len, &dst, &room))
        return nullptr;
    // The shortest code is 5 bits.
    size_t bound = len * 8 / 5;
    if (bound > room)
        return Size(env, bound);
    ssize_t n = hpack_huffman_decode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "Huffman decoding failed");
        return nullptr;
    }
    return Size(env, (size_t)n);
}

napi_value EncodedLength(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value input;
    const uint8_t *src;
    size_t len;
    napi_get_cb_info(env, info, &argc, &input, nullptr, nullptr);
    if (!GetBytes(env, input, "input", &src, &len))
        return nullptr;
    return Size(env, hpack_huffman_encoded_length(src, len));
}

void SetFunction(napi_env env, napi_value target, const char *name, napi_callback cb)
{
    napi_value fn;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, nullptr, &fn);
    napi_set_named_property(env, target, name, fn);
}

} // namespace

Napi::Object InitHuffman(Napi::Env env)
{
    Napi::Object huffman = Napi::Object::New(env);
    SetFunction(env, huffman, "encodeInto", EncodeInto);
    SetFunction(env, huffman, "decodeInto", DecodeInto);
    SetFunction(env, huffman, "encodedLength", EncodedLength);
    return huffman;
}
