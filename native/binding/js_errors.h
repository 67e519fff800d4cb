// JS errors and argument checks for the binding: every error carries a stable .code.
#ifndef HPACK_BINDING_ERRORS_H
#define HPACK_BINDING_ERRORS_H

#include <napi.h>

// Throw an Error for an enum hpack_error; .code is its hpack_strerror name.
void ThrowHpackError(Napi::Env env, int err, const char *what);

// Throw a TypeError or RangeError with .code ERR_HPACK_INVALID_ARGUMENT.
void ThrowTypeError(Napi::Env env, const char *message);
void ThrowRangeError(Napi::Env env, const char *message);

// The bytes of a Buffer or other Uint8Array argument, or a TypeError thrown.
bool GetBytes(const Napi::Value &value, const char *what, const uint8_t **data, size_t *len);

// An integer in [0, 2^32) as uint32_t, or a TypeError / RangeError with message thrown.
bool GetUint32(const Napi::Value &value, const char *message, uint32_t *out);

#endif
