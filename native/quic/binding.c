// N-API entry of the QUIC addon (build/Release/quic.node): listen, the calls
// on a listener, its connections and streams, and each event-handling
// pass's events delivered to one JavaScript function per listener as one
// flat array of EVENT_SLOTS values per event (native/quic.js reads them),
// through napi_make_callback so that nextTick and promise jobs run after.
// native/quic.js checks the arguments.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <node_api.h>
#include <openssl/quic.h>

#include "../transport/napi_util.h"
#include "../transport/tls_context.h"
#include "quic.h"

#define EVENT_SLOTS 6
#define MAX_ALPN 64
#define MAX_REASON 256

typedef struct qhandle {
    qserver *server; // NULL once freed
    napi_env env;
    napi_ref on_events;
    napi_async_context async;
    napi_handle_scope scope; // open while a pass has events
    napi_value batch;        // the pass's events, or NULL
    uint32_t count;
    bool env_gone;
    bool collected;
} qhandle;

static void set(qhandle *h, napi_value value)
{
    napi_set_element(h->env, h->batch, h->count++, value);
}

static void set_number(qhandle *h, double value)
{
    napi_value v;
    napi_create_double(h->env, value, &v);
    set(h, v);
}

static void set_bool(qhandle *h, bool value)
{
    napi_value v;
    napi_get_boolean(h->env, value, &v);
    set(h, v);
}

static void set_latin1(qhandle *h, const char *text, size_t len)
{
    napi_value v;
    napi_create_string_latin1(h->env, text, len, &v);
    set(h, v);
}

// [type, connection id, stream id or the event's own, a, b, c]
static void on_event(void *data, const qevent *e)
{
    qhandle *h = data;
    if (h->env_gone)
        return;
    if (!h->batch && (napi_open_handle_scope(h->env, &h->scope) != napi_ok ||
                      napi_create_array(h->env, &h->batch) != napi_ok)) {
        h->batch = NULL;
        return;
    }
    uint32_t end = h->count + EVENT_SLOTS;
    set_number(h, e->type);
    set_number(h, e->conn ? (double)e->conn->id : 0);
    switch (e->type) {
    case QEV_CONNECTION:
        set_latin1(h, (const char *)e->conn->alpn, e->conn->alpn_len);
        set_number(h, e->conn->slot);
        set_latin1(h, e->conn->address, strlen(e->conn->address));
        set_number(h, e->conn->port);
        break;
    case QEV_DATA: {
        set_number(h, (double)e->stream);
        napi_value buffer;
        void *copy;
        napi_create_buffer_copy(h->env, e->len, e->bytes, &copy, &buffer);
        set(h, buffer);
        set_bool(h, e->fin);
        break;
    }
    case QEV_CLOSE:
        set_number(h, (double)e->code);
        set_latin1(h, (const char *)e->bytes, e->len < MAX_REASON ? e->len : MAX_REASON);
        set_bool(h, e->by_peer);
        set_bool(h, e->transport);
        break;
    default:
        set_number(h, (double)e->stream);
        set_number(h, (double)e->code);
    }
    h->count = end;
}

static void on_flush(void *data)
{
    qhandle *h = data;
    if (!h->batch)
        return;
    napi_value fn, recv, result, argv[1] = { h->batch };
    h->batch = NULL;
    h->count = 0;
    napi_get_reference_value(h->env, h->on_events, &fn);
    napi_get_global(h->env, &recv);
    if (napi_make_callback(h->env, h->async, recv, fn, 1, argv, &result) == napi_pending_exception) {
        napi_value error;
        napi_get_and_clear_last_exception(h->env, &error);
        napi_fatal_exception(h->env, error);
    }
    napi_close_handle_scope(h->env, h->scope);
}

static void on_env_cleanup(void *arg);

static void on_freed(void *data)
{
    qhandle *h = data;
    h->server = NULL;
    if (!h->env_gone) {
        napi_remove_env_cleanup_hook(h->env, on_env_cleanup, h);
        napi_async_destroy(h->env, h->async);
        napi_delete_reference(h->env, h->on_events);
    }
    if (h->collected)
        free(h);
}

// A listener still open when its environment goes (a worker terminated) is
// destroyed without calling into JavaScript.
static void on_env_cleanup(void *arg)
{
    qhandle *h = arg;
    h->env_gone = true;
    if (h->server)
        qserver_destroy(h->server, true);
}

static void finalize_handle(napi_env env, void *data, void *hint)
{
    (void)env;
    (void)hint;
    qhandle *h = data;
    // Dropped without close(): it goes on serving, as a bound dgram socket does.
    if (h->server)
        h->collected = true;
    else
        free(h);
}

static bool context_args(napi_env env, napi_value cert_v, napi_value key_v, napi_value alpn_v, SSL_CTX **ctx)
{
    void *cert, *key, *alpn;
    size_t cert_len, key_len, alpn_len;
    if (!buffer_arg(env, cert_v, &cert, &cert_len) || !buffer_arg(env, key_v, &key, &key_len) ||
        !buffer_arg(env, alpn_v, &alpn, &alpn_len) || alpn_len == 0 || alpn_len > MAX_ALPN) {
        throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "cert, key and alpn are Buffers");
        return false;
    }
    char err[320];
    *ctx = tls_identity_new(OSSL_QUIC_server_method(), cert, cert_len, key, key_len, alpn, alpn_len, err, sizeof err);
    if (!*ctx)
        throw_error(env, "ERR_QUIC_TLS", err);
    return *ctx != NULL;
}

static napi_value number(napi_env env, double value)
{
    napi_value result;
    napi_create_double(env, value, &result);
    return result;
}

// listen(host, port, cert, key, alpn, idleTimeoutMs, handshakeTimeoutMs, maxConnections, highWater, validateAddress,
//        onEvents)
static napi_value quic_listen(napi_env env, napi_callback_info info)
{
    size_t argc = 11;
    napi_value argv[11];
    char host[64];
    size_t host_len;
    int32_t port;
    uint32_t idle_ms, handshake_ms, max_conns, high_water;
    bool validate;
    napi_valuetype fn_type;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 11 ||
        napi_get_value_string_utf8(env, argv[0], host, sizeof host, &host_len) != napi_ok ||
        napi_get_value_int32(env, argv[1], &port) != napi_ok || napi_get_value_uint32(env, argv[5], &idle_ms) != napi_ok ||
        napi_get_value_uint32(env, argv[6], &handshake_ms) != napi_ok ||
        napi_get_value_uint32(env, argv[7], &max_conns) != napi_ok || max_conns == 0 ||
        napi_get_value_uint32(env, argv[8], &high_water) != napi_ok ||
        napi_get_value_bool(env, argv[9], &validate) != napi_ok || napi_typeof(env, argv[10], &fn_type) != napi_ok ||
        fn_type != napi_function)
        return throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "listen: bad argument types");
    SSL_CTX *ctx;
    if (!context_args(env, argv[2], argv[3], argv[4], &ctx))
        return NULL;
    uv_loop_t *loop;
    qhandle *h = calloc(1, sizeof *h);
    napi_value name;
    if (!h || napi_get_uv_event_loop(env, &loop) != napi_ok ||
        napi_create_string_utf8(env, "negotiate-h2:quic", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_async_init(env, NULL, name, &h->async) != napi_ok) {
        free(h);
        SSL_CTX_free(ctx);
        return throw_error(env, "ERR_QUIC", "out of memory");
    }
    h->env = env;
    qserver_options options = {
        .host = host, .port = port, .idle_timeout_ms = idle_ms, .handshake_timeout_ms = handshake_ms,
        .max_connections = max_conns, .high_water = high_water, .validate_address = validate,
    };
    qevents events = { .data = h, .event = on_event, .flush = on_flush, .freed = on_freed };
    int rc = qserver_open(loop, ctx, &options, &events, &h->server);
    if (rc != 0) {
        napi_async_destroy(env, h->async);
        free(h);
        if (rc == -EPROTO)
            return throw_error(env, "ERR_QUIC", "OpenSSL could not start the QUIC listener");
        return throw_listen_error(env, rc, host, port);
    }
    napi_create_reference(env, argv[10], 1, &h->on_events);
    napi_add_env_cleanup_hook(env, on_env_cleanup, h);
    napi_value result;
    if (napi_create_external(env, h, finalize_handle, NULL, &result) != napi_ok) {
        h->collected = true;
        qserver_destroy(h->server, false);
        return NULL;
    }
    return result;
}

// The handle; argv gets all `want` arguments.
static qhandle *handle_arg(napi_env env, napi_callback_info info, size_t want, napi_value *argv)
{
    size_t argc = want;
    napi_valuetype type;
    void *data;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != want ||
        napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
        napi_get_value_external(env, argv[0], &data) != napi_ok) {
        throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "expected a QUIC listener handle");
        return NULL;
    }
    return data;
}

static bool u64_arg(napi_env env, napi_value value, uint64_t *out)
{
    double d;
    if (napi_get_value_double(env, value, &d) != napi_ok || !(d >= 0) || d > 9007199254740992.0)
        return false;
    *out = (uint64_t)d;
    return true;
}

// The connection (slot, id) of argv[1], argv[2], or NULL once it is gone.
static qconn *conn_arg(napi_env env, qhandle *h, napi_value *argv, bool *bad)
{
    uint64_t slot, id;
    *bad = !u64_arg(env, argv[1], &slot) || !u64_arg(env, argv[2], &id) || slot > UINT32_MAX;
    if (*bad) {
        throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "expected a connection's slot and id");
        return NULL;
    }
    return h->server ? qserver_conn(h->server, (uint32_t)slot, id) : NULL;
}

// A call on the connection of argv[1], argv[2] (`want` arguments): *c, NULL once it is gone;
// false when an error was thrown.
static bool conn_call(napi_env env, napi_callback_info info, size_t want, napi_value *argv, qconn **c)
{
    bool bad = true;
    qhandle *h = handle_arg(env, info, want, argv);
    *c = h ? conn_arg(env, h, argv, &bad) : NULL;
    return !bad;
}

// A call on the stream argv[3] of that connection: *st, NULL once it is gone.
static bool stream_call(napi_env env, napi_callback_info info, size_t want, napi_value *argv, qconn **c, qstream **st)
{
    uint64_t sid;
    *st = NULL;
    if (!conn_call(env, info, want, argv, c))
        return false;
    if (!u64_arg(env, argv[3], &sid)) {
        throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "expected a stream id");
        return false;
    }
    *st = *c ? qconn_stream(*c, sid) : NULL;
    return true;
}

static napi_value listener_port(napi_env env, napi_callback_info info)
{
    napi_value argv[1];
    qhandle *h = handle_arg(env, info, 1, argv);
    return h ? number(env, h->server ? h->server->port : -1) : NULL;
}

static napi_value set_context(napi_env env, napi_callback_info info)
{
    napi_value argv[4];
    qhandle *h = handle_arg(env, info, 4, argv);
    SSL_CTX *ctx;
    if (!h || !context_args(env, argv[1], argv[2], argv[3], &ctx))
        return NULL;
    if (h->server)
        qserver_set_context(h->server, ctx);
    else
        SSL_CTX_free(ctx);
    return NULL;
}

// stop(handle, destroy)
static napi_value listener_stop(napi_env env, napi_callback_info info)
{
    napi_value argv[2];
    qhandle *h = handle_arg(env, info, 2, argv);
    bool destroy;
    if (!h || napi_get_value_bool(env, argv[1], &destroy) != napi_ok)
        return NULL;
    if (h->server)
        destroy ? qserver_destroy(h->server, false) : qserver_close(h->server);
    return NULL;
}

// connClose(handle, slot, id, code, reason)
static napi_value conn_close(napi_env env, napi_callback_info info)
{
    napi_value argv[5];
    qconn *c;
    uint64_t code;
    char reason[MAX_REASON];
    size_t len;
    if (!conn_call(env, info, 5, argv, &c) || !c)
        return NULL;
    if (!u64_arg(env, argv[3], &code) || napi_get_value_string_utf8(env, argv[4], reason, sizeof reason, &len) != napi_ok)
        return throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "connClose: a code and a reason");
    qconn_close(c, code, reason, false);
    return NULL;
}

// connOpenUni(handle, slot, id) -> stream id, -1 at the peer's limit, -2 when gone
static napi_value conn_open_uni(napi_env env, napi_callback_info info)
{
    napi_value argv[3];
    qconn *c;
    if (!conn_call(env, info, 3, argv, &c))
        return NULL;
    return number(env, c ? (double)qconn_open_uni(c) : -2);
}

static napi_value conn_stream_count(napi_env env, napi_callback_info info)
{
    napi_value argv[3];
    qconn *c;
    if (!conn_call(env, info, 3, argv, &c))
        return NULL;
    return number(env, c ? (double)c->nstreams : 0);
}

// streamWrite(handle, slot, id, sid, buffer, fin) -> bytes queued, -1 once closed
static napi_value stream_write(napi_env env, napi_callback_info info)
{
    napi_value argv[6];
    bool fin;
    qconn *c;
    qstream *st;
    void *data;
    size_t len;
    if (!stream_call(env, info, 6, argv, &c, &st))
        return NULL;
    if (!buffer_arg(env, argv[4], &data, &len) || napi_get_value_bool(env, argv[5], &fin) != napi_ok)
        return throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "streamWrite writes a Buffer");
    int64_t queued = st ? qstream_write(c, st, data, len, fin) : -1;
    if (queued == -2)
        return throw_error(env, "ERR_QUIC", "out of memory");
    return number(env, (double)queued);
}

static napi_value stream_writable(napi_env env, napi_callback_info info)
{
    napi_value argv[4];
    qconn *c;
    qstream *st;
    if (!stream_call(env, info, 4, argv, &c, &st))
        return NULL;
    return number(env, st ? (double)qstream_writable(st) : -1);
}

// streamAbort(handle, slot, id, sid, code, stopSending): RESET_STREAM, or STOP_SENDING
static napi_value stream_abort(napi_env env, napi_callback_info info)
{
    napi_value argv[6];
    bool stop;
    qconn *c;
    qstream *st;
    uint64_t code;
    if (!stream_call(env, info, 6, argv, &c, &st))
        return NULL;
    if (!u64_arg(env, argv[4], &code) || napi_get_value_bool(env, argv[5], &stop) != napi_ok)
        return throw_error(env, "ERR_QUIC_INVALID_ARGUMENT", "streamAbort: a code");
    if (st) {
        stop ? qstream_stop_sending(st) : qstream_reset(st, code);
        qserver_kick(c->server);
    }
    return NULL;
}

static napi_value init(napi_env env, napi_value exports)
{
    napi_property_descriptor props[] = {
        { "listen", NULL, quic_listen, NULL, NULL, NULL, napi_default, NULL },
        { "port", NULL, listener_port, NULL, NULL, NULL, napi_default, NULL },
        { "setContext", NULL, set_context, NULL, NULL, NULL, napi_default, NULL },
        { "stop", NULL, listener_stop, NULL, NULL, NULL, napi_default, NULL },
        { "connClose", NULL, conn_close, NULL, NULL, NULL, napi_default, NULL },
        { "connOpenUni", NULL, conn_open_uni, NULL, NULL, NULL, napi_default, NULL },
        { "connStreamCount", NULL, conn_stream_count, NULL, NULL, NULL, napi_default, NULL },
        { "streamWrite", NULL, stream_write, NULL, NULL, NULL, napi_default, NULL },
        { "streamWritable", NULL, stream_writable, NULL, NULL, NULL, napi_default, NULL },
        { "streamAbort", NULL, stream_abort, NULL, NULL, NULL, napi_default, NULL },
    };
    if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok)
        return NULL;
    return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
