/* libFuzzer target: the Huffman coders, differentially.
 *
 * The input is used twice. As a coded string: the big-table decoder must
 * agree with the 4-bit state machine and the bit-by-bit tree walk on the
 * result code and the bytes, with room to spare and with an output buffer cut
 * short (the first input byte picks how short); a string that decodes must
 * encode back to exactly the same bytes, because valid padding is unique. As
 * plain bytes: both encoders must write encoded_length bytes, identically,
 * and every decoder must give the input back. */
#include <string.h>
#include "fuzz_input.h"
#include "hpack.h"
#include "hpack_internal.h"

typedef ssize_t (*decode_fn)(const uint8_t *, size_t, uint8_t *, size_t);

static const decode_fn decoders[] = { hpack_huffman_decode, hpack_huffman_decode_4bit, hpack_huffman_decode_bitwise };
#define DECODERS (sizeof decoders / sizeof decoders[0])

/* Every decoder on src with capacity cap, each into its own buffer of exactly
 * cap bytes so ASan sees any write past it: same code, same bytes. The agreed
 * bytes are copied to out (room for cap bytes). */
static ssize_t decode_agreed(const uint8_t *src, size_t len, size_t cap, uint8_t *out)
{
    ssize_t first = 0;
    for (size_t d = 0; d < DECODERS; d++) {
        uint8_t *buf = malloc(cap ? cap : 1);
        ssize_t n = decoders[d](src, len, buf, cap);
        if (d == 0)
            first = n;
        if (n != first)
            fprintf(stderr, "decoder %zu returned %zd, big-table decoder %zd (len %zu, cap %zu)\n", d, n, first, len, cap);
        FUZZ_CHECK(n == first);
        FUZZ_CHECK(n < 0 ? n == HPACK_ERR_HUFFMAN || n == HPACK_ERR_BUFFER_TOO_SMALL : (size_t)n <= cap);
        if (d == 0 && n > 0)
            memcpy(out, buf, (size_t)n);
        else if (n > 0)
            FUZZ_CHECK(memcmp(buf, out, (size_t)n) == 0);
        free(buf);
    }
    return first;
}

/* The input as a coded string. */
static void check_decode(const uint8_t *src, size_t len, size_t short_cap, uint8_t *out, uint8_t *enc)
{
    size_t cap = len * 8 / 5 + 1;
    ssize_t n = decode_agreed(src, len, cap, out);

    if (short_cap < cap) {
        ssize_t m = decode_agreed(src, len, short_cap, out + cap);
        /* A decodable string fits any buffer as long as its output. */
        if (n >= 0)
            FUZZ_CHECK(short_cap >= (size_t)n ? m == n : m == HPACK_ERR_BUFFER_TOO_SMALL);
    }
    if (n < 0)
        return;
    FUZZ_CHECK(hpack_huffman_encoded_length(out, (size_t)n) == len);
    FUZZ_CHECK(hpack_huffman_encode(out, (size_t)n, enc, len) == (ssize_t)len);
    FUZZ_CHECK(memcmp(enc, src, len) == 0);
}

/* The input as plain bytes. */
static void check_encode(const uint8_t *src, size_t len, uint8_t *out, uint8_t *enc, uint8_t *enc2)
{
    size_t elen = hpack_huffman_encoded_length(src, len);

    /* The longest code is 30 bits. */
    FUZZ_CHECK(elen <= (len * 30 + 7) / 8);
    FUZZ_CHECK(hpack_huffman_encode(src, len, enc, elen) == (ssize_t)elen);
    FUZZ_CHECK(hpack_huffman_encode_bytewise(src, len, enc2, elen) == (ssize_t)elen);
    FUZZ_CHECK(memcmp(enc, enc2, elen) == 0);
    if (elen > 0) {
        FUZZ_CHECK(hpack_huffman_encode(src, len, enc2, elen - 1) == HPACK_ERR_BUFFER_TOO_SMALL);
        FUZZ_CHECK(hpack_huffman_encode_bytewise(src, len, enc2, elen - 1) == HPACK_ERR_BUFFER_TOO_SMALL);
    }
    FUZZ_CHECK(decode_agreed(enc, elen, len, out) == (ssize_t)len);
    FUZZ_CHECK(memcmp(out, src, len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = size * 8 / 5 + 1, enc_cap = (size * 30 + 7) / 8 + 1;
    size_t short_cap = size ? data[0] % cap : 0;
    uint8_t *out = malloc(2 * cap), *enc = malloc(enc_cap), *enc2 = malloc(enc_cap);

    check_decode(data, size, short_cap, out, enc);
    check_encode(data, size, out, enc, enc2);
    free(out);
    free(enc);
    free(enc2);
    return 0;
}
