// A listening socket on the loop that accepts connections and hands each
// descriptor to its owner, with the list of its unfinished handshakes
// (handshakes.h): a bounded number per readable event, so that a
// burst of connections cannot keep the loop from the connections it already
// has, and on EMFILE/ENFILE (or no memory) a pause before accepting again,
// instead of waking the loop over and over for a connection it cannot take
// (the pending ones stay in the backlog). Only the listener keeps the
// process alive, as with net.Server.
#ifndef TRANSPORT_ACCEPTOR_H
#define TRANSPORT_ACCEPTOR_H

#include <stdbool.h>

#include <uv.h>

#include "handshakes.h"

typedef struct acceptor_config {
    const char *host; // an address literal
    int port;         // 0: chosen by the system
    bool reuse_port;
    unsigned handshake_timeout_ms; // from arrival
    size_t max_handshakes;         // unfinished at once; past it the oldest is dropped
    void *data;
    void (*on_accept)(void *data, int fd); // a non-blocking, close-on-exec socket
    void (*drop)(void *data, hs_link *link); // see handshakes.h
    void (*on_closed)(void *data); // after acceptor_close, once the handles are closed
} acceptor_config;

typedef struct acceptor {
    uv_poll_t poll;
    uv_timer_t retry;
    handshakes hs;
    int fd;
    int port; // the port bound
    int open_handles;
    bool closing;
    void *data;
    void (*on_accept)(void *data, int fd);
    void (*on_closed)(void *data);
} acceptor;

// Returns 0, or -errno from the listening socket (-EINVAL: host is not an
// address literal).
int acceptor_open(acceptor *a, uv_loop_t *loop, const acceptor_config *config);
// Stops accepting, closes the socket and drops the unfinished handshakes;
// on_closed follows.
void acceptor_close(acceptor *a);

#endif
