/* libFuzzer target: encoder -> decoder round trip, for every strategy.
 *
 * Input: one config byte, then headers, each as a flags byte and two strings
 * (framing in fuzz_input.h):
 *   config bits 0-1  table size both ends start with: 4096, 256, 64, 0
 *   config bit  2    halve the table size (encoder and decoder limit) before
 *                    every other block, restore it before the next, so size
 *                    updates are signalled and obeyed
 *   config bit  3    HPACK_ENCODER_INDEX_SHORT_COOKIES
 *   config bit  4    HPACK_ENCODER_INDEX_VOLATILE
 *   config bit  5    HPACK_ENCODER_FIXED_RULES (else the linear encoder learns)
 *   header bit  0    HPACK_HEADER_NEVER_INDEXED
 *   header bit  1    the block ends after this header
 * The same header list is encoded with each indexing strategy, with and
 * without Huffman, by an encoder/decoder pair that lives across the blocks.
 * Every block must decode to exactly its headers, never-indexed flags kept,
 * and the two dynamic tables must stay identical; a block during which
 * hpack_encoder_changes() did not move must come out byte for byte the same
 * when encoded again (what lets a caller resend it). Each string also goes
 * through Huffman encode -> decode on its own. */
#include <string.h>
#include "fuzz_input.h"
#include "hpack.h"
#include "hpack_internal.h"

#define MAX_HEADERS 256

static const uint32_t table_sizes[] = { 4096, 256, 64, 0 };

struct header_list {
    struct hpack_header h[MAX_HEADERS];
    int ends_block[MAX_HEADERS];
    size_t count;
};

struct expect {
    const struct hpack_header *next;
    const struct hpack_header *end;
};

static int on_header(void *ctx, const struct hpack_header *got)
{
    struct expect *ex = ctx;
    const struct hpack_header *want = ex->next++;

    FUZZ_CHECK(want < ex->end);
    FUZZ_CHECK(got->name_len == want->name_len && memcmp(got->name, want->name, got->name_len) == 0);
    FUZZ_CHECK(got->value_len == want->value_len && memcmp(got->value, want->value, got->value_len) == 0);
    if (want->flags & HPACK_HEADER_NEVER_INDEXED)
        FUZZ_CHECK(got->flags & HPACK_HEADER_NEVER_INDEXED);
    return 0;
}

static void parse(struct fuzz_input *in, struct header_list *list)
{
    list->count = 0;
    while (fuzz_left(in) > 0 && list->count < MAX_HEADERS) {
        struct hpack_header *h = &list->h[list->count];
        uint8_t flags = fuzz_u8(in);
        h->flags = flags & 1 ? HPACK_HEADER_NEVER_INDEXED : 0;
        h->name = fuzz_string(in, &h->name_len);
        h->value = fuzz_string(in, &h->value_len);
        list->ends_block[list->count++] = flags & 2;
    }
}

static void check_tables_match(const struct hpack_encoder *enc, const struct hpack_decoder *dec)
{
    size_t n = hpack_encoder_table_len(enc);

    FUZZ_CHECK(hpack_decoder_table_len(dec) == n);
    FUZZ_CHECK(hpack_decoder_table_size(dec) == hpack_encoder_table_size(enc));
    for (size_t i = 1; i <= n; i++) {
        struct hpack_header a, b;
        FUZZ_CHECK(hpack_encoder_table_entry(enc, i, &a) == HPACK_OK);
        FUZZ_CHECK(hpack_decoder_table_entry(dec, i, &b) == HPACK_OK);
        FUZZ_CHECK(a.name_len == b.name_len && memcmp(a.name, b.name, a.name_len) == 0);
        FUZZ_CHECK(a.value_len == b.value_len && memcmp(a.value, b.value, a.value_len) == 0);
    }
}

/* One block: a too-small buffer must fail without touching the encoder's
 * state, then the real encoding must decode back to the headers. */
static void round_trip_block(struct hpack_encoder *enc, struct hpack_decoder *dec, const struct hpack_header *h,
                             size_t count)
{
    size_t bound = hpack_encoder_bound(enc, h, count);
    size_t len_before = hpack_encoder_table_len(enc), size_before = hpack_encoder_table_size(enc);
    uint64_t changes = hpack_encoder_changes(enc);
    uint8_t *wire = malloc(bound ? bound : 1), *again = malloc(bound ? bound : 1);
    struct expect ex = { h, h + count };
    ssize_t n;

    if (bound > 0) {
        FUZZ_CHECK(hpack_encoder_encode(enc, h, count, wire, bound - 1) == HPACK_ERR_BUFFER_TOO_SMALL);
        FUZZ_CHECK(hpack_encoder_table_len(enc) == len_before && hpack_encoder_table_size(enc) == size_before);
    }
    n = hpack_encoder_encode(enc, h, count, wire, bound);
    FUZZ_CHECK(n >= 0 && (size_t)n <= bound);
    FUZZ_CHECK(hpack_decoder_decode(dec, wire, (size_t)n, on_header, &ex) == (ssize_t)count);
    FUZZ_CHECK(ex.next == ex.end);
    check_tables_match(enc, dec);
    if (hpack_encoder_changes(enc) == changes) {
        struct expect ex2 = { h, h + count };
        FUZZ_CHECK(hpack_encoder_encode(enc, h, count, again, bound) == n && memcmp(again, wire, (size_t)n) == 0);
        FUZZ_CHECK(hpack_encoder_changes(enc) == changes);
        FUZZ_CHECK(hpack_decoder_decode(dec, again, (size_t)n, on_header, &ex2) == (ssize_t)count);
        check_tables_match(enc, dec);
    }
    free(wire);
    free(again);
}

static void round_trip(const struct header_list *list, uint8_t config, enum hpack_indexing indexing, unsigned flags)
{
    uint32_t table_size = table_sizes[config & 3];
    struct hpack_decoder_limits limits = { table_size, UINT32_MAX, UINT32_MAX };
    struct hpack_encoder *enc = hpack_encoder_new(table_size, indexing, flags);
    struct hpack_decoder *dec = hpack_decoder_new(&limits);
    size_t start = 0;

    FUZZ_CHECK(enc && dec);
    for (unsigned block = 0; start < list->count; block++) {
        size_t end = start;
        while (end < list->count && !list->ends_block[end++])
            ;
        if (config & 4) {
            /* The order of SETTINGS: the decoder's new limit applies once
             * acknowledged, and the encoder then signals its size. */
            uint32_t size = block & 1 ? table_size / 2 : table_size;
            FUZZ_CHECK(hpack_decoder_set_max_table_size(dec, size) == HPACK_OK);
            FUZZ_CHECK(hpack_encoder_set_table_size(enc, size) == HPACK_OK);
        }
        round_trip_block(enc, dec, &list->h[start], end - start);
        if (indexing != HPACK_INDEX_LINEAR)
            FUZZ_CHECK(hpack_decoder_table_len(dec) == 0);
        start = end;
    }
    hpack_encoder_free(enc);
    hpack_decoder_free(dec);
}

static void huffman_round_trip(const uint8_t *s, size_t len)
{
    size_t elen = hpack_huffman_encoded_length(s, len);
    uint8_t *enc = malloc(elen ? elen : 1), *dec = malloc(len ? len : 1);

    FUZZ_CHECK(hpack_huffman_encode(s, len, enc, elen) == (ssize_t)elen);
    FUZZ_CHECK(hpack_huffman_decode(enc, elen, dec, len) == (ssize_t)len);
    FUZZ_CHECK(memcmp(dec, s, len) == 0);
    free(enc);
    free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct header_list list;
    struct fuzz_input in = { data, data + size };
    uint8_t config = fuzz_u8(&in);
    static const enum hpack_indexing strategies[] = { HPACK_INDEX_NONE, HPACK_INDEX_STATIC, HPACK_INDEX_LINEAR };

    unsigned flags = (config & 8 ? HPACK_ENCODER_INDEX_SHORT_COOKIES : 0) | (config & 16 ? HPACK_ENCODER_INDEX_VOLATILE : 0) |
                     (config & 32 ? HPACK_ENCODER_FIXED_RULES : 0);

    parse(&in, &list);
    for (size_t s = 0; s < 3; s++) {
        round_trip(&list, config, strategies[s], flags);
        round_trip(&list, config, strategies[s], flags | HPACK_ENCODER_HUFFMAN);
    }
    for (size_t i = 0; i < list.count; i++) {
        huffman_round_trip(list.h[i].name, list.h[i].name_len);
        huffman_round_trip(list.h[i].value, list.h[i].value_len);
    }
    return 0;
}
