#include "converted.h"

#include <stdlib.h>

#include "fail.h"

struct converted {
    const struct story_set *set;
    size_t elem_size;
    unsigned char **arrays;  /* [story] */
    size_t **offset;         /* [story][block]: index of the block's first header */
};

struct converted *converted_new(const struct story_set *set, size_t elem_size, convert_fn convert) {
    struct converted *c = xcalloc(1, sizeof *c);
    c->set = set;
    c->elem_size = elem_size;
    c->arrays = xcalloc(set->n_stories, sizeof *c->arrays);
    c->offset = xcalloc(set->n_stories, sizeof *c->offset);
    for (size_t s = 0; s < set->n_stories; s++) {
        const struct story *st = &set->stories[s];
        size_t total = 0;
        for (size_t b = 0; b < st->n_cases; b++) total += st->cases[b].n_headers;
        c->arrays[s] = xcalloc(total, elem_size);
        c->offset[s] = xcalloc(st->n_cases, sizeof **c->offset);
        size_t k = 0;
        for (size_t b = 0; b < st->n_cases; b++) {
            c->offset[s][b] = k;
            for (size_t h = 0; h < st->cases[b].n_headers; h++, k++)
                convert(&st->cases[b].headers[h], c->arrays[s] + k * elem_size);
        }
    }
    return c;
}

void converted_free(struct converted *c) {
    for (size_t s = 0; s < c->set->n_stories; s++) {
        free(c->arrays[s]);
        free(c->offset[s]);
    }
    free(c->arrays);
    free(c->offset);
    free(c);
}

const void *converted_block(const struct converted *c, size_t story, size_t block, size_t *n) {
    *n = c->set->stories[story].cases[block].n_headers;
    return c->arrays[story] + c->offset[story][block] * c->elem_size;
}
