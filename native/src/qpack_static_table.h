/* The RFC 9204 Appendix A static table and the tokens that name its entries. */
#ifndef QPACK_STATIC_TABLE_H
#define QPACK_STATIC_TABLE_H

#include "static_table.h"
#include "generated/qpack_static_table_tokens.h"

/* qpack_static_table[i] is static index i (QPACK counts from 0). */
extern const struct hpack_static_entry qpack_static_table[QPACK_STATIC_TABLE_LEN];

/* The token of a static-table name, or -1 when the name is not in the table. */
int qpack_static_token(const uint8_t *name, size_t len);

/* The static index of (token, value), or -1 when only the name matches. */
int qpack_static_find_value(int token, const uint8_t *value, size_t len);

/* The first static index named by token. */
unsigned qpack_static_name_index(int token);

#endif
