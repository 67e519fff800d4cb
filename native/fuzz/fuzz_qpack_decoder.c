/* libFuzzer target: the QPACK decoder on a hostile encoder stream and hostile
 * field sections.
 *
 * Input: one config byte, then records, each a kind byte and a block framed as
 * in fuzz_input.h, all on one decoder so the table and the queue of blocked
 * sections carry state from record to record. Kind:
 *   0x80 | any   encoder-stream bytes (split anywhere, as QUIC may deliver them)
 *   0x40 | n     cancel stream 4n (the block is ignored)
 *   n            the field section of stream 4n
 * Config byte:
 *   bits 0-1  SETTINGS_QPACK_MAX_TABLE_CAPACITY: 4096, 256, 0, 65536
 *   bits 2-3  SETTINGS_QPACK_BLOCKED_STREAMS: 100, 1, 0, 16
 *   bits 4-5  max field section size: 1 MiB, 16384, 256, 64
 *   bit  6    blocked sections may hold 256 bytes (else 64 KiB)
 *
 * Oracles besides the sanitizers: every field is readable and within the
 * string limit (static entries aside), every complete section within its
 * size limit; errors are the documented ones; after a connection error the
 * decoder stays poisoned; the table's entries add up to its size, within the
 * capacity; no more streams are blocked than allowed. */
#include "fuzz_input.h"
#include "qpack.h"
#include "qpack_internal.h"

static const uint32_t capacities[] = { 4096, 256, 0, 65536 };
static const uint32_t blocked_limits[] = { 100, 1, 0, 16 };
static const uint32_t section_sizes[] = { 1u << 20, 16384, 256, 64 };

/* The longest static-table string (RFC 9204 Appendix A, index 85's value). */
#define LONGEST_STATIC_STRING 53u

struct state {
    const struct qpack_decoder_settings *s;
    uint64_t section_size;
    uint32_t checksum;
};

static int on_field(void *ctx, uint64_t stream_id, const struct hpack_header *h)
{
    struct state *st = ctx;
    size_t max_len = st->s->max_string_length > LONGEST_STATIC_STRING ? st->s->max_string_length
                                                                     : LONGEST_STATIC_STRING;
    FUZZ_CHECK(stream_id % 4 == 0);
    if (!h) {
        st->section_size = 0;
        return 0;
    }
    FUZZ_CHECK(h->name_len <= max_len && h->value_len <= max_len);
    for (size_t i = 0; i < h->name_len; i++)
        st->checksum = st->checksum * 31 + h->name[i];
    for (size_t i = 0; i < h->value_len; i++)
        st->checksum = st->checksum * 31 + h->value[i];
    st->section_size += h->name_len + h->value_len + 32;
    FUZZ_CHECK(st->section_size <= st->s->max_field_section_size);
    return 0;
}

static void check_table(const struct qpack_decoder *dec, uint32_t capacity)
{
    uint64_t inserts = qpack_decoder_insert_count(dec);
    size_t total = 0;
    struct hpack_header h;

    for (uint64_t abs = inserts; abs-- > 0 && qpack_decoder_table_entry(dec, abs, &h) == HPACK_OK;)
        total += h.name_len + h.value_len + 32;
    FUZZ_CHECK(qpack_decoder_table_entry(dec, inserts, &h) == HPACK_ERR_INDEX);
    FUZZ_CHECK(total == qpack_decoder_table_size(dec));
    FUZZ_CHECK(total <= capacity);
}

static int connection_error(int rc)
{
    return rc == QPACK_ERR_DECOMPRESSION_FAILED || rc == QPACK_ERR_ENCODER_STREAM || rc == QPACK_ERR_NOMEM;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, data + size };
    uint8_t config = fuzz_u8(&in);
    struct qpack_decoder_settings s = {
        .max_table_capacity = capacities[config & 3],
        .max_blocked_streams = blocked_limits[(config >> 2) & 3],
        .max_field_section_size = section_sizes[(config >> 4) & 3],
        .max_string_length = 1u << 16,
        .max_blocked_bytes = config & 0x40 ? 256 : 1u << 16,
    };
    struct qpack_decoder *dec = qpack_decoder_new(&s);
    struct state st = { &s, 0, 0 };
    uint8_t out[64];
    int poisoned = 0;

    FUZZ_CHECK(dec != NULL);
    while (fuzz_left(&in) > 0) {
        uint8_t kind = fuzz_u8(&in);
        size_t len;
        const uint8_t *block = fuzz_block(&in, &len);
        int cancel = (kind & 0xc0) == 0x40, rc;

        st.section_size = 0;
        if (kind & 0x80)
            rc = qpack_decoder_feed_encoder(dec, block, len, on_field, &st);
        else if (cancel)
            rc = qpack_decoder_cancel_stream(dec, 4u * (kind & 0x3f));
        else
            rc = qpack_decoder_decode(dec, 4u * kind, block, len, on_field, &st);
        if (poisoned && !cancel) {
            FUZZ_CHECK(rc == QPACK_ERR_POISONED);
            continue;
        }
        FUZZ_CHECK(rc == QPACK_OK || rc == QPACK_BLOCKED || connection_error(rc) ||
                   rc == QPACK_ERR_FIELD_SECTION_TOO_LARGE || rc == QPACK_ERR_BLOCKED_TOO_LARGE);
        FUZZ_CHECK(rc != QPACK_BLOCKED || !(kind & 0xc0));
        poisoned |= connection_error(rc);
        FUZZ_CHECK(qpack_decoder_blocked_streams(dec) <= s.max_blocked_streams);
        check_table(dec, s.max_table_capacity);
        while (qpack_decoder_read_stream(dec, out, sizeof out) > 0)
            ;
    }
    qpack_decoder_free(dec);
    return 0;
}
