/* libFuzzer target: the HPACK decoder on hostile header blocks.
 *
 * Input: one config byte, then header blocks framed as in fuzz_input.h, all
 * decoded in order on one decoder so the dynamic table carries state from
 * block to block (an interop story is one seed). The config byte picks the
 * limits, small ones included, so the limit paths are reached as often as the
 * happy path:
 *   bits 0-1  SETTINGS_HEADER_TABLE_SIZE: 4096, 256, 0, 65536
 *   bits 2-3  max header list size: 1 MiB, 16384, 256, 64
 *   bits 4-5  max string length: 64 KiB, 4096, 64, 16
 *   bit  6    lower the table size limit to half before every other block
 *
 * Oracles besides the sanitizers: every reported field respects the limits
 * and is readable, the list never exceeds its limit, the table never exceeds
 * its maximum and its entries add up to its size, and a failed decoder stays
 * poisoned. */
#include "fuzz_input.h"
#include "hpack.h"
#include "hpack_internal.h"

static const uint32_t table_sizes[] = { 4096, 256, 0, 65536 };
static const uint32_t list_sizes[] = { 1u << 20, 16384, 256, 64 };
static const uint32_t string_lengths[] = { 1u << 16, 4096, 64, 16 };

/* The string limit applies to literals; a static entry may be longer
 * ("access-control-allow-origin" is 27 bytes) and is sent by index. */
#define LONGEST_STATIC_STRING 27u

struct block_state {
    const struct hpack_decoder_limits *limits;
    uint64_t list_size;
    uint32_t checksum; /* makes the sanitizers read every reported byte */
};

static int on_header(void *ctx, const struct hpack_header *h)
{
    struct block_state *st = ctx;
    size_t max_len = st->limits->max_string_length > LONGEST_STATIC_STRING ? st->limits->max_string_length
                                                                           : LONGEST_STATIC_STRING;
    FUZZ_CHECK(h->name_len <= max_len && h->value_len <= max_len);
    FUZZ_CHECK((h->flags & ~HPACK_HEADER_NEVER_INDEXED) == 0);
    for (size_t i = 0; i < h->name_len; i++)
        st->checksum = st->checksum * 31 + h->name[i];
    for (size_t i = 0; i < h->value_len; i++)
        st->checksum = st->checksum * 31 + h->value[i];
    st->list_size += h->name_len + h->value_len + 32;
    FUZZ_CHECK(st->list_size <= st->limits->max_header_list_size);
    return 0;
}

static void check_table(const struct hpack_decoder *dec, uint32_t max_table_size)
{
    size_t total = 0, n = hpack_decoder_table_len(dec);
    struct hpack_header h;

    for (size_t i = 1; i <= n; i++) {
        FUZZ_CHECK(hpack_decoder_table_entry(dec, i, &h) == HPACK_OK);
        total += h.name_len + h.value_len + 32;
    }
    FUZZ_CHECK(hpack_decoder_table_entry(dec, n + 1, &h) == HPACK_ERR_INDEX);
    FUZZ_CHECK(total == hpack_decoder_table_size(dec));
    FUZZ_CHECK(total <= max_table_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in = { data, data + size };
    uint8_t config = fuzz_u8(&in);
    struct hpack_decoder_limits limits = {
        .max_table_size = table_sizes[config & 3],
        .max_header_list_size = list_sizes[(config >> 2) & 3],
        .max_string_length = string_lengths[(config >> 4) & 3],
    };
    struct hpack_decoder *dec = hpack_decoder_new(&limits);
    int failed = 0;

    FUZZ_CHECK(dec != NULL);
    for (unsigned n = 0; fuzz_left(&in) > 0; n++) {
        struct block_state st = { &limits, 0, 0 };
        size_t len;
        const uint8_t *block = fuzz_block(&in, &len);
        ssize_t rc;

        if (config & 0x40) {
            uint32_t limit = n & 1 ? table_sizes[config & 3] / 2 : table_sizes[config & 3];
            FUZZ_CHECK(hpack_decoder_set_max_table_size(dec, limit) == HPACK_OK);
            limits.max_table_size = limit;
        }
        rc = hpack_decoder_decode(dec, block, len, on_header, &st);
        if (failed) {
            FUZZ_CHECK(rc == HPACK_ERR_POISONED);
            continue;
        }
        if (rc < 0) {
            FUZZ_CHECK(rc >= HPACK_ERR_INVALID_ARGUMENT && rc != HPACK_ERR_BUFFER_TOO_SMALL &&
                       rc != HPACK_ERR_POISONED && rc != HPACK_ERR_INVALID_ARGUMENT);
            failed = 1;
        }
        check_table(dec, limits.max_table_size);
    }
    hpack_decoder_free(dec);
    return 0;
}
