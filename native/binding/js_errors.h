// JS errors and argument checks for the binding: every error carries a stable .code.
//
// The binding uses node-addon-api without C++ exceptions, with Maybe results
// (NODE_ADDON_API_ENABLE_MAYBE) and NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS (see
// binding.gyp). A call fails when an exception is already pending, or when the
// environment is shutting down (a worker thread being terminated, even in the
// middle of require), where no JS can run and nothing can be thrown: then
// node-addon-api throws nothing rather than aborting the process, and the call
// returns an empty value or Nothing. So a failure is seen by IsEmpty() or
// IsNothing(), never by Env::IsExceptionPending(), which is false in that case;
// either way the entry point returns an empty value at once. (Node reports
// such a throw as napi_pending_exception with nothing pending to an addon
// below NAPI_VERSION 10: what the define expects for those versions.)
//
// Throwing while an exception is pending aborts, with or without the define.
// It cannot happen here: no JS runs inside the binding's calls (it reads no
// user objects or properties), and the helpers below throw only once their own
// steps succeeded.
#ifndef HPACK_BINDING_ERRORS_H
#define HPACK_BINDING_ERRORS_H

#include <napi.h>

#include <string>

#include "hpack.h"

// The codec a class belongs to, which names its errors' codes: an argument
// error is ERR_HPACK_INVALID_ARGUMENT, ERR_QPACK_INVALID_ARGUMENT or (Brotli with
// a dictionary, brotli_dictionary.cc) ERR_BROTLI_INVALID_ARGUMENT. The argument
// readers default to HPACK, the codec of most callers.
enum class Codec { kHpack, kQpack, kBrotli };

// Throw an Error for an enum hpack_error; .code is its hpack_strerror name.
void ThrowHpackError(Napi::Env env, int err, const char *what);

// Throw an Error for an enum qpack_error: .code is its qpack_strerror name,
// .h3Code the HTTP/3 error code to close the connection with (for the three
// RFC 9204 section 6 errors), the message names what failed and why.
void ThrowQpackError(Napi::Env env, int err, const char *what, const char *reason);

// Throw the codec's out-of-memory Error (ERR_HPACK_NOMEM, ERR_QPACK_NOMEM).
void ThrowOutOfMemory(Napi::Env env, Codec codec, const char *what);

// Throw a TypeError or RangeError with .code ERR_HPACK_INVALID_ARGUMENT (or the QPACK one).
void ThrowTypeError(Napi::Env env, const std::string &message, Codec codec = Codec::kHpack);
void ThrowRangeError(Napi::Env env, const std::string &message, Codec codec = Codec::kHpack);

// The argument readers below run on every call, so each asks N-API once
// (node-addon-api's TypedArray and Number ask two or three times), and throws
// the error named on failure.

// The bytes of a Buffer or other Uint8Array argument, or a TypeError thrown.
bool GetBytes(Napi::Value value, const char *what, const uint8_t **data, size_t *len, Codec codec = Codec::kHpack);

// True, with its elements, when value is a typed array of type want; false (nothing thrown) otherwise.
bool GetTypedArray(Napi::Value value, napi_typedarray_type want, void **data, size_t *count);

// True, with its bytes, when value is a Buffer or Uint8Array; false (nothing thrown) otherwise.
bool GetBytesIfAny(Napi::Value value, const uint8_t **data, size_t *len);

// The writable room of a Uint8Array from a byte offset on, or a TypeError / RangeError thrown.
bool GetRoom(Napi::Value array, Napi::Value offset, uint8_t **data, size_t *room, Codec codec = Codec::kHpack);

// The elements of an Int32Array argument, or a TypeError thrown.
bool GetInt32s(Napi::Value value, const char *what, int32_t **data, size_t *count, Codec codec = Codec::kHpack);

// An integer in [0, 2^32) as uint32_t, or a TypeError / RangeError with message thrown.
bool GetUint32(Napi::Value value, const char *message, uint32_t *out, Codec codec = Codec::kHpack);

// Table sizes the core accepts: 0 to 16 MiB.
extern const std::string kTableSizeMessage;

// Throws for the result of resizing a table, if it failed: a RangeError for a size the core
// refuses, else an Error with the hpack_error's code. Nothing for HPACK_OK.
void ThrowResizeError(Napi::Env env, int rc, const char *what);

#endif
