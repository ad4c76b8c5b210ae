/* Minimal assertion helpers for the gpu_model unit tests. */
#ifndef GM_TEST_H
#define GM_TEST_H

#include <stdio.h>
#include <stdlib.h>

static int gm_test_failures;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
            gm_test_failures++;                                                       \
        }                                                                             \
    } while (0)

#define CHECKF(cond, ...)                                                             \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            gm_test_failures++;                                                       \
        }                                                                             \
    } while (0)

#define TEST_DONE()                                                                   \
    do {                                                                              \
        if (gm_test_failures) {                                                       \
            fprintf(stderr, "%d check(s) failed\n", gm_test_failures);                \
            return 1;                                                                 \
        }                                                                             \
        printf("ok\n");                                                               \
        return 0;                                                                     \
    } while (0)

#endif
