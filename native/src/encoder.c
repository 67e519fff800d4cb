/* The HPACK encoder: strategy selection, size-update signalling, field representations. */
#include <stdlib.h>
#include <string.h>
#include "field_rules.h"
#include "header_index.h"
#include "hpack.h"
#include "integer.h"
#include "repeat_memory.h"
#include "static_table.h"
#include "string_literal.h"
#include "hpack_internal.h"


/* Representation bits and prefix sizes (RFC 7541 6). */
#define REP_INDEXED 0x80u
#define REP_INCREMENTAL 0x40u
#define REP_SIZE_UPDATE 0x20u
#define REP_NEVER_INDEXED 0x10u
#define REP_WITHOUT_INDEXING 0x00u

struct hpack_encoder {
    struct hpack_dyn_table table;
    struct hpack_header_index index;
    enum hpack_indexing indexing;
    int huffman;
    int index_short_cookies;
    int index_volatile;
    int learn; /* skip fields whose entries are not reused (repeat_memory.h) */
    int size_update_pending;
    size_t smallest_pending_size; /* smallest size set since the last block */
    size_t announced_size;        /* the table size the peer's decoder will use */
    uint64_t changes;             /* see hpack_encoder_changes */
    struct hpack_repeat_memory repeats;
};

struct hpack_encoder *hpack_encoder_new(uint32_t table_size, enum hpack_indexing indexing, unsigned flags)
{
    struct hpack_encoder *enc;

    if (table_size > HPACK_MAX_TABLE_SIZE || (unsigned)indexing > HPACK_INDEX_LINEAR)
        return NULL;
    enc = calloc(1, sizeof *enc);
    if (!enc)
        return NULL;
    enc->indexing = indexing;
    enc->huffman = (flags & HPACK_ENCODER_HUFFMAN) != 0;
    enc->index_short_cookies = (flags & HPACK_ENCODER_INDEX_SHORT_COOKIES) != 0;
    enc->index_volatile = (flags & HPACK_ENCODER_INDEX_VOLATILE) != 0;
    enc->learn = indexing == HPACK_INDEX_LINEAR && !enc->index_volatile && !(flags & HPACK_ENCODER_FIXED_RULES);
    /* Only the linear strategy ever stores entries. */
    if (hpack_dyn_init(&enc->table, indexing == HPACK_INDEX_LINEAR ? table_size : 0) != HPACK_OK)
        goto fail;
    hpack_dyn_set_max_size(&enc->table, enc->table.capacity);
    enc->announced_size = table_size;
    /* The seed only spreads buckets; the heap address differs per encoder and run. */
    enc->index.seed = (uint64_t)(uintptr_t)enc * HPACK_HASH_K;
    if (hpack_index_build(&enc->index, &enc->table, enc->table.mask) != HPACK_OK)
        goto fail;
    return enc;
fail:
    hpack_encoder_free(enc);
    return NULL;
}

void hpack_encoder_free(struct hpack_encoder *enc)
{
    if (!enc)
        return;
    hpack_index_free(&enc->index);
    hpack_dyn_free(&enc->table);
    free(enc);
}

int hpack_encoder_set_table_size(struct hpack_encoder *enc, uint32_t table_size)
{
    if (table_size > HPACK_MAX_TABLE_SIZE)
        return HPACK_ERR_INVALID_ARGUMENT;
    if (enc->indexing == HPACK_INDEX_LINEAR && table_size > enc->table.capacity) {
        uint32_t old_mask = enc->table.mask;
        int rc = hpack_dyn_set_capacity(&enc->table, table_size);
        if (rc == HPACK_OK)
            rc = hpack_index_build(&enc->index, &enc->table, old_mask);
        if (rc != HPACK_OK)
            return rc;
    }
    /* The non-linear strategies keep no entries but still owe the peer the
     * size update, since the peer's decoder tracks the size we announce. */
    if (enc->indexing == HPACK_INDEX_LINEAR)
        hpack_dyn_set_max_size(&enc->table, table_size);
    if (!enc->size_update_pending || table_size < enc->smallest_pending_size)
        enc->smallest_pending_size = table_size;
    enc->size_update_pending = 1;
    enc->announced_size = table_size;
    enc->changes++;
    return HPACK_OK;
}

uint64_t hpack_encoder_changes(const struct hpack_encoder *enc)
{
    return enc->changes;
}

size_t hpack_encoder_table_len(const struct hpack_encoder *enc)
{
    return hpack_dyn_len(&enc->table);
}

size_t hpack_encoder_table_size(const struct hpack_encoder *enc)
{
    return enc->table.size;
}

int hpack_encoder_table_entry(const struct hpack_encoder *enc, size_t i, struct hpack_header *out)
{
    return hpack_dyn_entry_at(&enc->table, i, out);
}

/* Worst case per field: a 5-byte index or both strings plain with 5-byte lengths. */
#define MAX_INT_BYTES 6
size_t hpack_encoder_bound(const struct hpack_encoder *enc, const struct hpack_header *headers, size_t count)
{
    size_t n = 2 * MAX_INT_BYTES;
    (void)enc;
    for (size_t i = 0; i < count; i++)
        n += 3 * MAX_INT_BYTES + headers[i].name_len + headers[i].value_len;
    return n;
}

/* A literal field: representation bits, name index (0: literal name follows), value. */
static uint8_t *write_literal(const struct hpack_encoder *enc, uint8_t *p, uint8_t rep, size_t name_index,
                              const struct hpack_header *h)
{
    p += hpack_int_encode(p, rep, rep == REP_INCREMENTAL ? 6 : 4, (uint32_t)name_index);
    if (name_index == 0)
        p += hpack_string_encode(p, 0, 7, h->name, h->name_len, enc->huffman);
    return p + hpack_string_encode(p, 0, 7, h->value, h->value_len, enc->huffman);
}

static uint8_t *encode_field(struct hpack_encoder *enc, uint8_t *p, const struct hpack_header *field)
{
    static const uint8_t empty[1];
    struct hpack_header h = *field;
    int token, never;
    size_t name_index = 0;
    struct hpack_index_key key;

    /* Empty strings may come as NULL; the mem* functions must not see that. */
    if (!h.name_len)
        h.name = empty;
    if (!h.value_len)
        h.value = empty;
    token = hpack_static_token(h.name, h.name_len);
    never = hpack_field_never_indexed(&h, token, enc->index_short_cookies);
    if (enc->indexing == HPACK_INDEX_NONE)
        return write_literal(enc, p, never ? REP_NEVER_INDEXED : REP_WITHOUT_INDEXING, 0, &h);
    if (token >= 0) {
        unsigned exact = never ? 0 : hpack_static_find_value(token, h.value, h.value_len);
        if (exact)
            return p + hpack_int_encode(p, REP_INDEXED, 7, exact);
        name_index = hpack_token_ranges[token].first;
    }
    if (enc->indexing == HPACK_INDEX_STATIC)
        return write_literal(enc, p, never ? REP_NEVER_INDEXED : REP_WITHOUT_INDEXING, name_index, &h);

    key.token = token;
    key.tag = 0; /* the name's record in enc->repeats, when learning */
    hpack_index_hash(&enc->index, &key, h.name, h.name_len, h.value, h.value_len);
    if (!never) {
        uint64_t id = hpack_index_find_pair(&enc->index, &enc->table, &key, h.name, h.name_len, h.value, h.value_len);
        if (id) {
            if (enc->learn)
                hpack_repeat_hit(&enc->repeats, hpack_index_tag(&enc->index, &enc->table, id));
            return p + hpack_int_encode(p, REP_INDEXED, 7,
                                        (uint32_t)(HPACK_STATIC_TABLE_LEN + hpack_dyn_index_of(&enc->table, id)));
        }
    }
    if (token < 0) {
        uint64_t id = hpack_index_find_name(&enc->index, &enc->table, &key, h.name, h.name_len);
        if (id)
            name_index = HPACK_STATIC_TABLE_LEN + hpack_dyn_index_of(&enc->table, id);
    }
    if (never || h.name_len + h.value_len + HPACK_ENTRY_OVERHEAD > enc->table.max_size ||
        (enc->learn ? hpack_field_is_counter(token) : !enc->index_volatile && hpack_field_is_volatile(token)))
        return write_literal(enc, p, never ? REP_NEVER_INDEXED : REP_WITHOUT_INDEXING, name_index, &h);
    /* From here on the block changes what later ones encode to: the memory of fields seen, or the table. */
    enc->changes++;
    if (enc->learn) {
        key.tag = hpack_repeat_record(&enc->repeats, token, h.name, h.name_len);
        if (!hpack_repeat_worth_inserting(&enc->repeats, key.tag, token, h.name, h.name_len, h.value, h.value_len))
            return write_literal(enc, p, REP_WITHOUT_INDEXING, name_index, &h);
    }
    p = write_literal(enc, p, REP_INCREMENTAL, name_index, &h);
    hpack_dyn_insert(&enc->table, h.name, h.name_len, h.value, h.value_len);
    hpack_index_add(&enc->index, &enc->table, &key);
    return p;
}

ssize_t hpack_encoder_encode(struct hpack_encoder *enc, const struct hpack_header *headers, size_t count,
                             uint8_t *dst, size_t cap)
{
    uint8_t *p = dst;

    if (!enc || (!headers && count) || !dst)
        return HPACK_ERR_INVALID_ARGUMENT;
    if (cap < hpack_encoder_bound(enc, headers, count))
        return HPACK_ERR_BUFFER_TOO_SMALL;
    if (enc->size_update_pending) {
        if (enc->smallest_pending_size < enc->announced_size)
            p += hpack_int_encode(p, REP_SIZE_UPDATE, 5, (uint32_t)enc->smallest_pending_size);
        p += hpack_int_encode(p, REP_SIZE_UPDATE, 5, (uint32_t)enc->announced_size);
        enc->size_update_pending = 0;
        enc->changes++;
    }
    for (size_t i = 0; i < count; i++)
        p = encode_field(enc, p, &headers[i]);
    return p - dst;
}
