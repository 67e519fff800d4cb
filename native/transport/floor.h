// The floor of HTTP/1.1 over TLS in C: a server on Node's own event loop
// that owns its listening socket and connections, does TLS with OpenSSL over
// non-blocking sockets and answers every complete request head (up to the
// blank line) with a response prebuilt for its target, pipelined requests
// coalesced into one TLS write. It costs what the transport alone costs: the
// beginning of the transport of issue #21, without an HTTP engine.
#ifndef TRANSPORT_FLOOR_H
#define TRANSPORT_FLOOR_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/ssl.h>
#include <uv.h>

#include "acceptor.h"

typedef struct floor_response {
    const char *target; // the request-target it answers, e.g. "/index.html"
    size_t target_len;
    const unsigned char *bytes; // the whole response: head and body
    size_t len;
} floor_response;

typedef struct floor_options {
    acceptor_options listen; // max_handshakes: unbounded, whatever it says
    const floor_response *responses;
    size_t response_count;
    const unsigned char *not_found; // for any other target
    size_t not_found_len;
} floor_options;

typedef struct floor_server floor_server;

// Takes ctx (freed with the server) and copies the responses. Returns 0, or
// -errno from the listening socket (ctx then freed), -ENOMEM.
int floor_open(uv_loop_t *loop, SSL_CTX *ctx, const floor_options *options, floor_server **out);
int floor_port(const floor_server *server);
// Stops listening and closes every connection; memory is freed once libuv
// has closed the handles (a later turn of the loop).
void floor_close(floor_server *server);

#endif
