/* Byte queue storage. */
#include <stdlib.h>
#include <string.h>
#include "qpack.h"
#include "qpack_buffer.h"

int qpack_buf_reserve(struct qpack_buf *b, size_t extra)
{
    size_t cap = b->cap ? b->cap : 64;
    uint8_t *p;

    if (b->len + extra <= b->cap)
        return QPACK_OK;
    while (cap < b->len + extra)
        cap *= 2;
    p = realloc(b->data, cap);
    if (!p)
        return QPACK_ERR_NOMEM;
    b->data = p;
    b->cap = cap;
    return QPACK_OK;
}

void qpack_buf_append(struct qpack_buf *b, const uint8_t *src, size_t n)
{
    if (n)
        memcpy(b->data + b->len, src, n);
    b->len += n;
}

void qpack_buf_consume(struct qpack_buf *b, size_t n)
{
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

size_t qpack_buf_take(struct qpack_buf *b, uint8_t *dst, size_t cap)
{
    size_t n = b->len < cap ? b->len : cap;
    if (n) {
        memcpy(dst, b->data, n);
        qpack_buf_consume(b, n);
    }
    return n;
}

void qpack_buf_free(struct qpack_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Apply every complete instruction at the start of [src, src + len); *used says how far that went. */
static int apply_all(const uint8_t *src, size_t len, qpack_apply_fn apply, void *state, size_t *used)
{
    const uint8_t *p = src, *end = src + len;

    while (p < end) {
        const uint8_t *q = p;
        int rc = apply(state, &q, end);
        if (rc == HPACK_ERR_TRUNCATED)
            break;
        if (rc != QPACK_OK)
            return rc;
        p = q;
    }
    *used = (size_t)(p - src);
    return QPACK_OK;
}

int qpack_buf_feed(struct qpack_buf *partial, const uint8_t *src, size_t len, qpack_apply_fn apply, void *state)
{
    size_t used;
    int rc;

    /* Most calls end on an instruction boundary: then src is read in place. */
    if (partial->len == 0) {
        rc = apply_all(src, len, apply, state, &used);
        if (rc != QPACK_OK || used == len)
            return rc;
        if (qpack_buf_reserve(partial, len - used) != QPACK_OK)
            return QPACK_ERR_NOMEM;
        qpack_buf_append(partial, src + used, len - used);
        return QPACK_OK;
    }
    if (qpack_buf_reserve(partial, len) != QPACK_OK)
        return QPACK_ERR_NOMEM;
    qpack_buf_append(partial, src, len);
    rc = apply_all(partial->data, partial->len, apply, state, &used);
    if (rc == QPACK_OK)
        qpack_buf_consume(partial, used);
    return rc;
}
