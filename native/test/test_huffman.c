/* HPACK Huffman coder: RFC 7541 vectors, exhaustive short strings, random and
 * malformed input, capacity limits; the fast coders are checked against the
 * baselines. Buffers are heap blocks of the exact capacity, so ASan reports
 * any write past it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "hpack.h"
#include "test.h"
#include "hpack_internal.h"
#include "huffman_tables.h"
#include "rfc7541_appendix_c.h"

typedef ssize_t (*coder_fn)(const uint8_t *, size_t, uint8_t *, size_t);

static const struct { const char *name; coder_fn fn; } decoders[] = {
    { "big-table", hpack_huffman_decode },
    { "4-bit", hpack_huffman_decode_4bit },
    { "bitwise", hpack_huffman_decode_bitwise },
};
static const struct { const char *name; coder_fn fn; } encoders[] = {
    { "pair-table", hpack_huffman_encode },
    { "bytewise", hpack_huffman_encode_bytewise },
};
#define NDECODERS (sizeof decoders / sizeof decoders[0])
#define NENCODERS (sizeof encoders / sizeof encoders[0])

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint8_t *xmalloc(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Runs a coder into a heap block of exactly `cap` bytes, copying out what it wrote. */
static ssize_t run_exact(coder_fn fn, const uint8_t *src, size_t len, size_t cap, uint8_t *copy)
{
    uint8_t *dst = malloc(cap); /* malloc(0) may be NULL; a 0 cap must not touch dst then */
    ssize_t r = fn(src, len, dst, cap);
    if (r > 0)
        memcpy(copy, dst, (size_t)r);
    free(dst);
    return r;
}

static size_t max_decoded(size_t encoded_len)
{
    return encoded_len * 8 / 5;
}

/* Encodes with every encoder, checks they agree with encoded_length, decodes with
 * every decoder at the exact size and one byte short. The input is copied to a
 * block of its exact size, so ASan also reports reads past it. */
static void check_round_trip(const uint8_t *plain, size_t len)
{
    size_t elen = hpack_huffman_encoded_length(plain, len);
    uint8_t *src = xmalloc(len), *enc = xmalloc(elen), *other = xmalloc(elen + 1), *dec = xmalloc(len + 1);
    memcpy(src, plain, len);
    CHECK_EQ_INT(run_exact(encoders[0].fn, src, len, elen, enc), elen);
    for (size_t i = 1; i < NENCODERS; i++) {
        CHECK_EQ_INT(run_exact(encoders[i].fn, src, len, elen, other), elen);
        CHECK_MEM(other, enc, elen);
    }
    for (size_t i = 0; i < NDECODERS; i++) {
        memset(dec, 0, len);
        CHECK_EQ_INT(run_exact(decoders[i].fn, enc, elen, len, dec), len);
        CHECK_MEM(dec, src, len);
        if (len > 0)
            CHECK_EQ_INT(run_exact(decoders[i].fn, enc, elen, len - 1, dec), HPACK_ERR_BUFFER_TOO_SMALL);
        CHECK_EQ_INT(run_exact(decoders[i].fn, enc, elen, max_decoded(elen), dec), len);
        if (test_current_failed) {
            fprintf(stderr, "  decoder %s, %zu-byte input\n", decoders[i].name, len);
            break;
        }
    }
    if (elen > 0)
        for (size_t i = 0; i < NENCODERS; i++)
            CHECK_EQ_INT(run_exact(encoders[i].fn, src, len, elen - 1, other), HPACK_ERR_BUFFER_TOO_SMALL);
    free(src);
    free(enc);
    free(other);
    free(dec);
}

/* All decoders must give the same result, error or bytes, for any input and capacity. */
static void check_decoders_agree(const uint8_t *src, size_t len, size_t cap)
{
    uint8_t *first = xmalloc(cap), *out = xmalloc(cap);
    ssize_t expect = run_exact(decoders[0].fn, src, len, cap, first);
    for (size_t i = 1; i < NDECODERS; i++) {
        ssize_t r = run_exact(decoders[i].fn, src, len, cap, out);
        CHECK_EQ_INT(r, expect);
        if (r > 0 && r == expect)
            CHECK_MEM(out, first, (size_t)r);
        if (r != expect) {
            fprintf(stderr, "  %s vs %s, %zu bytes in, cap %zu\n", decoders[i].name, decoders[0].name, len, cap);
            break;
        }
    }
    free(first);
    free(out);
}

static size_t from_hex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2)
        out[n++] = (uint8_t)strtoul((char[]){ hex[0], hex[1], 0 }, NULL, 16);
    return n;
}

TEST(huffman_rfc7541_vectors)
{
    /* RFC 7541 Appendix C.4 and C.6: Huffman-coded request and response strings. */
    CHECK_EQ_INT(rfc7541_huffman_string_count, 12);
    for (size_t i = 0; i < rfc7541_huffman_string_count; i++) {
        const uint8_t *plain = (const uint8_t *)rfc7541_huffman_strings[i].plain;
        size_t plen = strlen(rfc7541_huffman_strings[i].plain);
        uint8_t coded[64], out[64];
        size_t clen = from_hex(rfc7541_huffman_strings[i].hex, coded);
        CHECK_EQ_INT(hpack_huffman_encoded_length(plain, plen), clen);
        for (size_t e = 0; e < NENCODERS; e++) {
            CHECK_EQ_INT(run_exact(encoders[e].fn, plain, plen, clen, out), clen);
            CHECK_MEM(out, coded, clen);
        }
        for (size_t d = 0; d < NDECODERS; d++) {
            CHECK_EQ_INT(run_exact(decoders[d].fn, coded, clen, plen, out), plen);
            CHECK_MEM(out, plain, plen);
        }
        check_round_trip(plain, plen);
    }
}

TEST(huffman_every_single_byte)
{
    for (unsigned b = 0; b < 256; b++) {
        uint8_t byte = (uint8_t)b;
        check_round_trip(&byte, 1);
    }
}

TEST(huffman_every_byte_pair)
{
    for (unsigned v = 0; v < 65536 && !test_current_failed; v++) {
        const uint8_t pair[2] = { (uint8_t)(v >> 8), (uint8_t)v };
        check_round_trip(pair, 2);
    }
}

/* Random strings over alphabets that keep the table paths hot (header-like
 * text), force the long-code fallback (any byte), or pack the most symbols per
 * bit (5-bit codes only), at every length up to 300 and a few long ones. */
TEST(huffman_random_round_trip)
{
    static const char header_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-_.:/=;, ABCXYZ";
    static const char five_bit_chars[] = "012aceiost";
    static const size_t long_lengths[] = { 511, 1024, 4093, 20000 };
    uint8_t *buf = xmalloc(20000);
    for (int alphabet = 0; alphabet < 4 && !test_current_failed; alphabet++) {
        for (size_t n = 0; n < 300 + 4 && !test_current_failed; n++) {
            size_t len = n < 300 ? n : long_lengths[n - 300];
            for (size_t i = 0; i < len; i++) {
                uint64_t x = rng();
                buf[i] = alphabet == 0 ? (uint8_t)header_chars[x % (sizeof header_chars - 1)]
                       : alphabet == 1 ? (uint8_t)x
                       : alphabet == 2 ? (uint8_t)five_bit_chars[x % (sizeof five_bit_chars - 1)]
                       : (x % 64 ? (uint8_t)header_chars[x % (sizeof header_chars - 1)] : (uint8_t)(x >> 8));
            }
            check_round_trip(buf, len);
        }
    }
    free(buf);
}

/* Random bytes are mostly invalid Huffman; mutated valid strings are near misses.
 * Capacities range from none to plenty. */
TEST(huffman_decoders_agree_on_any_input)
{
    uint8_t buf[96], enc[96 * 30 / 8 + 2];
    for (int round = 0; round < 20000 && !test_current_failed; round++) {
        size_t len = rng() % sizeof buf, cap;
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)rng();
        cap = rng() % (max_decoded(len) + 2);
        check_decoders_agree(buf, len, cap);
        check_decoders_agree(buf, len, max_decoded(len));

        /* A valid string with one bit flipped, the last byte dropped, or 0xff appended. */
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)(rng() % 8 ? 'a' + rng() % 26 : rng());
        {
            ssize_t elen = hpack_huffman_encode(buf, len, enc, sizeof enc);
            CHECK(elen >= 0);
            if (elen <= 0)
                continue;
            enc[rng() % (size_t)elen] ^= (uint8_t)(1u << (rng() % 8));
            check_decoders_agree(enc, (size_t)elen, len + 1);
            check_decoders_agree(enc, (size_t)elen - 1, len + 1);
            enc[elen] = 0xff;
            check_decoders_agree(enc, (size_t)elen + 1, len + 2);
        }
    }
}

/* A bit string written as whole bytes of text ("0", "1", spaces ignored). */
static size_t from_bits(const char *bits, uint8_t *out)
{
    size_t n = 0;
    for (; *bits; bits++) {
        if (*bits == ' ')
            continue;
        if (n % 8 == 0)
            out[n / 8] = 0;
        if (*bits == '1')
            out[n / 8] |= (uint8_t)(0x80 >> n % 8);
        n++;
    }
    CHECK_EQ_INT(n % 8, 0);
    return n / 8;
}

TEST(huffman_malformed)
{
    static const char *const invalid[] = {
        /* EOS (30 ones) inside the string, then 'a' (00011) and 5 bits of padding. */
        "11111111 11111111 11111111 111111 00 011 11111",
        /* EOS and two more ones: the whole EOS code is never padding. */
        "11111111 11111111 11111111 11111111",
        /* Padding of 8 or more bits: alone, after 'a', and the start of a 30-bit code. */
        "11111111",
        "00011 111 11111111",
        "00011 111 11111111 11111111 11111111",
        /* Padding with a zero bit, which is also a truncated code ('0' is 00000). */
        "00011 110",
        "00011 011",
        "00011 000",
        "00000 000",
        /* A truncated long code: 16 of the 19 bits of '\\'. */
        "11111111 11111110",
    };
    uint8_t in[16];
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        size_t len = from_bits(invalid[i], in);
        for (size_t d = 0; d < NDECODERS; d++) {
            uint8_t out[32];
            ssize_t r = run_exact(decoders[d].fn, in, len, sizeof out, out);
            CHECK_EQ_INT(r, HPACK_ERR_HUFFMAN);
            if (r != HPACK_ERR_HUFFMAN)
                fprintf(stderr, "  decoder %s accepted \"%s\"\n", decoders[d].name, invalid[i]);
        }
    }
}

TEST(huffman_padding_limits)
{
    /* Padding of 3, 6 and 7 ones after whole symbols ('a' is 00011, '0' is 00000). */
    static const struct { const char *bits, *plain; } valid[] = {
        { "00011 111", "a" },
        { "00000 00000 111111", "00" },
        { "00000 00000 00000 00000 00000 1111111", "00000" },
        { "00011 00011 00011 00011 00011 00011 00011 11111", "aaaaaaa" },
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        uint8_t in[16], out[16];
        size_t len = from_bits(valid[i].bits, in), plen = strlen(valid[i].plain);
        for (size_t d = 0; d < NDECODERS; d++) {
            CHECK_EQ_INT(run_exact(decoders[d].fn, in, len, plen, out), plen);
            CHECK_MEM(out, valid[i].plain, plen);
        }
    }
}

TEST(huffman_empty_input)
{
    uint8_t out[1];
    for (size_t d = 0; d < NDECODERS; d++) {
        CHECK_EQ_INT(decoders[d].fn(NULL, 0, NULL, 0), 0);
        CHECK_EQ_INT(decoders[d].fn(out, 0, out, sizeof out), 0);
    }
    for (size_t e = 0; e < NENCODERS; e++)
        CHECK_EQ_INT(encoders[e].fn(NULL, 0, NULL, 0), 0);
    CHECK_EQ_INT(hpack_huffman_encoded_length(NULL, 0), 0);
}

/* Every capacity below the exact size fails without writing past it. */
TEST(huffman_every_short_capacity)
{
    static const char text[] = "Mon, 21 Oct 2013 20:13:21 GMT; path=/\\x7f; a long enough value to reach the fast loops";
    const uint8_t *plain = (const uint8_t *)text;
    size_t plen = sizeof text - 1, elen = hpack_huffman_encoded_length(plain, plen);
    uint8_t enc[128], out[128];
    CHECK_EQ_INT(hpack_huffman_encode(plain, plen, enc, sizeof enc), elen);
    for (size_t cap = 0; cap < elen; cap++)
        for (size_t e = 0; e < NENCODERS; e++)
            CHECK_EQ_INT(run_exact(encoders[e].fn, plain, plen, cap, out), HPACK_ERR_BUFFER_TOO_SMALL);
    for (size_t cap = 0; cap < plen; cap++)
        for (size_t d = 0; d < NDECODERS; d++)
            CHECK_EQ_INT(run_exact(decoders[d].fn, enc, elen, cap, out), HPACK_ERR_BUFFER_TOO_SMALL);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long size;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    data = xmalloc((size_t)size);
    *len = fread(data, 1, (size_t)size, f);
    fclose(f);
    return data;
}

/* The shared benchmark inputs; HPACK_SHARED_DIR names the shared folder, by
 * default ../../shared seen from native/ (where `make test` runs). */
TEST(huffman_bench_inputs)
{
    static const char *const names[] = { "long-prose.txt", "medium-backslash.txt", "medium-set-cookie.txt", "short-litespeed.txt" };
    const char *dir = getenv("HPACK_SHARED_DIR");
    if (!dir)
        dir = "../../shared";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        size_t len = 0;
        uint8_t *data;
        snprintf(path, sizeof path, "%s/bench-inputs/%s", dir, names[i]);
        data = read_file(path, &len);
        if (!data) {
            printf("  skipped %s: %s (set HPACK_SHARED_DIR)\n", path, strerror(errno));
            continue;
        }
        check_round_trip(data, len);
        free(data);
    }
}

/* A bit string built from codes, for inputs no encoder would write; it can
 * be cut back to any length and continued. */
struct bitstring {
    uint8_t bytes[4096];
    size_t bits;
};

static void put_bits(struct bitstring *b, uint32_t code, unsigned len)
{
    while (len-- > 0) {
        uint8_t mask = (uint8_t)(0x80 >> b->bits % 8);
        if (code >> len & 1)
            b->bytes[b->bits / 8] |= mask;
        else
            b->bytes[b->bits / 8] &= (uint8_t)~mask;
        b->bits++;
    }
}

/* Ones up to the byte boundary (valid padding); the byte count. */
static size_t pad_ones(struct bitstring *b)
{
    while (b->bits % 8)
        put_bits(b, 1, 1);
    return b->bits / 8;
}

/* The decoders agree on src at every capacity from none to ample, and with
 * ample room return `expect` (a length, or an error code). */
static void check_decoders_agree_exactly(const uint8_t *src, size_t len, ssize_t expect, size_t plain_len)
{
    size_t ample = max_decoded(len) + 1;
    uint8_t *out = xmalloc(ample);
    CHECK_EQ_INT(run_exact(decoders[0].fn, src, len, ample, out), expect);
    free(out);
    for (size_t cap = plain_len > 3 ? plain_len - 3 : 0; cap <= plain_len + 1; cap++)
        check_decoders_agree(src, len, cap);
    check_decoders_agree(src, len, ample);
}

/* Every symbol, in shuffled order so long codes meet short ones at every bit
 * offset, then each way a string can end: valid padding, EOS inside the
 * string or at its end, padding of 8 bits or more, padding with a zero bit,
 * and a long code cut short. The big-table decoder must give exactly what
 * the 4-bit and bitwise baselines give, error codes included. */
TEST(huffman_decoders_agree_on_every_symbol_and_ending)
{
    uint8_t symbols[512];
    static struct bitstring b;
    const struct huffman_code eos = huffman_codes[HUFFMAN_EOS];

    for (size_t i = 0; i < sizeof symbols; i++)
        symbols[i] = (uint8_t)i;
    for (size_t i = sizeof symbols - 1; i > 0; i--) {
        size_t j = rng() % (i + 1);
        uint8_t t = symbols[i];
        symbols[i] = symbols[j];
        symbols[j] = t;
    }
    for (size_t k = 0; k <= sizeof symbols && !test_current_failed; k++) {
        size_t n;
        b.bits = 0;
        for (size_t i = 0; i < k; i++)
            put_bits(&b, huffman_codes[symbols[i]].code, huffman_codes[symbols[i]].len);
        size_t body = b.bits;

        n = pad_ones(&b); /* valid */
        check_decoders_agree_exactly(b.bytes, n, (ssize_t)k, k);

        b.bits = body; /* EOS inside the string */
        put_bits(&b, eos.code, eos.len);
        put_bits(&b, huffman_codes['a'].code, huffman_codes['a'].len);
        n = pad_ones(&b);
        check_decoders_agree_exactly(b.bytes, n, HPACK_ERR_HUFFMAN, k + 1);

        b.bits = body; /* EOS at the end */
        put_bits(&b, eos.code, eos.len);
        n = pad_ones(&b);
        check_decoders_agree_exactly(b.bytes, n, HPACK_ERR_HUFFMAN, k);

        b.bits = body; /* padding over 7 bits */
        pad_ones(&b);
        put_bits(&b, 0xff, 8);
        check_decoders_agree_exactly(b.bytes, b.bits / 8, HPACK_ERR_HUFFMAN, k);

        b.bits = body; /* padding with a zero bit, as its last bit */
        if (body % 8 == 0)
            put_bits(&b, 0x7f, 7);
        else
            while (b.bits % 8 != 7)
                put_bits(&b, 1, 1);
        put_bits(&b, 0, 1);
        check_decoders_agree_exactly(b.bytes, b.bits / 8, HPACK_ERR_HUFFMAN, k);

        b.bits = body; /* a 30-bit code ('\n') cut after 16 of its bits */
        put_bits(&b, huffman_codes['\n'].code >> 14, 16);
        n = pad_ones(&b);
        check_decoders_agree_exactly(b.bytes, n, HPACK_ERR_HUFFMAN, k);
        if (test_current_failed)
            fprintf(stderr, "  after %zu symbols\n", k);
    }
}
