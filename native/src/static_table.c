/* Static table data and lookups; the data and the name switch are generated. */
#include "static_table.h"
#include "generated/static_table.h"

int hpack_static_token(const uint8_t *name, size_t len)
{
    return lookup_token(name, len);
}
