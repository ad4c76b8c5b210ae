/* Minimal assertion helpers for the gpu_model unit tests. */
#ifndef GM_TEST_H
#define GM_TEST_H

#include <stdio.h>
#include <stdlib.h>

static int gm_test_failures;

#define GLR_CHECK_FAILURES gm_test_failures
#include "../../tests/support/glr_check.h"   /* these tests are built without the top include dir */
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
