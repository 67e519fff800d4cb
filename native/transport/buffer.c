#include "buffer.h"

#include <stdlib.h>

int buffer_reserve(unsigned char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    size_t size = *cap ? *cap : 4096;
    while (size < need)
        size *= 2;
    unsigned char *grown = realloc(*buf, size);
    if (!grown)
        return 0;
    *buf = grown;
    *cap = size;
    return 1;
}
