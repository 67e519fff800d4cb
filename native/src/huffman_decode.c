/* The fast HPACK Huffman decoder: a 64K-entry table maps the next 16 input bits
 * to up to three symbols (LiteSpeed's "Fast Huffman Decoder"). A code over 16
 * bits goes through the 4-bit state machine from where it starts, and the
 * table takes over again after it, so one rare byte does not slow the rest of
 * the string. The last bits, under 16, use the table too, with ones standing
 * in for the missing bits. */
#include <string.h>
#include "hpack.h"
#include "huffman_endian.h"
#include "huffman_tables.h"

/* Output room under which each write is checked: three lookups write at
 * most 9 symbols, and the last 4-byte store reaches one byte further. */
#define FAST_ROOM 10

/* The next `avail` input bits, most significant first, left-aligned in `buf`.
 * The bits below them are zero or copies of the input that follows, so a
 * refill may OR the same bytes in again. */
struct bit_reader {
    uint64_t buf;
    unsigned avail;
    const uint8_t *src, *end;
};

/* Leaves 56 to 63 bits, or all that is left of the input. The wide refill
 * is branch-free (Giesen's "variant 4"): load 8 bytes, keep whole bytes. */
static inline void refill(struct bit_reader *in)
{
    if (in->end - in->src >= 8) {
        in->buf |= huffman_load_be64(in->src) >> in->avail;
        in->src += (63 - in->avail) >> 3;
        in->avail |= 56;
        return;
    }
    while (in->avail < 56 && in->src < in->end) {
        in->buf |= (uint64_t)*in->src++ << (56 - in->avail);
        in->avail += 8;
    }
}

static inline void consume(struct bit_reader *in, unsigned bits)
{
    in->buf <<= bits;
    in->avail -= bits;
}

/* One lookup, no checks: all three symbol bytes are stored whatever the count,
 * which is cheaper than a branch. Returns the entry's meta. */
static inline unsigned lookup(struct bit_reader *in, uint8_t **out)
{
    const struct huffman_decode_entry *e = &huffman_decode_table[in->buf >> 48];
    unsigned meta = e->meta;
    memcpy(*out, e, sizeof *e);
    *out += HUFFMAN_DECODE_COUNT(meta);
    consume(in, HUFFMAN_DECODE_BITS(meta));
    return meta;
}

/* Three lookups with no bit count or output checks: each takes at most 16
 * bits, so 48 available bits give each of them 16 real ones (a wide refill
 * leaves 56); the caller guarantees FAST_ROOM. A long code's entry consumes and emits nothing, so
 * meeting it again is harmless and one test at the end catches it. Returns 1
 * when the next code is over 16 bits. */
static inline int three_lookups(struct bit_reader *in, uint8_t **out)
{
    lookup(in, out);
    lookup(in, out);
    return lookup(in, out) == 0;
}

/* Lookups while 16 bits are available, checking the output: near the end of
 * the input or of the output. Returns 1 at a long code, 0 when bits run
 * short, HPACK_ERR_BUFFER_TOO_SMALL when a symbol does not fit. */
static int run_checked(struct bit_reader *in, uint8_t **out, const uint8_t *out_end)
{
    while (in->avail >= 16) {
        const struct huffman_decode_entry *e = &huffman_decode_table[in->buf >> 48];
        unsigned count = HUFFMAN_DECODE_COUNT(e->meta);
        if (e->meta == 0)
            return 1;
        if ((size_t)(out_end - *out) < count)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        memcpy(*out, e->sym, count);
        *out += count;
        consume(in, HUFFMAN_DECODE_BITS(e->meta));
    }
    return 0;
}

/* The symbol at the head of `in`, whose code is over 16 bits, through the 4-bit
 * state machine. Needs 30 bits in `in` unless the input is exhausted. Returns
 * the bits it takes, or 0 if it is EOS or the input ends inside it. */
static unsigned long_code(const struct bit_reader *in, uint8_t *sym)
{
    uint64_t window = in->buf;
    unsigned state = 0;
    /* Every 30-bit path from the root meets a leaf: the code is complete. */
    for (unsigned used = 0;; used += 4, window <<= 4) {
        const struct huffman_fsm_entry *e = &huffman_fsm[state][window >> 60];
        if (e->flags & HUFFMAN_FSM_SYM) {
            used += e->bits;
            if (used > in->avail || (e->flags & HUFFMAN_FSM_EOS))
                return 0;
            *sym = e->sym;
            return used;
        }
        state = e->state;
    }
}

/* The last bits of the input, under 16: looked up with ones in place of the
 * missing bits, keeping the symbols that end within the input. What is left
 * is then padding or an error, for the caller to judge. */
static int decode_tail(struct bit_reader *in, uint8_t **out, const uint8_t *out_end)
{
    for (;;) {
        const struct huffman_decode_entry *e = &huffman_decode_table[(in->buf | ~UINT64_C(0) >> in->avail) >> 48];
        unsigned count = 0, bits = 0;
        while (count < HUFFMAN_DECODE_COUNT(e->meta) && bits + huffman_codes[e->sym[count]].len <= in->avail)
            bits += huffman_codes[e->sym[count++]].len;
        if (count == 0)
            return HPACK_OK;
        if ((size_t)(out_end - *out) < count)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        for (unsigned i = 0; i < count; i++)
            *(*out)++ = e->sym[i];
        consume(in, bits);
    }
}

ssize_t hpack_huffman_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    struct bit_reader in;
    uint8_t *out = dst;
    const uint8_t *out_end;
    int r;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    in = (struct bit_reader){ 0, 0, src, src + len };
    out_end = dst + cap;
    for (;;) {
        unsigned bits;
        uint8_t sym;
        refill(&in);
        if (in.avail >= 48 && out_end - out >= FAST_ROOM)
            r = three_lookups(&in, &out);
        else if (in.avail >= 16)
            r = run_checked(&in, &out, out_end);
        else
            break; /* the input is exhausted */
        if (r < 0)
            return r;
        if (r == 0)
            continue;
        refill(&in); /* long_code needs the whole code */
        if ((bits = long_code(&in, &sym)) == 0)
            return HPACK_ERR_HUFFMAN; /* EOS, or 16+ bits left: padding too long */
        if (out == out_end)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        *out++ = sym;
        consume(&in, bits);
    }
    if ((r = decode_tail(&in, &out, out_end)) < 0)
        return r;
    /* RFC 7541 5.2: what is left must be padding, under 8 bits, all ones. */
    if (in.avail > 7 || (in.buf | (~UINT64_C(0) >> in.avail)) != ~UINT64_C(0))
        return HPACK_ERR_HUFFMAN;
    return out - dst;
}
