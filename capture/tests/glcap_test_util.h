/* glcap_test_util.h: assertions, temp files and byte-level patching of
 * .glcap images for the glcap unit tests. Header-only: each test is one
 * program. */
#ifndef GLCAP_TEST_UTIL_H
#define GLCAP_TEST_UTIL_H

#include "capture/glcap_file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

static int g_failures;

#define GLR_CHECK_FAILURES g_failures
#include "tests/support/glr_check.h"   /* CHECK counts, REQUIRE stops the test */

#define CHECK_CONTAINS(str, sub)                                                      \
    do {                                                                              \
        const char *s_ = (str);                                                       \
        if (!s_ || !strstr(s_, (sub))) {                                              \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__,  \
                    s_ ? s_ : "(null)", (sub));                                       \
            g_failures++;                                                             \
        }                                                                             \
    } while (0)

static inline int test_finish(const char *name)
{
    if (g_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, g_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

/* A fresh directory under $TMPDIR (or /tmp), removed by test_tmpdir_remove. */
static inline char *test_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/glcap-test-XXXXXX", base && base[0] ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    REQUIRE(d != NULL);
    return strdup(d);
}

static inline void test_tmpdir_remove(char *dir)
{
    char cmd[600];
    /* Paths are our own mkdtemp names: safe to pass to rm. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", dir);
    free(dir);
}

static inline char *test_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    REQUIRE(p != NULL);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static inline uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    REQUIRE(f != NULL);
    REQUIRE(fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f);
    REQUIRE(n >= 0);
    rewind(f);
    uint8_t *buf = malloc((size_t)n + 1);
    REQUIRE(buf != NULL);
    REQUIRE(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static inline void test_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    REQUIRE(size == 0 || fwrite(data, 1, size, f) == size);
    REQUIRE(fclose(f) == 0);
}

/* Little-endian field access, written independently of glcap_format.h so
 * the tests check the documented layout. */
static inline uint64_t test_get(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}
static inline void test_put(uint8_t *p, int bytes, uint64_t v)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Documented layout (docs/GLCAP_FORMAT.md). */
#define T_HDR_MAJOR 8
#define T_HDR_MINOR 10
#define T_HDR_FLAGS 12
#define T_HDR_SIZE 16
#define T_HDR_COUNT 20
#define T_HDR_TABLE_OFF 24
#define T_HDR_ENTRY_SIZE 32
#define T_HDR_TABLE_SUM 40
#define T_HDR_FILE_SIZE 48
#define T_HDR_SUM 56
#define T_ENT_TYPE 0
#define T_ENT_COMP 2
#define T_ENT_ID 4
#define T_ENT_OFFSET 8
#define T_ENT_STORED 16
#define T_ENT_RAW 24
#define T_ENT_STORED_SUM 32
#define T_ENT_RAW_SUM 40

static inline uint8_t *test_entry(uint8_t *img, uint32_t index)
{
    return img + test_get(img + T_HDR_TABLE_OFF, 8) + (uint64_t)index * test_get(img + T_HDR_ENTRY_SIZE, 4);
}

/* Recomputes the table and header checksums after a patch (as far as the
 * patched header still allows: table bounds are clamped to the image). */
static inline void test_refresh_checksums(uint8_t *img, size_t size)
{
    uint64_t toff = test_get(img + T_HDR_TABLE_OFF, 8);
    uint64_t tlen = test_get(img + T_HDR_COUNT, 4) * test_get(img + T_HDR_ENTRY_SIZE, 4);
    if (toff <= size && tlen <= size - toff)
        test_put(img + T_HDR_TABLE_SUM, 8, XXH3_64bits(img + toff, (size_t)tlen));
    uint64_t hsize = test_get(img + T_HDR_SIZE, 4);
    if (hsize >= 64 && hsize <= size)
        test_put(img + hsize - 8, 8, XXH3_64bits(img, (size_t)hsize - 8));
}

/* Recomputes the stored checksum of section index from its bytes. */
static inline void test_refresh_stored_checksum(uint8_t *img, uint32_t index)
{
    uint8_t *e = test_entry(img, index);
    uint64_t off = test_get(e + T_ENT_OFFSET, 8), n = test_get(e + T_ENT_STORED, 8);
    test_put(e + T_ENT_STORED_SUM, 8, XXH3_64bits(img + off, (size_t)n));
}

/* An error message must be one non-empty line naming the file. */
static inline void check_message(const char *msg, const char *name, int line)
{
    if (!msg || !msg[0] || strchr(msg, '\n') || (name && strncmp(msg, name, strlen(name)) != 0)) {
        fprintf(stderr, "line %d: bad error message: '%s' (expected one line starting with %s)\n",
                line, msg ? msg : "(null)", name ? name : "");
        g_failures++;
    }
}
#define CHECK_MESSAGE(msg, name) check_message((msg), (name), __LINE__)

#endif /* GLCAP_TEST_UTIL_H */
