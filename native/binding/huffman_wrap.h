// The huffman namespace of the addon.
#ifndef HPACK_BINDING_HUFFMAN_H
#define HPACK_BINDING_HUFFMAN_H

#include <napi.h>

Napi::Object InitHuffman(Napi::Env env);

#endif
