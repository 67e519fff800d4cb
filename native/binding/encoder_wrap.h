// The Encoder class of the addon (wrapped by native/index.js).
#ifndef HPACK_BINDING_ENCODER_WRAP_H
#define HPACK_BINDING_ENCODER_WRAP_H

#include <napi.h>

// Sets exports.Encoder; false when that failed (see js_errors.h).
bool ExportEncoder(Napi::Object exports);

#endif
