// The Decoder class of the addon (wrapped by native/index.js).
#ifndef HPACK_BINDING_DECODER_WRAP_H
#define HPACK_BINDING_DECODER_WRAP_H

#include <napi.h>

// Sets exports.Decoder; false when that failed (see js_errors.h).
bool ExportDecoder(Napi::Object exports);

#endif
