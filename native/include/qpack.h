/*
 * qpack.h: the project's QPACK (RFC 9204) codec, plain C11 beside the HPACK
 * core, whose Huffman coder, integers, string literals and dynamic table it
 * uses. Field sections travel on request streams; the encoder stream carries
 * table changes to the decoder and the decoder stream carries
 * acknowledgments back. Both ends queue the instructions they emit; the
 * caller moves them to the peer with qpack_*_read_stream.
 *
 * Same conventions as hpack.h: no function writes past the capacity or reads
 * past the length it is given; fields are struct hpack_header; negative
 * returns are errors. Stream ids are QUIC stream ids up to 2^32 - 1.
 */
#ifndef QPACK_H
#define QPACK_H

#include "hpack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first three are RFC 9204 section 6's connection errors, numbered as the
 * negated HTTP/3 error code. After one of them, or QPACK_ERR_NOMEM from a
 * decoder or from qpack_encoder_feed_decoder, every later call on that encoder
 * or decoder returns QPACK_ERR_POISONED (the connection must be closed). The
 * others, and QPACK_ERR_NOMEM from qpack_encoder_encode, leave the state as
 * it was. */
enum qpack_error {
    QPACK_OK = 0,
    QPACK_BLOCKED = 1,                         /* not an error: section queued until its inserts arrive */
    QPACK_ERR_DECOMPRESSION_FAILED = -0x200,   /* QPACK_DECOMPRESSION_FAILED: a field section cannot be decoded */
    QPACK_ERR_ENCODER_STREAM = -0x201,         /* QPACK_ENCODER_STREAM_ERROR: bad encoder-stream instruction */
    QPACK_ERR_DECODER_STREAM = -0x202,         /* QPACK_DECODER_STREAM_ERROR: bad decoder-stream instruction */
    QPACK_ERR_FIELD_SECTION_TOO_LARGE = -1,    /* decoded section over max_field_section_size (a stream error) */
    QPACK_ERR_BLOCKED_TOO_LARGE = -2,          /* queued blocked sections would exceed max_blocked_bytes */
    QPACK_ERR_BUFFER_TOO_SMALL = -3,           /* output capacity too small */
    QPACK_ERR_NOMEM = -4,
    QPACK_ERR_POISONED = -5,                   /* failed earlier with a connection error */
    QPACK_ERR_INVALID_ARGUMENT = -6
};

/* A stable name for an error code ("ERR_QPACK_DECOMPRESSION_FAILED", ...). */
const char *qpack_strerror(int err);

/* The HTTP/3 error code (0x200, 0x201, 0x202) to close the connection with, or 0. */
unsigned qpack_h3_error_code(int err);

/* ---- Encoder ------------------------------------------------------------ */

struct qpack_encoder_settings {
    uint32_t max_table_capacity;  /* the peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY */
    uint32_t table_capacity;      /* the capacity to use, at most the above; announced before the first insert */
    uint32_t max_blocked_streams; /* the peer's SETTINGS_QPACK_BLOCKED_STREAMS */
    unsigned flags;               /* HPACK_ENCODER_HUFFMAN, HPACK_ENCODER_INDEX_SHORT_COOKIES,
                                     HPACK_ENCODER_INDEX_VOLATILE, HPACK_ENCODER_FIXED_RULES */
};

/* The strategy (RFC 9204 2.1, in the spirit of HPACK_INDEX_LINEAR): a field
 * equal to a static entry is indexed; a field equal to a dynamic entry is
 * referenced; another field is inserted and referenced after the insert when
 * it may be inserted (the HPACK rules in hpack.h: not never-indexed; not a
 * counter such as content-length, and of a name whose entries get reused or
 * seen recently, as the linear HPACK encoder learns (repeat_memory.h), or with
 * HPACK_ENCODER_FIXED_RULES not on the fixed volatile list; and fitting
 * without evicting an entry that is unacknowledged or that an unacknowledged
 * section references) and is worth it (it fits in the free room, takes at
 * most a quarter of the table, or was seen before).
 * A reference to an entry the decoder has not acknowledged may block the
 * stream; it is made only while this stream is already blocked or fewer than
 * max_blocked_streams streams are, else the field goes as a literal; it is
 * then inserted anyway if it was seen before, for later sections, unless 8
 * inserts are unacknowledged already or the entry would take over a quarter
 * of the table (a bet on acknowledgments that must not become a stream of
 * inserts nobody can use). Entries in the oldest quarter of the table are
 * draining: a field equal to one is re-inserted with Duplicate rather than
 * referenced, when it may block, so old entries can be evicted. */

struct qpack_encoder;

/* NULL when out of memory or when the settings are invalid (table_capacity over
 * max_table_capacity or over HPACK_MAX_TABLE_SIZE). */
struct qpack_encoder *qpack_encoder_new(const struct qpack_encoder_settings *settings);
void qpack_encoder_free(struct qpack_encoder *enc);

/* An upper bound on the field-section bytes qpack_encoder_encode writes. */
size_t qpack_encoder_bound(const struct qpack_encoder *enc, const struct hpack_header *fields, size_t count);

/* Encode one field section for stream_id into dst; the instructions it needs
 * go to the encoder stream queue. Returns the section's length, or
 * QPACK_ERR_BUFFER_TOO_SMALL (cap < qpack_encoder_bound), QPACK_ERR_NOMEM,
 * QPACK_ERR_POISONED, QPACK_ERR_INVALID_ARGUMENT; on any error nothing changed. */
ssize_t qpack_encoder_encode(struct qpack_encoder *enc, uint64_t stream_id, const struct hpack_header *fields,
                             size_t count, uint8_t *dst, size_t cap);

/* Apply decoder-stream bytes (Section Acknowledgment, Stream Cancellation,
 * Insert Count Increment); a partial instruction waits for the next call.
 * Returns QPACK_OK, QPACK_ERR_DECODER_STREAM (acknowledgment of a stream with
 * no outstanding section, increment of 0 or past the inserts sent, integer
 * overflow), QPACK_ERR_NOMEM or QPACK_ERR_POISONED. */
int qpack_encoder_feed_decoder(struct qpack_encoder *enc, const uint8_t *src, size_t len);

/* Treat every section encoded so far as acknowledged (for an offline run with
 * immediate acknowledgments). */
void qpack_encoder_assume_acknowledged(struct qpack_encoder *enc);

/* Encoder-stream bytes waiting, and moving up to cap of them to dst (returns
 * how many were moved). */
size_t qpack_encoder_stream_pending(const struct qpack_encoder *enc);
size_t qpack_encoder_read_stream(struct qpack_encoder *enc, uint8_t *dst, size_t cap);

/* Streams whose outstanding sections reference unacknowledged inserts. */
size_t qpack_encoder_blocked_streams(const struct qpack_encoder *enc);
/* Inserts sent, and inserts the decoder is known to have received. */
uint64_t qpack_encoder_insert_count(const struct qpack_encoder *enc);
uint64_t qpack_encoder_known_received_count(const struct qpack_encoder *enc);
/* A sentence on the last error, for messages. */
const char *qpack_encoder_error_reason(const struct qpack_encoder *enc);

/* ---- Decoder ------------------------------------------------------------ */

struct qpack_decoder_settings {
    uint32_t max_table_capacity;     /* our SETTINGS_QPACK_MAX_TABLE_CAPACITY */
    uint32_t max_blocked_streams;    /* our SETTINGS_QPACK_BLOCKED_STREAMS */
    uint32_t max_field_section_size; /* our SETTINGS_MAX_FIELD_SECTION_SIZE: sum of name + value + 32 */
    uint32_t max_string_length;      /* longest single name or value, after Huffman decoding */
    uint32_t max_blocked_bytes;      /* bytes of blocked sections kept at once */
};

/* Called for each field of a section in order, then once with field == NULL
 * when the section is complete. Pointers are valid until the callback
 * returns. A non-zero return stops the section and is returned as is; the
 * decoder stays usable. */
typedef int (*qpack_field_cb)(void *ctx, uint64_t stream_id, const struct hpack_header *field);

struct qpack_decoder;

/* NULL when out of memory or max_table_capacity > HPACK_MAX_TABLE_SIZE. */
struct qpack_decoder *qpack_decoder_new(const struct qpack_decoder_settings *settings);
void qpack_decoder_free(struct qpack_decoder *dec);

/* Decode the complete field section of stream_id. Returns QPACK_OK after the
 * callbacks, or QPACK_BLOCKED when it needs inserts not yet received: the
 * section is copied and decoded by the qpack_decoder_feed_encoder call that
 * brings them. Errors: QPACK_ERR_DECOMPRESSION_FAILED (malformed, a reference
 * past the Required Insert Count or to an evicted entry, a Required Insert
 * Count no conformant encoder sends, or one more blocked stream than
 * max_blocked_streams), QPACK_ERR_FIELD_SECTION_TOO_LARGE,
 * QPACK_ERR_BLOCKED_TOO_LARGE, QPACK_ERR_NOMEM, QPACK_ERR_POISONED,
 * QPACK_ERR_INVALID_ARGUMENT, or the callback's return. */
int qpack_decoder_decode(struct qpack_decoder *dec, uint64_t stream_id, const uint8_t *src, size_t len,
                         qpack_field_cb cb, void *ctx);

/* Apply encoder-stream bytes (a partial instruction waits for the next call),
 * then decode the queued sections they unblock, in arrival order. Returns
 * QPACK_OK, QPACK_ERR_ENCODER_STREAM (malformed instruction, capacity over our
 * maximum, a reference to a missing entry, an entry larger than the capacity),
 * QPACK_ERR_NOMEM, QPACK_ERR_POISONED, or the first error of an unblocked
 * section (as for qpack_decoder_decode; that section is dropped, and sections
 * still ready are decoded by the next call, which may have len 0). */
int qpack_decoder_feed_encoder(struct qpack_decoder *dec, const uint8_t *src, size_t len, qpack_field_cb cb,
                               void *ctx);

/* The stream was reset or its section abandoned: drop any queued section and
 * tell the encoder (Stream Cancellation), unless our table capacity is 0. */
int qpack_decoder_cancel_stream(struct qpack_decoder *dec, uint64_t stream_id);

/* Decoder-stream bytes: reading first adds an Insert Count Increment for
 * inserts received but not yet acknowledged, then moves up to cap bytes. */
size_t qpack_decoder_stream_pending(const struct qpack_decoder *dec);
size_t qpack_decoder_read_stream(struct qpack_decoder *dec, uint8_t *dst, size_t cap);

const char *qpack_decoder_error_reason(const struct qpack_decoder *dec);

#ifdef __cplusplus
}
#endif
#endif /* QPACK_H */
