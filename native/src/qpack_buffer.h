/* A growable byte queue: the instructions an encoder or decoder has emitted
 * for its peer, and the partial instruction it is waiting to complete. */
#ifndef QPACK_BUFFER_H
#define QPACK_BUFFER_H

#include <stddef.h>
#include <stdint.h>

struct qpack_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
};

/* Make room for extra more bytes. Returns QPACK_OK or QPACK_ERR_NOMEM (unchanged). */
int qpack_buf_reserve(struct qpack_buf *b, size_t extra);

/* Append n bytes; room must have been reserved. */
void qpack_buf_append(struct qpack_buf *b, const uint8_t *src, size_t n);

/* Move up to cap bytes from the front to dst; returns how many. */
size_t qpack_buf_take(struct qpack_buf *b, uint8_t *dst, size_t cap);

/* Drop the first n bytes. */
void qpack_buf_consume(struct qpack_buf *b, size_t n);

void qpack_buf_free(struct qpack_buf *b);

/* Applies the instruction at *p and advances *p; returns QPACK_OK,
 * HPACK_ERR_TRUNCATED when the instruction is not all there yet (*p is then
 * ignored), or an error. */
typedef int (*qpack_apply_fn)(void *state, const uint8_t **p, const uint8_t *end);

/* Feed stream bytes to apply, one instruction at a time: the partial
 * instruction kept from earlier calls plus src; an incomplete instruction at
 * the end is kept for the next call. Returns QPACK_OK, apply's first error,
 * or QPACK_ERR_NOMEM. */
int qpack_buf_feed(struct qpack_buf *partial, const uint8_t *src, size_t len, qpack_apply_fn apply, void *state);

#endif
