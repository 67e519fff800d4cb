/* QPACK static table data and lookups; the data and the name switch are generated. */
#include "hash.h"
#include "qpack_static_table.h"
#include "generated/qpack_static_table.h"

int qpack_static_token(const uint8_t *name, size_t len)
{
    return qpack_lookup_token(name, len);
}

int qpack_static_find_value(int token, const uint8_t *value, size_t len)
{
    /* At most fourteen entries share a name (:status): a scan beats any map. */
    const struct hpack_token_range *r = &qpack_token_lists[token];
    for (unsigned i = r->first; i < (unsigned)r->first + r->count; i++) {
        const struct hpack_static_entry *e = &qpack_static_table[qpack_token_indices[i]];
        if (e->value_len == len && hpack_bytes_equal((const uint8_t *)e->value, value, len))
            return qpack_token_indices[i];
    }
    return -1;
}

unsigned qpack_static_name_index(int token)
{
    return qpack_token_indices[qpack_token_lists[token].first];
}
