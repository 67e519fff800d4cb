// N-API entries of the connection transport (conn.c): listen, the calls on a
// connection, and its events delivered to one JavaScript function per
// server, onEvent(type, id, a, b, c), through napi_make_callback so that
// nextTick and promise jobs run after each, as after a node:net event.
// native/transport.js checks the arguments and builds the sockets.
#include "binding_conn.h"

#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "napi_util.h"
#include "tls_context.h"

// Event types, as native/transport.js names them.
enum { EV_OPEN, EV_DATA, EV_END, EV_DRAIN, EV_FINISH, EV_TIMEOUT, EV_CLOSE, EV_FREED, EV_RENEGOTIATION, EV_HANDSHAKES };

#define MAX_ALPN 64
#define MAX_WRITE_BUFFERS 64

typedef struct chandle {
    server_handle base; // the tserver
    napi_env env;
    napi_ref on_event;
    napi_async_context async;
    bool env_gone;  // the environment is being torn down: no more JavaScript
} chandle;

static void emit(chandle *h, int type, uint64_t id, size_t argc, napi_value *extra)
{
    if (h->env_gone)
        return;
    napi_env env = h->env;
    napi_handle_scope scope;
    if (napi_open_handle_scope(env, &scope) != napi_ok)
        return;
    napi_value argv[5], fn, recv, result;
    napi_create_int32(env, type, &argv[0]);
    napi_create_double(env, (double)id, &argv[1]);
    for (size_t i = 0; i < argc; i++)
        argv[2 + i] = extra[i];
    napi_get_reference_value(env, h->on_event, &fn);
    napi_get_global(env, &recv); // napi_make_callback wants an object
    if (napi_make_callback(env, h->async, recv, fn, 2 + argc, argv, &result) == napi_pending_exception) {
        // As for a throw in a net.Socket listener: the process's uncaught exception.
        napi_value error;
        napi_get_and_clear_last_exception(env, &error);
        napi_fatal_exception(env, error);
    }
    napi_close_handle_scope(env, scope);
}

static void on_open(void *data, uint64_t id, const char *alpn, size_t alpn_len, const char *address, int port)
{
    chandle *h = data;
    if (h->env_gone)
        return;
    napi_handle_scope scope;
    napi_open_handle_scope(h->env, &scope);
    napi_value extra[3];
    if (alpn_len > 0)
        napi_create_string_latin1(h->env, alpn, alpn_len, &extra[0]);
    else
        napi_get_boolean(h->env, false, &extra[0]);
    napi_create_string_latin1(h->env, address, NAPI_AUTO_LENGTH, &extra[1]);
    napi_create_int32(h->env, port, &extra[2]);
    emit(h, EV_OPEN, id, 3, extra);
    napi_close_handle_scope(h->env, scope);
}

static void on_data(void *data, uint64_t id, const unsigned char *bytes, size_t len)
{
    chandle *h = data;
    if (h->env_gone)
        return;
    napi_handle_scope scope;
    napi_open_handle_scope(h->env, &scope);
    napi_value buffer;
    void *copy;
    if (napi_create_buffer_copy(h->env, len, bytes, &copy, &buffer) == napi_ok)
        emit(h, EV_DATA, id, 1, &buffer);
    napi_close_handle_scope(h->env, scope);
}

static void on_end(void *data, uint64_t id)
{
    emit(data, EV_END, id, 0, NULL);
}

static void on_drain(void *data, uint64_t id)
{
    emit(data, EV_DRAIN, id, 0, NULL);
}

static void on_finish(void *data, uint64_t id)
{
    emit(data, EV_FINISH, id, 0, NULL);
}

static void on_timeout(void *data, uint64_t id)
{
    emit(data, EV_TIMEOUT, id, 0, NULL);
}

static void on_close(void *data, uint64_t id, bool error)
{
    chandle *h = data;
    if (h->env_gone)
        return;
    napi_handle_scope scope;
    napi_open_handle_scope(h->env, &scope);
    napi_value had_error;
    napi_get_boolean(h->env, error, &had_error);
    emit(h, EV_CLOSE, id, 1, &had_error);
    napi_close_handle_scope(h->env, scope);
}

static void on_renegotiation(void *data, uint64_t id)
{
    emit(data, EV_RENEGOTIATION, id, 0, NULL);
}

// HANDSHAKES: [dropped by reason...], the most pending at once, pending now.
static void on_handshakes(void *data, const tserver_handshakes *report)
{
    chandle *h = data;
    if (h->env_gone)
        return;
    napi_handle_scope scope;
    napi_open_handle_scope(h->env, &scope);
    napi_value extra[3], count;
    napi_create_array_with_length(h->env, TSERVER_DROP_REASONS, &extra[0]);
    for (uint32_t i = 0; i < TSERVER_DROP_REASONS; i++) {
        napi_create_double(h->env, (double)report->dropped[i], &count);
        napi_set_element(h->env, extra[0], i, count);
    }
    napi_create_double(h->env, (double)report->peak, &extra[1]);
    napi_create_double(h->env, (double)report->pending, &extra[2]);
    emit(h, EV_HANDSHAKES, 0, 3, extra);
    napi_close_handle_scope(h->env, scope);
}

static void on_env_cleanup(void *arg);

static void on_freed(void *data)
{
    chandle *h = data;
    if (!h->env_gone) {
        emit(h, EV_FREED, 0, 0, NULL);
        napi_remove_env_cleanup_hook(h->env, on_env_cleanup, h);
        napi_async_destroy(h->env, h->async);
        napi_delete_reference(h->env, h->on_event);
    }
    server_handle_release(&h->base);
}

// A server still open when its environment goes away (a worker terminated)
// is closed without calling into JavaScript, so that no handle outlives the
// loop.
static void on_env_cleanup(void *arg)
{
    chandle *h = arg;
    h->env_gone = true;
    if (h->base.server)
        tserver_close(h->base.server);
}

static bool tls_args(napi_env env, napi_value cert_v, napi_value key_v, napi_value alpn_v, SSL_CTX **ctx)
{
    void *cert, *key, *alpn;
    size_t cert_len, key_len, alpn_len;
    if (!buffer_arg(env, cert_v, &cert, &cert_len) || !buffer_arg(env, key_v, &key, &key_len) ||
        !buffer_arg(env, alpn_v, &alpn, &alpn_len) || alpn_len == 0 || alpn_len > MAX_ALPN) {
        throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "cert, key and alpn are Buffers");
        return false;
    }
    char err[320];
    *ctx = tls_context_new(cert, cert_len, key, key_len, alpn, alpn_len, err, sizeof err);
    if (!*ctx)
        throw_error(env, "ERR_TRANSPORT_TLS", err);
    return *ctx != NULL;
}

// connListen(host, port, reusePort, handshakeTimeoutMs, maxHandshakes, idleTimeoutMs,
//            highWater, maxPending, cert, key, alpn, onEvent) -> handle
static napi_value conn_listen(napi_env env, napi_callback_info info)
{
    napi_value argv[12];
    listen_args l;
    if (!get_listen_args(env, info, "connListen", 12, argv, &l))
        return NULL;
    uint32_t max_handshakes, idle_ms, high_water, max_pending;
    napi_valuetype fn_type;
    if (napi_get_value_uint32(env, argv[4], &max_handshakes) != napi_ok ||
        napi_get_value_uint32(env, argv[5], &idle_ms) != napi_ok ||
        napi_get_value_uint32(env, argv[6], &high_water) != napi_ok ||
        napi_get_value_uint32(env, argv[7], &max_pending) != napi_ok || napi_typeof(env, argv[11], &fn_type) != napi_ok ||
        fn_type != napi_function)
        return throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "connListen: bad argument types");
    SSL_CTX *ctx;
    if (!tls_args(env, argv[8], argv[9], argv[10], &ctx))
        return NULL;
    uv_loop_t *loop;
    chandle *h = calloc(1, sizeof *h);
    napi_value name;
    if (!h || napi_get_uv_event_loop(env, &loop) != napi_ok ||
        napi_create_string_utf8(env, "negotiate-h2:transport", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_async_init(env, NULL, name, &h->async) != napi_ok) {
        free(h);
        SSL_CTX_free(ctx);
        return throw_error(env, "ERR_TRANSPORT", "out of memory");
    }
    tserver_options options = {
        .listen = { .host = l.host, .port = l.port, .reuse_port = l.reuse_port,
                    .handshake_timeout_ms = l.handshake_timeout_ms, .max_handshakes = max_handshakes },
        .idle_timeout_ms = idle_ms, .high_water = high_water, .max_pending = max_pending,
    };
    tserver_events events = {
        .data = h, .on_open = on_open, .on_data = on_data, .on_end = on_end, .on_drain = on_drain,
        .on_finish = on_finish, .on_timeout = on_timeout, .on_close = on_close,
        .on_renegotiation = on_renegotiation, .on_handshakes = on_handshakes, .on_freed = on_freed,
    };
    tserver *server;
    int rc = tserver_open(loop, ctx, &options, &events, &server);
    if (rc != 0) {
        napi_async_destroy(env, h->async);
        free(h);
        return throw_listen_error(env, rc, l.host, l.port);
    }
    h->base.server = server;
    h->env = env;
    napi_create_reference(env, argv[11], 1, &h->on_event);
    napi_add_env_cleanup_hook(env, on_env_cleanup, h);
    napi_value result;
    if (napi_create_external(env, h, server_handle_finalize, NULL, &result) != napi_ok) {
        h->base.collected = true;
        tserver_close(server);
        return NULL;
    }
    return result;
}

// The handle and, for calls on a connection, its id; argv gets the rest.
static chandle *handle_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv, uint64_t *id)
{
    size_t argc = want;
    napi_valuetype type;
    void *data;
    int64_t value;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != want ||
        napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
        napi_get_value_external(env, argv[0], &data) != napi_ok ||
        (id && (napi_get_value_int64(env, argv[1], &value) != napi_ok || value < 0))) {
        throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "expected a transport handle");
        return NULL;
    }
    if (id)
        *id = (uint64_t)value;
    return data;
}

static napi_value number(napi_env env, double value)
{
    napi_value result;
    napi_create_double(env, value, &result);
    return result;
}

static napi_value conn_port(napi_env env, napi_callback_info info)
{
    napi_value argv[1];
    chandle *h = handle_args(env, info, 1, argv, NULL);
    if (!h)
        return NULL;
    if (!h->base.server)
        return throw_error(env, "ERR_SERVER_NOT_RUNNING", "the server is closed");
    return number(env, tserver_port(h->base.server));
}

static napi_value conn_set_context(napi_env env, napi_callback_info info)
{
    napi_value argv[4];
    chandle *h = handle_args(env, info, 4, argv, NULL);
    SSL_CTX *ctx;
    if (!h || !tls_args(env, argv[1], argv[2], argv[3], &ctx))
        return NULL;
    if (h->base.server)
        tserver_set_context(h->base.server, ctx);
    else
        SSL_CTX_free(ctx);
    return NULL;
}

static napi_value conn_stop(napi_env env, napi_callback_info info)
{
    napi_value argv[2];
    chandle *h = handle_args(env, info, 2, argv, NULL);
    bool all;
    if (!h || napi_get_value_bool(env, argv[1], &all) != napi_ok)
        return NULL;
    if (h->base.server)
        (all ? tserver_close : tserver_stop)(h->base.server);
    return NULL;
}

// connWrite(handle, id, buffer | buffers[]) -> bytes pending, -1 when closed
static napi_value conn_write(napi_env env, napi_callback_info info)
{
    napi_value argv[3];
    uint64_t id;
    chandle *h = handle_args(env, info, 3, argv, &id);
    if (!h)
        return NULL;
    const unsigned char *bufs[MAX_WRITE_BUFFERS];
    size_t lens[MAX_WRITE_BUFFERS];
    uint32_t n = 1;
    bool is_array;
    napi_is_array(env, argv[2], &is_array);
    if (is_array && (napi_get_array_length(env, argv[2], &n) != napi_ok || n > MAX_WRITE_BUFFERS))
        return throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "connWrite: at most 64 Buffers");
    for (uint32_t i = 0; i < n; i++) {
        napi_value item = argv[2];
        if (is_array)
            napi_get_element(env, argv[2], i, &item);
        if (!buffer_arg(env, item, (void **)&bufs[i], &lens[i]))
            return throw_error(env, "ERR_TRANSPORT_INVALID_ARGUMENT", "connWrite writes Buffers");
    }
    return number(env, h->base.server ? (double)tserver_write(h->base.server, id, bufs, lens, n) : -1);
}

static napi_value conn_pending(napi_env env, napi_callback_info info)
{
    napi_value argv[2];
    uint64_t id;
    chandle *h = handle_args(env, info, 2, argv, &id);
    if (!h)
        return NULL;
    return number(env, h->base.server ? (double)tserver_pending(h->base.server, id) : -1);
}

// connControl(handle, id, what, value): 0 pause, 1 resume, 2 end, 3 destroy, 4 idle ms.
static napi_value conn_control(napi_env env, napi_callback_info info)
{
    napi_value argv[4];
    uint64_t id;
    uint32_t what, value;
    chandle *h = handle_args(env, info, 4, argv, &id);
    if (!h || napi_get_value_uint32(env, argv[2], &what) != napi_ok || napi_get_value_uint32(env, argv[3], &value) != napi_ok)
        return NULL;
    if (!h->base.server)
        return number(env, -1);
    tserver *s = h->base.server;
    int rc = what == 0 ? tserver_pause(s, id, true) : what == 1 ? tserver_pause(s, id, false) :
             what == 2 ? tserver_end(s, id) : what == 3 ? tserver_destroy(s, id) : tserver_set_idle(s, id, value);
    return number(env, rc);
}

bool binding_conn_init(napi_env env, napi_value exports)
{
    napi_property_descriptor props[] = {
        { "connListen", NULL, conn_listen, NULL, NULL, NULL, napi_default, NULL },
        { "connPort", NULL, conn_port, NULL, NULL, NULL, napi_default, NULL },
        { "connSetContext", NULL, conn_set_context, NULL, NULL, NULL, napi_default, NULL },
        { "connStop", NULL, conn_stop, NULL, NULL, NULL, napi_default, NULL },
        { "connWrite", NULL, conn_write, NULL, NULL, NULL, napi_default, NULL },
        { "connPending", NULL, conn_pending, NULL, NULL, NULL, napi_default, NULL },
        { "connControl", NULL, conn_control, NULL, NULL, NULL, napi_default, NULL },
    };
    return napi_define_properties(env, exports, sizeof props / sizeof props[0], props) == napi_ok;
}
