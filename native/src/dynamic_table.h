/* The dynamic table (RFC 7541 2.3.2, 4): a ring of entries whose bytes live in
 * a ring buffer, so neither insertion nor eviction allocates.
 *
 * Entries are numbered by a 64-bit insertion id that never wraps: the live ids
 * are [first_id, next_id), HPACK index 62 is next_id - 1, and a stale id is
 * recognised by comparison, which lets the encoder's index keep references to
 * evicted entries without unlinking them. Each entry's name and value are
 * stored together and never wrap around the end of the byte buffer; with a
 * buffer of twice the table's capacity there is always room for that (an
 * entry skipping the buffer's tail wastes less than its own length). */
#ifndef HPACK_DYNAMIC_TABLE_H
#define HPACK_DYNAMIC_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "hpack.h"

/* Per-entry overhead counted by the table size (RFC 7541 4.1). */
#define HPACK_ENTRY_OVERHEAD 32u

struct hpack_dyn_entry {
    uint32_t off; /* name at buf + off, value right after it */
    uint32_t name_len;
    uint32_t value_len;
};

struct hpack_dyn_table {
    uint8_t *buf;
    struct hpack_dyn_entry *entries; /* entry with id i is entries[i & mask] */
    uint64_t first_id;
    uint64_t next_id;
    size_t tail;     /* offset for the next entry's bytes */
    size_t size;     /* sum of name + value + 32 over live entries */
    size_t max_size; /* current maximum, at most capacity */
    size_t capacity; /* largest max_size the storage is laid out for */
    uint32_t mask;
};

int hpack_dyn_init(struct hpack_dyn_table *t, size_t capacity);
void hpack_dyn_free(struct hpack_dyn_table *t);

/* Re-lay the storage for a new capacity, keeping the entries (and their ids)
 * that fit. Returns HPACK_OK or HPACK_ERR_NOMEM (table unchanged). */
int hpack_dyn_set_capacity(struct hpack_dyn_table *t, size_t capacity);

/* Set the maximum size (<= capacity), evicting the oldest entries as needed. */
void hpack_dyn_set_max_size(struct hpack_dyn_table *t, size_t max_size);

/* Add an entry, evicting as needed. An entry larger than the maximum size
 * empties the table and is not added (RFC 7541 4.4); returns 0 then, else 1.
 * name may point into the table itself (a name referenced by index). */
int hpack_dyn_insert(struct hpack_dyn_table *t, const uint8_t *name, size_t name_len, const uint8_t *value,
                     size_t value_len);

static inline size_t hpack_dyn_len(const struct hpack_dyn_table *t)
{
    return (size_t)(t->next_id - t->first_id);
}

/* The entry with this id; the id must be live. */
static inline const struct hpack_dyn_entry *hpack_dyn_by_id(const struct hpack_dyn_table *t, uint64_t id)
{
    return &t->entries[id & t->mask];
}

static inline int hpack_dyn_is_live(const struct hpack_dyn_table *t, uint64_t id)
{
    return id >= t->first_id && id < t->next_id;
}

/* The HPACK dynamic index (1 = newest) of a live id, and back. */
static inline size_t hpack_dyn_index_of(const struct hpack_dyn_table *t, uint64_t id)
{
    return (size_t)(t->next_id - id);
}

static inline const uint8_t *hpack_dyn_name(const struct hpack_dyn_table *t, const struct hpack_dyn_entry *e)
{
    return t->buf + e->off;
}

static inline const uint8_t *hpack_dyn_value(const struct hpack_dyn_table *t, const struct hpack_dyn_entry *e)
{
    return t->buf + e->off + e->name_len;
}

/* Entry i (1 = newest) as a header: the decoder's indexed fields and the
 * table_entry accessors. Inline, since the decoder calls it per field.
 * Returns HPACK_OK, or HPACK_ERR_INDEX when there is no such entry. */
static inline int hpack_dyn_entry_at(const struct hpack_dyn_table *t, size_t i, struct hpack_header *out)
{
    const struct hpack_dyn_entry *e;

    if (i == 0 || i > hpack_dyn_len(t))
        return HPACK_ERR_INDEX;
    e = hpack_dyn_by_id(t, t->next_id - i);
    out->name = hpack_dyn_name(t, e);
    out->name_len = e->name_len;
    out->value = hpack_dyn_value(t, e);
    out->value_len = e->value_len;
    out->flags = 0;
    return HPACK_OK;
}

#endif
