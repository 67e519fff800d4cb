/* RFC 7541 Appendix C.2 to C.6, byte for byte, through both encoder and decoder. */
#include <stdlib.h>
#include "codec_support.h"
#include "rfc7541_appendix_c.h"
#include "test.h"

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* One encoder and one decoder shared by the example's blocks, as the RFC does. */
static void run_example(const struct rfc_example *example)
{
    const struct rfc_block *ex = example->blocks;
    size_t n = example->count;
    uint32_t table_size = example->table_size;
    unsigned huffman = example->huffman ? HPACK_ENCODER_HUFFMAN : 0;
    struct hpack_decoder_limits limits = default_limits();
    struct hpack_encoder *enc = hpack_encoder_new(table_size, HPACK_INDEX_LINEAR, huffman | HPACK_ENCODER_INDEX_VOLATILE);
    struct hpack_decoder *dec;
    struct header_text text;
    char hex[4096];

    limits.max_table_size = table_size;
    dec = hpack_decoder_new(&limits);
    CHECK(enc && dec);
    for (size_t i = 0; enc && dec && i < n; i++) {
        CHECK_EQ_INT(encode_text(enc, ex[i].headers, hex, sizeof hex), strlen(ex[i].wire) / 2);
        CHECK(strcmp(hex, ex[i].wire) == 0);
        encoder_table_text(enc, &text);
        CHECK(strcmp(text.text, ex[i].table) == 0);
        CHECK_EQ_INT(hpack_encoder_table_size(enc), ex[i].size);

        CHECK_EQ_INT(decode_hex(dec, ex[i].wire, &text), count_lines(ex[i].headers));
        CHECK(strcmp(text.text, ex[i].headers) == 0);
        decoder_table_text(dec, &text);
        CHECK(strcmp(text.text, ex[i].table) == 0);
        CHECK_EQ_INT(hpack_decoder_table_size(dec), ex[i].size);
        CHECK_EQ_INT(hpack_decoder_table_len(dec), count_lines(ex[i].table));
        if (test_current_failed) {
            fprintf(stderr, "  RFC 7541 %s, block %zu\n", example->section, i + 1);
            break;
        }
    }
    hpack_encoder_free(enc);
    hpack_decoder_free(dec);
}

/* C.3 requests without Huffman, C.4 with; C.5 responses without Huffman
 * (table size 256), C.6 with. */
TEST(rfc_c3_to_c6_examples)
{
    CHECK_EQ_INT(rfc7541_example_count, 4);
    for (size_t i = 0; i < rfc7541_example_count; i++)
        run_example(&rfc7541_examples[i]);
}

/* C.2: one field per block, each representation on its own. */
TEST(rfc_c2_field_representations)
{
    CHECK_EQ_INT(rfc7541_representation_count, 4);
    for (size_t i = 0; i < rfc7541_representation_count; i++) {
        const struct rfc_representation *c2 = &rfc7541_representations[i];
        struct hpack_decoder_limits limits = default_limits();
        struct hpack_encoder *enc = hpack_encoder_new(4096, c2->indexing, 0);
        struct hpack_decoder *dec = hpack_decoder_new(&limits);
        struct header_text text;
        char copy[256], hex[256];
        struct hpack_header h;
        uint8_t wire[256];
        ssize_t n;

        snprintf(copy, sizeof copy, "%s", c2->header);
        parse_headers(copy, &h, 1);
        h.flags = c2->never_indexed ? HPACK_HEADER_NEVER_INDEXED : 0;
        n = hpack_encoder_encode(enc, &h, 1, wire, sizeof wire);
        CHECK_EQ_INT(n, strlen(c2->wire) / 2);
        for (ssize_t j = 0; j < n; j++)
            sprintf(hex + 2 * j, "%02x", wire[j]);
        CHECK(n > 0 && strcmp(hex, c2->wire) == 0);

        CHECK_EQ_INT(decode_hex(dec, c2->wire, &text), 1);
        CHECK(strcmp(text.text, c2->header) == 0);
        CHECK_EQ_INT(hpack_decoder_table_size(dec), c2->size);
        CHECK_EQ_INT(hpack_encoder_table_size(enc), c2->size);
        if (test_current_failed)
            fprintf(stderr, "  RFC 7541 %s\n", c2->section);
        hpack_encoder_free(enc);
        hpack_decoder_free(dec);
    }
}
