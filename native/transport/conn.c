#include "conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <openssl/err.h>

#include "buffer.h"
#include "tls_context.h"

// One read buffer for all connections (the loop runs one callback at a
// time): what one readable event decrypts, up to this, is one on_data.
#define READ_BUFFER (64 * 1024)
// Output buffers larger than this are freed once written, so that a
// connection that once sent a large answer does not keep its buffer.
#define KEEP_OUT (16 * 1024)
// Connection ids: a slot in the table and that slot's generation, so an id
// held by the owner after its connection closed never names a newer one.
#define SLOT_BITS 24
#define MAX_SLOTS (1u << SLOT_BITS)

typedef struct tconn tconn;

struct tserver {
    uv_loop_t *loop;
    tserver_options o;
    tserver_events ev;
    acceptor acc; // with the unfinished handshakes and the TLS context
    uv_timer_t report; // on_handshakes, on the loop's next turn
    bool report_due;
    size_t dropped[TSERVER_DROP_REASONS]; // since the last report
    unsigned char *read_buffer;
    tconn **slots;
    uint32_t *gens;
    uint32_t slot_count, slot_cap;
    uint32_t *free_slots;
    uint32_t free_count;
    int open_handles;
    bool closing;
};

struct tconn {
    uv_poll_t poll;
    uv_timer_t idle;
    tserver *s;
    SSL *ssl;
    int fd;
    uint64_t id;
    int events; // what the poll watches now (-1: not started)
    int handles; // open libuv handles: poll and idle
    bool opened;  // on_open was called: the owner knows it
    bool closing, error;
    bool paused, read_ended, end_requested, write_shut, want_drain;
    bool want_write; // OpenSSL asked for a writable socket to go on reading
    bool in_openssl; // inside OpenSSL's ClientHello callback: no reads
    bool dropped;    // by the handshake guard, counted there
    hs_link hs; // while the handshake is not finished
    uint64_t last_active;
    unsigned idle_ms;
    unsigned char *out; // pending bytes are out[out_start, out_len)
    size_t out_start, out_len, out_cap;
    char address[INET6_ADDRSTRLEN];
    int port;
};

static size_t pending(const tconn *c)
{
    return c->out_len - c->out_start;
}

static void server_maybe_free(tserver *s)
{
    if (!s->closing || s->open_handles > 0 || s->acc.open_conns > 0)
        return;
    tserver_events ev = s->ev;
    free(s->read_buffer);
    free(s->slots);
    free(s->gens);
    free(s->free_slots);
    free(s);
    if (ev.on_freed)
        ev.on_freed(ev.data);
}

// ---- connection table ----

static int slot_take(tserver *s, tconn *c)
{
    uint32_t slot;
    if (s->free_count > 0) {
        slot = s->free_slots[--s->free_count];
    } else {
        if (s->slot_count == s->slot_cap) {
            uint32_t cap = s->slot_cap ? s->slot_cap * 2 : 256;
            if (cap > MAX_SLOTS)
                return 0;
            tconn **slots = realloc(s->slots, cap * sizeof *slots);
            if (slots)
                s->slots = slots;
            uint32_t *gens = slots ? realloc(s->gens, cap * sizeof *gens) : NULL;
            if (gens)
                s->gens = gens;
            uint32_t *free_slots = gens ? realloc(s->free_slots, cap * sizeof *free_slots) : NULL;
            if (!free_slots)
                return 0;
            s->free_slots = free_slots;
            s->slot_cap = cap;
        }
        slot = s->slot_count++;
        s->gens[slot] = 0;
    }
    // Below 2^53 in all: ids travel to JavaScript as numbers.
    s->gens[slot] = (s->gens[slot] + 1) & ((1u << 28) - 1);
    s->slots[slot] = c;
    c->id = ((uint64_t)s->gens[slot] << SLOT_BITS) | slot;
    return 1;
}

static void slot_release(tserver *s, tconn *c)
{
    uint32_t slot = (uint32_t)(c->id & (MAX_SLOTS - 1));
    s->slots[slot] = NULL;
    s->free_slots[s->free_count++] = slot;
}

// The open connection the owner names, or NULL.
static tconn *lookup(tserver *s, uint64_t id)
{
    uint32_t slot = (uint32_t)(id & (MAX_SLOTS - 1));
    if (slot >= s->slot_count)
        return NULL;
    tconn *c = s->slots[slot];
    return c && c->id == id && !c->closing ? c : NULL;
}

// ---- reports on the unfinished handshakes ----

static void on_report(uv_timer_t *timer)
{
    tserver *s = timer->data;
    s->report_due = false;
    tserver_handshakes report = { .peak = handshakes_take_peak(&s->acc.hs), .pending = s->acc.hs.count };
    memcpy(report.dropped, s->dropped, sizeof report.dropped);
    memset(s->dropped, 0, sizeof s->dropped);
    s->ev.on_handshakes(s->ev.data, &report);
}

// Batched per turn of the loop: a flood of connections costs one call into
// the owner per turn, not one per connection.
static void report_soon(tserver *s)
{
    if (s->report_due || s->closing)
        return;
    s->report_due = true;
    uv_timer_start(&s->report, on_report, 0, 0);
}

static void count_drop(tserver *s, int reason)
{
    s->dropped[reason]++;
    report_soon(s);
}

// ---- closing ----

static void on_conn_handle_closed(uv_handle_t *handle)
{
    tconn *c = handle->data;
    if (--c->handles > 0)
        return;
    tserver *s = c->s;
    if (c->opened && s->ev.on_close)
        s->ev.on_close(s->ev.data, c->id, c->error);
    slot_release(s, c);
    acceptor_release(&s->acc, c->ssl, c->fd);
    free(c->out);
    free(c);
    server_maybe_free(s);
}

// Memory and the descriptor go in the close callbacks (a later phase of the
// loop), so a connection closed inside one of its own callbacks stays valid
// until that callback returns.
static void conn_close(tconn *c, bool error)
{
    if (c->closing)
        return;
    c->closing = true;
    c->error = error;
    if (!c->opened && error && !c->dropped)
        count_drop(c->s, TSERVER_DROP_TLS_ERROR);
    handshakes_remove(&c->s->acc.hs, &c->hs);
    ERR_clear_error();
    uv_close((uv_handle_t *)&c->poll, on_conn_handle_closed);
    uv_close((uv_handle_t *)&c->idle, on_conn_handle_closed);
}

// ---- watching the socket ----

static void on_conn_event(uv_poll_t *handle, int status, int events);

static bool may_read(const tconn *c)
{
    return c->opened && !c->paused && !c->read_ended && pending(c) < c->s->o.high_water;
}

// Readable while reading is allowed (always during the handshake), writable
// while bytes wait or OpenSSL asked for it.
static void update_watch(tconn *c, bool handshake_wants_write)
{
    if (c->closing)
        return;
    int events = 0;
    if (!c->opened)
        events = handshake_wants_write ? UV_WRITABLE : UV_READABLE;
    else {
        if (may_read(c))
            events |= UV_READABLE;
        if (pending(c) > 0 || c->want_write)
            events |= UV_WRITABLE;
    }
    if (events == c->events)
        return;
    c->events = events;
    int rc = events ? uv_poll_start(&c->poll, events, on_conn_event) : uv_poll_stop(&c->poll);
    if (rc != 0)
        conn_close(c, true);
}

static void touch(tconn *c)
{
    c->last_active = uv_now(c->s->loop);
}

static void on_idle(uv_timer_t *timer);

static void arm_idle(tconn *c)
{
    if (c->closing)
        return;
    if (c->idle_ms == 0) {
        uv_timer_stop(&c->idle);
        return;
    }
    uint64_t due = c->last_active + c->idle_ms, now = uv_now(c->s->loop);
    uv_timer_start(&c->idle, on_idle, due > now ? due - now : 0, 0);
}

// Activity only records its time: the timer, when it fires early, re-arms
// for what is left, so no byte costs a timer operation.
static void on_idle(uv_timer_t *timer)
{
    tconn *c = timer->data;
    if (c->last_active + c->idle_ms > uv_now(c->s->loop)) {
        arm_idle(c);
        return;
    }
    tserver *s = c->s;
    if (s->ev.on_timeout)
        s->ev.on_timeout(s->ev.data, c->id);
    conn_close(c, false);
}

// ---- writing ----

static void shut_write(tconn *c)
{
    c->write_shut = true;
    SSL_shutdown(c->ssl); // close_notify, best effort: the FIN follows either way
    shutdown(c->fd, SHUT_WR);
    ERR_clear_error();
}

// Writes what is pending. Returns 1 when all of it is written, 0 when
// waiting for the socket, -1 when the connection closed.
static int flush(tconn *c)
{
    while (pending(c) > 0) {
        size_t n;
        int ret = SSL_write_ex(c->ssl, c->out + c->out_start, pending(c), &n);
        if (ret <= 0) {
            int e = SSL_get_error(c->ssl, ret);
            if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ) {
                ERR_clear_error();
                return 0;
            }
            conn_close(c, true);
            return -1;
        }
        c->out_start += n;
        touch(c);
    }
    c->out_start = c->out_len = 0;
    if (c->out_cap > KEEP_OUT) {
        free(c->out);
        c->out = NULL;
        c->out_cap = 0;
    }
    if (c->end_requested && !c->write_shut)
        shut_write(c);
    return 1;
}

static int append(tconn *c, const unsigned char *const *bufs, const size_t *lens, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += lens[i];
    if (pending(c) + total > c->s->o.max_pending)
        return 0;
    if (c->out_start > 0 && c->out_len + total > c->out_cap) {
        memmove(c->out, c->out + c->out_start, pending(c));
        c->out_len -= c->out_start;
        c->out_start = 0;
    }
    if (!buffer_reserve(&c->out, &c->out_cap, c->out_len + total))
        return 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(c->out + c->out_len, bufs[i], lens[i]);
        c->out_len += lens[i];
    }
    return 1;
}

// ---- reading ----

// Reads what OpenSSL can decrypt now into the shared buffer and hands it
// over, one on_data per buffer's worth, until the socket is drained, the
// owner pauses, or output backs up.
static void read_some(tconn *c)
{
    tserver *s = c->s;
    while (!c->closing && may_read(c)) {
        size_t have = 0;
        bool ended = false, wait = false;
        c->want_write = false;
        while (have < READ_BUFFER) {
            size_t n;
            int ret = SSL_read_ex(c->ssl, s->read_buffer + have, READ_BUFFER - have, &n);
            if (ret > 0) {
                have += n;
                continue;
            }
            int e = SSL_get_error(c->ssl, ret);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
                c->want_write = e == SSL_ERROR_WANT_WRITE;
                wait = true;
            } else if (e == SSL_ERROR_ZERO_RETURN) {
                ended = true;
            } else {
                conn_close(c, true);
                return;
            }
            ERR_clear_error();
            break;
        }
        if (have > 0) {
            touch(c);
            s->ev.on_data(s->ev.data, c->id, s->read_buffer, have);
            if (c->closing)
                return;
        }
        if (ended) {
            c->read_ended = true;
            s->ev.on_end(s->ev.data, c->id);
            if (!c->closing && c->write_shut && pending(c) == 0)
                conn_close(c, false);
            break;
        }
        if (wait && !SSL_has_pending(c->ssl))
            break;
    }
    update_watch(c, false);
}

// ---- events ----

static void opened(tconn *c)
{
    tserver *s = c->s;
    handshakes_remove(&s->acc.hs, &c->hs);
    if (s->acc.hs.count == 0)
        report_soon(s); // the end of a surge, maybe
    c->opened = true;
    const unsigned char *alpn;
    unsigned alpn_len;
    SSL_get0_alpn_selected(c->ssl, &alpn, &alpn_len);
    c->idle_ms = s->o.idle_timeout_ms;
    touch(c);
    arm_idle(c);
    s->ev.on_open(s->ev.data, c->id, (const char *)alpn, alpn_len, c->address, c->port);
    if (!c->closing)
        read_some(c);
}

static void handshake(tconn *c)
{
    int ret = SSL_do_handshake(c->ssl);
    if (ret == 1) {
        opened(c);
        return;
    }
    int e = SSL_get_error(c->ssl, ret);
    ERR_clear_error();
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
        update_watch(c, e == SSL_ERROR_WANT_WRITE);
    else
        conn_close(c, true);
}

static void on_conn_event(uv_poll_t *handle, int status, int events)
{
    (void)events;
    tconn *c = handle->data;
    if (c->closing)
        return;
    if (status < 0) {
        conn_close(c, true);
        return;
    }
    if (!c->opened) {
        handshake(c);
        return;
    }
    tserver *s = c->s;
    if (pending(c) > 0) {
        bool finish = c->end_requested && !c->write_shut;
        int rc = flush(c);
        if (rc < 0)
            return;
        if (rc == 1 && c->want_drain) {
            c->want_drain = false;
            s->ev.on_drain(s->ev.data, c->id);
            if (c->closing)
                return;
        }
        if (rc == 1 && finish) {
            s->ev.on_finish(s->ev.data, c->id);
            if (c->closing)
                return;
            if (c->read_ended) {
                conn_close(c, false);
                return;
            }
        }
    }
    read_some(c);
}

// ---- the handshake guard ----

static void drop_handshake(void *data, hs_link *link, hs_drop why)
{
    tconn *c = (tconn *)((char *)link - offsetof(tconn, hs));
    c->dropped = true;
    if (why != HS_CLOSING)
        count_drop(data, why == HS_DEADLINE ? TSERVER_DROP_DEADLINE : TSERVER_DROP_OVER_CAP);
    conn_close(c, false);
}

// ---- renegotiation ----

static void renegotiation_refused(SSL *ssl)
{
    tconn *c = SSL_get_app_data(ssl);
    tserver *s = c->s;
    if (!c->opened || c->closing)
        return;
    c->in_openssl = true;
    s->ev.on_renegotiation(s->ev.data, c->id);
    c->in_openssl = false;
}

static const tls_renegotiation_hook RENEGOTIATION = { .refused = renegotiation_refused };

// ---- accepting ----

static void peer_of(tconn *c)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof addr;
    if (getpeername(c->fd, (struct sockaddr *)&addr, &len) != 0)
        return;
    if (addr.ss_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)&addr;
        inet_ntop(AF_INET, &v4->sin_addr, c->address, sizeof c->address);
        c->port = ntohs(v4->sin_port);
    } else if (addr.ss_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&addr;
        inet_ntop(AF_INET6, &v6->sin6_addr, c->address, sizeof c->address);
        c->port = ntohs(v6->sin6_port);
    }
}

static hs_link *accept_one(void *data, int fd, SSL *ssl)
{
    tserver *s = data;
    tconn *c = calloc(1, sizeof *c);
    if (!c || !slot_take(s, c)) {
        free(c);
        return NULL;
    }
    uv_poll_init(s->loop, &c->poll, fd);
    uv_timer_init(s->loop, &c->idle);
    c->handles = 2;
    SSL_set_app_data(ssl, c);
    c->poll.data = c->idle.data = c;
    c->s = s;
    c->ssl = ssl;
    c->fd = fd;
    c->events = -1;
    peer_of(c);
    update_watch(c, false);
    return &c->hs;
}

static void on_handle_closed(tserver *s)
{
    s->open_handles--;
    server_maybe_free(s);
}

static void on_acceptor_closed(void *data)
{
    on_handle_closed(data);
}

static void on_report_closed(uv_handle_t *handle)
{
    on_handle_closed(handle->data);
}

// ---- the API ----

int tserver_open(uv_loop_t *loop, SSL_CTX *ctx, const tserver_options *o, const tserver_events *ev, tserver **out)
{
    tserver *s = calloc(1, sizeof *s);
    unsigned char *read_buffer = s ? malloc(READ_BUFFER) : NULL;
    if (!read_buffer) {
        free(s);
        SSL_CTX_free(ctx);
        return -ENOMEM;
    }
    tls_context_on_renegotiation(ctx, &RENEGOTIATION);
    int rc = acceptor_open(&s->acc, loop, ctx, &(acceptor_config){
        .o = o->listen, .data = s, .on_accept = accept_one, .drop = drop_handshake, .on_closed = on_acceptor_closed,
    });
    if (rc < 0) {
        free(read_buffer);
        free(s);
        return rc;
    }
    s->loop = loop;
    s->o = *o;
    s->o.listen.host = NULL; // the caller's
    s->ev = *ev;
    s->read_buffer = read_buffer;
    uv_timer_init(loop, &s->report);
    uv_unref((uv_handle_t *)&s->report);
    s->report.data = s;
    s->open_handles = 2; // the acceptor and the report timer
    *out = s;
    return 0;
}

int tserver_port(const tserver *s)
{
    return s->acc.port;
}

void tserver_set_context(tserver *s, SSL_CTX *ctx)
{
    tls_context_on_renegotiation(ctx, &RENEGOTIATION);
    acceptor_set_context(&s->acc, ctx);
}

void tserver_stop(tserver *s)
{
    if (s->closing)
        return;
    s->closing = true;
    acceptor_close(&s->acc);
    uv_close((uv_handle_t *)&s->report, on_report_closed);
}

void tserver_close(tserver *s)
{
    tserver_stop(s);
    for (uint32_t i = 0; i < s->slot_count; i++)
        if (s->slots[i])
            conn_close(s->slots[i], false);
}

long long tserver_write(tserver *s, uint64_t id, const unsigned char *const *bufs, const size_t *lens, size_t n)
{
    tconn *c = lookup(s, id);
    if (!c || c->end_requested)
        return -1;
    bool idle = pending(c) == 0;
    if (!append(c, bufs, lens, n)) {
        conn_close(c, true); // past max_pending: the owner ignored backpressure
        return -1;
    }
    if (idle && flush(c) < 0)
        return -1;
    size_t left = pending(c);
    // Whatever waits for the socket ends with on_drain: the owner decides
    // whether anyone was waiting for it.
    c->want_drain = left > 0;
    update_watch(c, false);
    return (long long)left;
}

long long tserver_pending(tserver *s, uint64_t id)
{
    tconn *c = lookup(s, id);
    return c ? (long long)pending(c) : -1;
}

int tserver_pause(tserver *s, uint64_t id, bool paused)
{
    tconn *c = lookup(s, id);
    if (!c)
        return -1;
    c->paused = paused;
    // Bytes OpenSSL already decrypted raise no readable event: read them now
    // (not from inside OpenSSL, where the read that called out goes on).
    if (!paused && !c->in_openssl && SSL_has_pending(c->ssl))
        read_some(c);
    else
        update_watch(c, false);
    return 0;
}

int tserver_end(tserver *s, uint64_t id)
{
    tconn *c = lookup(s, id);
    if (!c)
        return -1;
    if (c->end_requested)
        return 0;
    c->end_requested = true;
    // Inside OpenSSL's refusal of a renegotiation the alert is still to go
    // (a FIN before it loses what was written to the peer in the middle of
    // its handshake), and the connection closes right after it.
    if (pending(c) > 0 || c->in_openssl)
        return 0;
    shut_write(c);
    if (c->read_ended)
        conn_close(c, false);
    return 1;
}

int tserver_destroy(tserver *s, uint64_t id)
{
    tconn *c = lookup(s, id);
    if (!c)
        return -1;
    conn_close(c, false);
    return 0;
}

int tserver_set_idle(tserver *s, uint64_t id, unsigned ms)
{
    tconn *c = lookup(s, id);
    if (!c)
        return -1;
    c->idle_ms = ms;
    touch(c);
    arm_idle(c);
    return 0;
}
