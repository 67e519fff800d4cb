/* A minimal test harness for the C core: TEST() bodies register themselves, main.c runs them all. */
#ifndef HPACK_TEST_H
#define HPACK_TEST_H
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
extern int test_current_failed;

#define TEST(name)                                                          \
    static void test_##name(void);                                          \
    __attribute__((constructor)) static void register_##name(void) {        \
        test_register(#name, test_##name);                                  \
    }                                                                       \
    static void test_##name(void)

#define CHECK(cond) do {                                                    \
    if (!(cond)) {                                                          \
        fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        test_current_failed = 1;                                            \
    } } while (0)

#define CHECK_EQ_INT(a, b) do {                                             \
    long long a_ = (long long)(a), b_ = (long long)(b);                     \
    if (a_ != b_) {                                                         \
        fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n",        \
                __FILE__, __LINE__, #a, a_, #b, b_);                        \
        test_current_failed = 1;                                            \
    } } while (0)

#define CHECK_MEM(a, b, n) do {                                             \
    if (memcmp((a), (b), (n)) != 0) {                                       \
        fprintf(stderr, "  %s:%d: bytes differ: %s vs %s (%zu bytes)\n",      \
                __FILE__, __LINE__, #a, #b, (size_t)(n));                   \
        test_current_failed = 1;                                            \
    } } while (0)

#endif
