// huffman.encode / decode / encodedLength over bytes (index.js turns strings into UTF-8 first).
#include "huffman_wrap.h"

#include <vector>

#include "js_errors.h"
#include "hpack.h"

namespace {

Napi::Value Encode(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "input", &src, &len))
        return info.Env().Undefined();
    std::vector<uint8_t> out(hpack_huffman_encoded_length(src, len));
    ssize_t n = hpack_huffman_encode(src, len, out.data(), out.size());
    if (n < 0) {
        ThrowHpackError(info.Env(), (int)n, "Huffman encoding failed");
        return info.Env().Undefined();
    }
    return Napi::Buffer<uint8_t>::Copy(info.Env(), out.data(), (size_t)n);
}

Napi::Value Decode(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "input", &src, &len))
        return info.Env().Undefined();
    // The shortest code is 5 bits.
    std::vector<uint8_t> out(len * 8 / 5 + 1);
    ssize_t n = hpack_huffman_decode(src, len, out.data(), out.size());
    if (n < 0) {
        ThrowHpackError(info.Env(), (int)n, "Huffman decoding failed");
        return info.Env().Undefined();
    }
    return Napi::Buffer<uint8_t>::Copy(info.Env(), out.data(), (size_t)n);
}

Napi::Value EncodedLength(const Napi::CallbackInfo &info)
{
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "input", &src, &len))
        return info.Env().Undefined();
    return Napi::Number::New(info.Env(), (double)hpack_huffman_encoded_length(src, len));
}

} // namespace

Napi::Object InitHuffman(Napi::Env env)
{
    Napi::Object huffman = Napi::Object::New(env);
    huffman.Set("encode", Napi::Function::New(env, Encode, "encode"));
    huffman.Set("decode", Napi::Function::New(env, Decode, "decode"));
    huffman.Set("encodedLength", Napi::Function::New(env, EncodedLength, "encodedLength"));
    return huffman;
}
