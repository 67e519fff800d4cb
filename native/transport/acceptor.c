#include "acceptor.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>

#include "listener.h"

#define BACKLOG 511
#define ACCEPTS_PER_EVENT 64
#define ACCEPT_RETRY_MS 100

static void on_listen_event(uv_poll_t *handle, int status, int events);

static void on_retry(uv_timer_t *timer)
{
    acceptor *a = timer->data;
    if (!a->closing)
        uv_poll_start(&a->poll, UV_READABLE, on_listen_event);
}

static void accept_tls(acceptor *a, int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    SSL *ssl = SSL_new(a->ctx);
    hs_link *link = NULL;
    if (ssl && SSL_set_fd(ssl, fd) == 1) {
        SSL_set_accept_state(ssl);
        link = a->on_accept(a->data, fd, ssl);
    }
    if (!link) {
        SSL_free(ssl);
        close(fd);
        ERR_clear_error();
        return;
    }
    a->open_conns++;
    handshakes_add(&a->hs, link);
}

void acceptor_release(acceptor *a, SSL *ssl, int fd)
{
    SSL_free(ssl);
    close(fd);
    a->open_conns--;
}

static void on_listen_event(uv_poll_t *handle, int status, int events)
{
    (void)events;
    acceptor *a = handle->data;
    if (status < 0 || a->closing)
        return;
    for (int i = 0; i < ACCEPTS_PER_EVENT && !a->closing; i++) {
        int fd = accept4(a->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            accept_tls(a, fd);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            uv_poll_stop(&a->poll);
            uv_timer_start(&a->retry, on_retry, ACCEPT_RETRY_MS, 0);
        }
        return;
    }
}

int acceptor_open(acceptor *a, uv_loop_t *loop, SSL_CTX *ctx, const acceptor_config *c)
{
    int fd = listener_open(c->o.host, c->o.port, c->o.reuse_port, BACKLOG, &a->port);
    if (fd < 0) {
        SSL_CTX_free(ctx);
        return fd;
    }
    a->ctx = ctx;
    a->open_conns = 0;
    a->fd = fd;
    a->closing = false;
    a->data = c->data;
    a->on_accept = c->on_accept;
    a->on_closed = c->on_closed;
    handshakes_init(&a->hs, loop, c->o.handshake_timeout_ms, c->o.max_handshakes);
    a->hs.data = c->data;
    a->hs.drop = c->drop;
    uv_poll_init(loop, &a->poll, fd);
    uv_timer_init(loop, &a->retry);
    uv_unref((uv_handle_t *)&a->retry);
    a->poll.data = a->retry.data = a;
    a->open_handles = 3; // the poll, the retry timer and the handshake timer
    uv_poll_start(&a->poll, UV_READABLE, on_listen_event);
    return 0;
}

void acceptor_set_context(acceptor *a, SSL_CTX *ctx)
{
    unsigned char keys[80];
    if (SSL_CTX_get_tlsext_ticket_keys(a->ctx, keys, sizeof keys) == 1)
        SSL_CTX_set_tlsext_ticket_keys(ctx, keys, sizeof keys);
    OPENSSL_cleanse(keys, sizeof keys);
    ERR_clear_error();
    SSL_CTX_free(a->ctx); // connections hold their own references
    a->ctx = ctx;
}

static void one_closed(acceptor *a)
{
    if (--a->open_handles > 0)
        return;
    SSL_CTX_free(a->ctx);
    a->on_closed(a->data);
}

static void on_handle_closed(uv_handle_t *handle)
{
    acceptor *a = handle->data;
    if (handle == (uv_handle_t *)&a->poll)
        close(a->fd);
    one_closed(a);
}

static void on_handshakes_closed(handshakes *q)
{
    one_closed((acceptor *)((char *)q - offsetof(acceptor, hs)));
}

void acceptor_close(acceptor *a)
{
    if (a->closing)
        return;
    a->closing = true;
    uv_close((uv_handle_t *)&a->poll, on_handle_closed);
    uv_close((uv_handle_t *)&a->retry, on_handle_closed);
    handshakes_close(&a->hs, on_handshakes_closed);
}
