/* QPACK encoder rules the decoder checks, and field flags the decoder reports. */
#include <stdlib.h>
#include "qpack_support.h"
#include "test.h"

static int record_flags(void *ctx, uint64_t stream_id, const struct hpack_header *field)
{
    (void)stream_id;
    if (field)
        *(unsigned *)ctx = field->flags;
    return 0;
}

TEST(qpack_never_indexed_survives_a_dynamic_name_reference)
{
    /* Literal with name reference (01NT, N=1, T=0) and with post-base name reference (0000N). */
    static const char *sections[] = { "0200 60 0178", "0280 08 0178" };
    for (size_t i = 0; i < 2; i++) {
        struct qpack_decoder_settings s = qpack_test_settings(220, 100);
        struct qpack_decoder *dec = qpack_decoder_new(&s);
        struct header_text t = { .len = 0 };
        uint8_t buf[16];
        size_t n = hex_decode(sections[i], buf, sizeof buf);
        unsigned flags = 0;
        CHECK_EQ_INT(qfeed_hex(dec, "3fbd01 4a637573746f6d2d6b65790c637573746f6d2d76616c7565", &t), QPACK_OK);
        CHECK_EQ_INT(qpack_decoder_decode(dec, 0, buf, n, record_flags, &flags), QPACK_OK);
        CHECK_EQ_INT(flags, HPACK_HEADER_NEVER_INDEXED);
        qpack_decoder_free(dec);
    }
}

/* A section the decoder cancels releases its references but not its inserts:
 * until acknowledged they stay in the table, or the encoder's Insert Count
 * would run more than MaxEntries ahead of the decoder's and the decoder could
 * not unwrap the Required Insert Count (RFC 9204 2.1.1, 4.5.1.1). */
TEST(qpack_encoder_keeps_unacknowledged_inserts)
{
    struct qpack_encoder_settings es = { 64, 64, 100, 0 }; /* MaxEntries 2: one 34-byte entry fits */
    struct qpack_decoder_settings ds = qpack_test_settings(64, 100);
    struct qpack_encoder *enc = qpack_encoder_new(&es);
    struct qpack_decoder *dec = qpack_decoder_new(&ds);
    struct header_text t = { .len = 0 };
    uint8_t section[64], stream[256];
    size_t stream_len = 0;

    for (unsigned i = 0; i < 5; i++) {
        char name[2] = { (char)('a' + i), 0 };
        struct hpack_header f = { (const uint8_t *)name, 1, (const uint8_t *)"v", 1, 0 };
        ssize_t n = qpack_encoder_encode(enc, 4 * i, &f, 1, section, sizeof section);
        uint8_t out[16];
        size_t m;
        int rc;
        CHECK(n > 0);
        stream_len += qpack_encoder_read_stream(enc, stream + stream_len, sizeof stream - stream_len);
        t.len = 0;
        rc = qpack_decoder_decode(dec, 4 * i, section, (size_t)(n > 0 ? n : 0), collect_field, &t);
        CHECK(rc == QPACK_OK || rc == QPACK_BLOCKED);
        if (rc == QPACK_BLOCKED)
            CHECK_EQ_INT(qpack_decoder_cancel_stream(dec, 4 * i), QPACK_OK);
        m = qpack_decoder_read_stream(dec, out, sizeof out);
        CHECK_EQ_INT(qpack_encoder_feed_decoder(enc, out, m), QPACK_OK);
    }
    CHECK(qpack_encoder_insert_count(enc) <= 2);
    t.len = 0;
    CHECK_EQ_INT(qpack_decoder_feed_encoder(dec, stream, stream_len, collect_field, &t), QPACK_OK);
    qpack_encoder_free(enc);
    qpack_decoder_free(dec);
}

/* Encodes a fixed run of sections with a fresh encoder: fields from a pool
 * larger than the encoder's memory of fields seen, repeating in a fixed
 * pseudo-random order, each section acknowledged. Writes the section bytes and
 * the encoder stream into out; returns their length. */
static size_t encode_fixed_run(struct qpack_encoder *enc, uint8_t *out, size_t cap)
{
    uint64_t x = 0x2545f4914f6cdd1dull;
    size_t len = 0;
    char names[4][16], values[4][16];

    CHECK(enc != NULL);
    for (uint64_t stream = 0; stream < 400 * 4 && enc; stream += 4) {
        struct hpack_header f[4];
        ssize_t n;
        for (size_t i = 0; i < 4; i++) {
            unsigned k;
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            k = (unsigned)(x % 700);
            snprintf(names[i], sizeof names[i], "x-field-%u", k % 7);
            snprintf(values[i], sizeof values[i], "value-%u", k);
            f[i] = (struct hpack_header){ (const uint8_t *)names[i], strlen(names[i]),
                                          (const uint8_t *)values[i], strlen(values[i]), 0 };
        }
        CHECK(cap - len >= qpack_encoder_bound(enc, f, 4));
        n = qpack_encoder_encode(enc, stream, f, 4, out + len, cap - len);
        CHECK(n > 0);
        len += n > 0 ? (size_t)n : 0;
        len += qpack_encoder_read_stream(enc, out + len, cap - len);
        qpack_encoder_assume_acknowledged(enc);
    }
    return len;
}

/* The same input and settings give the same bytes, whichever encoder (and so
 * whichever heap address) does the work. With no blocked streams allowed,
 * every insert hangs on the encoder's memory of fields seen, which used to be
 * keyed by a hash seeded with the encoder's address. */
TEST(qpack_encoder_output_is_deterministic)
{
    enum { CAP = 1 << 20 };
    struct qpack_encoder_settings es = { 4096, 4096, 0, HPACK_ENCODER_HUFFMAN };
    struct qpack_encoder *first = qpack_encoder_new(&es), *second = qpack_encoder_new(&es);
    uint8_t *a = malloc(CAP), *b = malloc(CAP);
    size_t na = encode_fixed_run(first, a, CAP), nb = encode_fixed_run(second, b, CAP);

    CHECK(na > 0);
    CHECK_EQ_INT(nb, na);
    if (nb == na)
        CHECK_MEM(b, a, na);
    qpack_encoder_free(first);
    qpack_encoder_free(second);
    free(a);
    free(b);
}
