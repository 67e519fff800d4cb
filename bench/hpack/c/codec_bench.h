/* Full header-block decode and encode over hpack-test-case stories. */
#ifndef BENCH_CODEC_BENCH_H
#define BENCH_CODEC_BENCH_H
#include "measure.h"

/* Decodes every story of the stories file at path (wire + expected headers)
 * with each codec, a fresh decoder per story, after checking every block. */
void codec_decode_bench(const char *workload, const char *path, const struct measure_opts *opts);

/* Encodes every story of path (headers only) with each codec and strategy, a
 * fresh encoder per story; checks each output by decoding it with both
 * codecs and prints each encoder's compression ratio before timing. */
void codec_encode_bench(const char *workload, const char *path, const struct measure_opts *opts);

#endif
