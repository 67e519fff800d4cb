/* The RFC 7541 Appendix A static table and the tokens that name its entries. */
#ifndef HPACK_STATIC_TABLE_H
#define HPACK_STATIC_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "generated/static_table_tokens.h"
#include "hash.h"

struct hpack_static_entry {
    const char *name;
    const char *value;
    uint8_t name_len;
    uint8_t value_len;
    uint8_t token;
};

/* The static indices of a token's entries: first, first + 1, ..., first + count - 1. */
struct hpack_token_range {
    uint8_t first;
    uint8_t count;
};

/* hpack_static_table[i - 1] is static index i. */
extern const struct hpack_static_entry hpack_static_table[HPACK_STATIC_TABLE_LEN];
extern const struct hpack_token_range hpack_token_ranges[HPACK_TOKEN_COUNT];

/* The token of a static-table name, or -1 when the name is not in the table. */
int hpack_static_token(const uint8_t *name, size_t len);

/* The static index of (token, value), or 0 when only the name matches.
 * Inline: the encoder asks for every field with a static name. */
static inline unsigned hpack_static_find_value(int token, const uint8_t *value, size_t len)
{
    /* At most seven entries share a name (:status), so a scan of the range is
     * cheaper than any map. */
    const struct hpack_token_range *r = &hpack_token_ranges[token];
    for (unsigned i = r->first; i < (unsigned)r->first + r->count; i++) {
        const struct hpack_static_entry *e = &hpack_static_table[i - 1];
        if (e->value_len == len && hpack_bytes_equal((const uint8_t *)e->value, value, len))
            return i;
    }
    return 0;
}

#endif
