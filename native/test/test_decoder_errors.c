/* Every class of malformed block fails with its own code, and the decoder stays poisoned. */
#include "codec_support.h"
#include "test.h"

/* Decode hex with a fresh decoder under limits; returns the result. */
static ssize_t decode_fresh(const struct hpack_decoder_limits *limits, const char *hex)
{
    struct hpack_decoder *dec = hpack_decoder_new(limits);
    struct header_text text;
    ssize_t rc = decode_hex(dec, hex, &text);
    hpack_decoder_free(dec);
    return rc;
}

TEST(decoder_rejects_bad_indices)
{
    struct hpack_decoder_limits l = default_limits();
    CHECK_EQ_INT(decode_fresh(&l, "80"), HPACK_ERR_INDEX);         /* index 0 */
    CHECK_EQ_INT(decode_fresh(&l, "be"), HPACK_ERR_INDEX);         /* 62 with an empty dynamic table */
    CHECK_EQ_INT(decode_fresh(&l, "7e0161"), HPACK_ERR_INDEX);     /* literal naming entry 62 */
    CHECK_EQ_INT(decode_fresh(&l, "0f3001"), HPACK_ERR_INDEX);     /* without indexing, name index 63 */
    CHECK_EQ_INT(decode_fresh(&l, "bd"), 1);                       /* 61 is the last static entry */
    CHECK_EQ_INT(decode_fresh(&l, "ffffffffff0f"), HPACK_ERR_INTEGER);
    CHECK_EQ_INT(decode_fresh(&l, "ff80808080808000"), HPACK_ERR_INTEGER);
}

TEST(decoder_truncated_at_every_cut)
{
    /* RFC C.3.1 and C.6.1, and the offsets where one of their fields ends. */
    static const struct {
        const char *hex;
        size_t ends[5];
    } blocks[] = {
        { "828684410f7777772e6578616d706c652e636f6d", { 0, 1, 2, 3, 20 } },
        { "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8"
          "e9ae82ae43d3",
          { 0, 4, 11, 35, 54 } },
    };
    struct hpack_decoder_limits l = default_limits();

    for (size_t b = 0; b < 2; b++) {
        uint8_t wire[64];
        size_t n = hex_decode(blocks[b].hex, wire, sizeof wire), field = 0;
        CHECK_EQ_INT(n, blocks[b].ends[4]);
        for (size_t cut = 0; cut <= n; cut++) {
            struct hpack_decoder *dec = hpack_decoder_new(&l);
            struct header_text text = { .len = 0 };
            ssize_t rc = hpack_decoder_decode(dec, wire, cut, collect_header, &text);
            if (field < 4 && blocks[b].ends[field + 1] == cut)
                field++;
            if (blocks[b].ends[field] == cut)
                CHECK_EQ_INT(rc, (ssize_t)field);
            else
                CHECK_EQ_INT(rc, HPACK_ERR_TRUNCATED);
            hpack_decoder_free(dec);
        }
    }
}

TEST(decoder_size_updates)
{
    struct hpack_decoder_limits l = default_limits();
    struct hpack_decoder *dec;
    struct header_text text;

    CHECK_EQ_INT(decode_fresh(&l, "3fe21f"), HPACK_ERR_TABLE_SIZE); /* 4097 > limit */
    CHECK_EQ_INT(decode_fresh(&l, "3fe11f82"), 1);                  /* 4096 */
    CHECK_EQ_INT(decode_fresh(&l, "203fe11f82"), 1);                /* two at the start */
    CHECK_EQ_INT(decode_fresh(&l, "20203fe11f82"), HPACK_ERR_TABLE_SIZE); /* three */
    CHECK_EQ_INT(decode_fresh(&l, "8220"), HPACK_ERR_TABLE_SIZE);   /* after a field */

    /* Lowering the limit under the table's size obliges the peer to signal. */
    dec = hpack_decoder_new(&l);
    CHECK_EQ_INT(decode_hex(dec, "400161016282", &text), 2);
    CHECK_EQ_INT(hpack_decoder_set_max_table_size(dec, 100), HPACK_OK);
    CHECK_EQ_INT(decode_hex(dec, "3f4582", &text), 1);
    CHECK_EQ_INT(hpack_decoder_table_len(dec), 1);
    CHECK_EQ_INT(hpack_decoder_set_max_table_size(dec, 50), HPACK_OK);
    CHECK_EQ_INT(decode_hex(dec, "82", &text), HPACK_ERR_TABLE_SIZE);
    hpack_decoder_free(dec);

    /* A size update to 0 empties the table. */
    dec = hpack_decoder_new(&l);
    CHECK_EQ_INT(decode_hex(dec, "4001610162", &text), 1);
    CHECK_EQ_INT(decode_hex(dec, "20", &text), 0);
    CHECK_EQ_INT(hpack_decoder_table_len(dec), 0);
    CHECK_EQ_INT(decode_hex(dec, "be", &text), HPACK_ERR_INDEX);
    hpack_decoder_free(dec);
}

TEST(decoder_string_and_list_limits)
{
    struct hpack_decoder_limits l = default_limits();
    l.max_string_length = 3;
    CHECK_EQ_INT(decode_fresh(&l, "000361626303646566"), 1);
    CHECK_EQ_INT(decode_fresh(&l, "0004616263640161"), HPACK_ERR_STRING_TOO_LONG);  /* name */
    CHECK_EQ_INT(decode_fresh(&l, "0001610464656667"), HPACK_ERR_STRING_TOO_LONG); /* value */
    /* Huffman "custom-key" (10 bytes from 8) is over the limit only once decoded. */
    CHECK_EQ_INT(decode_fresh(&l, "008825a849e95ba97d7f0161"), HPACK_ERR_STRING_TOO_LONG);
    /* A declared length over the limit fails before the bytes arrive. */
    CHECK_EQ_INT(decode_fresh(&l, "007f00"), HPACK_ERR_STRING_TOO_LONG);

    l = default_limits();
    l.max_header_list_size = 42; /* ":method: GET" is 7 + 3 + 32 */
    CHECK_EQ_INT(decode_fresh(&l, "82"), 1);
    CHECK_EQ_INT(decode_fresh(&l, "8282"), HPACK_ERR_HEADER_LIST_TOO_LARGE);
}

TEST(decoder_bad_huffman)
{
    struct hpack_decoder_limits l = default_limits();
    CHECK_EQ_INT(decode_fresh(&l, "0081ff0161"), HPACK_ERR_HUFFMAN);           /* 8 bits of padding */
    CHECK_EQ_INT(decode_fresh(&l, "0084ffffffff0161"), HPACK_ERR_HUFFMAN);     /* EOS in the string */
    CHECK_EQ_INT(decode_fresh(&l, "0081000161"), HPACK_ERR_HUFFMAN);           /* "0" then zero padding */
}

static int refuse(void *ctx, const struct hpack_header *h)
{
    (void)ctx;
    (void)h;
    return HPACK_ERR_HEADER_LIST_TOO_LARGE;
}

TEST(decoder_poisoned_after_error)
{
    struct hpack_decoder_limits l = default_limits();
    struct hpack_decoder *dec = hpack_decoder_new(&l);
    struct header_text text;
    uint8_t indexed = 0x82;

    CHECK_EQ_INT(decode_hex(dec, "82", &text), 1);
    CHECK_EQ_INT(decode_hex(dec, "80", &text), HPACK_ERR_INDEX);
    CHECK_EQ_INT(decode_hex(dec, "82", &text), HPACK_ERR_POISONED);
    hpack_decoder_free(dec);

    /* A callback that refuses a field aborts the block and poisons too. */
    dec = hpack_decoder_new(&l);
    CHECK_EQ_INT(hpack_decoder_decode(dec, &indexed, 1, refuse, NULL), HPACK_ERR_HEADER_LIST_TOO_LARGE);
    CHECK_EQ_INT(decode_hex(dec, "82", &text), HPACK_ERR_POISONED);
    hpack_decoder_free(dec);
}

TEST(decoder_name_from_entry_it_evicts)
{
    /* Table of 40: "a: b" (34) is evicted by "a: xxx" (36), which takes the
     * name from it by index (RFC 7541 4.4). */
    struct hpack_decoder_limits l = default_limits();
    struct hpack_decoder *dec;
    struct header_text text;

    l.max_table_size = 40;
    dec = hpack_decoder_new(&l);
    CHECK_EQ_INT(decode_hex(dec, "4001610162", &text), 1);
    CHECK_EQ_INT(decode_hex(dec, "7e03787878", &text), 1);
    CHECK(strcmp(text.text, "a: xxx\n") == 0);
    decoder_table_text(dec, &text);
    CHECK(strcmp(text.text, "a: xxx\n") == 0);
    CHECK_EQ_INT(hpack_decoder_table_size(dec), 36);
    hpack_decoder_free(dec);
}

TEST(strerror_names)
{
    CHECK(strcmp(hpack_strerror(HPACK_ERR_HUFFMAN), "ERR_HPACK_HUFFMAN") == 0);
    CHECK(strcmp(hpack_strerror(HPACK_ERR_POISONED), "ERR_HPACK_POISONED") == 0);
    CHECK(strcmp(hpack_strerror(HPACK_ERR_INVALID_ARGUMENT), "ERR_HPACK_INVALID_ARGUMENT") == 0);
    for (int e = HPACK_ERR_INVALID_ARGUMENT; e < 0; e++)
        CHECK(strncmp(hpack_strerror(e), "ERR_HPACK_", 10) == 0 && strcmp(hpack_strerror(e), "ERR_HPACK_UNKNOWN") != 0);
}
