// A listening socket on the loop that accepts connections and starts their
// TLS (an SSL in accept state, from the acceptor's context) before handing
// each to its owner, with the list of its unfinished handshakes
// (handshakes.h): a bounded number per readable event, so that a
// burst of connections cannot keep the loop from the connections it already
// has, and on EMFILE/ENFILE (or no memory) a pause before accepting again,
// instead of waking the loop over and over for a connection it cannot take
// (the pending ones stay in the backlog). Only the listener keeps the
// process alive, as with net.Server.
#ifndef TRANSPORT_ACCEPTOR_H
#define TRANSPORT_ACCEPTOR_H

#include <stdbool.h>

#include <openssl/ssl.h>
#include <uv.h>

#include "handshakes.h"

typedef struct acceptor_options {
    const char *host; // an address literal
    int port;         // 0: chosen by the system
    bool reuse_port;
    unsigned handshake_timeout_ms; // from arrival
    size_t max_handshakes;         // unfinished at once; past it the oldest is dropped
} acceptor_options;

typedef struct acceptor_config {
    acceptor_options o;
    void *data;
    // A connection: a non-blocking, close-on-exec socket with TCP_NODELAY and
    // its SSL in accept state. Returns the connection's link for the
    // handshake guard, or NULL when it cannot take it (the acceptor then
    // frees ssl and closes fd).
    hs_link *(*on_accept)(void *data, int fd, SSL *ssl);
    void (*drop)(void *data, hs_link *link, hs_drop why); // see handshakes.h
    void (*on_closed)(void *data); // after acceptor_close, once the handles are closed
} acceptor_config;

typedef struct acceptor {
    uv_poll_t poll;
    uv_timer_t retry;
    handshakes hs;
    SSL_CTX *ctx; // for new connections
    size_t open_conns; // accepted, not yet released
    int fd;
    int port; // the port bound
    int open_handles;
    bool closing;
    void *data;
    hs_link *(*on_accept)(void *data, int fd, SSL *ssl);
    void (*on_closed)(void *data);
} acceptor;

// Takes ctx (freed once the acceptor is closed, or now on failure). Returns
// 0, or -errno from the listening socket (-EINVAL: host is not an address
// literal).
int acceptor_open(acceptor *a, uv_loop_t *loop, SSL_CTX *ctx, const acceptor_config *config);
// New connections use ctx (taken), with the ticket keys of the one before so
// that clients resume sessions across it; open ones keep theirs.
void acceptor_set_context(acceptor *a, SSL_CTX *ctx);
// A connection's end, once its owner is done with it: frees ssl, closes fd.
void acceptor_release(acceptor *a, SSL *ssl, int fd);
// Stops accepting, closes the socket and drops the unfinished handshakes;
// on_closed follows.
void acceptor_close(acceptor *a);

#endif
