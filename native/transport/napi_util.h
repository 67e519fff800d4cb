// Argument checks and errors shared by the transport's N-API entries.
#ifndef TRANSPORT_NAPI_UTIL_H
#define TRANSPORT_NAPI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <node_api.h>

napi_value throw_error(napi_env env, const char *code, const char *message);
bool buffer_arg(napi_env env, napi_value value, void **data, size_t *len);
// The error of a listen that failed with -errno rc, thrown with the errno's
// name as its code (EADDRINUSE, EACCES...), as node:net's, so that callers
// name the option to change.
// The arguments every listen call starts with: (host, port, reusePort,
// handshakeTimeoutMs, ...).
typedef struct listen_args {
    char host[64];
    int32_t port;
    bool reuse_port;
    uint32_t handshake_timeout_ms;
} listen_args;
// Exactly want arguments into argv, the first four into out; false after
// throwing an error that names the call.
bool get_listen_args(napi_env env, napi_callback_info info, const char *name, size_t want, napi_value *argv,
                     listen_args *out);
napi_value throw_listen_error(napi_env env, int rc, const char *host, int port);

// The first member of a server's N-API handle (the data of its JS value):
// the server until it is gone, and whether the JS value went first, in which
// case the server's end frees the handle.
typedef struct server_handle {
    void *server; // NULL once gone
    bool collected;
} server_handle;
// The JS value's finalizer. Dropped without close(), the server goes on
// serving (as a listening net.Server does) until it is closed or its
// environment goes away.
void server_handle_finalize(napi_env env, void *data, void *hint);
// The server is gone: frees the handle if its JS value went first.
void server_handle_release(server_handle *h);

#endif
