/* Static table data and lookups; the data and the name switch are generated. */
#include "hash.h"
#include "static_table.h"
#include "generated/static_table.h"

int hpack_static_token(const uint8_t *name, size_t len)
{
    return lookup_token(name, len);
}

unsigned hpack_static_find_value(int token, const uint8_t *value, size_t len)
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
