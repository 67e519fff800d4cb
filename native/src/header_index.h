/* The encoder's reverse index over its dynamic table (Yamamoto et al., CFI'17,
 * 3.1). Names in the static table are looked up by token, so only their
 * (token, value) pairs are hashed here; other names are hashed as (name) and
 * (name, value). Chains are intrusive and newest first, linked by entry id:
 * eviction needs no unlinking, since the first dead id ends a chain. */
#ifndef HPACK_HEADER_INDEX_H
#define HPACK_HEADER_INDEX_H

#include <stdint.h>
#include "dynamic_table.h"

struct hpack_index_slot {
    uint64_t pair_next; /* previous entry in the same pair bucket */
    uint64_t name_next; /* previous entry in the same name bucket (non-token names) */
    uint64_t pair_hash;
    uint64_t name_hash;
    int token;          /* static-table token of the name, or -1 */
    uint32_t tag;       /* the caller's, from the key it was added with */
};

struct hpack_header_index {
    struct hpack_index_slot *slots; /* parallel to the table's entry ring */
    uint64_t *pair_heads;
    uint64_t *name_heads;
    uint32_t bucket_mask;
    uint64_t seed;
};

/* A header's hashes, computed once per header by hpack_index_hash. */
struct hpack_index_key {
    int token;
    uint32_t tag;       /* kept with the entry, for hpack_index_tag */
    uint64_t name_hash; /* only for token < 0 */
    uint64_t pair_hash;
};

/* (Re)build the index for the table's current layout, carrying over the keys
 * of its live entries from the layout that had old_mask. ix->seed must be set. */
int hpack_index_build(struct hpack_header_index *ix, const struct hpack_dyn_table *t, uint32_t old_mask);
void hpack_index_free(struct hpack_header_index *ix);

void hpack_index_hash(const struct hpack_header_index *ix, struct hpack_index_key *key, const uint8_t *name,
                      size_t name_len, const uint8_t *value, size_t value_len);

/* The tag of the live entry with this id. */
static inline uint32_t hpack_index_tag(const struct hpack_header_index *ix, const struct hpack_dyn_table *t, uint64_t id)
{
    return ix->slots[id & t->mask].tag;
}

/* A hash of (name, value) that does not depend on the seed, for decisions
 * that must come out the same in every encoder: output depends only on input
 * and settings. token is the name's static-table token, or -1. */
uint64_t hpack_field_fingerprint(int token, const uint8_t *name, size_t name_len, const uint8_t *value,
                                 size_t value_len);

/* The same for a name alone. */
uint64_t hpack_name_fingerprint(const uint8_t *name, size_t name_len);

/* Record the table's newest entry, just inserted with this key. */
void hpack_index_add(struct hpack_header_index *ix, const struct hpack_dyn_table *t, const struct hpack_index_key *key);

/* Id of the newest live entry equal to (name, value), or 0. */
uint64_t hpack_index_find_pair(const struct hpack_header_index *ix, const struct hpack_dyn_table *t,
                               const struct hpack_index_key *key, const uint8_t *name, size_t name_len,
                               const uint8_t *value, size_t value_len);

/* Id of the newest live entry named name (a name with no token), or 0. */
uint64_t hpack_index_find_name(const struct hpack_header_index *ix, const struct hpack_dyn_table *t,
                               const struct hpack_index_key *key, const uint8_t *name, size_t name_len);

#endif
