// Argument checks and errors shared by the transport's N-API entries.
#ifndef TRANSPORT_NAPI_UTIL_H
#define TRANSPORT_NAPI_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include <node_api.h>

napi_value throw_error(napi_env env, const char *code, const char *message);
bool buffer_arg(napi_env env, napi_value value, void **data, size_t *len);
// The error of a listen that failed with -errno rc, thrown with the errno's
// name as its code (EADDRINUSE, EACCES...), as node:net's, so that callers
// name the option to change.
napi_value throw_listen_error(napi_env env, int rc, const char *host, int port);

#endif
