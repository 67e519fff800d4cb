/* Helpers shared by the codec's C tests: hex input, and headers or tables as
 * "name: value\n" text so a whole block compares with one strcmp. */
#ifndef HPACK_CODEC_SUPPORT_H
#define HPACK_CODEC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include "hpack.h"
#include "hpack_internal.h"

/* Decode hex (spaces ignored) into out; returns the byte count. */
size_t hex_decode(const char *hex, uint8_t *out, size_t cap);

struct header_text {
    char text[4096];
    size_t len;
};

/* A hpack_header_cb appending "name: value\n" to a struct header_text. */
int collect_header(void *ctx, const struct hpack_header *h);

/* Decode hex with dec into text; returns hpack_decoder_decode's result. */
ssize_t decode_hex(struct hpack_decoder *dec, const char *hex, struct header_text *out);

/* Table entries, newest first, as "name: value\n". */
void decoder_table_text(const struct hpack_decoder *dec, struct header_text *out);
void encoder_table_text(const struct hpack_encoder *enc, struct header_text *out);

/* Parse "name: value\n" lines into headers pointing into text (modified in place). */
size_t parse_headers(char *text, struct hpack_header *out, size_t cap);

/* Encode headers given as text; returns the bytes as lower-case hex without spaces. */
ssize_t encode_text(struct hpack_encoder *enc, const char *headers, char *hex_out, size_t hex_cap);

/* Limits with the default table size and no list or string limit. */
struct hpack_decoder_limits default_limits(void);

#endif
