/* Prefix-coded integers (RFC 7541 5.1), limited to 32-bit values. Inline: the
 * decoder reads one or more per field, so a call per integer would show up. */
#ifndef HPACK_INTEGER_H
#define HPACK_INTEGER_H

#include <stddef.h>
#include <stdint.h>
#include "hpack.h"

/* Bytes needed to write v with a prefix of prefix_bits (1..8). */
static inline size_t hpack_int_size(uint32_t v, unsigned prefix_bits)
{
    uint32_t max = (1u << prefix_bits) - 1;
    size_t n = 1;
    if (v < max)
        return n;
    for (v -= max; v >= 128; v >>= 7)
        n++;
    return n + 1;
}

/* Write v after the representation bits in `first` (which must leave the prefix
 * bits clear). dst needs hpack_int_size(v, prefix_bits) bytes. */
static inline size_t hpack_int_encode(uint8_t *dst, uint8_t first, unsigned prefix_bits, uint32_t v)
{
    uint32_t max = (1u << prefix_bits) - 1;
    size_t n = 1;
    if (v < max) {
        dst[0] = (uint8_t)(first | v);
        return 1;
    }
    dst[0] = (uint8_t)(first | max);
    for (v -= max; v >= 128; v >>= 7)
        dst[n++] = (uint8_t)(0x80 | (v & 0x7f));
    dst[n++] = (uint8_t)v;
    return n;
}

/* Read an integer at *p (the representation bits in the first byte are
 * ignored) and advance *p. Values over UINT32_MAX and continuations longer than
 * a 32-bit value needs fail with HPACK_ERR_INTEGER, a cut-off integer with
 * HPACK_ERR_TRUNCATED. */
static inline int hpack_int_decode(const uint8_t **p, const uint8_t *end, unsigned prefix_bits, uint32_t *out)
{
    const uint8_t *s = *p;
    uint32_t max = (1u << prefix_bits) - 1;
    uint64_t v;
    unsigned shift = 0;

    if (s == end)
        return HPACK_ERR_TRUNCATED;
    v = *s++ & max;
    if (v < max) {
        *p = s;
        *out = (uint32_t)v;
        return HPACK_OK;
    }
    for (;;) {
        uint8_t b;
        if (s == end)
            return HPACK_ERR_TRUNCATED;
        b = *s++;
        v += (uint64_t)(b & 0x7f) << shift;
        if (v > UINT32_MAX)
            return HPACK_ERR_INTEGER;
        if (!(b & 0x80))
            break;
        shift += 7;
        if (shift > 28)
            return HPACK_ERR_INTEGER; /* a sixth continuation byte cannot be needed */
    }
    *p = s;
    *out = (uint32_t)v;
    return HPACK_OK;
}

#endif
