/* The fast HPACK Huffman encoder: a 64K-entry table gives the code of two input
 * bytes at once (LiteSpeed's "Fast Huffman Encoder"), gathered in a 64-bit
 * accumulator that is stored as one big-endian word when full. */
#include <string.h>
#include "hpack.h"
#include "huffman_bitwriter.h"
#include "huffman_endian.h"
#include "huffman_tables.h"

/* Input that lets a run of pair lookups go unchecked: a run stops once 64 bits
 * are gathered, and pairs take at least 10 bits, so it reads at most 7 pairs. */
#define FAST_INPUT 14

static inline const struct huffman_pair *pair_at(const uint8_t *src)
{
    uint16_t index;
    memcpy(&index, src, sizeof index);
    return &huffman_pairs[index];
}

/* Pending output: 63 - spare bits (0..63) at the top of acc, starting one bit
 * below bit 63, which is ignored. With that offset, spare (the free bits less
 * one) is both the shift that places the next code and a counter whose
 * subtraction borrows exactly when the code does not fit: one unsigned
 * subtraction, whose flags the loop branches on, tests "fits and valid". */
struct word_writer {
    uint64_t acc;
    unsigned spare;
    uint8_t *out;
};

/* Stores the word completed by the high bits of a code that did not fit; its
 * low `rest` bits start the next word. out needs 8 bytes. */
static inline void store_word(struct word_writer *w, uint32_t code, unsigned rest)
{
    huffman_store_be64(w->out, w->acc << 1 | (uint64_t)code >> rest);
    w->out += 8;
    w->acc = (uint64_t)code << (63 - rest);
    w->spare = 63 - rest;
}

/* Appends a code of up to 32 bits; out needs 8 bytes. */
static inline void append(struct word_writer *w, uint32_t code, unsigned len)
{
    if (__builtin_sub_overflow(w->spare, len, &w->spare))
        store_word(w, code, ~w->spare); /* the borrow left spare = -(rest + 1) */
    else
        w->acc |= (uint64_t)code << w->spare;
}

ssize_t hpack_huffman_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    const uint8_t *src_end, *fast_src_end;
    uint8_t *out_end, *fast_out_end;
    struct word_writer w = { 0, 63, dst };
    struct huffman_bitwriter tail;
    int r;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    src_end = src + len;
    out_end = dst + cap;
    /* Bounds of the unchecked passes: FAST_INPUT bytes to read, one word to store. */
    fast_src_end = len >= FAST_INPUT ? src_end - FAST_INPUT + 1 : src;
    fast_out_end = cap >= 8 ? out_end - 8 + 1 : dst;
    /* Each pass stores at most one word: after a store at least 32 bits are
     * free, and a pass gathers no more than one more code before it ends. */
    while (src < fast_src_end && w.out < fast_out_end) {
        const struct huffman_pair *p;
        /* Two pairs a round, so the input pointer moves once per round. */
        for (;;) {
            p = pair_at(src);
            if (__builtin_sub_overflow(w.spare, p->len, &w.spare))
                break;
            w.acc |= (uint64_t)p->code << w.spare;
            p = pair_at(src + 2);
            if (__builtin_sub_overflow(w.spare, p->len, &w.spare)) {
                src += 2;
                break;
            }
            w.acc |= (uint64_t)p->code << w.spare;
            src += 4;
        }
        if (p->len != HUFFMAN_PAIR_INVALID) {
            store_word(&w, p->code, ~w.spare);
        } else {
            /* Over 32 bits: one code at a time, each at most 30 bits. */
            w.spare += HUFFMAN_PAIR_INVALID;
            append(&w, huffman_codes[src[0]].code, huffman_codes[src[0]].len);
            append(&w, huffman_codes[src[1]].code, huffman_codes[src[1]].len);
        }
        src += 2;
    }
    /* The rest, byte by byte with checked stores; the writer takes its pending bits right-aligned. */
    tail = (struct huffman_bitwriter){ w.acc >> w.spare, 63 - w.spare, w.out, out_end };
    if ((r = huffman_bitwriter_drain(&tail)) != HPACK_OK ||
        (r = huffman_bitwriter_put(&tail, src, (size_t)(src_end - src))) != HPACK_OK ||
        (r = huffman_bitwriter_finish(&tail)) != HPACK_OK)
        return r;
    return tail.dst - dst;
}

size_t hpack_huffman_encoded_length(const uint8_t *src, size_t len)
{
    uint64_t bits = 0;
    size_t i = 0;
    for (; i + 2 <= len; i += 2) {
        const struct huffman_pair *p = pair_at(src + i);
        bits += p->len != HUFFMAN_PAIR_INVALID ? p->len : huffman_codes[src[i]].len + huffman_codes[src[i + 1]].len;
    }
    if (i < len)
        bits += huffman_codes[src[i]].len;
    return (size_t)((bits + 7) / 8);
}
