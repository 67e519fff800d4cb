/* Every header list of a story set in a library's own header type, built once
 * before timing: one contiguous array per story, blocks back to back. */
#ifndef BENCH_CONVERTED_H
#define BENCH_CONVERTED_H
#include <stddef.h>

#include "workload.h"

struct converted;
typedef void (*convert_fn)(const struct header *in, void *out);

struct converted *converted_new(const struct story_set *set, size_t elem_size, convert_fn convert);
void converted_free(struct converted *c);
/* The block's headers (n of them) in the library's type. */
const void *converted_block(const struct converted *c, size_t story, size_t block, size_t *n);

#endif
