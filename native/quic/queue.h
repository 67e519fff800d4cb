// A stream's bytes written by JavaScript and not yet taken by OpenSSL: a
// list of copies, bounded by the caller (the streamHighWater contract).
#ifndef QUIC_QUEUE_H
#define QUIC_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct chunk chunk;

typedef struct queue {
    chunk *head, *tail;
    size_t offset; // bytes of head already taken
    size_t bytes;  // bytes queued, less offset
} queue;

bool queue_push(queue *q, const void *data, size_t len);
// The unsent bytes of the first chunk (len 0 when empty).
const unsigned char *queue_peek(const queue *q, size_t *len);
void queue_consume(queue *q, size_t len);
void queue_clear(queue *q);

#endif
