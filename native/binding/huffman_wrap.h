// The huffman namespace of the addon.
#ifndef HPACK_BINDING_HUFFMAN_H
#define HPACK_BINDING_HUFFMAN_H

#include <node_api.h>

// Sets exports.huffman; false when that failed (see js_errors.h).
bool ExportHuffman(napi_env env, napi_value exports);

#endif
