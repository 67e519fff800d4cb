/* Reverse index lookups and maintenance. */
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "header_index.h"
#include "hpack.h"

void hpack_index_free(struct hpack_header_index *ix)
{
    free(ix->slots);
    free(ix->pair_heads);
    free(ix->name_heads);
    ix->slots = NULL;
    ix->pair_heads = ix->name_heads = NULL;
}

/* The name part of a field's hashes: its token stands for a static-table
 * name, which then need not be hashed. */
static uint64_t name_part(int token, const uint8_t *name, size_t name_len, uint64_t seed)
{
    return token >= 0 ? (uint64_t)token : hpack_hash(name, name_len, seed);
}

static uint64_t pair_hash(uint64_t name_part, const uint8_t *value, size_t value_len, uint64_t seed)
{
    return hpack_hash(value, value_len, seed ^ name_part * HPACK_HASH_K);
}

void hpack_index_hash(const struct hpack_header_index *ix, struct hpack_index_key *key, const uint8_t *name,
                      size_t name_len, const uint8_t *value, size_t value_len)
{
    uint64_t name_hash = name_part(key->token, name, name_len, ix->seed);

    if (key->token < 0)
        key->name_hash = name_hash;
    key->pair_hash = pair_hash(name_hash, value, value_len, ix->seed);
}

/* Any fixed seed will do: a fingerprint only has to be the same everywhere. */
#define FINGERPRINT_SEED 0x243f6a8885a308d3ull

uint64_t hpack_name_fingerprint(const uint8_t *name, size_t name_len)
{
    return hpack_hash(name, name_len, FINGERPRINT_SEED);
}

uint64_t hpack_field_fingerprint(int token, const uint8_t *name, size_t name_len, const uint8_t *value,
                                 size_t value_len)
{
    return pair_hash(name_part(token, name, name_len, FINGERPRINT_SEED), value, value_len, FINGERPRINT_SEED);
}

static void link_entry(struct hpack_header_index *ix, uint64_t id, const struct hpack_index_key *key, uint32_t slot_mask)
{
    struct hpack_index_slot *s = &ix->slots[id & slot_mask];
    uint64_t *pair_head = &ix->pair_heads[key->pair_hash & ix->bucket_mask];

    s->token = key->token;
    s->tag = key->tag;
    s->pair_hash = key->pair_hash;
    s->pair_next = *pair_head;
    *pair_head = id;
    if (key->token < 0) {
        uint64_t *name_head = &ix->name_heads[key->name_hash & ix->bucket_mask];
        s->name_hash = key->name_hash;
        s->name_next = *name_head;
        *name_head = id;
    }
}

int hpack_index_build(struct hpack_header_index *ix, const struct hpack_dyn_table *t, uint32_t old_mask)
{
    size_t slots = (size_t)t->mask + 1, buckets = slots; /* at most one entry per bucket, about half that with real entries */
    struct hpack_header_index fresh = { 0 };

    fresh.slots = malloc(slots * sizeof *fresh.slots);
    fresh.pair_heads = calloc(buckets, sizeof *fresh.pair_heads);
    fresh.name_heads = calloc(buckets, sizeof *fresh.name_heads);
    fresh.bucket_mask = (uint32_t)(buckets - 1);
    fresh.seed = ix->seed;
    if (!fresh.slots || !fresh.pair_heads || !fresh.name_heads) {
        hpack_index_free(&fresh);
        return HPACK_ERR_NOMEM;
    }
    /* Oldest first, so every chain ends up newest first. */
    for (uint64_t id = t->first_id; id < t->next_id; id++) {
        const struct hpack_index_slot *old = &ix->slots[id & old_mask];
        struct hpack_index_key key = { old->token, old->tag, old->name_hash, old->pair_hash };
        link_entry(&fresh, id, &key, t->mask);
    }
    hpack_index_free(ix);
    *ix = fresh;
    return HPACK_OK;
}

void hpack_index_add(struct hpack_header_index *ix, const struct hpack_dyn_table *t, const struct hpack_index_key *key)
{
    link_entry(ix, t->next_id - 1, key, t->mask);
}

uint64_t hpack_index_find_pair(const struct hpack_header_index *ix, const struct hpack_dyn_table *t,
                               const struct hpack_index_key *key, const uint8_t *name, size_t name_len,
                               const uint8_t *value, size_t value_len)
{
    for (uint64_t id = ix->pair_heads[key->pair_hash & ix->bucket_mask]; hpack_dyn_is_live(t, id);) {
        const struct hpack_index_slot *s = &ix->slots[id & t->mask];
        const struct hpack_dyn_entry *e = hpack_dyn_by_id(t, id);
        /* Equal tokens are equal names. */
        if (s->pair_hash == key->pair_hash && e->value_len == value_len && e->name_len == name_len &&
            (key->token >= 0 ? s->token == key->token : hpack_bytes_equal(hpack_dyn_name(t, e), name, name_len)) &&
            hpack_bytes_equal(hpack_dyn_value(t, e), value, value_len))
            return id;
        id = s->pair_next;
    }
    return 0;
}

uint64_t hpack_index_find_name(const struct hpack_header_index *ix, const struct hpack_dyn_table *t,
                               const struct hpack_index_key *key, const uint8_t *name, size_t name_len)
{
    for (uint64_t id = ix->name_heads[key->name_hash & ix->bucket_mask]; hpack_dyn_is_live(t, id);) {
        const struct hpack_index_slot *s = &ix->slots[id & t->mask];
        const struct hpack_dyn_entry *e = hpack_dyn_by_id(t, id);
        if (s->name_hash == key->name_hash && e->name_len == name_len &&
            hpack_bytes_equal(hpack_dyn_name(t, e), name, name_len))
            return id;
        id = s->name_next;
    }
    return 0;
}
