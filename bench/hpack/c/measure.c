#include "measure.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fail.h"

/* valgrind's header is only needed for --count; without it the binary still
 * times everything (Debian package valgrind provides it). */
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#else
#define HAVE_CALLGRIND 0
#define CALLGRIND_TOGGLE_COLLECT
#endif

volatile uint64_t bench_sink;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t time_iterations(const struct job *job, long iterations) {
    uint64_t t0 = now_ns();
    for (long i = 0; i < iterations; i++) job->iteration(job->ctx);
    return now_ns() - t0;
}

/* Grows the iteration count until a run is long enough to time, then scales
 * it to the target so every run of every job lasts about as long. */
static long calibrate(const struct job *job, double target_seconds) {
    long n = 1;
    for (;;) {
        uint64_t ns = time_iterations(job, n);
        if (ns >= 20000000u || n >= (1L << 40)) {
            double per = (double)ns / (double)n;
            long scaled = (long)(target_seconds * 1e9 / (per > 0 ? per : 1));
            return scaled > 0 ? scaled : 1;
        }
        n *= 4;
    }
}

static void print_head(const struct job *job) {
    printf("{\"group\":\"%s\",\"workload\":\"%s\",\"impl\":\"%s\",\"calls\":%zu,\"bytes\":%zu",
           job->group, job->workload, job->impl, job->calls, job->bytes);
}

int measure_selects(const struct job *job, const struct measure_opts *opts) {
    char id[256];
    snprintf(id, sizeof id, "%s/%s/%s", job->group, job->workload, job->impl);
    return (!opts->filter || strstr(id, opts->filter)) && (!opts->only || strcmp(id, opts->only) == 0);
}

void measure(const struct job *job, const struct measure_opts *opts) {
    if (!measure_selects(job, opts)) return;
    if (opts->count_iterations > 0) {
        if (!HAVE_CALLGRIND) fail("built without valgrind/callgrind.h, so --count cannot toggle collection");
        /* One untimed iteration first, so lazily built tables are not counted. */
        job->iteration(job->ctx);
        CALLGRIND_TOGGLE_COLLECT;
        for (long i = 0; i < opts->count_iterations; i++) job->iteration(job->ctx);
        CALLGRIND_TOGGLE_COLLECT;
        print_head(job);
        printf(",\"iterations\":%ld}\n", opts->count_iterations);
    } else {
        long n = calibrate(job, opts->target_seconds);
        print_head(job);
        printf(",\"iterations\":%ld,\"run_ns\":[", n);
        for (int r = 0; r < opts->runs; r++)
            printf("%s%llu", r ? "," : "", (unsigned long long)time_iterations(job, n));
        printf("]}\n");
    }
    fflush(stdout);
}
