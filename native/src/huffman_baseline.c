/* Reference Huffman coders for differential tests and benchmarks: the classic
 * 4-bit state machine (nghttp2's design), a bit-by-bit walk down the code tree,
 * and a byte-at-a-time encoder. They share the fast coders' tables and contracts:
 * symbols are emitted in order, each checked against the capacity, so every
 * decoder reports the same error for the same input and capacity. */
#include "hpack.h"
#include "huffman_bitwriter.h"
#include "huffman_tables.h"
#include "hpack_internal.h"

ssize_t hpack_huffman_decode_4bit(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    uint8_t *out = dst;
    const uint8_t *out_end;
    unsigned state = 0, accept = 1;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    out_end = dst + cap;
    for (size_t i = 0; i < 2 * len; i++) {
        unsigned nibble = i & 1 ? src[i / 2] & 15 : src[i / 2] >> 4;
        const struct huffman_fsm_entry *e = &huffman_fsm[state][nibble];
        if (e->flags & HUFFMAN_FSM_EOS)
            return HPACK_ERR_HUFFMAN;
        if (e->flags & HUFFMAN_FSM_SYM) {
            if (out == out_end)
                return HPACK_ERR_BUFFER_TOO_SMALL;
            *out++ = e->sym;
        }
        state = e->state;
        accept = e->flags & HUFFMAN_FSM_ACCEPT;
    }
    return accept ? out - dst : HPACK_ERR_HUFFMAN;
}

ssize_t hpack_huffman_decode_bitwise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    uint8_t *out = dst;
    const uint8_t *out_end;
    unsigned node = 0, depth = 0, all_ones = 1;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    out_end = dst + cap;
    for (size_t i = 0; i < 8 * len; i++) {
        unsigned bit = (src[i / 8] >> (7 - i % 8)) & 1;
        unsigned child = huffman_tree[node][bit];
        depth++;
        all_ones &= bit;
        if (child < HUFFMAN_LEAF) {
            node = child;
            continue;
        }
        if (child - HUFFMAN_LEAF == HUFFMAN_EOS)
            return HPACK_ERR_HUFFMAN;
        if (out == out_end)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        *out++ = (uint8_t)(child - HUFFMAN_LEAF);
        node = 0;
        depth = 0;
        all_ones = 1;
    }
    /* What follows the last symbol is padding: under 8 bits, all ones. */
    return depth <= 7 && all_ones ? out - dst : HPACK_ERR_HUFFMAN;
}

ssize_t hpack_huffman_encode_bytewise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    struct huffman_bitwriter w;
    int r;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    w = (struct huffman_bitwriter){ 0, 0, dst, dst + cap };
    if ((r = huffman_bitwriter_put(&w, src, len)) != HPACK_OK || (r = huffman_bitwriter_finish(&w)) != HPACK_OK)
        return r;
    return w.dst - dst;
}
