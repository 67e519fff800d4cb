#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"

struct reader {
    const char *path;
    const uint8_t *p, *end;
};

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot open %s", path);
    if (fseek(f, 0, SEEK_END) != 0) fail("cannot seek %s", path);
    long size = ftell(f);
    if (size < 0) fail("cannot size %s", path);
    rewind(f);
    uint8_t *buf = xmalloc((size_t)size + 1);
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) fail("short read on %s", path);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static void need(struct reader *r, size_t n) {
    if ((size_t)(r->end - r->p) < n) fail("%s: truncated workload file", r->path);
}

static uint32_t read_u32(struct reader *r) {
    need(r, 4);
    uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
    r->p += 4;
    return v;
}

static struct bytes read_bytes(struct reader *r) {
    uint32_t len = read_u32(r);
    need(r, len);
    struct bytes b = { r->p, len };
    r->p += len;
    return b;
}

static struct reader open_reader(const char *path, const char *magic, uint8_t **file) {
    size_t len;
    *file = read_file(path, &len);
    struct reader r = { path, *file, *file + len };
    need(&r, 4);
    if (memcmp(r.p, magic, 4) != 0) fail("%s: not a %s workload file", path, magic);
    r.p += 4;
    return r;
}

static void finish(struct reader *r) {
    if (r->p != r->end) fail("%s: trailing bytes after the workload", r->path);
}

void story_set_load(struct story_set *set, const char *path) {
    memset(set, 0, sizeof *set);
    struct reader r = open_reader(path, "HPKS", &set->file);
    set->n_stories = read_u32(&r);
    set->stories = xcalloc(set->n_stories, sizeof *set->stories);
    for (size_t s = 0; s < set->n_stories; s++) {
        struct story *st = &set->stories[s];
        st->n_cases = read_u32(&r);
        st->cases = xcalloc(st->n_cases, sizeof *st->cases);
        for (size_t c = 0; c < st->n_cases; c++) {
            struct header_block *hb = &st->cases[c];
            hb->wire = read_bytes(&r);
            hb->n_headers = read_u32(&r);
            hb->headers = xcalloc(hb->n_headers, sizeof *hb->headers);
            for (size_t h = 0; h < hb->n_headers; h++) {
                hb->headers[h].name = read_bytes(&r);
                hb->headers[h].value = read_bytes(&r);
                set->plain_bytes += hb->headers[h].name.len + hb->headers[h].value.len;
            }
            set->n_cases++;
        }
    }
    finish(&r);
}

void story_set_free(struct story_set *set) {
    for (size_t s = 0; s < set->n_stories; s++) {
        for (size_t c = 0; c < set->stories[s].n_cases; c++) free(set->stories[s].cases[c].headers);
        free(set->stories[s].cases);
    }
    free(set->stories);
    free(set->file);
    memset(set, 0, sizeof *set);
}

void string_list_load(struct string_list *list, const char *path) {
    memset(list, 0, sizeof *list);
    struct reader r = open_reader(path, "HPKL", &list->file);
    list->n = read_u32(&r);
    list->items = xcalloc(list->n, sizeof *list->items);
    for (size_t i = 0; i < list->n; i++) {
        list->items[i] = read_bytes(&r);
        list->total_bytes += list->items[i].len;
    }
    finish(&r);
}

void string_list_free(struct string_list *list) {
    free(list->items);
    free(list->file);
    memset(list, 0, sizeof *list);
}
