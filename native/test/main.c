/* Runs every TEST() linked into the binary; ends with the "N passed, N failed" line. */
#include <stdlib.h>
#include "test.h"

#define MAX_TESTS 1024
static struct { const char *name; test_fn fn; } tests[MAX_TESTS];
static int ntests;
int test_current_failed;

void test_register(const char *name, test_fn fn) {
    if (ntests == MAX_TESTS) { fprintf(stderr, "too many tests\n"); exit(2); }
    tests[ntests].name = name;
    tests[ntests].fn = fn;
    ntests++;
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        test_current_failed = 0;
        tests[i].fn();
        printf("%s %s\n", test_current_failed ? "FAIL" : "ok  ", tests[i].name);
        if (test_current_failed) failed++; else passed++;
    }
    printf("c-core: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
