/*
 * hpack.h: the project's HPACK (RFC 7541) core, plain C11 with no Node dependency.
 *
 * Every function that writes returns the number of bytes written, or a negative
 * enum hpack_error; none writes past the capacity it is given, none reads past
 * the length it is given.
 */
#ifndef HPACK_H
#define HPACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h> /* ssize_t */

#ifdef __cplusplus
extern "C" {
#endif

enum hpack_error {
    HPACK_OK = 0,
    HPACK_ERR_HUFFMAN = -1,                /* invalid Huffman string (EOS inside, bad padding) */
    HPACK_ERR_INTEGER = -2,                /* integer overflow or over-long encoding */
    HPACK_ERR_INDEX = -3,                  /* index 0 or past the tables */
    HPACK_ERR_TABLE_SIZE = -4,             /* size update above the limit or out of place */
    HPACK_ERR_TRUNCATED = -5,              /* block ends inside a representation */
    HPACK_ERR_HEADER_LIST_TOO_LARGE = -6,  /* decoded list over maxHeaderListSize */
    HPACK_ERR_STRING_TOO_LONG = -7,        /* one string over the per-string limit */
    HPACK_ERR_BUFFER_TOO_SMALL = -8,       /* output capacity too small */
    HPACK_ERR_NOMEM = -9,                  /* allocation failed */
    HPACK_ERR_POISONED = -10,              /* decoder already failed on this connection */
    HPACK_ERR_INVALID_ARGUMENT = -11
};

/* A stable name for an error code ("ERR_HPACK_HUFFMAN", ...), for bindings and messages. */
const char *hpack_strerror(int err);

/* ---- Huffman (RFC 7541 5.2, Appendix B) ---------------------------------- */

/* Decode a Huffman-coded string. Fails with HPACK_ERR_HUFFMAN on EOS in the
 * string, padding over 7 bits or padding that is not all ones, and with
 * HPACK_ERR_BUFFER_TOO_SMALL when cap is too small. A decoded string is at most
 * len * 8 / 5 bytes long. */
ssize_t hpack_huffman_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* Encode src with the HPACK Huffman code, padding with the high bits of EOS.
 * Needs cap >= hpack_huffman_encoded_length(src, len), else HPACK_ERR_BUFFER_TOO_SMALL. */
ssize_t hpack_huffman_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* The exact number of bytes hpack_huffman_encode writes for src. */
size_t hpack_huffman_encoded_length(const uint8_t *src, size_t len);

/* Baselines, kept for differential tests and benchmarks: the classic 4-bit
 * state-machine decoder, a bit-by-bit tree walk, and a byte-at-a-time encoder.
 * Same contracts as the functions above. */
ssize_t hpack_huffman_decode_4bit(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
ssize_t hpack_huffman_decode_bitwise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
ssize_t hpack_huffman_encode_bytewise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* ---- Codec (integers, strings, tables, encoder, decoder) ------------------ */
/* HPACK_CODEC_API: declared below by the codec. */

#ifdef __cplusplus
}
#endif
#endif /* HPACK_H */
