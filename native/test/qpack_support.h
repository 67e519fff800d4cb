/* Helpers for the QPACK C tests: sections, streams and fields as hex and text. */
#ifndef QPACK_SUPPORT_H
#define QPACK_SUPPORT_H

#include "codec_support.h"
#include "qpack.h"
#include "qpack_internal.h"

/* A qpack_field_cb appending "name: value\n" per field and "-- <stream>\n" per section. */
int collect_field(void *ctx, uint64_t stream_id, const struct hpack_header *field);

/* Decoder settings with this capacity and blocked-stream limit and roomy other limits. */
struct qpack_decoder_settings qpack_test_settings(uint32_t capacity, uint32_t blocked);

int qdecode_hex(struct qpack_decoder *dec, uint64_t stream_id, const char *hex, struct header_text *out);
int qfeed_hex(struct qpack_decoder *dec, const char *hex, struct header_text *out);

/* Everything queued on a stream, as lower-case hex without spaces. */
void decoder_stream_hex(struct qpack_decoder *dec, char *hex, size_t cap);
void encoder_stream_hex(struct qpack_encoder *enc, char *hex, size_t cap);
void to_hex(const uint8_t *p, size_t n, char *hex, size_t cap);

#endif
