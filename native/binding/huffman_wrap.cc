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

// The input and output room of an ...Into call, or false with an error thrown.
bool IntoArgs(napi_env env, napi_callback_info info, const uint8_t **src, size_t *len, uint8_t **dst, size_t *room)
{
    napi_value argv[3];
    return GetArgs(env, info, 3, argv, nullptr) && GetBytes(env, argv[0], "input", src, len) &&
           GetRoom(env, argv[1], argv[2], dst, room);
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
        return Number(env, (double)need);
    ssize_t n = hpack_huffman_encode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "Huffman encoding failed");
        return nullptr;
    }
    return Number(env, (double)n);
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
        return Number(env, (double)bound);
    ssize_t n = hpack_huffman_decode(src, len, dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "Huffman decoding failed");
        return nullptr;
    }
    return Number(env, (double)n);
}

napi_value EncodedLength(napi_env env, napi_callback_info info)
{
    napi_value input;
    const uint8_t *src;
    size_t len;
    if (!GetArgs(env, info, 1, &input, nullptr) || !GetBytes(env, input, "input", &src, &len))
        return nullptr;
    return Number(env, (double)hpack_huffman_encoded_length(src, len));
}

bool SetFunction(napi_env env, napi_value target, const char *name, napi_callback cb)
{
    napi_value fn;
    return Ok(env, napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, nullptr, &fn)) &&
           Ok(env, napi_set_named_property(env, target, name, fn));
}

} // namespace

bool ExportHuffman(napi_env env, napi_value exports)
{
    napi_value huffman;
    return Ok(env, napi_create_object(env, &huffman)) && SetFunction(env, huffman, "encodeInto", EncodeInto) &&
           SetFunction(env, huffman, "decodeInto", DecodeInto) &&
           SetFunction(env, huffman, "encodedLength", EncodedLength) &&
           Ok(env, napi_set_named_property(env, exports, "huffman", huffman));
}
