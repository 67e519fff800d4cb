// JS errors and argument checks for the binding: every error carries a stable .code.
//
// The binding uses plain N-API (node_api.h) and checks the status of every
// call. A call fails when an exception is already pending, or when the
// environment is shutting down (a worker thread being terminated, even in the
// middle of require), where no JS can run and nothing can be thrown. Either
// way the entry point returns nullptr at once; it never aborts the process,
// as node-addon-api's error paths do when a throw itself fails.
#ifndef HPACK_BINDING_ERRORS_H
#define HPACK_BINDING_ERRORS_H

#include <node_api.h>

#include <string>

#include "hpack.h"

// True for napi_ok. Otherwise throws a TypeError (ERR_HPACK_INVALID_ARGUMENT:
// such a call fails only on a value of the wrong kind) when nothing is pending
// and the environment can still run JS, and returns false.
bool Ok(napi_env env, napi_status status);

// Throw an Error for an enum hpack_error; .code is its hpack_strerror name.
void ThrowHpackError(napi_env env, int err, const char *what);

// Throw a TypeError or RangeError with .code ERR_HPACK_INVALID_ARGUMENT.
void ThrowTypeError(napi_env env, const std::string &message);
void ThrowRangeError(napi_env env, const std::string &message);

// Up to argc arguments of a call (undefined when fewer were passed) and, when
// self is not null, the C++ object wrapped by its receiver; false when they
// cannot be had (see Ok).
bool GetArgs(napi_env env, napi_callback_info info, size_t argc, napi_value *argv, void **self);

// The arguments and receiver of a constructor call, or a TypeError thrown when it was called without new.
bool GetNewArgs(napi_env env, napi_callback_info info, size_t argc, napi_value *argv, napi_value *receiver);

// The bytes of a Buffer or other Uint8Array argument, or a TypeError thrown.
bool GetBytes(napi_env env, napi_value value, const char *what, const uint8_t **data, size_t *len);

// The writable room of a Uint8Array from a byte offset on, or a TypeError / RangeError thrown.
bool GetRoom(napi_env env, napi_value array, napi_value offset, uint8_t **data, size_t *room);

// The elements of an Int32Array argument, or a TypeError thrown.
bool GetInt32s(napi_env env, napi_value value, const char *what, int32_t **data, size_t *count);

// An integer in [0, 2^32) as uint32_t, or a TypeError / RangeError with message thrown.
bool GetUint32(napi_env env, napi_value value, const char *message, uint32_t *out);

// A JS number, or nullptr with the failure reported.
napi_value Number(napi_env env, double n);

// Table sizes the core accepts: 0 to 16 MiB.
extern const char kTableSizeMessage[];

// Throws for the result of resizing a table, if it failed: a RangeError for a size the core
// refuses, else an Error with the hpack_error's code. Nothing for HPACK_OK.
void ThrowResizeError(napi_env env, int rc, const char *what);

#endif
