/* A fast seeded 64-bit hash for the encoder's reverse index, and the byte
 * comparison that confirms its matches. Both read words, not bytes, so they
 * cost a fraction of an instruction per header byte; the per-encoder seed
 * keeps peers from aiming collisions at one bucket. */
#ifndef HPACK_HASH_H
#define HPACK_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t hpack_load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint32_t hpack_load32(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

#define HPACK_HASH_K 0x9e3779b97f4a7c15ull

/* One word into the state: a multiply carries each bit of it into the bits
 * above; hpack_hash's last shift brings the high bits back down. */
static inline uint64_t hpack_mix(uint64_t h, uint64_t w)
{
    return (h ^ w) * HPACK_HASH_K;
}

static inline uint64_t hpack_hash(const uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t h = hpack_mix(seed, n);
    if (n >= 8) {
        const uint8_t *last = p + n - 8;
        for (; p < last; p += 8)
            h = hpack_mix(h, hpack_load64(p));
        h = hpack_mix(h, hpack_load64(last)); /* overlaps the previous word: no byte loop */
    } else if (n >= 4) {
        h = hpack_mix(h, ((uint64_t)hpack_load32(p) << 32) | hpack_load32(p + n - 4));
    } else if (n > 0) {
        h = hpack_mix(h, ((uint64_t)p[0] << 16) | ((uint64_t)p[n / 2] << 8) | p[n - 1]);
    }
    return h ^ (h >> 29); /* the bucket index takes the low bits */
}

/* a[0..n) == b[0..n), by words: header strings are short, and a library
 * call would cost more than the comparison. */
static inline int hpack_bytes_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (hpack_load64(a + i) != hpack_load64(b + i))
                return 0;
        return hpack_load64(a + n - 8) == hpack_load64(b + n - 8);
    }
    if (n >= 4)
        return hpack_load32(a) == hpack_load32(b) && hpack_load32(a + n - 4) == hpack_load32(b + n - 4);
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

#endif
