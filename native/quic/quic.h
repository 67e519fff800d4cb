// The QUIC transport's objects (OpenSSL 3.5's QUIC server API from the node
// binary, driven on Node's libuv loop), shared by server.c, conn.c and
// stream.c. Connections and streams live and die inside the event pump
// (server.c); JavaScript names them by slot and id (binding.c) and
// every call from it checks both.
#ifndef QUIC_QUIC_H
#define QUIC_QUIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>
#include <uv.h>

#include "queue.h"

typedef struct qserver qserver;
typedef struct qconn qconn;

// What one event-handling pass tells JavaScript, in order, delivered all at
// once by qevents.flush (binding.c numbers them for native/quic.js).
typedef enum {
    QEV_CONNECTION, QEV_STREAM, QEV_DATA, QEV_RESET, QEV_STOP_SENDING, QEV_DRAIN, QEV_STREAM_CLOSE, QEV_CLOSE,
    QEV_LISTENER_CLOSE
} qevent_type;

typedef struct qevent {
    qevent_type type;
    const qconn *conn;
    uint64_t stream;
    uint64_t code;
    const unsigned char *bytes; // DATA: the bytes; CLOSE: the reason
    size_t len;
    bool fin;       // DATA
    bool by_peer;   // CLOSE
    bool transport; // CLOSE: a transport error or idle timeout
} qevent;

typedef struct qevents {
    void *data;
    void (*event)(void *data, const qevent *e);
    void (*flush)(void *data);
    void (*freed)(void *data); // after LISTENER_CLOSE: the server is gone
} qevents;

typedef struct qstream {
    SSL *ssl;
    uint64_t id;
    bool read_done;  // FIN or RESET_STREAM told, stopSending, or no receiving side
    bool write_done; // concluded, reset either way, or no sending side
    bool fin_queued; // end() called: conclude once the queue is taken
    bool want_drain; // write() answered false: DRAIN once below the high water
    queue out;
} qstream;

struct qconn {
    qserver *server;
    SSL *ssl;
    uint32_t slot;
    uint64_t id;
    uint64_t handshake_deadline; // uv_now ms
    bool ready;                  // handshake done, JavaScript knows it
    // OpenSSL keeps a live peer's connection open past any idle timeout (it sends PINGs at half
    // of it), so idleTimeoutMs is ours: no stream opened, read or written for that long.
    uint64_t last_active; // uv_now ms
    bool idled;           // closed for that: its close is reported as a transport one
    qstream **streams;
    size_t nstreams, cap;
    // OpenSSL 3.5 has no call for a server connection's peer address: empty, 0.
    char address[64];
    int port;
    unsigned char alpn[32];
    size_t alpn_len;
};

typedef struct qserver_options {
    const char *host;
    int port;
    uint32_t idle_timeout_ms, handshake_timeout_ms, max_connections, high_water;
    bool validate_address; // Retry first: a round trip more per connection
} qserver_options;

struct qserver {
    uv_loop_t *loop;
    uv_poll_t poll;
    uv_timer_t timer;
    int fd, port, open_handles;
    SSL *listener;
    SSL_CTX *ctx, *next_ctx; // next_ctx: setSecureContext's, for handshakes from now on
    qconn **slots;
    uint32_t nconns;
    // Refused connections until their CONNECTION_CLOSE is out (OpenSSL drops it with the object).
    SSL *refused[16];
    uint32_t nrefused;
    qserver_options options;
    qevents events;
    bool in_pump, again, closing, destroying, torn_down;
    unsigned char *scratch; // one stream's bytes of a pass
    size_t scratch_cap;
};

// server.c
// 0 or -errno (-EINVAL: a host that is not an address literal); takes ctx.
int qserver_open(uv_loop_t *loop, SSL_CTX *ctx, const qserver_options *options, const qevents *events, qserver **out);
void qserver_set_context(qserver *s, SSL_CTX *ctx);
void qserver_close(qserver *s);   // no new connections; the socket goes with the last one
// Every connection now (CONNECTION_CLOSE H3_NO_ERROR), then the socket;
// at_once: in this call, without JavaScript (the environment is going).
void qserver_destroy(qserver *s, bool at_once);
qconn *qserver_conn(qserver *s, uint32_t slot, uint64_t id); // NULL once gone
void qserver_kick(qserver *s);    // a pass soon, for what JavaScript asked
void qserver_emit(qserver *s, const qevent *e);
uint64_t qserver_now(qserver *s);

// conn.c
qconn *qconn_new(qserver *s, SSL *ssl, uint32_t slot);
// One pass over a connection: handshake, new streams, every stream, its
// close. True when it had news for JavaScript; qconn_gone(c) after it: the
// caller frees it.
bool qconn_serve(qconn *c);
bool qconn_gone(const qconn *c);
uint64_t qconn_deadline(const qconn *c); // uv_now ms of its handshake deadline or idle timeout
void qconn_free(qconn *c);
qstream *qconn_stream(qconn *c, uint64_t id);
// The new stream's id, or -1 when the peer's limit allows none now.
int64_t qconn_open_uni(qconn *c);
void qconn_close(qconn *c, uint64_t code, const char *reason, bool rapid);

// stream.c
qstream *qstream_new(SSL *ssl, bool local_uni);
// Reads, flushes and checks one stream; true when it had news. *done: it is
// closed (told) and the caller frees it.
bool qstream_serve(qconn *c, qstream *st, bool *done);
void qstream_free(qstream *st);
// Bytes now queued (what the high water compares to), or -1 once closed.
int64_t qstream_write(qconn *c, qstream *st, const void *data, size_t len, bool fin);
int64_t qstream_writable(qstream *st);
void qstream_reset(qstream *st, uint64_t code);
void qstream_stop_sending(qstream *st);

#endif
