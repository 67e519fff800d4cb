#include "napi_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

napi_value throw_error(napi_env env, const char *code, const char *message)
{
    napi_throw_error(env, code, message);
    return NULL;
}

bool buffer_arg(napi_env env, napi_value value, void **data, size_t *len)
{
    bool is;
    return napi_is_buffer(env, value, &is) == napi_ok && is && napi_get_buffer_info(env, value, data, len) == napi_ok;
}

bool get_listen_args(napi_env env, napi_callback_info info, const char *name, size_t want, napi_value *argv,
                     listen_args *out)
{
    char message[96];
    size_t argc = want, host_len;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != want) {
        snprintf(message, sizeof message, "%s takes %zu arguments", name, want);
        throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", message);
        return false;
    }
    if (napi_get_value_string_utf8(env, argv[0], out->host, sizeof out->host, &host_len) != napi_ok ||
        napi_get_value_int32(env, argv[1], &out->port) != napi_ok ||
        napi_get_value_bool(env, argv[2], &out->reuse_port) != napi_ok ||
        napi_get_value_uint32(env, argv[3], &out->handshake_timeout_ms) != napi_ok) {
        snprintf(message, sizeof message, "%s: bad argument types", name);
        throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", message);
        return false;
    }
    return true;
}

napi_value throw_listen_error(napi_env env, int rc, const char *host, int port)
{
    char message[160];
    snprintf(message, sizeof message, "listen %s:%d: %s", host, port, rc == -EINVAL ? "not an IP address" : strerror(-rc));
    napi_value code, msg, error;
    // libuv's errors are -errno on Unix: EADDRINUSE, EADDRNOTAVAIL... as node:net names them.
    const char *name = rc == -EINVAL ? "ERR_TRANSPORT_INVALID_ARGUMENT" : uv_err_name(rc);
    napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code);
    napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, code, msg, &error);
    napi_throw(env, error);
    return NULL;
}

void server_handle_finalize(napi_env env, void *data, void *hint)
{
    (void)env;
    (void)hint;
    server_handle *h = data;
    if (h->server)
        h->collected = true;
    else
        free(h);
}

void server_handle_release(server_handle *h)
{
    h->server = NULL;
    if (h->collected)
        free(h);
}
