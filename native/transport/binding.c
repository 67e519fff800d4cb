// N-API entry of the transport addon (build/Release/transport.node): the C
// floor's listen and close, on the event loop of the environment that
// calls them, and the connection transport's (binding_conn.c).
// native/transport.js checks the arguments.
#include <stdlib.h>

#include <node_api.h>

#include "binding_conn.h"
#include "floor.h"
#include "napi_util.h"
#include "tls_context.h"

#define MAX_RESPONSES 64

// The floor speaks HTTP/1.1 only.
static const unsigned char ALPN_HTTP11[] = "\x08http/1.1";

typedef struct handle {
    server_handle base; // the floor_server
    napi_env env;
} handle;

// A server still open when its environment goes away (a worker terminated)
// is closed, so that no handle outlives the loop.
static void on_env_cleanup(void *arg)
{
    handle *h = arg;
    floor_close(h->base.server);
    server_handle_release(&h->base);
}

static void close_handle(handle *h)
{
    if (!h->base.server)
        return;
    napi_remove_env_cleanup_hook(h->env, on_env_cleanup, h);
    on_env_cleanup(h);
}

// floorListen(host, port, reusePort, handshakeTimeoutMs, cert, key,
//             targets[], responses[], notFound) -> handle
static napi_value floor_listen(napi_env env, napi_callback_info info)
{
    napi_value argv[9];
    listen_args l;
    if (!get_listen_args(env, info, "floorListen", 9, argv, &l))
        return NULL;
    uint32_t count, count2;
    void *cert, *key, *not_found;
    size_t cert_len, key_len, not_found_len;
    if (!buffer_arg(env, argv[4], &cert, &cert_len) ||
        !buffer_arg(env, argv[5], &key, &key_len) || napi_get_array_length(env, argv[6], &count) != napi_ok ||
        napi_get_array_length(env, argv[7], &count2) != napi_ok || count != count2 || count > MAX_RESPONSES ||
        !buffer_arg(env, argv[8], &not_found, &not_found_len))
        return throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "floorListen: bad argument types");

    floor_response responses[MAX_RESPONSES];
    for (uint32_t i = 0; i < count; i++) {
        napi_value target, bytes;
        void *data;
        if (napi_get_element(env, argv[6], i, &target) != napi_ok || napi_get_element(env, argv[7], i, &bytes) != napi_ok ||
            !buffer_arg(env, target, &data, &responses[i].target_len) || !buffer_arg(env, bytes, (void **)&responses[i].bytes, &responses[i].len))
            return throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "floorListen: targets and responses are Buffers");
        responses[i].target = data;
    }

    char err[320];
    SSL_CTX *ctx = tls_context_new(cert, cert_len, key, key_len, ALPN_HTTP11, sizeof ALPN_HTTP11 - 1, err,
                                   sizeof err);
    if (!ctx)
        return throw_error(env, "ERR_TRANSPORT_TLS", err);
    uv_loop_t *loop;
    if (napi_get_uv_event_loop(env, &loop) != napi_ok) {
        SSL_CTX_free(ctx);
        return throw_error(env, "ERR_TRANSPORT", "no event loop");
    }
    handle *h = calloc(1, sizeof *h);
    if (!h) {
        SSL_CTX_free(ctx);
        return throw_error(env, "ERR_TRANSPORT", "out of memory");
    }
    floor_options options = {
        .listen = { .host = l.host, .port = l.port, .reuse_port = l.reuse_port, .handshake_timeout_ms = l.handshake_timeout_ms },
        .responses = responses, .response_count = count, .not_found = not_found, .not_found_len = not_found_len,
    };
    floor_server *server;
    int rc = floor_open(loop, ctx, &options, &server);
    if (rc != 0) {
        free(h);
        return throw_listen_error(env, rc, l.host, l.port);
    }
    h->base.server = server;
    h->env = env;
    napi_add_env_cleanup_hook(env, on_env_cleanup, h);
    napi_value result;
    if (napi_create_external(env, h, server_handle_finalize, NULL, &result) != napi_ok) {
        close_handle(h);
        free(h);
        return NULL;
    }
    return result;
}

static handle *handle_arg(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1];
    napi_valuetype type;
    void *data;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 ||
        napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
        napi_get_value_external(env, argv[0], &data) != napi_ok) {
        throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "expected a floor server handle");
        return NULL;
    }
    return data;
}

static napi_value floor_port_of(napi_env env, napi_callback_info info)
{
    handle *h = handle_arg(env, info);
    if (!h)
        return NULL;
    if (!h->base.server)
        return throw_error(env, "ERR_SERVER_NOT_RUNNING", "the server is closed");
    napi_value port;
    napi_create_int32(env, floor_port(h->base.server), &port);
    return port;
}

static napi_value floor_close_of(napi_env env, napi_callback_info info)
{
    handle *h = handle_arg(env, info);
    if (h)
        close_handle(h);
    return NULL;
}

static napi_value init(napi_env env, napi_value exports)
{
    napi_property_descriptor props[] = {
        { "floorListen", NULL, floor_listen, NULL, NULL, NULL, napi_default, NULL },
        { "floorPort", NULL, floor_port_of, NULL, NULL, NULL, napi_default, NULL },
        { "floorClose", NULL, floor_close_of, NULL, NULL, NULL, napi_default, NULL },
    };
    if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok ||
        !binding_conn_init(env, exports))
        return NULL;
    return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
