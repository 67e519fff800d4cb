// One QUIC stream: what the peer sent, what JavaScript queued, and the
// peer's RESET_STREAM and STOP_SENDING, checked once per pass.
#include "quic.h"

#include <stdlib.h>

#include <openssl/err.h>

// Bytes of one stream in one pass at most: OpenSSL's window is 512 KiB per
// stream, so one pass rarely meets it; past it the next pass reads on.
#define MAX_READ (1u << 20)
#define FIRST_READ (64u << 10)

qstream *qstream_new(SSL *ssl, bool local_uni)
{
    qstream *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->ssl = ssl;
    st->id = SSL_get_stream_id(ssl);
    int type = SSL_get_stream_type(ssl);
    st->read_done = local_uni || !(type & SSL_STREAM_TYPE_READ);
    st->write_done = !(type & SSL_STREAM_TYPE_WRITE);
    // A write takes what fits instead of all or nothing.
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE);
    return st;
}

void qstream_free(qstream *st)
{
    // OpenSSL goes on sending what was concluded; a receiving side not
    // finished gets STOP_SENDING (code 0).
    SSL_free(st->ssl);
    queue_clear(&st->out);
    free(st);
}

static uint64_t buffered(qstream *st)
{
    uint64_t used = 0;
    if (!st->write_done && !SSL_get_stream_write_buf_used(st->ssl, &used))
        used = 0;
    return used;
}

int64_t qstream_writable(qstream *st)
{
    return (int64_t)(buffered(st) + st->out.bytes);
}

// Hands OpenSSL queued bytes while what it holds unacknowledged is under
// the high water: so a peer that does not read costs the high water here,
// not OpenSSL's own per-stream buffer of up to 6 MiB.
static void flush(qconn *c, qstream *st)
{
    uint64_t high = c->server->options.high_water, used = buffered(st);
    size_t len, wrote;
    const unsigned char *bytes;
    while (!st->write_done && used < high && (bytes = queue_peek(&st->out, &len)) != NULL) {
        if (len > high - used)
            len = (size_t)(high - used);
        if (!SSL_write_ex(st->ssl, bytes, len, &wrote) || wrote == 0) {
            ERR_clear_error(); // full, or the stream is gone: its state says which
            return;
        }
        queue_consume(&st->out, wrote);
        used += wrote;
    }
    if (!st->write_done && st->fin_queued && st->out.bytes == 0) {
        if (!SSL_stream_conclude(st->ssl, 0))
            ERR_clear_error();
        st->write_done = true;
    }
}

static bool grow_scratch(qserver *s, size_t need)
{
    if (s->scratch_cap >= need)
        return true;
    size_t cap = s->scratch_cap ? s->scratch_cap * 2 : FIRST_READ;
    unsigned char *bigger = realloc(s->scratch, cap);
    if (!bigger)
        return false;
    s->scratch = bigger;
    s->scratch_cap = cap;
    return true;
}

static bool serve_read(qconn *c, qstream *st)
{
    qserver *s = c->server;
    size_t len = 0, got;
    while (len < MAX_READ && grow_scratch(s, len + 1) &&
           SSL_read_ex(st->ssl, s->scratch + len, s->scratch_cap - len, &got) && got > 0)
        len += got;
    ERR_clear_error(); // nothing more to read now reads as an error
    qevent e = { .type = QEV_DATA, .conn = c, .stream = st->id, .bytes = s->scratch, .len = len };
    switch (SSL_get_stream_read_state(st->ssl)) {
    case SSL_STREAM_STATE_FINISHED:
        e.fin = st->read_done = len < MAX_READ;
        break;
    case SSL_STREAM_STATE_RESET_REMOTE:
        if (len > 0)
            qserver_emit(s, &e);
        st->read_done = true;
        e = (qevent){ .type = QEV_RESET, .conn = c, .stream = st->id };
        if (!SSL_get_stream_read_error_code(st->ssl, &e.code))
            e.code = 0;
        qserver_emit(s, &e);
        return true;
    case SSL_STREAM_STATE_OK:
        break;
    default: // the connection is closing: its close tells
        st->read_done = true;
    }
    if (len > 0 || e.fin)
        qserver_emit(s, &e);
    return len > 0 || e.fin;
}

static bool serve_write(qconn *c, qstream *st)
{
    int state = SSL_get_stream_write_state(st->ssl);
    // STOP_SENDING: OpenSSL answers it with RESET_STREAM itself, after which
    // the state reads as a reset of ours (write_done stops us resetting).
    if (state == SSL_STREAM_STATE_RESET_REMOTE || state == SSL_STREAM_STATE_RESET_LOCAL) {
        qevent e = { .type = QEV_STOP_SENDING, .conn = c, .stream = st->id };
        if (!SSL_get_stream_write_error_code(st->ssl, &e.code))
            e.code = 0;
        queue_clear(&st->out);
        st->write_done = true;
        qserver_emit(c->server, &e);
        return true;
    }
    if (state != SSL_STREAM_STATE_OK) {
        queue_clear(&st->out);
        st->write_done = true;
        return false;
    }
    flush(c, st);
    if (!st->want_drain || (uint64_t)qstream_writable(st) >= c->server->options.high_water)
        return false;
    st->want_drain = false;
    qserver_emit(c->server, &(qevent){ .type = QEV_DRAIN, .conn = c, .stream = st->id });
    return true;
}

bool qstream_serve(qconn *c, qstream *st, bool *done)
{
    bool news = false;
    if (!st->read_done)
        news |= serve_read(c, st);
    if (!st->write_done)
        news |= serve_write(c, st);
    *done = st->read_done && st->write_done;
    if (*done)
        qserver_emit(c->server, &(qevent){ .type = QEV_STREAM_CLOSE, .conn = c, .stream = st->id });
    return news || *done;
}

int64_t qstream_write(qconn *c, qstream *st, const void *data, size_t len, bool fin)
{
    if (st->write_done || st->fin_queued)
        return -1;
    if (!queue_push(&st->out, data, len))
        return -2;
    st->fin_queued = fin;
    c->last_active = qserver_now(c->server);
    flush(c, st);
    int64_t queued = qstream_writable(st);
    if ((uint64_t)queued >= c->server->options.high_water)
        st->want_drain = true;
    qserver_kick(c->server);
    return queued;
}

void qstream_reset(qstream *st, uint64_t code)
{
    if (st->write_done && !st->fin_queued)
        return;
    SSL_STREAM_RESET_ARGS args = { .quic_error_code = code };
    if (!SSL_stream_reset(st->ssl, &args, sizeof args))
        ERR_clear_error();
    queue_clear(&st->out);
    st->write_done = true;
}

void qstream_stop_sending(qstream *st)
{
    st->read_done = true;
}
