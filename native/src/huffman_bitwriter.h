/* huffman_bitwriter.h: the byte-at-a-time Huffman bit writer, shared by the
 * bytewise baseline encoder and the fast encoder's tail, where every output
 * byte is checked against the capacity. */
#ifndef HPACK_HUFFMAN_BITWRITER_H
#define HPACK_HUFFMAN_BITWRITER_H

#include <stdint.h>
#include "hpack.h"
#include "huffman_tables.h"

/* The low `bits` bits of `acc` are pending output; the bits above are stale. */
struct huffman_bitwriter {
    uint64_t acc;
    unsigned bits;
    uint8_t *dst;
    uint8_t *end;
};

/* Writes out the whole pending bytes. Leaves fewer than 8 bits pending. */
static inline int huffman_bitwriter_drain(struct huffman_bitwriter *w)
{
    for (; w->bits >= 8; w->bits -= 8) {
        if (w->dst == w->end)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        *w->dst++ = (uint8_t)(w->acc >> (w->bits - 8));
    }
    return HPACK_OK;
}

/* Appends the codes of src[0..len). Starts with fewer than 8 bits pending, so
 * a 30-bit code never pushes a pending bit out of the accumulator. */
static inline int huffman_bitwriter_put(struct huffman_bitwriter *w, const uint8_t *src, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const struct huffman_code *c = &huffman_codes[src[i]];
        int r;
        w->acc = w->acc << c->len | c->code;
        w->bits += c->len;
        if ((r = huffman_bitwriter_drain(w)) != HPACK_OK)
            return r;
    }
    return HPACK_OK;
}

/* Pads the last byte with the high bits of EOS (all ones). */
static inline int huffman_bitwriter_finish(struct huffman_bitwriter *w)
{
    if (w->bits == 0)
        return HPACK_OK;
    if (w->dst == w->end)
        return HPACK_ERR_BUFFER_TOO_SMALL;
    *w->dst++ = (uint8_t)(w->acc << (8 - w->bits) | 0xffu >> w->bits);
    w->bits = 0;
    return HPACK_OK;
}

#endif
