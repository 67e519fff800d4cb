/* What the HPACK encoder learns about which fields repeat. The linear
 * strategy inserts every field it may, but a name whose entries are rarely
 * reused (a per-request id, a last-modified date, an expiry time) only evicts
 * entries that would have been: once a name's entries have been hit fewer than
 * twice per insert, its fields are inserted only when seen before, recently.
 * On hpack-test-case that takes linear+Huffman from 0.308 to 0.295 of the
 * header bytes (an oracle that knows the future reaches 0.27).
 *
 * Names are recorded by token, or by fingerprint in a few hashed slots, and
 * fields seen by fingerprint: never by the encoder's seeded hashes, so the
 * same input gives the same output in every encoder. Small enough to be
 * part of the encoder. */
#ifndef HPACK_REPEAT_MEMORY_H
#define HPACK_REPEAT_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include "generated/static_table_tokens.h"

#define REPEAT_HASHED_NAMES 32
#define REPEAT_SEEN_SLOTS 256
/* Counts are halved when one reaches this, so old behaviour fades. */
#define REPEAT_HALVE_AT 32

struct hpack_name_record {
    uint32_t name; /* fingerprint, in the hashed slots */
    uint16_t inserts;
    uint16_t hits;
};

struct hpack_repeat_memory {
    struct hpack_name_record names[HPACK_TOKEN_COUNT + REPEAT_HASHED_NAMES];
    uint32_t seen[REPEAT_SEEN_SLOTS];
};

/* The record of a name (its token, or -1 and the name's bytes), as an index
 * for the other calls. A hashed slot that held another name starts afresh. */
unsigned hpack_repeat_record(struct hpack_repeat_memory *m, int token, const uint8_t *name, size_t name_len);

static inline void hpack_repeat_age(struct hpack_name_record *r)
{
    if (r->hits >= REPEAT_HALVE_AT || r->inserts >= REPEAT_HALVE_AT) {
        r->inserts /= 2;
        r->hits /= 2;
    }
}

/* A field with a recorded name was found in the dynamic table. The record is
 * the one its entry was inserted under, which a later name may have taken
 * over: a rare hit credited to the wrong name. */
static inline void hpack_repeat_hit(struct hpack_repeat_memory *m, unsigned record)
{
    m->names[record].hits++;
    hpack_repeat_age(&m->names[record]);
}

/* Whether a field that may be inserted is worth it; if so, counts the insert. */
int hpack_repeat_worth_inserting(struct hpack_repeat_memory *m, unsigned record, int token, const uint8_t *name,
                                 size_t name_len, const uint8_t *value, size_t value_len);

#endif
