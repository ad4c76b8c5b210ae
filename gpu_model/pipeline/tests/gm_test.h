/* gm_test.h - minimal assertion helpers for the pipeline unit tests. */
#ifndef GM_TEST_H
#define GM_TEST_H
#include <stdio.h>
#include <stdlib.h>

static int gm_test_failures;
#define GLR_CHECK_FAILURES gm_test_failures
#include "../../../tests/support/glr_check.h"   /* these tests are built without the top include dir */
#define CHECK_EQ_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
    if (_a != _b) { fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", \
    __FILE__, __LINE__, #a, _a, _b); gm_test_failures++; } } while (0)
#define TEST_DONE() do { if (gm_test_failures) { \
    fprintf(stderr, "%d check(s) failed\n", gm_test_failures); return 1; } \
    printf("ok\n"); return 0; } while (0)

/* Deterministic PRNG (xorshift32) for randomized tests. */
static inline unsigned gm_test_rand(unsigned *s)
{
    unsigned x = *s; x ^= x << 13; x ^= x >> 17; x ^= x << 5; *s = x; return x;
}
static inline float gm_test_randf(unsigned *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(gm_test_rand(s) & 0xffffff) / 16777216.0f;
}
#endif
