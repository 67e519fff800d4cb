/* A fast seeded 64-bit hash for the encoder's reverse index. Reads words, not
 * bytes, so hashing costs a fraction of an instruction per header byte; the
 * per-encoder seed keeps peers from aiming collisions at one bucket. */
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

static inline uint64_t hpack_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
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
    return hpack_mix(h, h >> 32);
}

#endif
