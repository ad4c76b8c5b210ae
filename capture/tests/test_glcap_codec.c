/* test_glcap_codec.c: the payload codec round-trips every type and fails
 * cleanly (sticky error, message, zero values) on every kind of bad input. */
#include "capture/glcap_codec.h"
#include "glcap_test_util.h"

#include <float.h>
#include <math.h>

static void test_round_trip(void)
{
    glcap_wbuf w;
    glcap_wbuf_init(&w);
    static const uint64_t uvals[] = {0, 1, 127, 128, 255, 16383, 16384, UINT32_MAX,
                                     (uint64_t)UINT32_MAX + 1, UINT64_MAX / 2, UINT64_MAX - 1,
                                     UINT64_MAX};
    static const int64_t svals[] = {0, 1, -1, 63, -64, 64, -65, INT32_MIN, INT32_MAX,
                                    INT64_MIN, INT64_MAX, INT64_MIN + 1};
    glcap_put_u8(&w, 0xab);
    glcap_put_u16(&w, 0xbeef);
    glcap_put_u32(&w, 0xdeadbeefu);
    glcap_put_u64(&w, UINT64_C(0x0123456789abcdef));
    glcap_put_f32(&w, -1.5f);
    glcap_put_f64(&w, 3.141592653589793);
    glcap_put_f32(&w, FLT_MIN);
    glcap_put_f64(&w, -0.0);
    glcap_put_bool(&w, true);
    glcap_put_bool(&w, false);
    for (size_t i = 0; i < sizeof uvals / sizeof uvals[0]; i++)
        glcap_put_uvar(&w, uvals[i]);
    for (size_t i = 0; i < sizeof svals / sizeof svals[0]; i++)
        glcap_put_svar(&w, svals[i]);
    glcap_put_bytes(&w, "\0\1\2", 3);
    glcap_put_bytes(&w, NULL, 0);
    glcap_put_str(&w, "hello");
    glcap_put_str(&w, NULL);
    glcap_put_raw(&w, "RAW!", 4);
    /* A big string forces several growths. */
    char *big = malloc(100000);
    REQUIRE(big);
    for (int i = 0; i < 99999; i++)
        big[i] = (char)('a' + i % 26);
    big[99999] = '\0';
    glcap_put_str(&w, big);
    REQUIRE(!w.failed);

    /* Fixed-size values are little-endian on disk. */
    CHECK(w.data[0] == 0xab);
    CHECK(w.data[1] == 0xef && w.data[2] == 0xbe);
    CHECK(w.data[3] == 0xef && w.data[6] == 0xde);

    glcap_cursor c;
    glcap_cursor_init(&c, w.data, w.len);
    CHECK(glcap_get_u8(&c) == 0xab);
    CHECK(glcap_get_u16(&c) == 0xbeef);
    CHECK(glcap_get_u32(&c) == 0xdeadbeefu);
    CHECK(glcap_get_u64(&c) == UINT64_C(0x0123456789abcdef));
    CHECK(glcap_get_f32(&c) == -1.5f);
    CHECK(glcap_get_f64(&c) == 3.141592653589793);
    CHECK(glcap_get_f32(&c) == FLT_MIN);
    double nz = glcap_get_f64(&c);
    CHECK(nz == 0.0 && signbit(nz));
    CHECK(glcap_get_bool(&c) == true);
    CHECK(glcap_get_bool(&c) == false);
    for (size_t i = 0; i < sizeof uvals / sizeof uvals[0]; i++)
        CHECK(glcap_get_uvar(&c) == uvals[i]);
    for (size_t i = 0; i < sizeof svals / sizeof svals[0]; i++)
        CHECK(glcap_get_svar(&c) == svals[i]);
    size_t n;
    const uint8_t *b = glcap_get_bytes(&c, &n);
    CHECK(b && n == 3 && b[0] == 0 && b[1] == 1 && b[2] == 2);
    b = glcap_get_bytes(&c, &n);
    CHECK(b != NULL && n == 0);
    const char *s = glcap_get_str(&c, &n);
    CHECK(s && n == 5 && memcmp(s, "hello", 5) == 0);
    char *e = glcap_get_strdup(&c);
    CHECK(e && strcmp(e, "") == 0);
    free(e);
    const char *raw = glcap_get_raw(&c, 4);
    CHECK(raw && memcmp(raw, "RAW!", 4) == 0);
    char *bigcopy = glcap_get_strdup(&c);
    CHECK(bigcopy && strcmp(bigcopy, big) == 0);
    free(bigcopy);
    CHECK(glcap_cursor_at_end(&c));
    CHECK(glcap_cursor_expect_end(&c));
    CHECK(glcap_cursor_ok(&c));
    CHECK(glcap_cursor_error(&c)[0] == '\0');
    free(big);

    /* Varint sizes: 7 bits per byte. */
    glcap_wbuf_reset(&w);
    glcap_put_uvar(&w, 127);
    CHECK(w.len == 1);
    glcap_put_uvar(&w, 128);
    CHECK(w.len == 3);
    glcap_put_uvar(&w, UINT64_MAX);
    CHECK(w.len == 13);
    size_t len;
    uint8_t *taken = glcap_wbuf_detach(&w, &len);
    CHECK(taken && len == 13);
    CHECK(w.data == NULL && w.len == 0);
    free(taken);
    glcap_wbuf_free(&w);
}

/* Every read kind past the end: value 0, error set once, sticky. */
static void test_reads_past_end(void)
{
    const uint8_t three[3] = {1, 2, 3};
    glcap_cursor c;

    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_u32(&c) == 0);
    CHECK(!glcap_cursor_ok(&c));
    CHECK_CONTAINS(glcap_cursor_error(&c), "u32 at offset 0 needs 4 bytes, 3 left");
    /* sticky: later reads fail and keep the first message */
    CHECK(glcap_get_u8(&c) == 0);
    CHECK(glcap_get_uvar(&c) == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "u32 at offset 0");

    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_u16(&c) == 0x0201);
    CHECK(glcap_get_u16(&c) == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "u16 at offset 2 needs 2 bytes, 1 left");

    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_u64(&c) == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "u64");
    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_f64(&c) == 0.0 && !glcap_cursor_ok(&c));
    glcap_cursor_init(&c, three, 2);
    CHECK(glcap_get_f32(&c) == 0.0f && !glcap_cursor_ok(&c));
    glcap_cursor_init(&c, NULL, 0);
    CHECK(glcap_get_u8(&c) == 0 && !glcap_cursor_ok(&c));
    CHECK_CONTAINS(glcap_cursor_error(&c), "u8 at offset 0 needs 1 bytes, 0 left");
    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_raw(&c, 4) == NULL && !glcap_cursor_ok(&c));
    glcap_cursor_init(&c, three, 3);
    CHECK(glcap_get_raw(&c, 3) != NULL && glcap_cursor_ok(&c));

    /* A varint cut off in its middle. */
    const uint8_t cut[2] = {0x80, 0x80};
    glcap_cursor_init(&c, cut, 2);
    CHECK(glcap_get_uvar(&c) == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "varint at offset 0 is cut off");

    /* Length prefix larger than what is left. */
    const uint8_t longstr[4] = {10, 'a', 'b', 'c'};
    size_t n = 99;
    glcap_cursor_init(&c, longstr, 4);
    CHECK(glcap_get_bytes(&c, &n) == NULL && n == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "10-byte string at offset 0, 3 bytes left");
    glcap_cursor_init(&c, longstr, 4);
    CHECK(glcap_get_strdup(&c) == NULL && !glcap_cursor_ok(&c));

    /* A huge length must not wrap pointer arithmetic. */
    glcap_wbuf w;
    glcap_wbuf_init(&w);
    glcap_put_uvar(&w, UINT64_MAX);
    glcap_put_u8(&w, 1);
    glcap_cursor_init(&c, w.data, w.len);
    CHECK(glcap_get_bytes(&c, &n) == NULL && !glcap_cursor_ok(&c));
    glcap_wbuf_free(&w);
}

static void test_malformed(void)
{
    glcap_cursor c;
    /* 11 continuation bytes: longer than any 64-bit value. */
    uint8_t overlong[11];
    memset(overlong, 0xff, sizeof overlong);
    glcap_cursor_init(&c, overlong, sizeof overlong);
    CHECK(glcap_get_uvar(&c) == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "overflows 64 bits");
    /* 10th byte with more than bit 63. */
    uint8_t tenth[10];
    memset(tenth, 0xff, 9);
    tenth[9] = 0x02;
    glcap_cursor_init(&c, tenth, sizeof tenth);
    CHECK(glcap_get_uvar(&c) == 0 && !glcap_cursor_ok(&c));
    tenth[9] = 0x01; /* exactly UINT64_MAX */
    glcap_cursor_init(&c, tenth, sizeof tenth);
    CHECK(glcap_get_uvar(&c) == UINT64_MAX && glcap_cursor_ok(&c));

    const uint8_t two = 2;
    glcap_cursor_init(&c, &two, 1);
    CHECK(glcap_get_bool(&c) == false);
    CHECK_CONTAINS(glcap_cursor_error(&c), "bool at offset 0 has value 2");

    const uint8_t nul[3] = {2, 'a', 0};
    glcap_cursor_init(&c, nul, 3);
    CHECK(glcap_get_strdup(&c) == NULL);
    CHECK_CONTAINS(glcap_cursor_error(&c), "contains a NUL byte");

    const uint8_t en[2] = {7, 0};
    glcap_cursor_init(&c, en, 2);
    CHECK(glcap_get_uvar_below(&c, 7, "blend mode") == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "blend mode at offset 0 is 7, must be below 7");
    glcap_cursor_init(&c, en, 2);
    CHECK(glcap_get_uvar_below(&c, 8, "blend mode") == 7 && glcap_cursor_ok(&c));

    /* A count whose elements cannot fit is refused before any allocation. */
    glcap_wbuf w;
    glcap_wbuf_init(&w);
    glcap_put_uvar(&w, 1000000000);
    glcap_put_u32(&w, 1);
    glcap_cursor_init(&c, w.data, w.len);
    CHECK(glcap_get_count(&c, 4, "buffers") == 0);
    CHECK_CONTAINS(glcap_cursor_error(&c), "buffers count 1000000000");
    glcap_wbuf_reset(&w);
    glcap_put_uvar(&w, 2);
    glcap_put_u32(&w, 1);
    glcap_put_u32(&w, 2);
    glcap_cursor_init(&c, w.data, w.len);
    CHECK(glcap_get_count(&c, 4, "buffers") == 2 && glcap_cursor_ok(&c));
    glcap_cursor_init(&c, w.data, w.len);
    CHECK(glcap_get_count(&c, 5, "buffers") == 0 && !glcap_cursor_ok(&c));
    glcap_wbuf_free(&w);

    /* Trailing bytes and decoder-defined errors. */
    const uint8_t tail[3] = {1, 2, 3};
    glcap_cursor_init(&c, tail, 3);
    glcap_get_u8(&c);
    CHECK(!glcap_cursor_expect_end(&c));
    CHECK_CONTAINS(glcap_cursor_error(&c), "2 unexpected bytes at the end (offset 1)");
    glcap_cursor_init(&c, tail, 3);
    glcap_get_u16(&c);
    CHECK(!glcap_cursor_fail(&c, "unknown command %d", 42));
    CHECK_CONTAINS(glcap_cursor_error(&c), "unknown command 42 at offset 2");
    CHECK(glcap_get_u8(&c) == 0); /* fail also stops further reads */
    CHECK(!glcap_cursor_fail(&c, "second"));
    CHECK_CONTAINS(glcap_cursor_error(&c), "unknown command 42");
}

/* Allocation failure of the writer is sticky and loses nothing silently. */
static void test_wbuf_failure(void)
{
    glcap_wbuf w;
    glcap_wbuf_init(&w);
    glcap_put_u32(&w, 7);
    CHECK(glcap_wbuf_reserve(&w, SIZE_MAX / 2) == NULL);
    CHECK(w.failed);
    size_t len_at_failure = w.len;
    glcap_put_u8(&w, 1);
    glcap_put_uvar(&w, 5);
    CHECK(w.len == len_at_failure);
    size_t len = 1;
    CHECK(glcap_wbuf_detach(&w, &len) == NULL && len == 0);
    CHECK(!w.failed);
    glcap_put_u8(&w, 1);
    CHECK(w.len == 1 && !w.failed);
    glcap_wbuf_free(&w);
}

/* Every prefix of a valid payload decodes to an error, never past the end
 * (ASan checks the "never"). */
static void test_every_prefix(void)
{
    glcap_wbuf w;
    glcap_wbuf_init(&w);
    glcap_put_u8(&w, 1);
    glcap_put_uvar(&w, 300);
    glcap_put_str(&w, "abc");
    glcap_put_u64(&w, 5);
    glcap_put_svar(&w, -1000000);
    glcap_put_f32(&w, 2.0f);
    glcap_put_u16(&w, 9);
    for (size_t cut = 0; cut < w.len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exact size: ASan sees overreads */
        REQUIRE(copy);
        memcpy(copy, w.data, cut);
        glcap_cursor c;
        glcap_cursor_init(&c, copy, cut);
        glcap_get_u8(&c);
        glcap_get_uvar(&c);
        size_t n;
        glcap_get_str(&c, &n);
        glcap_get_u64(&c);
        glcap_get_svar(&c);
        glcap_get_f32(&c);
        glcap_get_u16(&c);
        CHECK(!glcap_cursor_ok(&c));
        CHECK(glcap_cursor_error(&c)[0] != '\0');
        free(copy);
    }
    glcap_wbuf_free(&w);
}

int main(void)
{
    test_round_trip();
    test_reads_past_end();
    test_malformed();
    test_wbuf_failure();
    test_every_prefix();
    return test_finish("test_glcap_codec");
}
