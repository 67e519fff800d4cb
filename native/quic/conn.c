// One QUIC connection: its handshake deadline, the streams the peer opens
// and ours, and its close, checked once per pass after OpenSSL's event
// handling.
#include "quic.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

qconn *qconn_new(qserver *s, SSL *ssl, uint32_t slot)
{
    static uint64_t next_id = 1; // unique in the process: every server is on the main loop or its worker's
    qconn *c = calloc(1, sizeof *c);
    // The peer opens streams; we open ours with SSL_new_stream (no default stream).
    if (!c || !SSL_set_default_stream_mode(ssl, SSL_DEFAULT_STREAM_MODE_NONE) ||
        !SSL_set_incoming_stream_policy(ssl, SSL_INCOMING_STREAM_POLICY_ACCEPT, 0) ||
        !SSL_set_event_handling_mode(ssl, SSL_VALUE_EVENT_HANDLING_MODE_EXPLICIT)) {
        ERR_clear_error();
        free(c);
        return NULL;
    }
    c->server = s;
    c->ssl = ssl;
    c->slot = slot;
    c->id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    c->handshake_deadline = qserver_now(s) + s->options.handshake_timeout_ms;
    return c;
}

void qconn_free(qconn *c)
{
    for (size_t i = 0; i < c->nstreams; i++)
        qstream_free(c->streams[i]);
    free(c->streams);
    SSL_free(c->ssl);
    free(c);
}

qstream *qconn_stream(qconn *c, uint64_t id)
{
    for (size_t i = 0; i < c->nstreams; i++)
        if (c->streams[i]->id == id)
            return c->streams[i];
    return NULL;
}

static bool add_stream(qconn *c, qstream *st)
{
    if (c->nstreams == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        qstream **bigger = realloc(c->streams, cap * sizeof *bigger);
        if (!bigger)
            return false;
        c->streams = bigger;
        c->cap = cap;
    }
    c->streams[c->nstreams++] = st;
    return true;
}

int64_t qconn_open_uni(qconn *c)
{
    SSL *ssl = SSL_new_stream(c->ssl, SSL_STREAM_FLAG_UNI | SSL_STREAM_FLAG_NO_BLOCK);
    qstream *st = ssl ? qstream_new(ssl, true) : NULL;
    if (!st || !add_stream(c, st)) {
        ERR_clear_error();
        if (st)
            qstream_free(st);
        else
            SSL_free(ssl);
        return -1;
    }
    return (int64_t)st->id;
}

void qconn_close(qconn *c, uint64_t code, const char *reason, bool rapid)
{
    SSL_SHUTDOWN_EX_ARGS args = { .quic_error_code = code, .quic_reason = reason };
    // NO_STREAM_FLUSH: CONNECTION_CLOSE now, not once every stream's bytes
    // are acknowledged (a peer that stops reading would hold it forever).
    uint64_t flags = SSL_SHUTDOWN_FLAG_NO_BLOCK | SSL_SHUTDOWN_FLAG_NO_STREAM_FLUSH | (rapid ? SSL_SHUTDOWN_FLAG_RAPID : 0);
    if (SSL_shutdown_ex(c->ssl, flags, &args, sizeof args) < 0)
        ERR_clear_error();
    qserver_kick(c->server);
}

bool qconn_gone(const qconn *c)
{
    return c->ssl == NULL;
}

static bool handshake(qconn *c)
{
    if (!SSL_is_init_finished(c->ssl)) {
        if (qserver_now(c->server) >= c->handshake_deadline) {
            qconn_close(c, 0, "handshake timeout", true);
            SSL_free(c->ssl);
            c->ssl = NULL;
        }
        return false;
    }
    const unsigned char *alpn;
    unsigned int alpn_len;
    SSL_get0_alpn_selected(c->ssl, &alpn, &alpn_len);
    c->alpn_len = alpn_len < sizeof c->alpn ? alpn_len : 0;
    memcpy(c->alpn, alpn, c->alpn_len);
    c->ready = true;
    c->last_active = qserver_now(c->server);
    qserver_emit(c->server, &(qevent){ .type = QEV_CONNECTION, .conn = c });
    return true;
}

// Closed by either side or by OpenSSL (idle timeout, protocol error): every
// stream closes, then the connection; the caller frees it.
static bool closed(qconn *c)
{
    SSL_CONN_CLOSE_INFO info;
    if (SSL_get_conn_close_info(c->ssl, &info, sizeof info) != 1)
        return false;
    for (size_t i = 0; i < c->nstreams; i++)
        qserver_emit(c->server, &(qevent){ .type = QEV_STREAM_CLOSE, .conn = c, .stream = c->streams[i]->id });
    qserver_emit(c->server, &(qevent){
        .type = QEV_CLOSE, .conn = c, .code = info.error_code, .bytes = (const unsigned char *)info.reason,
        .len = info.reason ? info.reason_len : 0, .by_peer = !(info.flags & SSL_CONN_CLOSE_FLAG_LOCAL),
        .transport = c->idled || (info.flags & SSL_CONN_CLOSE_FLAG_TRANSPORT) != 0 });
    for (size_t i = 0; i < c->nstreams; i++)
        qstream_free(c->streams[i]);
    c->nstreams = 0;
    SSL_free(c->ssl);
    c->ssl = NULL;
    return true;
}

static bool accept_streams(qconn *c)
{
    bool news = false;
    SSL *ssl;
    while ((ssl = SSL_accept_stream(c->ssl, SSL_ACCEPT_STREAM_NO_BLOCK)) != NULL) {
        qstream *st = qstream_new(ssl, false);
        if (!st || !add_stream(c, st)) {
            // Out of memory: this stream alone goes (its parts reset by the free).
            st ? qstream_free(st) : SSL_free(ssl);
            continue;
        }
        qserver_emit(c->server, &(qevent){ .type = QEV_STREAM, .conn = c, .stream = st->id });
        news = true;
    }
    ERR_clear_error();
    return news;
}

bool qconn_serve(qconn *c)
{
    if (!c->ready) {
        if (SSL_get_conn_close_info(c->ssl, &(SSL_CONN_CLOSE_INFO){ 0 }, sizeof(SSL_CONN_CLOSE_INFO)) == 1) {
            SSL_free(c->ssl); // never told: it goes silently
            c->ssl = NULL;
            return false;
        }
        if (!handshake(c))
            return false;
    }
    if (closed(c))
        return true;
    bool news = accept_streams(c);
    uint64_t now = qserver_now(c->server);
    if (!c->idled && now >= qconn_deadline(c)) {
        c->idled = true;
        qconn_close(c, 0x100, "idle timeout", false); // H3_NO_ERROR
    }
    for (size_t i = 0; i < c->nstreams;) {
        bool done;
        news |= qstream_serve(c, c->streams[i], &done);
        if (done) {
            qstream_free(c->streams[i]);
            c->streams[i] = c->streams[--c->nstreams];
        } else {
            i++;
        }
    }
    if (news)
        c->last_active = now;
    return news;
}

uint64_t qconn_deadline(const qconn *c)
{
    if (!c->ready)
        return c->handshake_deadline;
    return c->idled ? UINT64_MAX : c->last_active + c->server->options.idle_timeout_ms;
}
