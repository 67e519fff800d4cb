/* String literals (RFC 7541 5.2, RFC 9204 4.1.2): plain or Huffman-coded. The
 * length has a prefix of prefix_bits bits with the Huffman flag right above it:
 * 7 in HPACK and in QPACK values, 5 or 3 in QPACK literal names, which share
 * their first byte with representation bits. */
#ifndef HPACK_STRING_LITERAL_H
#define HPACK_STRING_LITERAL_H

#include <stddef.h>
#include <stdint.h>
#include "integer.h"

/* Bytes hpack_string_encode may write for a string of len bytes. */
static inline size_t hpack_string_bound(size_t len, unsigned prefix_bits)
{
    return hpack_int_size((uint32_t)len, prefix_bits) + len;
}

/* Write s as a string literal, Huffman-coded unless that would be longer,
 * after the representation bits in `first` (above the Huffman flag). dst needs
 * hpack_string_bound(len, prefix_bits) bytes. Returns the bytes written. */
size_t hpack_string_encode(uint8_t *dst, uint8_t first, unsigned prefix_bits, const uint8_t *s, size_t len,
                           int huffman);

/* Where Huffman-decoded strings go; pointers into it stay valid for the block. */
struct hpack_scratch {
    uint8_t *pos;
    uint8_t *end;
};

/* Grow *buf to hold at least need bytes (it never shrinks). Returns
 * HPACK_OK or HPACK_ERR_NOMEM with *buf unchanged. */
int hpack_scratch_reserve(uint8_t **buf, size_t *cap, size_t need);

/* Scratch a block of len bytes can need: the shortest Huffman code is 5 bits,
 * so its strings decode to at most 8/5 of it. */
static inline size_t hpack_scratch_need(size_t len)
{
    return len / 5 * 8 + 8;
}

/* Read the string literal at *p and advance *p. The result points into the
 * input when it was plain, into the scratch space when it was Huffman-coded. */
int hpack_string_decode(const uint8_t **p, const uint8_t *end, unsigned prefix_bits, size_t max_len,
                        struct hpack_scratch *scratch, const uint8_t **out, size_t *out_len);

#endif
