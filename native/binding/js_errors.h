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
bool GetBytes(napi_env env, napi_value value, const char *what, const uint8_t **data, size_t *len);

// The writable room of a Uint8Array from a byte offset on, or a TypeError / RangeError thrown.
bool GetRoom(napi_env env, napi_value array, napi_value offset, uint8_t **data, size_t *room);

// The elements of an Int32Array argument, or a TypeError thrown.
bool GetInt32s(napi_env env, napi_value value, const char *what, int32_t **data, size_t *count);

// An integer in [0, 2^32) as uint32_t, or a TypeError / RangeError with message thrown.
bool GetUint32(napi_env env, napi_value value, const char *message, uint32_t *out);

// Table sizes the core accepts: 0 to 16 MiB.
extern const char kTableSizeMessage[];

// Throws for the result of resizing a table, if it failed: a RangeError for a size the core
// refuses, else an Error with the hpack_error's code. Nothing for HPACK_OK.
void ThrowResizeError(Napi::Env env, int rc, const char *what);

#endif
