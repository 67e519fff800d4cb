/* The RFC 7541 Appendix A static table and the tokens that name its entries. */
#ifndef HPACK_STATIC_TABLE_H
#define HPACK_STATIC_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "generated/static_table_tokens.h"

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

/* The static index of (token, value), or 0 when only the name matches. */
unsigned hpack_static_find_value(int token, const uint8_t *value, size_t len);

#endif
