/* RFC 9204 Appendix B, byte for byte: the decoder replays B.1-B.5 and answers
 * with the decoder-stream bytes the RFC shows; the encoder writes B.2. */
#include "qpack_support.h"
#include "test.h"

static void check_entry(struct qpack_decoder *dec, uint64_t abs, const char *name, const char *value)
{
    struct hpack_header h;
    CHECK_EQ_INT(qpack_decoder_table_entry(dec, abs, &h), HPACK_OK);
    CHECK(h.name_len == strlen(name) && memcmp(h.name, name, h.name_len) == 0);
    CHECK(h.value_len == strlen(value) && memcmp(h.value, value, h.value_len) == 0);
}

TEST(qpack_rfc9204_appendix_b_decoder)
{
    struct qpack_decoder_settings s = qpack_test_settings(220, 100);
    struct qpack_decoder *dec = qpack_decoder_new(&s);
    struct header_text t = { .len = 0 };
    char hex[256];
    struct hpack_header h;

    /* B.1 */
    CHECK_EQ_INT(qdecode_hex(dec, 0, "0000 510b 2f69 6e64 6578 2e68 746d 6c", &t), QPACK_OK);
    CHECK(strcmp(t.text, ":path: /index.html\n-- 0\n") == 0);
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "") == 0);
    /* B.2 */
    t.len = 0;
    CHECK_EQ_INT(qfeed_hex(dec, "3fbd01 c00f 7777 772e 6578 616d 706c 652e 636f 6d c10c 2f73 616d 706c 652f 7061 7468", &t), QPACK_OK);
    CHECK_EQ_INT(qdecode_hex(dec, 4, "0381 10 11", &t), QPACK_OK);
    CHECK(strcmp(t.text, ":authority: www.example.com\n:path: /sample/path\n-- 4\n") == 0);
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "84") == 0);
    CHECK_EQ_INT(qpack_decoder_table_size(dec), 106);
    /* B.3 */
    CHECK_EQ_INT(qfeed_hex(dec, "4a63 7573 746f 6d2d 6b65 790c 6375 7374 6f6d 2d76 616c 7565", &t), QPACK_OK);
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "01") == 0);
    CHECK_EQ_INT(qpack_decoder_table_size(dec), 160);
    /* B.4 */
    t.len = 0;
    CHECK_EQ_INT(qfeed_hex(dec, "02", &t), QPACK_OK);
    CHECK_EQ_INT(qdecode_hex(dec, 8, "0500 80 c1 81", &t), QPACK_OK);
    CHECK(strcmp(t.text, ":authority: www.example.com\n:path: /\ncustom-key: custom-value\n-- 8\n") == 0);
    CHECK_EQ_INT(qpack_decoder_cancel_stream(dec, 8), QPACK_OK);
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "8848") == 0);
    CHECK_EQ_INT(qpack_decoder_table_size(dec), 217);
    check_entry(dec, 3, ":authority", "www.example.com");
    /* B.5 */
    CHECK_EQ_INT(qfeed_hex(dec, "810d 6375 7374 6f6d 2d76 616c 7565 32", &t), QPACK_OK);
    CHECK_EQ_INT(qpack_decoder_table_size(dec), 215);
    CHECK_EQ_INT(qpack_decoder_table_entry(dec, 0, &h), HPACK_ERR_INDEX);
    check_entry(dec, 4, "custom-key", "custom-value2");
    decoder_stream_hex(dec, hex, sizeof hex);
    CHECK(strcmp(hex, "01") == 0);
    qpack_decoder_free(dec);
}

TEST(qpack_rfc9204_appendix_b2_encoder)
{
    struct qpack_encoder_settings s = { 220, 220, 100, HPACK_ENCODER_INDEX_VOLATILE };
    struct qpack_encoder *enc = qpack_encoder_new(&s);
    struct hpack_header f[2] = {
        { (const uint8_t *)":authority", 10, (const uint8_t *)"www.example.com", 15, 0 },
        { (const uint8_t *)":path", 5, (const uint8_t *)"/sample/path", 12, 0 },
    };
    uint8_t out[128];
    char hex[256];
    ssize_t n = qpack_encoder_encode(enc, 4, f, 2, out, sizeof out);

    CHECK_EQ_INT(n, 4);
    to_hex(out, (size_t)(n > 0 ? n : 0), hex, sizeof hex);
    CHECK(strcmp(hex, "03811011") == 0);
    encoder_stream_hex(enc, hex, sizeof hex);
    CHECK(strcmp(hex, "3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468") == 0);
    CHECK_EQ_INT(qpack_encoder_blocked_streams(enc), 1);
    CHECK_EQ_INT(qpack_encoder_feed_decoder(enc, (const uint8_t *)"\x84", 1), QPACK_OK);
    CHECK_EQ_INT(qpack_encoder_known_received_count(enc), 2);
    CHECK_EQ_INT(qpack_encoder_blocked_streams(enc), 0);
    qpack_encoder_free(enc);
}
