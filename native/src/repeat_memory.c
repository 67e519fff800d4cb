/* The encoder's memory of which fields repeat (see repeat_memory.h). */
#include "header_index.h"
#include "repeat_memory.h"

/* Inserts before a name's hit rate is judged. */
#define JUDGE_AFTER 4
/* Counts are halved when one reaches this, so old behaviour fades. */
#define HALVE_AT 32

struct hpack_name_record *hpack_repeat_name(struct hpack_repeat_memory *m, int token, const uint8_t *name,
                                            size_t name_len)
{
    uint64_t fingerprint;
    struct hpack_name_record *r;

    if (token >= 0)
        return &m->names[token];
    fingerprint = hpack_name_fingerprint(name, name_len);
    r = &m->names[HPACK_TOKEN_COUNT + fingerprint % REPEAT_HASHED_NAMES];
    if (r->name != fingerprint)
        *r = (struct hpack_name_record){ fingerprint, 0, 0 };
    return r;
}

static void halve_when_full(struct hpack_name_record *r)
{
    if (r->inserts >= HALVE_AT || r->hits >= HALVE_AT) {
        r->inserts /= 2;
        r->hits /= 2;
    }
}

void hpack_repeat_hit(struct hpack_name_record *r)
{
    r->hits++;
    halve_when_full(r);
}

int hpack_repeat_worth_inserting(struct hpack_repeat_memory *m, struct hpack_name_record *r, int token,
                                 const uint8_t *name, size_t name_len, const uint8_t *value, size_t value_len)
{
    if (r->inserts >= JUDGE_AFTER && r->hits < 2 * r->inserts) {
        uint64_t fingerprint = hpack_field_fingerprint(token, name, name_len, value, value_len);
        uint64_t *slot = &m->seen[fingerprint % REPEAT_SEEN_SLOTS];
        int seen = *slot == fingerprint;
        *slot = fingerprint;
        if (!seen)
            return 0;
    }
    r->inserts++;
    halve_when_full(r);
    return 1;
}
