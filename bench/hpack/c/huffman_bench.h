/* Huffman decode and encode of one list of strings, one call per string. */
#ifndef BENCH_HUFFMAN_BENCH_H
#define BENCH_HUFFMAN_BENCH_H
#include "measure.h"

/* Loads the strings file at path, verifies every coder on every string, then
 * measures each coder; workload names the strings in the output. */
void huffman_bench(const char *workload, const char *path, const struct measure_opts *opts);

#endif
