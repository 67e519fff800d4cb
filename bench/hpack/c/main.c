/* hpack-bench: times the project's HPACK core beside libnghttp2 and prints one
 * JSON object per line (results, and ratio lines for the encoders).
 *
 *   hpack-bench [--seconds S] [--runs N] [--filter SUBSTR] [--only ID] [--count N] WORKLOAD...
 *   WORKLOAD is huffman:NAME=STRINGS_FILE, decode:NAME=STORIES_FILE or encode:NAME=STORIES_FILE
 *
 * --count N runs each selected job exactly N times inside a callgrind
 * collection toggle instead of timing it (run under valgrind --collect-atstart=no). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_bench.h"
#include "fail.h"
#include "huffman_bench.h"

typedef void (*bench_fn)(const char *workload, const char *path, const struct measure_opts *opts);

static const struct {
    const char *kind;
    bench_fn fn;
} kinds[] = {
    { "huffman", huffman_bench },
    { "decode", codec_decode_bench },
    { "encode", codec_encode_bench },
};

static double number_arg(const char *flag, const char *value, double min) {
    char *end;
    double v = value ? strtod(value, &end) : 0;
    if (!value || *end || v < min) fail("%s needs a number >= %g", flag, min);
    return v;
}

static void run_workload(const char *spec, const struct measure_opts *opts) {
    const char *colon = strchr(spec, ':');
    const char *eq = colon ? strchr(colon, '=') : NULL;
    if (!eq || eq == colon + 1 || !eq[1]) fail("workload \"%s\" is not KIND:NAME=FILE", spec);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].kind) == (size_t)(colon - spec) && memcmp(spec, kinds[i].kind, (size_t)(colon - spec)) == 0) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(eq - colon - 1), colon + 1);
            kinds[i].fn(name, eq + 1, opts);
            return;
        }
    }
    fail("unknown workload kind in \"%s\" (huffman, decode or encode)", spec);
}

int main(int argc, char **argv) {
    struct measure_opts opts = { .target_seconds = 0.3, .runs = 5 };
    int first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        const char *flag = argv[first], *value = first + 1 < argc ? argv[first + 1] : NULL;
        if (strcmp(flag, "--seconds") == 0) opts.target_seconds = number_arg(flag, value, 0.001);
        else if (strcmp(flag, "--runs") == 0) opts.runs = (int)number_arg(flag, value, 1);
        else if (strcmp(flag, "--count") == 0) opts.count_iterations = (long)number_arg(flag, value, 1);
        else if (strcmp(flag, "--filter") == 0 && value) opts.filter = value;
        else if (strcmp(flag, "--only") == 0 && value) opts.only = value;
        else fail("unknown or incomplete option %s", flag);
    }
    if (first == argc) fail("no workloads given (see the usage at the top of bench/hpack/c/main.c)");
    for (int i = first; i < argc; i++) run_workload(argv[i], &opts);
    return 0;
}
