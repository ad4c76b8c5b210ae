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
/* A texture coordinate for a level `size` texels wide: mostly ordinary, sometimes exactly on a
 * texel centre or edge, sometimes far outside [0, 1], sometimes -0. */
static inline float gm_test_rand_coord(unsigned *s, int size)
{
    switch (gm_test_rand(s) % 8) {
    case 0: return (float)(int)(gm_test_rand(s) % (unsigned)(4 * size) - 2u * (unsigned)size) /
                   (float)(2 * size);
    case 1: return gm_test_randf(s, -300.0f, 300.0f);
    case 2: return -0.0f;
    default: return gm_test_randf(s, -2.0f, 3.0f);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
/* run(seed_plain) with MXCSR as the program started, then (x86) run(seed_ftz) with FTZ and DAZ
 * set, as gm_exec.c sets them around a warp's shader (texture sampling runs there); MXCSR is
 * restored. Returns the first non-zero result. */
static inline int gm_test_run_with_ftz_daz(int (*run)(unsigned), unsigned seed_plain,
                                           unsigned seed_ftz)
{
    int rc = run(seed_plain);
#if defined(__x86_64__) || defined(__i386__)
    if (rc == 0) {
        unsigned old = _mm_getcsr();
        _mm_setcsr(old | 0x8040u);
        rc = run(seed_ftz);
        _mm_setcsr(old);
    }
#else
    (void)seed_ftz;
#endif
    return rc;
}
#endif
