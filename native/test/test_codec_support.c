/* Implementation of codec_support.h (no TEST()s here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codec_support.h"

size_t hex_decode(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned byte;
    while (*hex) {
        if (*hex == ' ') {
            hex++;
            continue;
        }
        if (n == cap || !hex[1] || sscanf(hex, "%2x", &byte) != 1)
            break;
        out[n++] = (uint8_t)byte;
        hex += 2;
    }
    return n;
}

static void append(struct header_text *t, const uint8_t *name, size_t nl, const uint8_t *value, size_t vl)
{
    int n = snprintf(t->text + t->len, sizeof t->text - t->len, "%.*s: %.*s\n", (int)nl, (const char *)name, (int)vl,
                     (const char *)value);
    if (n > 0 && (size_t)n < sizeof t->text - t->len)
        t->len += (size_t)n;
}

int collect_header(void *ctx, const struct hpack_header *h)
{
    append(ctx, h->name, h->name_len, h->value, h->value_len);
    return 0;
}

ssize_t decode_hex(struct hpack_decoder *dec, const char *hex, struct header_text *out)
{
    uint8_t buf[4096];
    size_t n = hex_decode(hex, buf, sizeof buf);
    out->len = 0;
    out->text[0] = 0;
    return hpack_decoder_decode(dec, buf, n, collect_header, out);
}

static void table_text(int (*entry)(const void *, size_t, struct hpack_header *), const void *codec,
                       struct header_text *out)
{
    struct hpack_header h;
    out->len = 0;
    out->text[0] = 0;
    for (size_t i = 1; entry(codec, i, &h) == HPACK_OK; i++)
        append(out, h.name, h.name_len, h.value, h.value_len);
}

static int decoder_entry(const void *c, size_t i, struct hpack_header *h)
{
    return hpack_decoder_table_entry(c, i, h);
}

static int encoder_entry(const void *c, size_t i, struct hpack_header *h)
{
    return hpack_encoder_table_entry(c, i, h);
}

void decoder_table_text(const struct hpack_decoder *dec, struct header_text *out)
{
    table_text(decoder_entry, dec, out);
}

void encoder_table_text(const struct hpack_encoder *enc, struct header_text *out)
{
    table_text(encoder_entry, enc, out);
}

size_t parse_headers(char *text, struct hpack_header *out, size_t cap)
{
    size_t n = 0;
    char *line = text;
    while (*line && n < cap) {
        char *colon = strstr(line, ": "), *nl = strchr(line, '\n');
        if (!colon || !nl)
            break;
        out[n].name = (const uint8_t *)line;
        out[n].name_len = (size_t)(colon - line);
        out[n].value = (const uint8_t *)colon + 2;
        out[n].value_len = (size_t)(nl - colon - 2);
        out[n].flags = 0;
        n++;
        line = nl + 1;
    }
    return n;
}

ssize_t encode_text(struct hpack_encoder *enc, const char *headers, char *hex_out, size_t hex_cap)
{
    char copy[4096];
    struct hpack_header h[64];
    uint8_t wire[4096];
    size_t count;
    ssize_t n;

    snprintf(copy, sizeof copy, "%s", headers);
    count = parse_headers(copy, h, 64);
    n = hpack_encoder_encode(enc, h, count, wire, sizeof wire);
    hex_out[0] = 0;
    for (ssize_t i = 0; i >= 0 && i < n && (size_t)(2 * i + 2) < hex_cap; i++)
        sprintf(hex_out + 2 * i, "%02x", wire[i]);
    return n;
}

struct hpack_decoder_limits default_limits(void)
{
    struct hpack_decoder_limits l = { HPACK_DEFAULT_TABLE_SIZE, UINT32_MAX, UINT32_MAX };
    return l;
}
