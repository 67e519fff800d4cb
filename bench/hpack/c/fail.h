/* Fatal errors: the benchmark stops rather than time a wrong or partial workload. */
#ifndef BENCH_FAIL_H
#define BENCH_FAIL_H
#include <stddef.h>

__attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...);
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);

#endif
