// The connections whose TLS handshake is not finished, in arrival order,
// which is deadline order since each gets the same time from its arrival:
// one timer, armed for the oldest, serves them all. Past a cap the oldest is
// dropped: a real client finishes within a round trip, long before a flood
// of silent ones pushes it out.
#ifndef TRANSPORT_HANDSHAKES_H
#define TRANSPORT_HANDSHAKES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

// Why a connection left the list without finishing its handshake.
typedef enum hs_drop { HS_DEADLINE, HS_OVER_CAP, HS_CLOSING } hs_drop;

typedef struct hs_link {
    struct hs_link *prev, *next;
    uint64_t deadline;
    bool linked;
} hs_link;

typedef struct handshakes {
    uv_timer_t timer;
    hs_link *head, *tail;
    size_t count, max;
    size_t peak; // the most at once since handshakes_take_peak
    unsigned timeout_ms;
    bool closing;
    void *data;
    // Closes the connection of link, which must call handshakes_remove.
    void (*drop)(void *data, hs_link *link, hs_drop why);
    void (*on_closed)(struct handshakes *q);
} handshakes;

void handshakes_init(handshakes *q, uv_loop_t *loop, unsigned timeout_ms, size_t max);
// A connection that just arrived; may drop the oldest.
void handshakes_add(handshakes *q, hs_link *link);
// Finished, or closing: off the list (nothing if it is not on it).
void handshakes_remove(handshakes *q, hs_link *link);
// The most unfinished at once since the last call (the count now after it).
size_t handshakes_take_peak(handshakes *q);
// Drops every connection still on the list and closes the timer; on_closed
// follows once it is closed.
void handshakes_close(handshakes *q, void (*on_closed)(handshakes *q));

#endif
