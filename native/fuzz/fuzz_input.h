/* What the fuzz targets share: a cursor over libFuzzer's input, the small
 * framings the targets and the seed builder (corpus.js) agree on, and a check
 * that aborts so libFuzzer saves the input as a crash. */
#ifndef HPACK_FUZZ_INPUT_H
#define HPACK_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond) do {                                                      \
    if (!(cond)) {                                                                 \
        fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #cond); \
        abort();                                                                   \
    } } while (0)

struct fuzz_input {
    const uint8_t *p;
    const uint8_t *end;
};

static inline size_t fuzz_left(const struct fuzz_input *in)
{
    return (size_t)(in->end - in->p);
}

/* A missing byte reads as 0, so every input means something. */
static inline uint8_t fuzz_u8(struct fuzz_input *in)
{
    return in->p < in->end ? *in->p++ : 0;
}

/* Up to len bytes; fewer when the input runs out. */
static inline const uint8_t *fuzz_bytes(struct fuzz_input *in, size_t *len)
{
    const uint8_t *s = in->p;
    if (*len > fuzz_left(in))
        *len = fuzz_left(in);
    in->p += *len;
    return s;
}

/* A header block: a 16-bit big-endian length, then that many bytes (or the rest). */
static inline const uint8_t *fuzz_block(struct fuzz_input *in, size_t *len)
{
    *len = (size_t)fuzz_u8(in) << 8;
    *len |= fuzz_u8(in);
    return fuzz_bytes(in, len);
}

/* A string: one length byte under 0x80, or 0x80 | high bits then the low byte
 * (up to 32767), so short strings stay one byte and long ones are reachable. */
static inline const uint8_t *fuzz_string(struct fuzz_input *in, size_t *len)
{
    uint8_t b = fuzz_u8(in);
    *len = b & 0x80 ? ((size_t)(b & 0x7f) << 8) | fuzz_u8(in) : b;
    return fuzz_bytes(in, len);
}

#endif
