/* QPACK test helpers. */
#include <stdio.h>
#include <string.h>
#include "qpack_support.h"

int collect_field(void *ctx, uint64_t stream_id, const struct hpack_header *field)
{
    struct header_text *t = ctx;
    if (field)
        return collect_header(ctx, field);
    t->len += (size_t)snprintf(t->text + t->len, sizeof t->text - t->len, "-- %llu\n", (unsigned long long)stream_id);
    return 0;
}

struct qpack_decoder_settings qpack_test_settings(uint32_t capacity, uint32_t blocked)
{
    struct qpack_decoder_settings s = { capacity, blocked, 1u << 16, 1u << 16, 1u << 16 };
    return s;
}

int qdecode_hex(struct qpack_decoder *dec, uint64_t stream_id, const char *hex, struct header_text *out)
{
    uint8_t buf[1024];
    size_t n = hex_decode(hex, buf, sizeof buf);
    return qpack_decoder_decode(dec, stream_id, buf, n, collect_field, out);
}

int qfeed_hex(struct qpack_decoder *dec, const char *hex, struct header_text *out)
{
    uint8_t buf[1024];
    size_t n = hex_decode(hex, buf, sizeof buf);
    return qpack_decoder_feed_encoder(dec, buf, n, collect_field, out);
}

void to_hex(const uint8_t *p, size_t n, char *hex, size_t cap)
{
    size_t o = 0;
    hex[0] = 0;
    for (size_t i = 0; i < n && o + 3 <= cap; i++)
        o += (size_t)snprintf(hex + o, cap - o, "%02x", p[i]);
}

void decoder_stream_hex(struct qpack_decoder *dec, char *hex, size_t cap)
{
    uint8_t buf[512];
    to_hex(buf, qpack_decoder_read_stream(dec, buf, sizeof buf), hex, cap);
}

void encoder_stream_hex(struct qpack_encoder *enc, char *hex, size_t cap)
{
    uint8_t buf[512];
    to_hex(buf, qpack_encoder_read_stream(enc, buf, sizeof buf), hex, cap);
}
