/* The assertion macros of the project's C tests (one header instead of a private copy per test).
 *
 * Two kinds: CHECK/CHECKF count a failure and let the test go on (it reports every broken
 * expectation in one run and exits non-zero at the end from the counter); REQUIRE stops the test
 * at once, for a step whose failure would only make later checks cascade.
 *
 *   CHECK(cond)           "FILE:LINE: CHECK failed: cond" on stderr, counter + 1
 *   CHECKF(cond, fmt...)  the same line with ": message" appended
 *   REQUIRE(cond)         "FILE:LINE: REQUIRE failed: cond" on stderr, exit(1)
 *
 * Before the include a test may define:
 *   GLR_CHECK_FAILURES   the counter's name (default: a `static int failures;` declared here)
 *   GLR_CHECK_MESSAGES   CHECK takes a message instead: CHECK(cond, fmt, ...) prints
 *                        "FAIL FILE:LINE: message" */
#ifndef GLR_CHECK_H
#define GLR_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#ifndef GLR_CHECK_FAILURES
#define GLR_CHECK_FAILURES failures
static int failures;
#endif

#ifdef GLR_CHECK_MESSAGES
#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        if (!(cond)) {                                                                \
            GLR_CHECK_FAILURES++;                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                      \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
        }                                                                             \
    } while (0)
#else
#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
            GLR_CHECK_FAILURES++;                                                     \
        }                                                                             \
    } while (0)
#endif

#define CHECKF(cond, ...)                                                             \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            GLR_CHECK_FAILURES++;                                                     \
        }                                                                             \
    } while (0)

#define REQUIRE(cond)                                                                 \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#endif
