/* Timing and instruction counting of one benchmark job. */
#ifndef BENCH_MEASURE_H
#define BENCH_MEASURE_H
#include <stddef.h>
#include <stdint.h>

struct job {
    const char *group;     /* huffman-decode, huffman-encode, decode, encode */
    const char *workload;  /* long-prose, corpus-values, stories, ... */
    const char *impl;      /* big-table, 4bit, ours, nghttp2, ... */
    void (*iteration)(void *ctx);  /* every call of the workload once */
    void *ctx;
    size_t calls;          /* calls per iteration */
    size_t bytes;          /* input bytes per iteration, as the MB/s figure counts them */
};

struct measure_opts {
    double target_seconds;   /* each timed run lasts about this long */
    int runs;                /* timed runs per job */
    const char *filter;      /* substring of the job id "group/workload/impl"; NULL = all */
    const char *only;        /* exact job id; NULL = all */
    long count_iterations;   /* > 0: callgrind mode, run this many iterations inside the collection toggle */
};

/* Timed loops fold their results in here so the compiler cannot drop them. */
extern volatile uint64_t bench_sink;

/* Whether filter and only select the job. */
int measure_selects(const struct job *job, const struct measure_opts *opts);

/* Runs the job if filter and only select it and prints one JSON line to stdout. */
void measure(const struct job *job, const struct measure_opts *opts);

#endif
