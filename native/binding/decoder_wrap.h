// The Decoder class of the addon (wrapped by native/index.js).
#ifndef HPACK_BINDING_DECODER_WRAP_H
#define HPACK_BINDING_DECODER_WRAP_H

#include <napi.h>

Napi::Function InitDecoder(Napi::Env env);

#endif
