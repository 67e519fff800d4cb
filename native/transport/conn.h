// The connection transport under the HTTP engines (issue #26): a TLS server
// on Node's own event loop that owns its listening socket and connections
// and hands the engine plaintext. C owns accepting, the handshake and its
// guard (a deadline from arrival, a cap on unfinished handshakes with the
// oldest dropped), ALPN, reads, writes with their partial writes and EAGAIN,
// backpressure, the idle timer and close_notify; the engine (JavaScript, via
// binding_conn.c) gets one event per readable event with the bytes OpenSSL
// decrypted, and writes bytes that C queues and sends.
#ifndef TRANSPORT_CONN_H
#define TRANSPORT_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>
#include <uv.h>

#include "acceptor.h"

typedef struct tserver tserver;

// Why handshakes ended unfinished, in the order of the metrics' labels
// (server/metrics/recorder.js HANDSHAKE_DROPS): past the deadline, past the
// cap (the oldest), a TLS error (a failed handshake, a peer gone before the
// end of it).
enum { TSERVER_DROP_DEADLINE, TSERVER_DROP_OVER_CAP, TSERVER_DROP_TLS_ERROR, TSERVER_DROP_REASONS };

// The unfinished handshakes since the last report: the drops by reason, the
// most at once and how many now.
typedef struct tserver_handshakes {
    size_t dropped[TSERVER_DROP_REASONS];
    size_t peak, pending;
} tserver_handshakes;

// What the transport tells its owner, each call on the loop's thread from a
// libuv callback, never from inside a tserver_* call the owner made (the one
// exception: tserver_pause(false) hands over what OpenSSL already holds).
// on_renegotiation alone comes from inside OpenSSL, while it refuses the
// ClientHello: what the owner writes then goes out before the alert, and it
// may end or destroy the connection, which closes right after in any case.
// id names a connection from on_open until on_close; a stale id is refused
// by every tserver_* call.
typedef struct tserver_events {
    void *data;
    void (*on_open)(void *data, uint64_t id, const char *alpn, size_t alpn_len, const char *address, int port);
    // Bytes decrypted in one readable event (the buffer is reused after).
    void (*on_data)(void *data, uint64_t id, const unsigned char *bytes, size_t len);
    void (*on_end)(void *data, uint64_t id);    // the peer sends nothing more
    void (*on_drain)(void *data, uint64_t id);  // all written, after a write that left bytes pending
    void (*on_finish)(void *data, uint64_t id); // after tserver_end: all written, close_notify sent
    void (*on_timeout)(void *data, uint64_t id);  // idle: closed right after
    void (*on_close)(void *data, uint64_t id, bool error);
    // A TLS 1.2 client asked to renegotiate (refused: RFC 9113 9.2.1 makes
    // it a connection error on HTTP/2).
    void (*on_renegotiation)(void *data, uint64_t id);
    // After drops, and when the last unfinished handshake is done: at most
    // one per turn of the loop, however many connections it saw (id-less).
    void (*on_handshakes)(void *data, const tserver_handshakes *report);
    void (*on_freed)(void *data); // the server and all its connections are gone
} tserver_events;

typedef struct tserver_options {
    acceptor_options listen;
    unsigned idle_timeout_ms;      // after the handshake, until tserver_set_idle; 0: none
    size_t high_water;             // pending output from which nothing is read
    size_t max_pending;            // pending output past which the connection is closed
} tserver_options;

// Takes ctx (freed with the server), which must come from tls_context_new.
// Returns 0, or -errno (ctx then freed).
int tserver_open(uv_loop_t *loop, SSL_CTX *ctx, const tserver_options *options, const tserver_events *events,
                 tserver **out);
int tserver_port(const tserver *s);
// New handshakes use ctx (from tls_context_new); connections keep theirs.
// Takes ctx.
void tserver_set_context(tserver *s, SSL_CTX *ctx);
// Stops accepting and drops unfinished handshakes; open connections go on.
// The server frees itself (on_freed) once the last one has closed.
void tserver_stop(tserver *s);
// tserver_stop, and every connection closed at once.
void tserver_close(tserver *s);

// Queues the bytes of n buffers and writes what the socket takes. Returns the
// bytes still pending, or -1 for a closed or ended connection (or one just
// closed for passing max_pending).
long long tserver_write(tserver *s, uint64_t id, const unsigned char *const *bufs, const size_t *lens, size_t n);
long long tserver_pending(tserver *s, uint64_t id); // -1: closed
// Paused: nothing is read (and no on_data) until resumed.
int tserver_pause(tserver *s, uint64_t id, bool paused);
// Once the pending bytes are written: close_notify and a TCP FIN; on_finish.
// Returns 1 when that happened now (no on_finish follows), 0 when it will,
// -1 when closed.
int tserver_end(tserver *s, uint64_t id);
int tserver_destroy(tserver *s, uint64_t id);
int tserver_set_idle(tserver *s, uint64_t id, unsigned ms); // 0: no idle limit

#endif
