#include "floor.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "buffer.h"


// One read buffer for all connections (the loop runs one callback at a
// time): what a connection left unanswered is copied in front of what is
// read. A head longer than MAX_HEAD closes the connection.
#define MAX_HEAD 8192
#define READ_BUFFER (MAX_HEAD + 65536)
// Bytes of answers a connection may have waiting to be written before its
// remaining pipelined heads wait (one answer larger than this is written in
// place, never copied).
#define OUT_LIMIT (256 * 1024)
// Unfinished handshakes at once: the floor is a benchmark, not a guard.
#define MAX_HANDSHAKES ((size_t)-1)

typedef struct conn conn;

struct floor_server {
    uv_loop_t *loop;
    acceptor acc; // with the unfinished handshakes and the TLS context
    floor_response *responses; // targets and bytes in one allocation
    size_t response_count;
    const unsigned char *not_found;
    size_t not_found_len;
    unsigned char *read_buffer;
    conn *conns; // every open connection
    int open_handles;
    bool closing;
};

struct conn {
    uv_poll_t poll;
    floor_server *server;
    SSL *ssl;
    int fd;
    int events; // what the poll watches now
    bool handshaken;
    bool closing;
    hs_link hs; // while the handshake is not finished
    conn *prev, *next;
    unsigned char *carry; // bytes not answered yet, once there are any
    size_t carry_len, carry_cap;
    // Bytes to write: one prebuilt response in place, or several copied into
    // out. While any are left nothing is read (the client must read first).
    const unsigned char *pending;
    size_t pending_len;
    unsigned char *out;
    size_t out_cap;
};

static void server_maybe_free(floor_server *s)
{
    if (!s->closing || s->open_handles > 0 || s->acc.open_conns > 0)
        return;
    free(s->responses);
    free(s->read_buffer);
    free(s);
}

static void on_conn_closed(uv_handle_t *handle)
{
    conn *c = handle->data;
    floor_server *s = c->server;
    acceptor_release(&s->acc, c->ssl, c->fd);
    free(c->carry);
    free(c->out);
    free(c);
    server_maybe_free(s);
}

static void conn_close(conn *c)
{
    if (c->closing)
        return;
    c->closing = true;
    floor_server *s = c->server;
    handshakes_remove(&s->acc.hs, &c->hs);
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    ERR_clear_error();
    uv_close((uv_handle_t *)&c->poll, on_conn_closed);
}

static void on_conn_event(uv_poll_t *handle, int status, int events);

static void watch(conn *c, int events)
{
    if (c->closing || c->events == events)
        return;
    c->events = events;
    if (uv_poll_start(&c->poll, events, on_conn_event) != 0)
        conn_close(c);
}

// After a failed SSL_* call: 1 to wait for the socket (watched for what
// OpenSSL needs), 0 after closing the connection.
static int wait_or_close(conn *c, int ret)
{
    switch (SSL_get_error(c->ssl, ret)) {
    case SSL_ERROR_WANT_READ:
        watch(c, UV_READABLE);
        return 1;
    case SSL_ERROR_WANT_WRITE:
        watch(c, UV_WRITABLE);
        return 1;
    case SSL_ERROR_ZERO_RETURN: // close_notify: answer it, best effort
        SSL_shutdown(c->ssl);
        conn_close(c);
        return 0;
    default: // a reset, EOF without close_notify, a TLS alert or error
        conn_close(c);
        return 0;
    }
}

// The response for the request-target of the head buf[0..len): the second
// word of the request line.
static void response_for(const floor_server *s, const unsigned char *head, size_t len, const unsigned char **bytes,
                         size_t *bytes_len)
{
    *bytes = s->not_found;
    *bytes_len = s->not_found_len;
    const unsigned char *sp1 = memchr(head, ' ', len);
    if (!sp1)
        return;
    const unsigned char *target = sp1 + 1;
    const unsigned char *sp2 = memchr(target, ' ', (size_t)(head + len - target));
    if (!sp2)
        return;
    size_t target_len = (size_t)(sp2 - target);
    for (size_t i = 0; i < s->response_count; i++) {
        const floor_response *r = &s->responses[i];
        if (r->target_len == target_len && memcmp(r->target, target, target_len) == 0) {
            *bytes = r->bytes;
            *bytes_len = r->len;
            return;
        }
    }
}

// Called only while nothing is pending at the start of a read: the first
// response is written in place, a second one moves both into out.
static int queue_response(conn *c, const unsigned char *bytes, size_t len)
{
    if (c->pending_len == 0) {
        c->pending = bytes;
        c->pending_len = len;
        return 1;
    }
    bool in_out = c->pending == c->out; // before buffer_reserve moves out
    if (!buffer_reserve(&c->out, &c->out_cap, c->pending_len + len))
        return 0;
    if (!in_out)
        memcpy(c->out, c->pending, c->pending_len);
    memcpy(c->out + c->pending_len, bytes, len);
    c->pending = c->out;
    c->pending_len += len;
    return 1;
}

// The first "\r\n\r\n" in [p, end), or NULL: memchr per line is a fifth
// of glibc's memmem on request heads (callgrind, 5-line heads).
static const unsigned char *find_blank_line(const unsigned char *p, const unsigned char *end)
{
    while (end - p >= 4) {
        const unsigned char *cr = memchr(p, '\r', (size_t)(end - p) - 3);
        if (!cr)
            return NULL;
        if (cr[1] == '\n' && cr[2] == '\r' && cr[3] == '\n')
            return cr;
        p = cr + 1;
    }
    return NULL;
}

// Answers the complete heads in buf[0..len) until OUT_LIMIT bytes of answers
// are waiting; returns the bytes used.
static size_t answer_heads(conn *c, const unsigned char *buf, size_t len)
{
    size_t at = 0;
    const unsigned char *end;
    while (c->pending_len < OUT_LIMIT && (end = find_blank_line(buf + at, buf + len)) != NULL) {
        const unsigned char *bytes;
        size_t bytes_len;
        response_for(c->server, buf + at, (size_t)(end - (buf + at)), &bytes, &bytes_len);
        if (!queue_response(c, bytes, bytes_len)) {
            conn_close(c);
            return len;
        }
        at = (size_t)(end - buf) + 4;
    }
    return at;
}

// Writes what is pending: 1 when all is written, 0 when waiting for the
// socket or closed.
static int flush(conn *c)
{
    while (c->pending_len > 0) {
        size_t n;
        int ret = SSL_write_ex(c->ssl, c->pending, c->pending_len, &n);
        if (ret <= 0) {
            wait_or_close(c, ret);
            return 0;
        }
        c->pending += n;
        c->pending_len -= n;
    }
    return 1;
}

// Keeps bytes not yet answered (an unfinished head, or heads left for after
// the answers before them are out) for the connection's next turn.
static int keep_carry(conn *c, const unsigned char *buf, size_t have)
{
    if (have > c->carry_cap) {
        unsigned char *carry = realloc(c->carry, have);
        if (!carry)
            return 0;
        c->carry = carry;
        c->carry_cap = have;
    }
    if (have)
        memcpy(c->carry, buf, have);
    c->carry_len = have;
    return 1;
}

// Answers what the connection has sent: first the heads kept from its last
// turn, then what one read(2) brings (with read-ahead), reading again only
// while OpenSSL holds unread records (the poll is level-triggered: bytes left
// in the socket wake the loop again, so no read ends in EAGAIN). Answers are
// written together; past OUT_LIMIT bytes of them the remaining heads wait
// until those are written, so pipelined requests cannot make the server
// buffer more than that per connection.
static void read_requests(conn *c)
{
    unsigned char *buf = c->server->read_buffer;
    for (;;) {
        size_t have = c->carry_len;
        if (have)
            memcpy(buf, c->carry, have);
        bool may_read = true;
        for (;;) {
            size_t used = answer_heads(c, buf, have);
            if (c->closing)
                return;
            if (used > 0 && used < have)
                memmove(buf, buf + used, have - used);
            have -= used;
            if (c->pending_len >= OUT_LIMIT)
                break;
            if (have > MAX_HEAD) {
                conn_close(c);
                return;
            }
            if (!may_read) {
                watch(c, UV_READABLE);
                break;
            }
            size_t n;
            int ret = SSL_read_ex(c->ssl, buf + have, READ_BUFFER - have, &n);
            if (ret <= 0) {
                if (!wait_or_close(c, ret))
                    return;
                break;
            }
            have += n;
            may_read = SSL_has_pending(c->ssl);
        }
        if (!keep_carry(c, buf, have)) {
            conn_close(c);
            return;
        }
        bool held_back = c->pending_len >= OUT_LIMIT;
        if (!flush(c) || !held_back)
            return;
    }
}

static void handshake(conn *c)
{
    int ret = SSL_do_handshake(c->ssl);
    if (ret <= 0) {
        wait_or_close(c, ret);
        return;
    }
    c->handshaken = true;
    handshakes_remove(&c->server->acc.hs, &c->hs);
    read_requests(c);
}

static void on_conn_event(uv_poll_t *handle, int status, int events)
{
    (void)events;
    conn *c = handle->data;
    if (status < 0) {
        conn_close(c);
        return;
    }
    if (!c->handshaken) {
        handshake(c);
        return;
    }
    if (!flush(c))
        return;
    read_requests(c);
}

static void drop_handshake(void *data, hs_link *link, hs_drop why)
{
    (void)data;
    (void)why;
    conn_close((conn *)((char *)link - offsetof(conn, hs)));
}

static hs_link *accept_one(void *data, int fd, SSL *ssl)
{
    floor_server *s = data;
    conn *c = calloc(1, sizeof *c);
    if (!c || uv_poll_init(s->loop, &c->poll, fd) != 0) {
        free(c);
        return NULL;
    }
    c->poll.data = c;
    c->server = s;
    c->ssl = ssl;
    c->fd = fd;
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    watch(c, UV_READABLE);
    return &c->hs;
}

static void on_acceptor_closed(void *data)
{
    floor_server *s = data;
    s->open_handles--;
    server_maybe_free(s);
}

static floor_response *copy_responses(const floor_options *o)
{
    size_t size = o->response_count * sizeof(floor_response) + o->not_found_len;
    for (size_t i = 0; i < o->response_count; i++)
        size += o->responses[i].target_len + o->responses[i].len;
    floor_response *copy = malloc(size ? size : 1);
    if (!copy)
        return NULL;
    unsigned char *at = (unsigned char *)(copy + o->response_count);
    for (size_t i = 0; i < o->response_count; i++) {
        const floor_response *r = &o->responses[i];
        copy[i].target = memcpy(at, r->target, r->target_len);
        copy[i].target_len = r->target_len;
        at += r->target_len;
        copy[i].bytes = memcpy(at, r->bytes, r->len);
        copy[i].len = r->len;
        at += r->len;
    }
    memcpy(at, o->not_found, o->not_found_len);
    return copy;
}

int floor_open(uv_loop_t *loop, SSL_CTX *ctx, const floor_options *o, floor_server **out)
{
    floor_server *s = calloc(1, sizeof *s);
    floor_response *responses = s ? copy_responses(o) : NULL;
    unsigned char *read_buffer = responses ? malloc(READ_BUFFER) : NULL;
    if (!read_buffer) {
        free(responses);
        free(s);
        SSL_CTX_free(ctx);
        return -ENOMEM;
    }
    acceptor_config config = {
        .o = o->listen, .data = s, .on_accept = accept_one, .drop = drop_handshake, .on_closed = on_acceptor_closed,
    };
    config.o.max_handshakes = MAX_HANDSHAKES;
    int rc = acceptor_open(&s->acc, loop, ctx, &config);
    if (rc < 0) {
        free(read_buffer);
        free(responses);
        free(s);
        return rc;
    }
    s->loop = loop;
    s->responses = responses;
    s->response_count = o->response_count;
    s->not_found = (unsigned char *)(responses + o->response_count);
    for (size_t i = 0; i < o->response_count; i++)
        s->not_found += o->responses[i].target_len + o->responses[i].len;
    s->not_found_len = o->not_found_len;
    s->read_buffer = read_buffer;
    s->open_handles = 1; // the acceptor
    *out = s;
    return 0;
}

int floor_port(const floor_server *s)
{
    return s->acc.port;
}

void floor_close(floor_server *s)
{
    if (s->closing)
        return;
    s->closing = true;
    acceptor_close(&s->acc);
    while (s->conns)
        conn_close(s->conns);
}
