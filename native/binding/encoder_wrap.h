// The Encoder class of the addon (wrapped by native/index.js).
#ifndef HPACK_BINDING_ENCODER_WRAP_H
#define HPACK_BINDING_ENCODER_WRAP_H

#include <node_api.h>

// Sets exports.Encoder; false when that failed (see js_errors.h).
bool ExportEncoder(napi_env env, napi_value exports);

#endif
