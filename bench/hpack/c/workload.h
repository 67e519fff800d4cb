/* The benchmark inputs, read from the files bench/hpack/corpus.js writes. */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H
#include <stddef.h>
#include <stdint.h>

struct bytes {
    const uint8_t *p;
    size_t len;
};

struct header {
    struct bytes name, value;
};

struct header_block {
    struct bytes wire;        /* empty for raw-data stories */
    struct header *headers;
    size_t n_headers;
};

struct story {
    struct header_block *cases;
    size_t n_cases;
};

struct story_set {
    struct story *stories;
    size_t n_stories;
    size_t n_cases, plain_bytes;  /* over every story; plain = name+value bytes */
    uint8_t *file;            /* owns every byte the views above point into */
};

struct string_list {
    struct bytes *items;
    size_t n;
    size_t total_bytes;
    uint8_t *file;
};

/* Both exit with a message naming the file on any I/O or format error:
 * a benchmark over a half-read corpus would report meaningless figures. */
void story_set_load(struct story_set *set, const char *path);
void story_set_free(struct story_set *set);
void string_list_load(struct string_list *list, const char *path);
void string_list_free(struct string_list *list);

#endif
