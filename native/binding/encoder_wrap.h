// The Encoder class of the addon (wrapped by native/index.js).
#ifndef HPACK_BINDING_ENCODER_WRAP_H
#define HPACK_BINDING_ENCODER_WRAP_H

#include <napi.h>

Napi::Function InitEncoder(Napi::Env env);

#endif
