/* Malformed input per RFC 9204 section 6 error class, each with its code. */
#include "qpack_support.h"
#include "test.h"

/* Set capacity 220 and insert custom-key: custom-value (absolute index 0). */
#define ONE_INSERT "3fbd01 4a637573746f6d2d6b65790c637573746f6d2d76616c7565"

static const struct {
    const char *name;
    uint32_t blocked;
    const char *encoder_stream; /* fed first, must succeed */
    const char *section;
    int expect;
} section_cases[] = {
    { "empty section", 100, "", "", QPACK_ERR_DECOMPRESSION_FAILED },
    { "prefix without base", 100, "", "00", QPACK_ERR_DECOMPRESSION_FAILED },
    { "encoded insert count past 2*MaxEntries", 100, "", "0d00", QPACK_ERR_DECOMPRESSION_FAILED },
    { "insert count 0 encoded as 1", 100, "", "0100", QPACK_ERR_DECOMPRESSION_FAILED },
    { "negative base", 100, ONE_INSERT, "0281 80", QPACK_ERR_DECOMPRESSION_FAILED },
    { "static index 99", 100, "", "0000 ff24", QPACK_ERR_DECOMPRESSION_FAILED },
    { "relative index below 0", 100, ONE_INSERT, "0200 81", QPACK_ERR_DECOMPRESSION_FAILED },
    { "post-base index at insert count", 100, ONE_INSERT, "0200 10", QPACK_ERR_DECOMPRESSION_FAILED },
    { "insert count above references", 100, ONE_INSERT, "0200 d1", QPACK_ERR_DECOMPRESSION_FAILED },
    { "bad Huffman value", 100, "", "0000 5181ff", QPACK_ERR_DECOMPRESSION_FAILED },
    { "truncated value", 100, "", "0000 510561", QPACK_ERR_DECOMPRESSION_FAILED },
    { "integer overflow", 100, "", "0000 ffffffffffff0f", QPACK_ERR_DECOMPRESSION_FAILED },
    { "blocked with 0 blocked streams", 0, "", "0280 10", QPACK_ERR_DECOMPRESSION_FAILED },
    { "blocked section", 1, "", "0280 10", QPACK_BLOCKED },
    { "literal name reference past insert count", 100, ONE_INSERT, "0200 0100", QPACK_ERR_DECOMPRESSION_FAILED },
};

TEST(qpack_decoder_section_errors)
{
    for (size_t i = 0; i < sizeof section_cases / sizeof section_cases[0]; i++) {
        struct qpack_decoder_settings s = qpack_test_settings(220, section_cases[i].blocked);
        struct qpack_decoder *dec = qpack_decoder_new(&s);
        struct header_text t = { .len = 0 };
        int rc;
        CHECK_EQ_INT(qfeed_hex(dec, section_cases[i].encoder_stream, &t), QPACK_OK);
        rc = qdecode_hex(dec, 4, section_cases[i].section, &t);
        if (rc != section_cases[i].expect)
            fprintf(stderr, "  case: %s (%s)\n", section_cases[i].name, qpack_decoder_error_reason(dec));
        CHECK_EQ_INT(rc, section_cases[i].expect);
        if (rc == QPACK_ERR_DECOMPRESSION_FAILED) {
            CHECK_EQ_INT(qpack_h3_error_code(rc), 0x200);
            CHECK_EQ_INT(qdecode_hex(dec, 8, "0000 d1", &t), QPACK_ERR_POISONED);
        }
        qpack_decoder_free(dec);
    }
}

static const struct {
    const char *name;
    const char *bytes;
} encoder_stream_cases[] = {
    { "capacity above the maximum", "3fbe01" },
    { "insert naming static index 99", "3fbd01 ff24 00" },
    { "insert naming a missing dynamic entry", "3fbd01 80 00" },
    { "duplicate of a missing entry", "3fbd01 00" },
    { "entry larger than the capacity", "20 4a637573746f6d2d6b65790c637573746f6d2d76616c7565" },
    { "bad Huffman name", "3fbd01 6181ff 00" },
    { "integer overflow", "3fffffffffff0f" },
};

TEST(qpack_decoder_encoder_stream_errors)
{
    for (size_t i = 0; i < sizeof encoder_stream_cases / sizeof encoder_stream_cases[0]; i++) {
        struct qpack_decoder_settings s = qpack_test_settings(220, 100);
        struct qpack_decoder *dec = qpack_decoder_new(&s);
        struct header_text t = { .len = 0 };
        int rc = qfeed_hex(dec, encoder_stream_cases[i].bytes, &t);
        if (rc != QPACK_ERR_ENCODER_STREAM)
            fprintf(stderr, "  case: %s (%s)\n", encoder_stream_cases[i].name, qpack_decoder_error_reason(dec));
        CHECK_EQ_INT(rc, QPACK_ERR_ENCODER_STREAM);
        CHECK_EQ_INT(qpack_h3_error_code(rc), 0x201);
        CHECK_EQ_INT(qfeed_hex(dec, "20", &t), QPACK_ERR_POISONED);
        qpack_decoder_free(dec);
    }
}

TEST(qpack_encoder_decoder_stream_errors)
{
    static const char *cases[] = { "84", "00", "01", "3fffffffffff0f" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct qpack_encoder_settings s = { 220, 220, 100, 0 };
        struct qpack_encoder *enc = qpack_encoder_new(&s);
        uint8_t buf[16];
        size_t n = hex_decode(cases[i], buf, sizeof buf);
        int rc = qpack_encoder_feed_decoder(enc, buf, n);
        CHECK_EQ_INT(rc, QPACK_ERR_DECODER_STREAM);
        CHECK_EQ_INT(qpack_h3_error_code(rc), 0x202);
        CHECK_EQ_INT(qpack_encoder_feed_decoder(enc, buf, 0), QPACK_ERR_POISONED);
        qpack_encoder_free(enc);
    }
}

TEST(qpack_decoder_stream_limits_are_stream_errors)
{
    struct qpack_decoder_settings s = qpack_test_settings(220, 100);
    struct qpack_decoder *dec;
    struct header_text t = { .len = 0 };

    s.max_field_section_size = 40; /* one ":path: /" is 38 */
    s.max_blocked_bytes = 4;
    dec = qpack_decoder_new(&s);
    CHECK_EQ_INT(qdecode_hex(dec, 0, "0000 c1c1", &t), QPACK_ERR_FIELD_SECTION_TOO_LARGE);
    CHECK_EQ_INT(qdecode_hex(dec, 4, "0200 1010101010", &t), QPACK_ERR_BLOCKED_TOO_LARGE);
    t.len = 0;
    CHECK_EQ_INT(qdecode_hex(dec, 8, "0000 c1", &t), QPACK_OK);
    CHECK(strcmp(t.text, ":path: /\n-- 8\n") == 0);
    qpack_decoder_free(dec);
}

TEST(qpack_blocked_section_resumes_when_its_insert_arrives)
{
    struct qpack_decoder_settings s = qpack_test_settings(220, 1);
    struct qpack_decoder *dec = qpack_decoder_new(&s);
    struct header_text t = { .len = 0 };
    char hex[64];

    CHECK_EQ_INT(qdecode_hex(dec, 4, "0280 10", &t), QPACK_BLOCKED);
    CHECK_EQ_INT(qpack_decoder_blocked_streams(dec), 1);
    CHECK_EQ_INT(t.len, 0);
    /* The insert arrives in two pieces; the section waits for the whole of it. */
    CHECK_EQ_INT(qfeed_hex(dec, "3fbd01 4a637573746f6d2d6b6579", &t), QPACK_OK);
    CHECK_EQ_INT(t.len, 0);
    CHECK_EQ_INT(qfeed_hex(dec, "0c637573746f6d2d76616c7565", &t), QPACK_OK);
    CHECK(strcmp(t.text, "custom-key: custom-value\n-- 4\n") == 0);
    CHECK_EQ_INT(qpack_decoder_blocked_streams(dec), 0);
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "84") == 0);
    qpack_decoder_free(dec);
}
