// The huffman namespace of the addon.
#ifndef HPACK_BINDING_HUFFMAN_H
#define HPACK_BINDING_HUFFMAN_H

#include <napi.h>

// Sets exports.huffman; false when that failed (see js_errors.h).
bool ExportHuffman(Napi::Object exports);

#endif
