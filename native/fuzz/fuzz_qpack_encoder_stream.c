/* libFuzzer target: the QPACK decoder's encoder-stream instructions (RFC 9204
 * 4.3: Set Dynamic Table Capacity, Insert with Name Reference, Insert with
 * Literal Name, Duplicate) as QUIC may deliver them: split anywhere.
 *
 * Input: one config byte, one count byte n (mod 16), n cut bytes, then the
 * encoder-stream bytes. One decoder takes the bytes in one call, another in
 * n + 1 pieces cut at (cut * length / 256), sorted (empty pieces included).
 * Config byte:
 *   bits 0-1  SETTINGS_QPACK_MAX_TABLE_CAPACITY: 4096, 256, 0, 65536
 *   bit  2    max string length 64 (else 64 KiB)
 *
 * Oracles besides the sanitizers: the split decoder ends in the state of the
 * whole one: the same outcome (OK, or the same error, on the piece holding the
 * octet that completes the bad instruction, and poisoned after it), the same
 * insert count, table size and entries, and the same decoder-stream bytes
 * (Insert Count Increment); errors are the documented ones; the table's
 * entries add up to its size, within the capacity. */
#include <string.h>
#include "fuzz_input.h"
#include "qpack.h"
#include "qpack_internal.h"

static const uint32_t capacities[] = { 4096, 256, 0, 65536 };

#define MAX_CUTS 16

static int no_section(void *ctx, uint64_t stream_id, const struct hpack_header *h)
{
    (void)ctx;
    (void)stream_id;
    (void)h;
    FUZZ_CHECK(0); /* no section was ever decoded, so none can be unblocked */
    return 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static size_t drain(struct qpack_decoder *dec, uint8_t *out, size_t cap)
{
    size_t n = 0, got;
    while ((got = qpack_decoder_read_stream(dec, out + n, cap - n)) > 0)
        n += got;
    FUZZ_CHECK(qpack_decoder_stream_pending(dec) == 0);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, data + size };
    uint8_t config = fuzz_u8(&in);
    size_t ncuts = fuzz_u8(&in) % MAX_CUTS, cuts[MAX_CUTS + 1], len;
    uint8_t cut_bytes[MAX_CUTS];
    struct qpack_decoder_settings s = {
        .max_table_capacity = capacities[config & 3],
        .max_blocked_streams = 16,
        .max_field_section_size = 1u << 16,
        .max_string_length = config & 4 ? 64 : 1u << 16,
        .max_blocked_bytes = 1u << 16,
    };
    for (size_t i = 0; i < ncuts; i++)
        cut_bytes[i] = fuzz_u8(&in);
    len = fuzz_left(&in);
    const uint8_t *stream = fuzz_bytes(&in, &len);
    for (size_t i = 0; i < ncuts; i++)
        cuts[i] = (size_t)cut_bytes[i] * len / 256;
    qsort(cuts, ncuts, sizeof cuts[0], cmp_size);
    cuts[ncuts] = len;

    struct qpack_decoder *whole = qpack_decoder_new(&s), *split = qpack_decoder_new(&s);
    FUZZ_CHECK(whole != NULL && split != NULL);
    int rc_whole = qpack_decoder_feed_encoder(whole, stream, len, no_section, NULL);
    FUZZ_CHECK(rc_whole == QPACK_OK || rc_whole == QPACK_ERR_ENCODER_STREAM || rc_whole == QPACK_ERR_NOMEM);

    int rc_split = QPACK_OK;
    size_t from = 0;
    for (size_t i = 0; i <= ncuts; i++) {
        int rc = qpack_decoder_feed_encoder(split, stream + from, cuts[i] - from, no_section, NULL);
        if (rc_split != QPACK_OK)
            FUZZ_CHECK(rc == QPACK_ERR_POISONED);
        else
            rc_split = rc;
        from = cuts[i];
    }
    FUZZ_CHECK(rc_split == rc_whole);

    uint64_t inserts = qpack_decoder_insert_count(whole);
    size_t total = 0;
    struct hpack_header a, b;
    FUZZ_CHECK(qpack_decoder_insert_count(split) == inserts);
    FUZZ_CHECK(qpack_decoder_table_size(split) == qpack_decoder_table_size(whole));
    for (uint64_t abs = inserts; abs-- > 0 && qpack_decoder_table_entry(whole, abs, &a) == HPACK_OK;) {
        FUZZ_CHECK(qpack_decoder_table_entry(split, abs, &b) == HPACK_OK);
        FUZZ_CHECK(a.name_len == b.name_len && a.value_len == b.value_len);
        FUZZ_CHECK(memcmp(a.name, b.name, a.name_len) == 0 && memcmp(a.value, b.value, a.value_len) == 0);
        total += a.name_len + a.value_len + 32;
    }
    FUZZ_CHECK(total == qpack_decoder_table_size(whole));
    FUZZ_CHECK(total <= s.max_table_capacity);

    uint8_t out_whole[64], out_split[64];
    size_t n_whole = drain(whole, out_whole, sizeof out_whole), n_split = drain(split, out_split, sizeof out_split);
    FUZZ_CHECK(n_whole == n_split && memcmp(out_whole, out_split, n_whole) == 0);
    qpack_decoder_free(whole);
    qpack_decoder_free(split);
    return 0;
}
