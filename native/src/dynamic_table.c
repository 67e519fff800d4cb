/* Dynamic table storage: eviction, insertion and re-layout. */
#include <stdlib.h>
#include <string.h>
#include "dynamic_table.h"
#include "hpack.h"

/* Every entry is at least 32 bytes, so capacity / 32 entries fit at most. */
static uint32_t ring_slots(size_t capacity)
{
    size_t need = capacity / HPACK_ENTRY_OVERHEAD + 1, slots = 1;
    while (slots < need)
        slots <<= 1;
    return (uint32_t)slots;
}

int hpack_dyn_init(struct hpack_dyn_table *t, size_t capacity)
{
    memset(t, 0, sizeof *t);
    t->next_id = t->first_id = 1;
    return hpack_dyn_set_capacity(t, capacity);
}

void hpack_dyn_free(struct hpack_dyn_table *t)
{
    free(t->buf);
    free(t->entries);
    t->buf = NULL;
    t->entries = NULL;
}

static size_t entry_size(const struct hpack_dyn_entry *e)
{
    return (size_t)e->name_len + e->value_len + HPACK_ENTRY_OVERHEAD;
}

static void evict_to(struct hpack_dyn_table *t, size_t limit)
{
    while (t->size > limit) {
        t->size -= entry_size(&t->entries[t->first_id & t->mask]);
        t->first_id++;
    }
}

void hpack_dyn_set_max_size(struct hpack_dyn_table *t, size_t max_size)
{
    t->max_size = max_size;
    evict_to(t, max_size);
}

int hpack_dyn_set_capacity(struct hpack_dyn_table *t, size_t capacity)
{
    uint32_t slots = ring_slots(capacity);
    struct hpack_dyn_entry *entries = malloc(slots * sizeof *entries);
    uint8_t *buf = malloc(capacity ? 2 * capacity : 1);
    size_t off = 0;

    if (!entries || !buf) {
        free(entries);
        free(buf);
        return HPACK_ERR_NOMEM;
    }
    if (t->max_size > capacity)
        hpack_dyn_set_max_size(t, capacity);
    for (uint64_t id = t->first_id; id < t->next_id; id++) {
        struct hpack_dyn_entry e = t->entries[id & t->mask];
        size_t n = (size_t)e.name_len + e.value_len;
        if (n)
            memcpy(buf + off, t->buf + e.off, n);
        e.off = (uint32_t)off;
        entries[id & (slots - 1)] = e;
        off += n;
    }
    free(t->buf);
    free(t->entries);
    t->buf = buf;
    t->entries = entries;
    t->mask = slots - 1;
    t->tail = off;
    t->capacity = capacity;
    return HPACK_OK;
}

/* memmove for the short strings most entries hold, without a library call:
 * both ends are loaded before either is stored, so an overlap is safe. */
static void move_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n > 16) {
        memmove(dst, src, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, src, 8);
        memcpy(&tail, src + n - 8, 8);
        memcpy(dst, &head, 8);
        memcpy(dst + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + n - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + n - 4, &tail, 4);
    } else if (n > 0) {
        uint8_t first = src[0], middle = src[n / 2], last = src[n - 1];
        dst[0] = first;
        dst[n / 2] = middle;
        dst[n - 1] = last;
    }
}

int hpack_dyn_insert(struct hpack_dyn_table *t, const uint8_t *name, size_t name_len, const uint8_t *value,
                     size_t value_len)
{
    size_t n = name_len + value_len, pos;
    struct hpack_dyn_entry *e;

    if (n + HPACK_ENTRY_OVERHEAD > t->max_size) {
        evict_to(t, 0);
        return 0;
    }
    evict_to(t, t->max_size - n - HPACK_ENTRY_OVERHEAD);
    pos = t->tail;
    if (pos + n > 2 * t->capacity)
        pos = 0;
    /* A name taken from an entry just evicted may overlap the destination;
     * move_bytes copes, and the value never comes from the table. */
    move_bytes(t->buf + pos, name, name_len);
    move_bytes(t->buf + pos + name_len, value, value_len);
    e = &t->entries[t->next_id & t->mask];
    e->off = (uint32_t)pos;
    e->name_len = (uint32_t)name_len;
    e->value_len = (uint32_t)value_len;
    t->next_id++;
    t->size += n + HPACK_ENTRY_OVERHEAD;
    t->tail = pos + n;
    return 1;
}
