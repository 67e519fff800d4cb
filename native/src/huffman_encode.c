/* The fast HPACK Huffman encoder: a 64K-entry table gives the code of two input
 * bytes at once (LiteSpeed's "Fast Huffman Encoder"), gathered in a 64-bit
 * accumulator that is stored as one big-endian word when full. */
#include <string.h>
#include "hpack.h"
#include "huffman_bitwriter.h"
#include "huffman_endian.h"
#include "huffman_tables.h"

/* Input that lets a pass of pair lookups go unchecked: a pass stops once 64
 * bits are gathered, and pairs take at least 10 bits, so it reads at most 7 pairs. */
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

/* Appends a code of up to 32 bits, storing a word only when out_end leaves
 * room for it. Returns 0, with nothing changed, when it does not. */
static inline int append_checked(struct word_writer *w, uint32_t code, unsigned len, const uint8_t *out_end)
{
    if (!__builtin_sub_overflow(w->spare, len, &w->spare)) {
        w->acc |= (uint64_t)code << w->spare;
        return 1;
    }
    if (out_end - w->out < 8) {
        w->spare += len;
        return 0;
    }
    store_word(w, code, ~w->spare);
    return 1;
}

/* Writes the pending bits padded with ones (the high bits of EOS) as whole
 * bytes: one word store when out_end leaves room for it. */
static inline int finish(struct word_writer *w, const uint8_t *out_end)
{
    unsigned pending = 63 - w->spare, bytes = (pending + 7) / 8;
    uint64_t word = w->acc << 1 | ~UINT64_C(0) >> pending;
    size_t room = (size_t)(out_end - w->out);
    if (room >= 8) {
        huffman_store_be64(w->out, word);
    } else if (room >= bytes) {
        for (unsigned i = 0; i < bytes; i++)
            w->out[i] = (uint8_t)(word >> (56 - 8 * i));
    } else {
        return HPACK_ERR_BUFFER_TOO_SMALL;
    }
    w->out += bytes;
    return HPACK_OK;
}

/* Appends a code of up to 32 bits; out needs 8 bytes. */
static inline void append(struct word_writer *w, uint32_t code, unsigned len)
{
    if (__builtin_sub_overflow(w->spare, len, &w->spare))
        store_word(w, code, ~w->spare); /* the borrow left spare = -(rest + 1) */
    else
        w->acc |= (uint64_t)code << w->spare;
}

/* One unchecked pass: pairs while they fit, then the word the next one
 * completes. Reads at most FAST_INPUT bytes and stores at most one word:
 * after a store at least 32 bits are free, and a pass gathers no more than
 * one more code before it ends. */
static inline __attribute__((always_inline)) const uint8_t *pass(struct word_writer *w, const uint8_t *src)
{
    const struct huffman_pair *p;
    /* Two pairs a round, so the input pointer moves once per round. */
    for (;;) {
        p = pair_at(src);
        if (__builtin_sub_overflow(w->spare, p->len, &w->spare))
            break;
        w->acc |= (uint64_t)p->code << w->spare;
        p = pair_at(src + 2);
        if (__builtin_sub_overflow(w->spare, p->len, &w->spare)) {
            src += 2;
            break;
        }
        w->acc |= (uint64_t)p->code << w->spare;
        src += 4;
    }
    if (p->len != HUFFMAN_PAIR_INVALID) {
        store_word(w, p->code, ~w->spare);
    } else {
        /* Over 32 bits: one code at a time, each at most 30 bits. */
        w->spare += HUFFMAN_PAIR_INVALID;
        append(w, huffman_codes[src[0]].code, huffman_codes[src[0]].len);
        append(w, huffman_codes[src[1]].code, huffman_codes[src[1]].len);
    }
    return src + 2;
}

ssize_t hpack_huffman_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    const uint8_t *src_end;
    uint8_t *out_end;
    struct word_writer w = { 0, 63, dst };
    struct huffman_bitwriter tail;
    int r;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    src_end = src + len;
    out_end = dst + cap;
    /* Unchecked passes, two per test of the bounds while there is room for
     * two, then one. */
    if (len >= 2 * FAST_INPUT && cap >= 16) {
        const uint8_t *last_src = src_end - 2 * FAST_INPUT, *last_out = out_end - 16;
        while (src <= last_src && w.out <= last_out) {
            src = pass(&w, src);
            src = pass(&w, src);
        }
    }
    if (len >= FAST_INPUT && cap >= 8) {
        const uint8_t *last_src = src_end - FAST_INPUT, *last_out = out_end - 8;
        while (src <= last_src && w.out <= last_out)
            src = pass(&w, src);
    }
    /* The rest, a pair (or the odd byte) at a time with the input checked,
     * while the words fit the output. */
    while (src < src_end) {
        const struct huffman_pair *p = src_end - src >= 2 ? pair_at(src) : NULL;
        if (p && p->len != HUFFMAN_PAIR_INVALID) {
            if (!append_checked(&w, p->code, p->len, out_end))
                break;
            src += 2;
        } else {
            if (!append_checked(&w, huffman_codes[*src].code, huffman_codes[*src].len, out_end))
                break;
            src++;
        }
    }
    if (src == src_end) {
        if ((r = finish(&w, out_end)) != HPACK_OK)
            return r;
        return w.out - dst;
    }
    /* Near the end of the output: byte by byte with checked stores; the
     * writer takes its pending bits right-aligned. */
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
