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

/* Leaves 56 to 63 bits: needs 8 input bytes. Branch-free (Giesen's "variant
 * 4"): load 8 bytes, keep whole bytes. */
static inline void refill_wide(struct bit_reader *in)
{
    in->buf |= huffman_load_be64(in->src) >> in->avail;
    in->src += (63 - in->avail) >> 3;
    in->avail |= 56;
}

/* The next n (1..7) input bytes, most significant first, at the top of a
 * word: three loads at most, rather than one per byte. */
static inline uint64_t load_be_partial(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    unsigned at = 64;
    if (n & 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        at -= 32;
        v |= (uint64_t)__builtin_bswap32(w) << at;
        p += 4;
    }
    if (n & 2) {
        at -= 16;
        v |= (uint64_t)(p[0] << 8 | p[1]) << at;
        p += 2;
    }
    if (n & 1)
        v |= (uint64_t)p[0] << (at - 8);
    return v;
}

/* Leaves 56 to 63 bits, or all that is left of the input. */
static inline void refill(struct bit_reader *in)
{
    size_t left = (size_t)(in->end - in->src);
    unsigned n;
    if (left >= 8) {
        refill_wide(in);
        return;
    }
    n = (63 - in->avail) >> 3; /* whole bytes that fit */
    if (n > left)
        n = (unsigned)left;
    if (n == 0)
        return;
    in->buf |= load_be_partial(in->src, n) >> in->avail;
    in->src += n;
    in->avail += 8 * n;
}

static inline void consume(struct bit_reader *in, unsigned bits)
{
    in->buf <<= bits;
    in->avail -= bits;
}

/* One lookup, no checks: all three symbol bytes are stored whatever the count,
 * which is cheaper than a branch. Returns the bits it took. */
static inline unsigned lookup(struct bit_reader *in, uint8_t **out)
{
    const struct huffman_decode_entry *e = &huffman_decode_table[in->buf >> 48];
    memcpy(*out, e->sym, 4);
    *out += e->count;
    consume(in, e->bits);
    return e->bits;
}

/* The unchecked loop: while 8 input bytes can be loaded and FAST_ROOM bytes
 * written, a wide refill and three lookups. Each lookup takes at most 16 bits,
 * so the 56 bits of a refill give each of them 16 real ones. A long code's
 * entry consumes and emits nothing, so meeting it again is harmless and one
 * test after the third lookup catches it. Returns 1 at a long code, 0 at the
 * bounds. The reader is copied into locals so it stays in registers. */
static inline int run_fast(struct bit_reader *in, uint8_t **out, const uint8_t *src_end, const uint8_t *out_end)
{
    struct bit_reader r = *in;
    uint8_t *o = *out;
    int at_long_code = 0;
    while (r.src < src_end && o < out_end) {
        refill_wide(&r);
        lookup(&r, &o);
        lookup(&r, &o);
        if (lookup(&r, &o) == 0) {
            at_long_code = 1;
            break;
        }
    }
    *in = r;
    *out = o;
    return at_long_code;
}

/* Writes an entry's first count symbols, checking the room: all four bytes
 * when there is room for them, which is cheaper than a copy of count bytes. */
static inline int emit(const struct huffman_decode_entry *e, unsigned count, uint8_t **out, const uint8_t *out_end)
{
    size_t room = (size_t)(out_end - *out);
    if (room >= 4)
        memcpy(*out, e->sym, 4);
    else if (room >= count)
        memcpy(*out, e->sym, count);
    else
        return HPACK_ERR_BUFFER_TOO_SMALL;
    *out += count;
    return HPACK_OK;
}

/* Lookups while 16 bits are available, checking the output: near the end of
 * the input or of the output. Returns 1 at a long code, 0 when bits run
 * short, HPACK_ERR_BUFFER_TOO_SMALL when a symbol does not fit. */
static int run_checked(struct bit_reader *in, uint8_t **out, const uint8_t *out_end)
{
    while (in->avail >= 16) {
        const struct huffman_decode_entry *e = &huffman_decode_table[in->buf >> 48];
        if (e->bits == 0)
            return 1;
        if (emit(e, e->count, out, out_end) < 0)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        consume(in, e->bits);
    }
    return 0;
}

/* The symbol at the head of the reader's bits, whose code is over 16 bits,
 * through the 4-bit state machine. Needs 30 bits unless the input is
 * exhausted. Returns the bits it takes, or 0 if it is EOS or the input ends
 * inside it. Takes the bits by value so the reader can stay in registers. */
static unsigned long_code(uint64_t window, unsigned avail, uint8_t *sym)
{
    unsigned state = 0;
    /* Every 30-bit path from the root meets a leaf: the code is complete. */
    for (unsigned used = 0;; used += 4, window <<= 4) {
        const struct huffman_fsm_entry *e = &huffman_fsm[state][window >> 60];
        if (e->flags & HUFFMAN_FSM_SYM) {
            used += e->bits;
            if (used > avail || (e->flags & HUFFMAN_FSM_EOS))
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
        unsigned count = e->count, bits = e->bits;
        if (bits > in->avail) { /* the last symbols reach into the ones: keep those that end in time */
            count = bits = 0;
            while (count < e->count && bits + huffman_codes[e->sym[count]].len <= in->avail)
                bits += huffman_codes[e->sym[count++]].len;
        }
        if (count == 0)
            return HPACK_OK;
        if (emit(e, count, out, out_end) < 0)
            return HPACK_ERR_BUFFER_TOO_SMALL;
        consume(in, bits);
    }
}

ssize_t hpack_huffman_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
    struct bit_reader in;
    uint8_t *out = dst;
    const uint8_t *out_end, *fast_src_end, *fast_out_end;
    int r;
    if (len == 0) /* an empty string may come with NULL buffers */
        return 0;
    in = (struct bit_reader){ 0, 0, src, src + len };
    out_end = dst + cap;
    /* Bounds of the unchecked passes: 8 bytes to load, FAST_ROOM bytes to write. */
    fast_src_end = len >= 8 ? in.end - 8 + 1 : src;
    fast_out_end = cap >= FAST_ROOM ? out_end - FAST_ROOM + 1 : dst;
    for (;;) {
        unsigned bits;
        uint8_t sym;
        if (!run_fast(&in, &out, fast_src_end, fast_out_end)) {
            refill(&in);
            if (in.avail < 16)
                break; /* the input is exhausted */
            if ((r = run_checked(&in, &out, out_end)) < 0)
                return r;
            if (r == 0)
                continue;
        }
        refill(&in); /* long_code needs the whole code */
        if ((bits = long_code(in.buf, in.avail, &sym)) == 0)
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
