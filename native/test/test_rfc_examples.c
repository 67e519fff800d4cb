/* RFC 7541 Appendix C.2 to C.6, byte for byte, through both encoder and decoder. */
#include <stdlib.h>
#include "codec_support.h"
#include "test.h"

struct example {
    const char *wire;
    const char *headers;
    const char *table; /* newest first */
    size_t table_size;
};

#define REQ1 ":method: GET\n:scheme: http\n:path: /\n:authority: www.example.com\n"
#define REQ2 ":method: GET\n:scheme: http\n:path: /\n:authority: www.example.com\ncache-control: no-cache\n"
#define REQ3 ":method: GET\n:scheme: https\n:path: /index.html\n:authority: www.example.com\ncustom-key: custom-value\n"
#define T_REQ1 ":authority: www.example.com\n"
#define T_REQ2 "cache-control: no-cache\n" T_REQ1
#define T_REQ3 "custom-key: custom-value\n" T_REQ2

#define DATE1 "date: Mon, 21 Oct 2013 20:13:21 GMT\n"
#define DATE2 "date: Mon, 21 Oct 2013 20:13:22 GMT\n"
#define LOC "location: https://www.example.com\n"
#define COOKIE "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1\n"
#define RES1 ":status: 302\ncache-control: private\n" DATE1 LOC
#define RES2 ":status: 307\ncache-control: private\n" DATE1 LOC
#define RES3 ":status: 200\ncache-control: private\n" DATE2 LOC "content-encoding: gzip\n" COOKIE
#define T_RES1 LOC DATE1 "cache-control: private\n:status: 302\n"
#define T_RES2 ":status: 307\n" LOC DATE1 "cache-control: private\n"
#define T_RES3 COOKIE "content-encoding: gzip\n" DATE2

static const struct example c3[] = {
    { "828684410f7777772e6578616d706c652e636f6d", REQ1, T_REQ1, 57 },
    { "828684be58086e6f2d6361636865", REQ2, T_REQ2, 110 },
    { "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565", REQ3, T_REQ3, 164 },
};

static const struct example c4[] = {
    { "828684418cf1e3c2e5f23a6ba0ab90f4ff", REQ1, T_REQ1, 57 },
    { "828684be5886a8eb10649cbf", REQ2, T_REQ2, 110 },
    { "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf", REQ3, T_REQ3, 164 },
};

static const struct example c5[] = {
    { "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e"
      "1768747470733a2f2f7777772e6578616d706c652e636f6d",
      RES1, T_RES1, 222 },
    { "4803333037c1c0bf", RES2, T_RES2, 222 },
    { "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d"
      "4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b207665"
      "7273696f6e3d31",
      RES3, T_RES3, 215 },
};

static const struct example c6[] = {
    { "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8"
      "e9ae82ae43d3",
      RES1, T_RES1, 222 },
    { "4883640effc1c0bf", RES2, T_RES2, 222 },
    { "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b"
      "3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
      RES3, T_RES3, 215 },
};

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* One encoder and one decoder shared by the example's blocks, as the RFC does. */
static void run_examples(const struct example *ex, size_t n, uint32_t table_size, unsigned huffman)
{
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
        CHECK_EQ_INT(hpack_encoder_table_size(enc), ex[i].table_size);

        CHECK_EQ_INT(decode_hex(dec, ex[i].wire, &text), count_lines(ex[i].headers));
        CHECK(strcmp(text.text, ex[i].headers) == 0);
        decoder_table_text(dec, &text);
        CHECK(strcmp(text.text, ex[i].table) == 0);
        CHECK_EQ_INT(hpack_decoder_table_size(dec), ex[i].table_size);
        CHECK_EQ_INT(hpack_decoder_table_len(dec), count_lines(ex[i].table));
    }
    hpack_encoder_free(enc);
    hpack_decoder_free(dec);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

TEST(rfc_c3_requests_without_huffman) { run_examples(c3, COUNT(c3), 4096, 0); }
TEST(rfc_c4_requests_with_huffman) { run_examples(c4, COUNT(c4), 4096, HPACK_ENCODER_HUFFMAN); }
TEST(rfc_c5_responses_without_huffman) { run_examples(c5, COUNT(c5), 256, 0); }
TEST(rfc_c6_responses_with_huffman) { run_examples(c6, COUNT(c6), 256, HPACK_ENCODER_HUFFMAN); }

/* C.2: one field per block, each representation on its own. */
struct single {
    const char *wire;
    const char *header;
    enum hpack_indexing indexing;
    unsigned flags;
    size_t table_size;
};

static const struct single c2[] = {
    /* C.2.1 literal with incremental indexing, new name */
    { "400a637573746f6d2d6b65790d637573746f6d2d686561646572", "custom-key: custom-header\n", HPACK_INDEX_LINEAR, 0, 55 },
    /* C.2.2 literal without indexing, indexed name (a :path is volatile for linear too) */
    { "040c2f73616d706c652f70617468", ":path: /sample/path\n", HPACK_INDEX_STATIC, 0, 0 },
    /* C.2.3 never indexed, new name */
    { "100870617373776f726406736563726574", "password: secret\n", HPACK_INDEX_LINEAR, HPACK_HEADER_NEVER_INDEXED, 0 },
    /* C.2.4 indexed */
    { "82", ":method: GET\n", HPACK_INDEX_LINEAR, 0, 0 },
};

TEST(rfc_c2_field_representations)
{
    for (size_t i = 0; i < COUNT(c2); i++) {
        struct hpack_decoder_limits limits = default_limits();
        struct hpack_encoder *enc = hpack_encoder_new(4096, c2[i].indexing, 0);
        struct hpack_decoder *dec = hpack_decoder_new(&limits);
        struct header_text text;
        char copy[256], hex[256];
        struct hpack_header h;
        uint8_t wire[256];
        ssize_t n;

        snprintf(copy, sizeof copy, "%s", c2[i].header);
        parse_headers(copy, &h, 1);
        h.flags = c2[i].flags;
        n = hpack_encoder_encode(enc, &h, 1, wire, sizeof wire);
        CHECK_EQ_INT(n, strlen(c2[i].wire) / 2);
        for (ssize_t j = 0; j < n; j++)
            sprintf(hex + 2 * j, "%02x", wire[j]);
        CHECK(n > 0 && strcmp(hex, c2[i].wire) == 0);

        CHECK_EQ_INT(decode_hex(dec, c2[i].wire, &text), 1);
        CHECK(strcmp(text.text, c2[i].header) == 0);
        CHECK_EQ_INT(hpack_decoder_table_size(dec), c2[i].table_size);
        CHECK_EQ_INT(hpack_encoder_table_size(enc), c2[i].table_size);
        hpack_encoder_free(enc);
        hpack_decoder_free(dec);
    }
}
