/* String literal coding. Encoding takes one pass over the string: the paper's
 * length guessing (Yamamoto et al., CFI'17, 3.2) instead of measuring the
 * Huffman length first or encoding into a temporary buffer. */
#include <stdlib.h>
#include <string.h>
#include "string_literal.h"

size_t hpack_string_encode(uint8_t *dst, uint8_t first, unsigned prefix_bits, const uint8_t *s, size_t len,
                           int huffman)
{
    size_t prefix = hpack_int_size((uint32_t)len, prefix_bits);
    uint8_t huffman_flag = (uint8_t)(1u << prefix_bits);

    if (huffman && len > 0) {
        /* Huffman saves about a fifth on typical header text: size the length
         * prefix for that guess and encode straight after it. Allowing only
         * len bytes makes the coder give up as soon as Huffman would be longer
         * and keeps it inside the plain form's hpack_string_bound. A tie goes
         * to Huffman, as in RFC 7541 C.6.2 ("307"). */
        size_t guess_prefix = hpack_int_size((uint32_t)(len - len / 5), prefix_bits);
        ssize_t n = hpack_huffman_encode(s, len, dst + guess_prefix, len);
        if (n >= 0) {
            size_t real_prefix = hpack_int_size((uint32_t)n, prefix_bits);
            if (real_prefix != guess_prefix)
                memmove(dst + real_prefix, dst + guess_prefix, (size_t)n);
            hpack_int_encode(dst, first | huffman_flag, prefix_bits, (uint32_t)n);
            return real_prefix + (size_t)n;
        }
    }
    hpack_int_encode(dst, first, prefix_bits, (uint32_t)len);
    memcpy(dst + prefix, s, len);
    return prefix + len;
}

int hpack_string_decode(const uint8_t **p, const uint8_t *end, unsigned prefix_bits, size_t max_len,
                        struct hpack_scratch *scratch, const uint8_t **out, size_t *out_len)
{
    const uint8_t *s = *p;
    uint32_t len;
    int huffman, rc;

    if (s == end)
        return HPACK_ERR_TRUNCATED;
    huffman = *s & (1u << prefix_bits);
    rc = hpack_int_decode(&s, end, prefix_bits, &len);
    if (rc != HPACK_OK)
        return rc;
    /* Refuse before waiting for or decoding bytes we would reject anyway; a
     * Huffman code is at most 30 bits per octet. */
    if ((huffman ? (uint64_t)len * 8 / 30 : len) > max_len)
        return HPACK_ERR_STRING_TOO_LONG;
    if ((size_t)(end - s) < len)
        return HPACK_ERR_TRUNCATED;
    if (!huffman) {
        *out = s;
        *out_len = len;
    } else {
        size_t room = (size_t)(scratch->end - scratch->pos);
        ssize_t n = hpack_huffman_decode(s, len, scratch->pos, room < max_len ? room : max_len);
        if (n == HPACK_ERR_BUFFER_TOO_SMALL && room > max_len)
            return HPACK_ERR_STRING_TOO_LONG;
        if (n < 0)
            return (int)n;
        *out = scratch->pos;
        *out_len = (size_t)n;
        scratch->pos += n;
    }
    *p = s + len;
    return HPACK_OK;
}

int hpack_scratch_reserve(uint8_t **buf, size_t *cap, size_t need)
{
    uint8_t *p;

    if (need <= *cap)
        return HPACK_OK;
    p = realloc(*buf, need);
    if (!p)
        return HPACK_ERR_NOMEM;
    *buf = p;
    *cap = need;
    return HPACK_OK;
}
