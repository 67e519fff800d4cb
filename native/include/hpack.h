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

/* Decode a Huffman-coded string into dst. A decoded string is at most
 * len * 8 / 5 bytes long. Returns the decoded length, or:
 *   HPACK_ERR_HUFFMAN           EOS in the string, padding over 7 bits, or
 *                               padding that is not all ones
 *   HPACK_ERR_BUFFER_TOO_SMALL  the decoded string is longer than cap
 * Errors are reported in string order: the first problem met wins. */
ssize_t hpack_huffman_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* Encode src with the HPACK Huffman code, padding with the high bits of EOS.
 * Returns the encoded length, or:
 *   HPACK_ERR_BUFFER_TOO_SMALL  cap < hpack_huffman_encoded_length(src, len)
 *                               (dst may have been written up to cap) */
ssize_t hpack_huffman_encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* The exact number of bytes hpack_huffman_encode writes for src. */
size_t hpack_huffman_encoded_length(const uint8_t *src, size_t len);

/* ---- Codec (integers, strings, tables, encoder, decoder) ------------------ */

/* One header field. For the encoder, the strings are the caller's bytes (header
 * names must already be lower case, as HTTP/2 requires). For the decoder, the
 * pointers are valid only until the callback returns: they point into the input
 * block, the dynamic table or the decoder's scratch space, so nothing is copied
 * or allocated per header. */
struct hpack_header {
    const uint8_t *name;
    size_t name_len;
    const uint8_t *value;
    size_t value_len;
    unsigned flags;
};

/* Encoder: never put this field in a table and send it as "never indexed" (RFC
 * 7541 6.2.3) so intermediaries do not either. Decoder: the field arrived that way. */
#define HPACK_HEADER_NEVER_INDEXED 1u

/* The default SETTINGS_HEADER_TABLE_SIZE (RFC 7540 6.5.2). */
#define HPACK_DEFAULT_TABLE_SIZE 4096u

/* The largest dynamic table (HPACK) or table capacity (QPACK) the core sets
 * up; larger sizes are refused rather than allocated (a table keeps a byte
 * ring of twice its size). A peer may allow more, but a bigger table gains
 * nothing. The Node binding exports it as maxTableSize. */
#define HPACK_MAX_TABLE_SIZE (1u << 24)

/* Encoding strategies, named after Yamamoto, Tsujikawa and Oku, "Exploring HTTP/2
 * Header Compression" (CFI'17):
 *   HPACK_INDEX_NONE    "Naive": every field is a literal without indexing with a
 *                       literal name (0x00); no table is consulted.
 *   HPACK_INDEX_STATIC  "Static": a field equal to a static entry is indexed; else a
 *                       literal without indexing, naming a static entry when the
 *                       name is in the static table. The dynamic table stays empty.
 *   HPACK_INDEX_LINEAR  "Linear": static and dynamic tables; a field found in
 *                       either is indexed, others are literals with incremental
 *                       indexing (name by index when possible), except fields
 *                       that are never indexed (below), fields larger than the
 *                       table, which could never fit, and fields unlikely to
 *                       repeat, whose entries would only evict entries that do:
 *                       content-length and age values, and, after four
 *                       inserts, fields of a name whose entries this encoder
 *                       has seen reused less than twice per insert, unless the
 *                       same field came recently (learnt per encoder, from
 *                       fixed-seed fingerprints, so the same input always
 *                       gives the same output; see repeat_memory.h).
 *                       HPACK_ENCODER_FIXED_RULES replaces the learning by the
 *                       paper's fixed list of volatile fields: :path,
 *                       content-length, content-location, etag, set-cookie and
 *                       age (its reference encoder, haskell-http2, skips all but
 *                       age; nghttp2 skips age too).
 *                       HPACK_ENCODER_INDEX_VOLATILE indexes every field that
 *                       may be indexed, as the RFC 7541 Appendix C examples do.
 * Each strategy with HPACK_ENCODER_HUFFMAN is the paper's "H" variant: a string is
 * Huffman-coded unless that would be longer than its plain octets (a tie goes
 * to Huffman, as in RFC 7541 C.6.2).
 * Never indexed (all strategies): fields flagged HPACK_HEADER_NEVER_INDEXED,
 * authorization, and cookie values under 20 bytes (guessable by brute force
 * through the compression ratio); they are sent as "never indexed" literals.
 * The paper's strategies have no cookie rule: HPACK_ENCODER_INDEX_SHORT_COOKIES
 * turns it off (a short cookie then costs one byte less, since index 32 needs
 * two bytes under the never-indexed 4-bit prefix); with
 * HPACK_ENCODER_FIXED_RULES as well, the strategies are exactly the paper's. */
enum hpack_indexing {
    HPACK_INDEX_NONE = 0,
    HPACK_INDEX_STATIC = 1,
    HPACK_INDEX_LINEAR = 2
};
#define HPACK_ENCODER_HUFFMAN 1u
#define HPACK_ENCODER_INDEX_SHORT_COOKIES 2u
#define HPACK_ENCODER_INDEX_VOLATILE 4u
#define HPACK_ENCODER_FIXED_RULES 8u

/* A sentence describing an error code, for messages ("index 0 or past the tables"). */
const char *hpack_error_description(int err);

struct hpack_encoder;

/* table_size is the dynamic table size both ends start with (the peer's
 * SETTINGS_HEADER_TABLE_SIZE; 4096 by default), so it is not signalled. Returns
 * NULL when out of memory, on an invalid indexing value, or when table_size is
 * over HPACK_MAX_TABLE_SIZE. */
struct hpack_encoder *hpack_encoder_new(uint32_t table_size, enum hpack_indexing indexing, unsigned flags);
void hpack_encoder_free(struct hpack_encoder *enc);

/* Change the encoder's dynamic table size (at most what the peer allows). The
 * change is signalled at the start of the next block: the smallest size set
 * since the last block, then the final one when they differ (RFC 7541 4.2).
 * Returns HPACK_OK, or:
 *   HPACK_ERR_INVALID_ARGUMENT  table_size over HPACK_MAX_TABLE_SIZE
 *   HPACK_ERR_NOMEM             no memory for a larger table (nothing changed) */
int hpack_encoder_set_table_size(struct hpack_encoder *enc, uint32_t table_size);

/* A count that moves whenever the encoder's state changes in a way that can
 * change the block a later call makes: a size update set or sent, a field
 * inserted, or one remembered as seen (HPACK_INDEX_LINEAR's learning). While it
 * stays the same, the same headers encode to the same bytes, so a caller may
 * send a copy of the earlier block instead of encoding them again; the only
 * difference is that the copy does not count as reuse of the entries it
 * indexes in what the encoder learns. */
uint64_t hpack_encoder_changes(const struct hpack_encoder *enc);

/* An upper bound on what hpack_encoder_encode writes for these headers. */
size_t hpack_encoder_bound(const struct hpack_encoder *enc, const struct hpack_header *headers, size_t count);

/* Encode one header block. Returns the number of bytes written, or:
 *   HPACK_ERR_BUFFER_TOO_SMALL  cap < hpack_encoder_bound(...), found before the
 *                               encoder's state changes, so the caller can
 *                               retry with a larger buffer
 *   HPACK_ERR_INVALID_ARGUMENT  enc or dst NULL, or headers NULL with count > 0 */
ssize_t hpack_encoder_encode(struct hpack_encoder *enc, const struct hpack_header *headers, size_t count,
                             uint8_t *dst, size_t cap);

struct hpack_decoder;

struct hpack_decoder_limits {
    uint32_t max_table_size;       /* protocol limit: our SETTINGS_HEADER_TABLE_SIZE */
    uint32_t max_header_list_size; /* RFC 7540 SETTINGS_MAX_HEADER_LIST_SIZE: sum of name + value + 32 */
    uint32_t max_string_length;    /* longest single name or value, after Huffman decoding */
};

/* Called once per decoded header, in order. A non-zero return aborts the block:
 * decode returns that value and the decoder is poisoned. */
typedef int (*hpack_header_cb)(void *ctx, const struct hpack_header *header);

/* NULL when out of memory, or when limits is NULL or its max_table_size is
 * over HPACK_MAX_TABLE_SIZE. */
struct hpack_decoder *hpack_decoder_new(const struct hpack_decoder_limits *limits);
void hpack_decoder_free(struct hpack_decoder *dec);

/* Change the protocol limit once the peer has acknowledged our new
 * SETTINGS_HEADER_TABLE_SIZE. A limit below the table's current maximum
 * shrinks the table at once; the peer's encoder then owes us a size update.
 * Returns HPACK_OK, or:
 *   HPACK_ERR_INVALID_ARGUMENT  max_table_size over HPACK_MAX_TABLE_SIZE
 *   HPACK_ERR_NOMEM             no memory for a larger table (nothing changed) */
int hpack_decoder_set_max_table_size(struct hpack_decoder *dec, uint32_t max_table_size);

/* Decode one complete header block, calling cb for each header. Returns the
 * number of headers, or:
 *   HPACK_ERR_HUFFMAN                invalid Huffman string (see hpack_huffman_decode)
 *   HPACK_ERR_INTEGER                integer over 32 bits or over-long encoding
 *   HPACK_ERR_INDEX                  index 0 or past the static and dynamic tables
 *   HPACK_ERR_TABLE_SIZE             size update above the limit, after a field,
 *                                    more than two in a row, or missing when the
 *                                    limit fell below the table's size
 *   HPACK_ERR_TRUNCATED              the block ends inside a representation
 *   HPACK_ERR_HEADER_LIST_TOO_LARGE  the list exceeds max_header_list_size
 *   HPACK_ERR_STRING_TOO_LONG        a name or value exceeds max_string_length
 *   HPACK_ERR_NOMEM                  no memory for the block's decoded strings
 *   HPACK_ERR_POISONED               an earlier call failed
 *   HPACK_ERR_INVALID_ARGUMENT       dec or cb NULL, or src NULL with len > 0
 *   any non-zero value cb returned
 * After any failure the decoder's table no longer matches the peer's, so every
 * later call returns HPACK_ERR_POISONED (the connection must be closed with
 * COMPRESSION_ERROR). */
ssize_t hpack_decoder_decode(struct hpack_decoder *dec, const uint8_t *src, size_t len,
                             hpack_header_cb cb, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* HPACK_H */
