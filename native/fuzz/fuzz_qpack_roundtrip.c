/* libFuzzer target: the QPACK encoder against the QPACK decoder, with the
 * three streams delivered in any interleaving the input picks, so the
 * encoder's bookkeeping (blocked-stream budget, eviction of referenced
 * entries, Duplicate of draining entries, acknowledgments, cancellations)
 * meets the decoder's checks of every rule.
 *
 * Input: one config byte, then operations, each an opcode byte and its operands:
 *   0  encode a section: a field count byte (mod 16), then per field a flags
 *      byte (bit 0: never indexed) and a name and value as fuzz_string()
 *   1  deliver up to (a byte) queued encoder-stream bytes: any split point
 *   2  deliver the oldest section not yet delivered
 *   3  deliver every queued decoder-stream byte to the encoder
 *   4  cancel the oldest delivered section still blocked
 * Config byte:
 *   bits 0-1  table capacity (the peer's maximum too): 4096, 256, 64, 0
 *   bits 2-3  SETTINGS_QPACK_BLOCKED_STREAMS: 100, 1, 0, 4
 *   bit  4    Huffman
 * At the end everything queued is delivered.
 *
 * Oracles: the decoder never reports an error (a conformant encoder never
 * blocks too many streams, never references an evicted entry), every decoded
 * section equals what was encoded, every section is decoded or cancelled by
 * the end, and the encoder's streams never fail. */
#include <string.h>
#include "fuzz_input.h"
#include "qpack.h"
#include "qpack_internal.h"

static const uint32_t capacities[] = { 4096, 256, 64, 0 };
static const uint32_t blocked_limits[] = { 100, 1, 0, 4 };

#define MAX_SECTIONS 64
#define MAX_FIELDS 16

struct sent {
    struct hpack_header fields[MAX_FIELDS];
    size_t n;
    uint8_t *bytes; /* the encoded section */
    size_t len;
    int delivered, done;
};

struct run {
    struct sent sections[MAX_SECTIONS];
    size_t count;
    uint8_t enc_stream[1 << 18]; /* encoder-stream bytes not yet delivered; 16 inserts of a 4096-byte table fit in half */
    size_t enc_len;
    size_t next_field; /* in the section being checked */
};

static int check_field(void *ctx, uint64_t stream_id, const struct hpack_header *h)
{
    struct run *r = ctx;
    struct sent *s;

    FUZZ_CHECK(stream_id % 4 == 0 && stream_id / 4 < r->count);
    s = &r->sections[stream_id / 4];
    FUZZ_CHECK(s->delivered && !s->done);
    if (!h) {
        FUZZ_CHECK(r->next_field == s->n);
        s->done = 1;
        r->next_field = 0;
        return 0;
    }
    FUZZ_CHECK(r->next_field < s->n);
    const struct hpack_header *want = &s->fields[r->next_field++];
    FUZZ_CHECK(want->name_len == h->name_len && want->value_len == h->value_len);
    FUZZ_CHECK(memcmp(want->name, h->name, h->name_len) == 0 && memcmp(want->value, h->value, h->value_len) == 0);
    FUZZ_CHECK((h->flags & HPACK_HEADER_NEVER_INDEXED) >= (want->flags & HPACK_HEADER_NEVER_INDEXED));
    return 0;
}

static void pull_encoder_stream(struct qpack_encoder *enc, struct run *r)
{
    r->enc_len += qpack_encoder_read_stream(enc, r->enc_stream + r->enc_len, sizeof r->enc_stream - r->enc_len);
    FUZZ_CHECK(qpack_encoder_stream_pending(enc) == 0);
}

static void deliver_encoder_stream(struct qpack_decoder *dec, struct run *r, size_t n)
{
    if (n > r->enc_len)
        n = r->enc_len;
    FUZZ_CHECK(qpack_decoder_feed_encoder(dec, r->enc_stream, n, check_field, r) == QPACK_OK);
    memmove(r->enc_stream, r->enc_stream + n, r->enc_len - n);
    r->enc_len -= n;
}

static void deliver_section(struct qpack_decoder *dec, struct run *r, size_t i)
{
    struct sent *s = &r->sections[i];
    int rc;

    s->delivered = 1;
    rc = qpack_decoder_decode(dec, 4 * i, s->bytes, s->len, check_field, r);
    FUZZ_CHECK(rc == QPACK_OK || rc == QPACK_BLOCKED);
    FUZZ_CHECK(rc == QPACK_BLOCKED || s->done);
}

static void deliver_decoder_stream(struct qpack_decoder *dec, struct qpack_encoder *enc)
{
    uint8_t buf[256];
    size_t n;
    while ((n = qpack_decoder_read_stream(dec, buf, sizeof buf)) > 0)
        FUZZ_CHECK(qpack_encoder_feed_decoder(enc, buf, n) == QPACK_OK);
}

static void encode_section(struct fuzz_input *in, struct qpack_encoder *enc, struct run *r)
{
    struct sent *s = &r->sections[r->count];
    ssize_t n;

    s->n = fuzz_u8(in) % (MAX_FIELDS + 1);
    for (size_t j = 0; j < s->n; j++) {
        struct hpack_header *h = &s->fields[j];
        h->flags = fuzz_u8(in) & HPACK_HEADER_NEVER_INDEXED;
        h->name = fuzz_string(in, &h->name_len);
        h->value = fuzz_string(in, &h->value_len);
    }
    s->len = qpack_encoder_bound(enc, s->fields, s->n);
    s->bytes = malloc(s->len);
    FUZZ_CHECK(s->bytes != NULL);
    n = qpack_encoder_encode(enc, 4 * r->count, s->fields, s->n, s->bytes, s->len);
    FUZZ_CHECK(n > 0);
    s->len = (size_t)n;
    r->count++;
    pull_encoder_stream(enc, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, data + size };
    uint8_t config = fuzz_u8(&in);
    uint32_t capacity = capacities[config & 3];
    struct qpack_encoder_settings es = { capacity, capacity, blocked_limits[(config >> 2) & 3],
                                         config & 0x10 ? HPACK_ENCODER_HUFFMAN : 0 };
    struct qpack_decoder_settings ds = { capacity, es.max_blocked_streams, 1u << 24, 1u << 16, 1u << 24 };
    struct qpack_encoder *enc = qpack_encoder_new(&es);
    struct qpack_decoder *dec = qpack_decoder_new(&ds);
    static struct run r;
    size_t next = 0; /* oldest section not yet delivered */

    memset(&r, 0, sizeof r);
    FUZZ_CHECK(enc && dec);
    while (fuzz_left(&in) > 0) {
        switch (fuzz_u8(&in) % 5) {
        case 0:
            if (r.count < MAX_SECTIONS && r.enc_len < sizeof r.enc_stream / 2)
                encode_section(&in, enc, &r);
            break;
        case 1:
            deliver_encoder_stream(dec, &r, fuzz_u8(&in));
            break;
        case 2:
            if (next < r.count)
                deliver_section(dec, &r, next++);
            break;
        case 3:
            deliver_decoder_stream(dec, enc);
            break;
        default:
            for (size_t i = 0; i < next; i++) {
                if (!r.sections[i].done) {
                    FUZZ_CHECK(qpack_decoder_cancel_stream(dec, 4 * i) == QPACK_OK);
                    r.sections[i].done = 1;
                    break;
                }
            }
        }
        FUZZ_CHECK(qpack_encoder_blocked_streams(enc) <= es.max_blocked_streams);
    }
    while (next < r.count)
        deliver_section(dec, &r, next++);
    deliver_encoder_stream(dec, &r, r.enc_len);
    deliver_decoder_stream(dec, enc);
    for (size_t i = 0; i < r.count; i++) {
        FUZZ_CHECK(r.sections[i].done);
        free(r.sections[i].bytes);
    }
    FUZZ_CHECK(qpack_decoder_blocked_streams(dec) == 0);
    qpack_encoder_free(enc);
    qpack_decoder_free(dec);
    return 0;
}
