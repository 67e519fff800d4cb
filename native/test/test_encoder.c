/* Encoder strategies, never-indexed fields, size updates, and round trips through the decoder. */
#include <stdlib.h>
#include "codec_support.h"
#include "test.h"

static void expect_hex(enum hpack_indexing indexing, unsigned flags, const char *headers, const char *hex)
{
    struct hpack_encoder *enc = hpack_encoder_new(4096, indexing, flags);
    char out[1024];
    encode_text(enc, headers, out, sizeof out);
    CHECK(strcmp(out, hex) == 0);
    if (strcmp(out, hex))
        fprintf(stderr, "  got %s, expected %s\n", out, hex);
    hpack_encoder_free(enc);
}

TEST(encoder_strategies)
{
    /* Naive: literal names even for static ones; Static: indices, no table. */
    expect_hex(HPACK_INDEX_NONE, 0, ":method: GET\n", "00073a6d6574686f6403474554");
    expect_hex(HPACK_INDEX_STATIC, 0, ":method: GET\n:method: PUT\n", "820203505554");
    expect_hex(HPACK_INDEX_LINEAR, 0, "x: 1\nx: 1\nx: 2\n", "4001780131be7e0132");
    expect_hex(HPACK_INDEX_STATIC, 0, "x: 1\nx: 1\n", "00017801310001780131");
    /* An empty value matches the static entry with an empty value. */
    expect_hex(HPACK_INDEX_LINEAR, 0, ":authority: \n", "81");
}

TEST(encoder_never_indexed_fields)
{
    /* authorization (static 23) and a short cookie (32): 0x10 with a 4-bit name index. */
    expect_hex(HPACK_INDEX_LINEAR, 0, "authorization: x\n", "1f080178");
    expect_hex(HPACK_INDEX_LINEAR, 0, "cookie: a=b\n", "1f1103613d62");
    expect_hex(HPACK_INDEX_LINEAR, HPACK_ENCODER_INDEX_SHORT_COOKIES, "cookie: a=b\n", "6003613d62");
    /* A cookie of 20 bytes or more is indexed like anything else. */
    expect_hex(HPACK_INDEX_LINEAR, 0, "cookie: 0123456789abcdefghij\ncookie: 0123456789abcdefghij\n",
               "6014303132333435363738396162636465666768696abe");
}

TEST(encoder_volatile_fields)
{
    expect_hex(HPACK_INDEX_LINEAR, HPACK_ENCODER_FIXED_RULES, ":path: /a\netag: x\n", "04022f610f130178");
    expect_hex(HPACK_INDEX_LINEAR, HPACK_ENCODER_INDEX_VOLATILE, ":path: /a\netag: x\n", "44022f61620178");
    /* Learning: only counters are never indexed; other names start indexed. */
    expect_hex(HPACK_INDEX_LINEAR, 0, "content-length: 1\nage: 1\n:path: /a\n", "0f0d01310f06013144022f61");
    expect_hex(HPACK_INDEX_LINEAR, HPACK_ENCODER_INDEX_VOLATILE, "content-length: 1\n", "5c0131");
}

/* Encodes "name: value" alone and returns how many entries the table gained. */
static size_t inserted(struct hpack_encoder *enc, const char *name, const char *value)
{
    struct hpack_header h = { (const uint8_t *)name, strlen(name), (const uint8_t *)value, strlen(value), 0 };
    size_t before = hpack_encoder_table_len(enc);
    uint8_t out[128];
    CHECK(hpack_encoder_encode(enc, &h, 1, out, sizeof out) > 0);
    return hpack_encoder_table_len(enc) - before;
}

TEST(encoder_learns_which_names_repeat)
{
    struct hpack_encoder *enc = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN);
    struct hpack_encoder *fixed = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, HPACK_ENCODER_FIXED_RULES);
    char value[16];

    /* A name whose values never repeat: four inserts, no hit, then no more... */
    for (int i = 0; i < 4; i++) {
        snprintf(value, sizeof value, "id-%d", i);
        CHECK_EQ_INT(inserted(enc, "x-request-id", value), 1);
    }
    CHECK_EQ_INT(inserted(enc, "x-request-id", "id-4"), 0);
    /* ...unless the same field came recently. */
    CHECK_EQ_INT(inserted(enc, "x-request-id", "id-4"), 1);
    /* A name whose entries are reused stays indexed. */
    for (int i = 0; i < 12; i++)
        inserted(enc, "x-cache", i % 2 ? "HIT" : "MISS");
    CHECK_EQ_INT(inserted(enc, "x-cache", "STALE"), 1);
    /* The fixed rules insert whatever may be inserted. */
    for (int i = 0; i < 8; i++) {
        snprintf(value, sizeof value, "id-%d", i);
        CHECK_EQ_INT(inserted(fixed, "x-request-id", value), 1);
    }
    hpack_encoder_free(enc);
    hpack_encoder_free(fixed);
}

TEST(encoder_sensitive_flag_and_oversized_entries)
{
    struct hpack_encoder *enc = hpack_encoder_new(64, HPACK_INDEX_LINEAR, 0);
    struct hpack_header h = { (const uint8_t *)"x-token", 7, (const uint8_t *)"s3cr3t", 6, HPACK_HEADER_NEVER_INDEXED };
    struct hpack_header big = { (const uint8_t *)"x", 1, (const uint8_t *)"0123456789012345678901234567890123", 34, 0 };
    uint8_t out[256];

    CHECK_EQ_INT(hpack_encoder_encode(enc, &h, 1, out, sizeof out), 1 + 8 + 7);
    CHECK_EQ_INT(out[0], 0x10);
    CHECK_EQ_INT(hpack_encoder_table_len(enc), 0);
    /* 1 + 34 + 32 = 67 > 64: it could never fit, so it is not indexed. */
    CHECK_EQ_INT(hpack_encoder_encode(enc, &big, 1, out, sizeof out), 1 + 2 + 1 + 34);
    CHECK_EQ_INT(out[0], 0x00);
    CHECK_EQ_INT(hpack_encoder_table_len(enc), 0);
    hpack_encoder_free(enc);
}

TEST(encoder_size_updates)
{
    struct hpack_encoder *enc = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, 0);
    char hex[256];

    encode_text(enc, "x: 1\n", hex, sizeof hex);
    CHECK_EQ_INT(hpack_encoder_table_len(enc), 1);
    /* Smallest then final: 0 then 4096; the table is emptied on the way. */
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, 0), HPACK_OK);
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, 4096), HPACK_OK);
    encode_text(enc, "x: 1\n", hex, sizeof hex);
    CHECK(strcmp(hex, "203fe11f4001780131") == 0);
    /* Nothing pending any more. */
    encode_text(enc, "x: 1\n", hex, sizeof hex);
    CHECK(strcmp(hex, "be") == 0);
    /* One change is signalled once; growing past the initial size re-lays the table. */
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, 8192), HPACK_OK);
    encode_text(enc, "x: 1\n", hex, sizeof hex);
    CHECK(strcmp(hex, "3fe13fbe") == 0);
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, 100), HPACK_OK);
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, 200), HPACK_OK);
    encode_text(enc, "", hex, sizeof hex);
    CHECK(strcmp(hex, "3f453fa901") == 0);
    hpack_encoder_free(enc);
}

/* hpack_encoder_changes moves exactly when a later block of the same fields could differ, so
 * that a caller may resend a block while it stays (server/engines/h2/response-headers.js). */
TEST(encoder_changes_track_what_later_blocks_depend_on)
{
    static const struct {
        const char *headers; /* a block, or NULL: set the table size */
        uint32_t size;
        int moves;
        const char *why;
    } steps[] = {
        { "x-a: 1\n", 0, 1, "a new field inserted" },
        { "x-a: 1\n", 0, 0, "the same field indexed" },
        { ":status: 200\ncontent-length: 5\n", 0, 0, "a static entry, and a length never indexed" },
        { "authorization: s\n", 0, 0, "a never-indexed literal" },
        { NULL, 4096, 1, "a size set" },
        { "x-a: 1\n", 0, 1, "the size update sent" },
        { "x-a: 1\n", 0, 0, "nothing pending any more" },
        { "x-id: 1\n", 0, 1, "inserts 1 to 3 of a name never reused" },
        { "x-id: 2\n", 0, 1, "" },
        { "x-id: 3\n", 0, 1, "" },
        { "x-id: 4\n", 0, 1, "insert 4: the name is judged from now on" },
        { "x-id: 5\n", 0, 1, "not inserted, but remembered as seen" },
        { "x-id: 5\n", 0, 1, "seen recently: inserted" },
        { "x-id: 5\n", 0, 0, "indexed" },
    };
    struct hpack_encoder *enc = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, 0);
    char hex[256];

    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        uint64_t before = hpack_encoder_changes(enc);
        if (steps[i].headers)
            encode_text(enc, steps[i].headers, hex, sizeof hex);
        else
            CHECK_EQ_INT(hpack_encoder_set_table_size(enc, steps[i].size), HPACK_OK);
        if ((hpack_encoder_changes(enc) != before) != steps[i].moves) {
            fprintf(stderr, "  step %zu (%s): changes %s\n", i, steps[i].why, steps[i].moves ? "stayed" : "moved");
            test_current_failed = 1;
        }
    }
    hpack_encoder_free(enc);
}

TEST(encoder_buffer_too_small_keeps_state)
{
    struct hpack_encoder *enc = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN);
    struct hpack_header h = { (const uint8_t *)"x-a", 3, (const uint8_t *)"b", 1, 0 };
    uint8_t out[64];
    size_t bound = hpack_encoder_bound(enc, &h, 1);

    CHECK_EQ_INT(hpack_encoder_encode(enc, &h, 1, out, bound - 1), HPACK_ERR_BUFFER_TOO_SMALL);
    CHECK_EQ_INT(hpack_encoder_table_len(enc), 0);
    CHECK(hpack_encoder_encode(enc, &h, 1, out, bound) > 0);
    CHECK_EQ_INT(hpack_encoder_table_len(enc), 1);
    hpack_encoder_free(enc);
}

/* A deterministic stream of blocks drawn from a small vocabulary, so entries are
 * reused, renamed, evicted and re-added; every strategy must round-trip it and
 * the two tables must agree after every block. */
static uint32_t next_random(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 16;
}

static void round_trip(enum hpack_indexing indexing, unsigned flags, uint32_t table_size)
{
    static const char *names[] = { ":path", "x-custom", "cookie", "set-cookie", "authorization", "accept-encoding",
                                   "x-other-name", "user-agent" };
    static const char *values[] = { "/", "gzip, deflate", "a", "", "0123456789abcdefghijklmnopqrstuvwxyz",
                                    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
                                    "~!@#$%^&*()_+`{}|:\"<>?\x01\xff", "x=1; y=2; z=3" };
    struct hpack_decoder_limits limits = default_limits();
    struct hpack_encoder *enc = hpack_encoder_new(table_size, indexing, flags);
    struct hpack_decoder *dec;
    uint32_t seed = 7;

    /* Both ends start at table_size; the decoder then allows the encoder up to 8192. */
    limits.max_table_size = table_size;
    dec = hpack_decoder_new(&limits);
    CHECK_EQ_INT(hpack_decoder_set_max_table_size(dec, 8192), HPACK_OK);
    for (int block = 0; block < 300; block++) {
        struct hpack_header h[12];
        struct header_text expected = { .len = 0 }, got = { .len = 0 }, enc_table, dec_table;
        size_t count = next_random(&seed) % 12;
        uint8_t wire[4096];
        ssize_t n;

        if (block % 50 == 49) {
            uint32_t size = next_random(&seed) % 3 == 0 ? 0 : 128 * (1 + next_random(&seed) % 64);
            CHECK_EQ_INT(hpack_encoder_set_table_size(enc, size), HPACK_OK);
        }
        for (size_t i = 0; i < count; i++) {
            const char *name = names[next_random(&seed) % 8], *value = values[next_random(&seed) % 8];
            h[i] = (struct hpack_header){ (const uint8_t *)name, strlen(name), (const uint8_t *)value, strlen(value),
                                          next_random(&seed) % 16 == 0 ? HPACK_HEADER_NEVER_INDEXED : 0 };
            collect_header(&expected, &h[i]);
        }
        n = hpack_encoder_encode(enc, h, count, wire, sizeof wire);
        CHECK(n >= 0);
        CHECK_EQ_INT(hpack_decoder_decode(dec, wire, (size_t)n, collect_header, &got), count);
        CHECK(expected.len == got.len && memcmp(expected.text, got.text, got.len) == 0);
        encoder_table_text(enc, &enc_table);
        decoder_table_text(dec, &dec_table);
        CHECK(strcmp(enc_table.text, dec_table.text) == 0);
        CHECK_EQ_INT(hpack_encoder_table_size(enc), hpack_decoder_table_size(dec));
        if (test_current_failed) {
            fprintf(stderr, "  strategy %d, flags %u, table %u, block %d\n", indexing, flags, table_size, block);
            break;
        }
    }
    hpack_encoder_free(enc);
    hpack_decoder_free(dec);
}

TEST(encoder_round_trips_every_strategy)
{
    for (int indexing = HPACK_INDEX_NONE; indexing <= HPACK_INDEX_LINEAR; indexing++) {
        round_trip((enum hpack_indexing)indexing, 0, 4096);
        round_trip((enum hpack_indexing)indexing, HPACK_ENCODER_HUFFMAN, 4096);
    }
    round_trip(HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN, 256);
    round_trip(HPACK_INDEX_LINEAR, 0, 0);
}

TEST(encoder_rejects_bad_arguments)
{
    struct hpack_encoder *enc = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, 0);
    CHECK(hpack_encoder_new(4096, (enum hpack_indexing)7, 0) == NULL);
    CHECK(hpack_encoder_new(UINT32_MAX, HPACK_INDEX_LINEAR, 0) == NULL);
    CHECK_EQ_INT(hpack_encoder_set_table_size(enc, UINT32_MAX), HPACK_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(hpack_encoder_encode(enc, NULL, 1, (uint8_t[64]){ 0 }, 64), HPACK_ERR_INVALID_ARGUMENT);
    hpack_encoder_free(enc);
}

/* Encodes a fixed run of blocks: fields of more names than the learning's
 * hashed records hold, values repeating in a fixed pseudo-random order.
 * Returns the bytes written to out. */
static size_t encode_learning_run(struct hpack_encoder *enc, uint8_t *out, size_t cap)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    size_t len = 0;
    char names[8][24], values[8][24];

    for (int block = 0; block < 300; block++) {
        struct hpack_header f[8];
        ssize_t n;
        for (size_t i = 0; i < 8; i++) {
            unsigned k;
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            k = (unsigned)(x % 5000);
            /* Names whose values repeat, and more names than hashed records
             * whose values mostly do not. */
            snprintf(names[i], sizeof names[i], i < 4 ? "x-hot-%u" : "x-cold-%u", k % (i < 4 ? 10 : 40));
            snprintf(values[i], sizeof values[i], "value-%u", k % (i < 4 ? 13 : 600));
            f[i] = (struct hpack_header){ (const uint8_t *)names[i], strlen(names[i]),
                                          (const uint8_t *)values[i], strlen(values[i]), 0 };
        }
        n = hpack_encoder_encode(enc, f, 8, out + len, cap - len);
        CHECK(n > 0);
        len += n > 0 ? (size_t)n : 0;
    }
    return len;
}

/* The learning encoder's choices hang on fingerprints, never on its seeded
 * hashes: two encoders (at two addresses) write the same bytes. */
TEST(encoder_output_is_deterministic)
{
    enum { CAP = 1 << 20 };
    struct hpack_encoder *first = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN);
    struct hpack_encoder *second = hpack_encoder_new(4096, HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN);
    uint8_t *a = malloc(CAP), *b = malloc(CAP);
    size_t na = encode_learning_run(first, a, CAP), nb = encode_learning_run(second, b, CAP);

    CHECK(na > 0);
    CHECK_EQ_INT(nb, na);
    if (nb == na)
        CHECK_MEM(b, a, na);
    hpack_encoder_free(first);
    hpack_encoder_free(second);
    free(a);
    free(b);
}
