#include "fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("hpack-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) fail("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) fail("out of memory (%zu x %zu bytes)", n, size);
    return p;
}
