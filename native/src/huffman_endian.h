/* huffman_endian.h: big-endian 64-bit loads and stores: the Huffman bit buffers
 * are most-significant-bit first, as HPACK strings are. */
#ifndef HPACK_HUFFMAN_ENDIAN_H
#define HPACK_HUFFMAN_ENDIAN_H

#include <stdint.h>
#include <string.h>

static inline uint64_t huffman_load_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void huffman_store_be64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
}

#endif
