/* The encoder's memory of which fields repeat (see repeat_memory.h). */
#include "header_index.h"
#include "repeat_memory.h"

/* Inserts before a name's hit rate is judged. */
#define JUDGE_AFTER 4

unsigned hpack_repeat_record(struct hpack_repeat_memory *m, int token, const uint8_t *name, size_t name_len)
{
    uint32_t fingerprint;
    unsigned record;

    if (token >= 0)
        return (unsigned)token;
    fingerprint = (uint32_t)hpack_name_fingerprint(name, name_len);
    record = HPACK_TOKEN_COUNT + fingerprint % REPEAT_HASHED_NAMES;
    if (m->names[record].name != fingerprint)
        m->names[record] = (struct hpack_name_record){ fingerprint, 0, 0 };
    return record;
}

int hpack_repeat_worth_inserting(struct hpack_repeat_memory *m, unsigned record, int token, const uint8_t *name,
                                 size_t name_len, const uint8_t *value, size_t value_len)
{
    struct hpack_name_record *r = &m->names[record];

    if (r->inserts >= JUDGE_AFTER && r->hits < 2 * r->inserts) {
        uint32_t fingerprint = (uint32_t)hpack_field_fingerprint(token, name, name_len, value, value_len);
        uint32_t *slot = &m->seen[fingerprint % REPEAT_SEEN_SLOTS];
        int seen = *slot == fingerprint;
        *slot = fingerprint;
        if (!seen)
            return 0;
    }
    r->inserts++;
    hpack_repeat_age(r);
    return 1;
}
