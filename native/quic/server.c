// The listener: the UDP socket, OpenSSL's QUIC listener on it, and the
// event pump on Node's loop. A uv_poll_t on the socket and a uv_timer_t
// armed from SSL_get_event_timeout wake the pump; each pass is
// SSL_handle_events on the listener (which ticks every connection: they
// are all in EXPLICIT event handling), then every connection and stream is
// served, then JavaScript gets the pass's events in one call. Passes repeat
// until one finds nothing new (OpenSSL does not say which objects changed).
#include "quic.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <openssl/err.h>

#include "udp.h"

// Passes in one wake-up at most; past them the timer goes off at once, so
// that Node's other work runs in between.
#define MAX_PASSES 16

uint64_t qserver_now(qserver *s)
{
    return uv_now(s->loop);
}

void qserver_emit(qserver *s, const qevent *e)
{
    s->events.event(s->events.data, e);
}

qconn *qserver_conn(qserver *s, uint32_t slot, uint64_t id)
{
    if (s->torn_down || slot >= s->options.max_connections)
        return NULL;
    qconn *c = s->slots[slot];
    return c && c->id == id && !qconn_gone(c) ? c : NULL;
}

static void pump(qserver *s);

static void on_timer(uv_timer_t *timer)
{
    pump(timer->data);
}

void qserver_kick(qserver *s)
{
    if (s->in_pump)
        s->again = true;
    else if (!s->torn_down)
        uv_timer_start(&s->timer, on_timer, 0, 0);
}

static void on_handle_closed(uv_handle_t *handle)
{
    qserver *s = handle->data;
    if (--s->open_handles > 0)
        return;
    close(s->fd);
    free(s->scratch);
    s->events.freed(s->events.data);
    free(s);
}

static void drop_conn(qserver *s, qconn *c)
{
    s->slots[c->slot] = NULL;
    s->nconns--;
    qconn_free(c);
}

// Every connection and the listener, then the socket once libuv lets go.
static void tear_down(qserver *s)
{
    s->torn_down = true;
    for (uint32_t i = 0; i < s->options.max_connections; i++)
        if (s->slots[i])
            drop_conn(s, s->slots[i]);
    free(s->slots);
    while (s->nrefused > 0)
        SSL_free(s->refused[--s->nrefused]);
    SSL_free(s->listener);
    SSL_CTX_free(s->ctx);
    SSL_CTX_free(s->next_ctx);
    qserver_emit(s, &(qevent){ .type = QEV_LISTENER_CLOSE });
    s->events.flush(s->events.data);
    uv_close((uv_handle_t *)&s->poll, on_handle_closed);
    uv_close((uv_handle_t *)&s->timer, on_handle_closed);
}

// True once the refused connection's CONNECTION_CLOSE is out (H3_EXCESSIVE_LOAD).
static bool refusal_done(SSL *ssl)
{
    SSL_SHUTDOWN_EX_ARGS args = { .quic_error_code = 0x107, .quic_reason = "too many connections" };
    int rc = SSL_shutdown_ex(ssl, SSL_SHUTDOWN_FLAG_NO_BLOCK | SSL_SHUTDOWN_FLAG_RAPID, &args, sizeof args);
    ERR_clear_error();
    return rc != 0;
}

// Past as many refusals at once as refused[] holds, a connection goes silently.
static void refuse(qserver *s, SSL *ssl)
{
    if (refusal_done(ssl) || s->nrefused == sizeof s->refused / sizeof s->refused[0])
        SSL_free(ssl);
    else
        s->refused[s->nrefused++] = ssl;
}

static void serve_refused(qserver *s)
{
    for (uint32_t i = 0; i < s->nrefused;) {
        if (refusal_done(s->refused[i])) {
            SSL_free(s->refused[i]);
            s->refused[i] = s->refused[--s->nrefused];
        } else {
            i++;
        }
    }
}

// Connections past maxConnections, or after close(), are refused here, once OpenSSL hands them
// over: OpenSSL 3.5.8 deadlocks when its pending-connection callback refuses one (it frees the
// connection with its own lock held).
static void accept_connections(qserver *s)
{
    SSL *ssl;
    uint32_t slot = 0;
    while ((ssl = SSL_accept_connection(s->listener, SSL_ACCEPT_CONNECTION_NO_BLOCK)) != NULL) {
        while (slot < s->options.max_connections && s->slots[slot])
            slot++;
        qconn *c = s->closing || slot == s->options.max_connections ? NULL : qconn_new(s, ssl, slot);
        if (!c) {
            refuse(s, ssl);
            continue;
        }
        s->slots[slot] = c;
        s->nconns++;
    }
    ERR_clear_error();
}

static bool serve_all(qserver *s)
{
    bool news = false;
    for (uint32_t i = 0; i < s->options.max_connections; i++) {
        qconn *c = s->slots[i];
        if (!c)
            continue;
        news |= qconn_serve(c);
        if (qconn_gone(c))
            drop_conn(s, c);
    }
    return news;
}

// The next wake-up: OpenSSL's next deadline or the nearest handshake deadline or idle timeout.
static void arm_timer(qserver *s)
{
    struct timeval tv;
    int infinite = 1;
    uint64_t ms = UINT64_MAX, now = qserver_now(s);
    if (SSL_get_event_timeout(s->listener, &tv, &infinite) && !infinite)
        ms = (uint64_t)tv.tv_sec * 1000 + ((uint64_t)tv.tv_usec + 999) / 1000;
    ERR_clear_error();
    for (uint32_t i = 0; i < s->options.max_connections; i++) {
        qconn *c = s->slots[i];
        uint64_t deadline = c ? qconn_deadline(c) : UINT64_MAX;
        if (deadline != UINT64_MAX && (deadline > now ? deadline - now : 0) < ms)
            ms = deadline > now ? deadline - now : 0;
    }
    if (ms == UINT64_MAX)
        uv_timer_stop(&s->timer);
    else
        uv_timer_start(&s->timer, on_timer, ms, 0);
}

static void pump(qserver *s)
{
    if (s->torn_down)
        return;
    s->in_pump = true;
    int passes = 0;
    do {
        s->again = false;
        if (!SSL_handle_events(s->listener))
            ERR_clear_error();
        serve_refused(s);
        accept_connections(s);
        if (serve_all(s))
            s->again = true;
        s->events.flush(s->events.data); // JavaScript: its writes and closes set again
    } while (s->again && !s->destroying && ++passes < MAX_PASSES);
    s->in_pump = false;
    if (s->destroying || (s->closing && s->nconns == 0))
        tear_down(s);
    else if (s->again)
        qserver_kick(s);
    else
        arm_timer(s);
}

static void on_readable(uv_poll_t *poll, int status, int events)
{
    (void)status;
    (void)events;
    pump(poll->data);
}

// The certificate of a handshake: setSecureContext's newest one, if any.
static int pick_certificate(SSL *ssl, void *arg)
{
    qserver *s = arg;
    if (!s->next_ctx)
        return 1;
    STACK_OF(X509) *chain = NULL;
    SSL_CTX_get0_chain_certs(s->next_ctx, &chain);
    return SSL_use_cert_and_key(ssl, SSL_CTX_get0_certificate(s->next_ctx), SSL_CTX_get0_privatekey(s->next_ctx),
                                chain, 1);
}

void qserver_set_context(qserver *s, SSL_CTX *ctx)
{
    SSL_CTX_free(s->next_ctx);
    s->next_ctx = ctx;
}

static SSL *new_listener(qserver *s)
{
    SSL_CTX_set_cert_cb(s->ctx, pick_certificate, s);
    SSL_CTX_set_mode(s->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE);
    SSL *listener = SSL_new_listener(s->ctx, s->options.validate_address ? 0 : SSL_LISTENER_FLAG_NO_VALIDATE);
    BIO *bio = listener ? BIO_new_dgram(s->fd, BIO_NOCLOSE) : NULL;
    if (!bio) {
        SSL_free(listener);
        return NULL;
    }
    SSL_set_bio(listener, bio, bio);
    // The event handling mode is per connection (qconn_new): a listener has none.
    if (!SSL_set_blocking_mode(listener, 0) || !SSL_listen(listener)) {
        SSL_free(listener);
        return NULL;
    }
    return listener;
}

int qserver_open(uv_loop_t *loop, SSL_CTX *ctx, const qserver_options *options, const qevents *events, qserver **out)
{
    qserver *s = calloc(1, sizeof *s);
    qconn **slots = calloc(options->max_connections, sizeof *slots);
    if (!s || !slots) {
        free(s);
        free(slots);
        SSL_CTX_free(ctx);
        return -ENOMEM;
    }
    s->loop = loop;
    s->ctx = ctx;
    s->slots = slots;
    s->options = *options;
    s->options.host = NULL; // the caller's
    s->events = *events;
    s->fd = udp_open(options->host, options->port, &s->port);
    int rc = s->fd < 0 ? s->fd : 0;
    if (rc == 0 && (s->listener = new_listener(s)) == NULL)
        rc = -EPROTO;
    // uv_timer_init cannot fail; the poll is the last step that can.
    if (rc == 0 && (rc = uv_poll_init(loop, &s->poll, s->fd)) == 0)
        uv_timer_init(loop, &s->timer);
    if (rc != 0) {
        ERR_clear_error();
        SSL_free(s->listener);
        if (s->fd >= 0)
            close(s->fd);
        SSL_CTX_free(ctx);
        free(slots);
        free(s);
        return rc;
    }
    s->poll.data = s->timer.data = s;
    s->open_handles = 2;
    uv_poll_start(&s->poll, UV_READABLE, on_readable);
    *out = s;
    return 0;
}

void qserver_close(qserver *s)
{
    s->closing = true;
    qserver_kick(s);
}

void qserver_destroy(qserver *s, bool at_once)
{
    if (s->torn_down)
        return;
    for (uint32_t i = 0; i < s->options.max_connections; i++) {
        qconn *c = s->slots[i];
        if (c && c->ready)
            qconn_close(c, 0x100, "", true); // H3_NO_ERROR
    }
    s->destroying = true;
    // The pump sends the CONNECTION_CLOSEs, tells JavaScript and tears down:
    // after this pass when in one, else on the next turn of the loop (no
    // callbacks from inside destroy()), or now when the environment goes.
    if (at_once && !s->in_pump)
        pump(s);
    else
        qserver_kick(s);
}
