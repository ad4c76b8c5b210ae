/* test_glcap_large.c: a 100 MiB section (streamed in, zstd) and a 100 MiB
 * uncompressed one survive the round trip, through load and chunked read;
 * the load cap refuses a section bigger than it without allocating. */
#include "glcap_test_util.h"

#define BIG (100u << 20)

/* Vertex-like data: runs of slowly changing floats with noise, so zstd
 * neither gives up nor compresses it to nothing. */
static void fill_big(uint8_t *p, size_t n)
{
    uint32_t x = 12345;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        x = x * 1103515245u + 12345u;
        float f = (float)(i % 65536) * 0.25f + (float)(x >> 28);
        memcpy(p + i, &f, 4);
    }
}

typedef struct hash_sink {
    XXH3_state_t *h;
    uint64_t total;
} hash_sink;

static int hash_chunk(void *user, const void *data, size_t size)
{
    hash_sink *s = user;
    XXH3_64bits_update(s->h, data, size);
    s->total += size;
    return 0;
}

int main(void)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "large.glcap");
    uint8_t *data = malloc(BIG);
    REQUIRE(data);
    fill_big(data, BIG);
    uint64_t expect = XXH3_64bits(data, BIG);

    char err[512];
    glcap_writer_options opts = {.no_fsync = true};
    glcap_writer *w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_begin_section(w, GLCAP_SECTION_RESOURCE_BLOB, 1, GLCAP_COMPRESSION_ZSTD) == 0);
    for (size_t off = 0; off < BIG; off += 1u << 20)
        CHECK(glcap_writer_write(w, data + off, 1u << 20) == 0);
    CHECK(glcap_writer_end_section(w) == 0);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 2, GLCAP_COMPRESSION_NONE,
                                   data, BIG) == 0);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD, "m", 1) == 0);
    CHECK(glcap_writer_finish(w) == 0);
    if (glcap_writer_error(w)[0])
        fprintf(stderr, "%s\n", glcap_writer_error(w));
    glcap_writer_destroy(w);

    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    if (!r)
        fprintf(stderr, "%s\n", err);
    REQUIRE(r);
    const glcap_section_info *s0 = glcap_reader_section(r, 0);
    REQUIRE(s0);
    CHECK(s0->raw_size == BIG && s0->stored_size < BIG);
    printf("100 MiB section compressed to %.1f MiB\n", (double)s0->stored_size / (1 << 20));
    for (uint32_t i = 0; i < 2; i++) {
        void *out;
        size_t size;
        int rc = glcap_reader_load(r, i, &out, &size);
        if (rc)
            fprintf(stderr, "%s\n", glcap_reader_error(r));
        CHECK(rc == 0 && size == BIG && memcmp(out, data, BIG) == 0);
        free(out);

        hash_sink hs = {XXH3_createState(), 0};
        REQUIRE(hs.h);
        XXH3_64bits_reset(hs.h);
        CHECK(glcap_reader_read(r, i, hash_chunk, &hs) == 0);
        CHECK(hs.total == BIG && XXH3_64bits_digest(hs.h) == expect);
        XXH3_freeState(hs.h);
    }
    glcap_reader_close(r);

    /* A cap below the section size: a clear refusal, no allocation. */
    glcap_reader_options ro = {.max_section_size = 50u << 20};
    r = glcap_reader_open(path, &ro, err, sizeof err);
    REQUIRE(r);
    void *out = (void *)1;
    size_t size = 1;
    CHECK(glcap_reader_load(r, 0, &out, &size) == -1 && out == NULL && size == 0);
    CHECK_CONTAINS(glcap_reader_error(r), "large.glcap: section 0 (RESOURCE_BLOB, id 1): "
                                          "uncompressed size 104857600 bytes exceeds the limit "
                                          "of 52428800 bytes");
    CHECK(glcap_reader_load(r, 2, &out, &size) == 0 && size == 1);
    free(out);
    glcap_reader_close(r);

    free(data);
    free(path);
    test_tmpdir_remove(dir);
    return test_finish("test_glcap_large");
}
