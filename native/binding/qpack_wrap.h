// The QPACK classes of the addon (wrapped by native/qpack.js).
#ifndef HPACK_BINDING_QPACK_WRAP_H
#define HPACK_BINDING_QPACK_WRAP_H

#include <napi.h>

Napi::Function InitQpackEncoder(Napi::Env env);
Napi::Function InitQpackDecoder(Napi::Env env);

// Throw an Error for an enum qpack_error: .code is its qpack_strerror name,
// .h3Code the HTTP/3 error code to close the connection with (for the three
// RFC 9204 section 6 errors), the message names what failed and why.
void ThrowQpackError(Napi::Env env, int err, const char *what, const char *reason);

#endif
