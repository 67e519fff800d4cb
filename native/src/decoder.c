/* The HPACK decoder: one pass over a header block, one callback per field. */
#include <stdlib.h>
#include <string.h>
#include "dynamic_table.h"
#include "hpack.h"
#include "integer.h"
#include "static_table.h"
#include "string_literal.h"
#include "hpack_internal.h"


struct hpack_decoder {
    struct hpack_dyn_table table;
    struct hpack_decoder_limits limits;
    uint8_t *scratch; /* Huffman-decoded strings of the current block */
    size_t scratch_cap;
    int poisoned;
    int size_update_required; /* our limit fell below the table's size */
};

struct hpack_decoder *hpack_decoder_new(const struct hpack_decoder_limits *limits)
{
    struct hpack_decoder *dec;

    if (!limits || limits->max_table_size > HPACK_MAX_TABLE_SIZE)
        return NULL;
    dec = calloc(1, sizeof *dec);
    if (!dec)
        return NULL;
    dec->limits = *limits;
    if (hpack_dyn_init(&dec->table, limits->max_table_size) != HPACK_OK) {
        free(dec);
        return NULL;
    }
    hpack_dyn_set_max_size(&dec->table, limits->max_table_size);
    return dec;
}

void hpack_decoder_free(struct hpack_decoder *dec)
{
    if (!dec)
        return;
    hpack_dyn_free(&dec->table);
    free(dec->scratch);
    free(dec);
}

int hpack_decoder_set_max_table_size(struct hpack_decoder *dec, uint32_t max_table_size)
{
    int rc;

    if (max_table_size > HPACK_MAX_TABLE_SIZE)
        return HPACK_ERR_INVALID_ARGUMENT;
    if (max_table_size == dec->limits.max_table_size)
        return HPACK_OK;
    if (max_table_size < dec->table.max_size)
        dec->size_update_required = 1;
    rc = hpack_dyn_set_capacity(&dec->table, max_table_size);
    if (rc == HPACK_OK)
        dec->limits.max_table_size = max_table_size;
    return rc;
}

size_t hpack_decoder_table_len(const struct hpack_decoder *dec)
{
    return hpack_dyn_len(&dec->table);
}

size_t hpack_decoder_table_size(const struct hpack_decoder *dec)
{
    return dec->table.size;
}

int hpack_decoder_table_entry(const struct hpack_decoder *dec, size_t i, struct hpack_header *out)
{
    return hpack_dyn_entry_at(&dec->table, i, out);
}

/* Name and value of static or dynamic index idx. */
static inline int lookup(const struct hpack_decoder *dec, uint32_t idx, struct hpack_header *h)
{
    if (idx == 0)
        return HPACK_ERR_INDEX;
    if (idx <= HPACK_STATIC_TABLE_LEN) {
        const struct hpack_static_entry *e = &hpack_static_table[idx - 1];
        h->name = (const uint8_t *)e->name;
        h->name_len = e->name_len;
        h->value = (const uint8_t *)e->value;
        h->value_len = e->value_len;
        return HPACK_OK;
    }
    return hpack_dyn_entry_at(&dec->table, idx - HPACK_STATIC_TABLE_LEN, h);
}

/* A literal field (RFC 7541 6.2); *p is at its first byte. */
static int read_literal(struct hpack_decoder *dec, const uint8_t **p, const uint8_t *end, struct hpack_scratch *sc,
                        struct hpack_header *h)
{
    uint8_t first = **p;
    int indexing = first & 0x40;
    uint32_t idx;
    int rc = hpack_int_decode(p, end, indexing ? 6 : 4, &idx);

    if (rc != HPACK_OK)
        return rc;
    if (idx)
        rc = lookup(dec, idx, h);
    else
        rc = hpack_string_decode(p, end, 7, dec->limits.max_string_length, sc, &h->name, &h->name_len);
    if (rc != HPACK_OK)
        return rc;
    rc = hpack_string_decode(p, end, 7, dec->limits.max_string_length, sc, &h->value, &h->value_len);
    if (rc != HPACK_OK)
        return rc;
    h->flags = !indexing && (first & 0x10) ? HPACK_HEADER_NEVER_INDEXED : 0;
    /* The insert may overwrite the bytes of an evicted entry whose name we
     * reused, so report the stored copy. */
    if (indexing && hpack_dyn_insert(&dec->table, h->name, h->name_len, h->value, h->value_len))
        return hpack_dyn_entry_at(&dec->table, 1, h);
    return HPACK_OK;
}

static ssize_t decode_block(struct hpack_decoder *dec, const uint8_t *p, const uint8_t *end, hpack_header_cb cb,
                            void *ctx)
{
    struct hpack_scratch sc;
    struct hpack_header h;
    size_t count = 0, size_updates = 0;
    uint64_t list_size = 0;
    int rc = hpack_scratch_reserve(&dec->scratch, &dec->scratch_cap, hpack_scratch_need((size_t)(end - p)));

    if (rc != HPACK_OK)
        return rc;
    sc.pos = dec->scratch;
    sc.end = dec->scratch + dec->scratch_cap;
    while (p < end) {
        uint8_t first = *p;
        if ((first & 0xe0) == 0x20) {
            uint32_t size;
            /* Size updates belong before the block's first field, and two (the
             * smallest since the last block, then the final one) say all there
             * is to say (RFC 7541 4.2); more would only burn our time. */
            if (count || ++size_updates > 2)
                return HPACK_ERR_TABLE_SIZE;
            rc = hpack_int_decode(&p, end, 5, &size);
            if (rc != HPACK_OK)
                return rc;
            if (size > dec->limits.max_table_size)
                return HPACK_ERR_TABLE_SIZE;
            hpack_dyn_set_max_size(&dec->table, size);
            dec->size_update_required = 0;
            continue;
        }
        if (dec->size_update_required)
            return HPACK_ERR_TABLE_SIZE;
        if (first & 0x80) {
            uint32_t idx;
            rc = hpack_int_decode(&p, end, 7, &idx);
            if (rc == HPACK_OK)
                rc = lookup(dec, idx, &h);
            h.flags = 0;
        } else {
            rc = read_literal(dec, &p, end, &sc, &h);
        }
        if (rc != HPACK_OK)
            return rc;
        list_size += h.name_len + h.value_len + HPACK_ENTRY_OVERHEAD;
        if (list_size > dec->limits.max_header_list_size)
            return HPACK_ERR_HEADER_LIST_TOO_LARGE;
        rc = cb(ctx, &h);
        if (rc)
            return rc;
        count++;
    }
    return (ssize_t)count;
}

ssize_t hpack_decoder_decode(struct hpack_decoder *dec, const uint8_t *src, size_t len, hpack_header_cb cb, void *ctx)
{
    ssize_t rc;

    if (!dec || (!src && len) || !cb)
        return HPACK_ERR_INVALID_ARGUMENT;
    if (dec->poisoned)
        return HPACK_ERR_POISONED;
    rc = decode_block(dec, src, src + len, cb, ctx);
    if (rc < 0)
        dec->poisoned = 1;
    return rc;
}
