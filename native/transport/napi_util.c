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
