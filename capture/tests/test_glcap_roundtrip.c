/* test_glcap_roundtrip.c: sections written by the writer come back
 * byte-identical through load and through chunked reads; writer misuse and
 * write errors are reported and never leave a file at the target path. */
#include "glcap_test_util.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Deterministic, partly compressible data. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (i / 4096) % 2 ? (uint8_t)x : (uint8_t)(i * seed >> 3);
    }
}

typedef struct spec {
    uint16_t type;
    uint32_t id;
    glcap_compression comp;
    size_t size;
    bool streamed;
} spec;

static const spec SPECS[] = {
    {GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD, 300, false},
    {GLCAP_SECTION_CONTEXTS, 0, GLCAP_COMPRESSION_NONE, 0, false},          /* empty, raw */
    {GLCAP_SECTION_INITIAL_STATE, 0, GLCAP_COMPRESSION_ZSTD, 0, false},     /* empty, zstd */
    {GLCAP_SECTION_RESOURCE_BLOB, 1, GLCAP_COMPRESSION_ZSTD, 3000000, true},
    {GLCAP_SECTION_RESOURCE_BLOB, 2, GLCAP_COMPRESSION_NONE, 1500000, true},
    {GLCAP_SECTION_RESOURCE_BLOB, 3, GLCAP_COMPRESSION_NONE, 1, false},
    {GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD, 70000, true},
    {GLCAP_SECTION_SHADER_SOURCES, 0, GLCAP_COMPRESSION_ZSTD, 5000, false},
    {GLCAP_SECTION_REFERENCE_IMAGE, 0, GLCAP_COMPRESSION_NONE, 4096, false},
    {GLCAP_SECTION_REFERENCE_IMAGE, 7, GLCAP_COMPRESSION_ZSTD, 1, true},
};
#define NSPECS (sizeof SPECS / sizeof SPECS[0])

typedef struct chunk_sink {
    const uint8_t *expect;
    size_t size;
    size_t pos;
    bool mismatch;
    int calls;
} chunk_sink;

static int sink(void *user, const void *data, size_t size)
{
    chunk_sink *s = user;
    s->calls++;
    if (size == 0 || size > s->size - s->pos || memcmp(s->expect + s->pos, data, size) != 0)
        s->mismatch = true;
    else
        s->pos += size;
    return 0;
}

static int stop_sink(void *user, const void *data, size_t size)
{
    (void)user, (void)data, (void)size;
    return 1;
}

static void test_round_trip(const char *dir)
{
    char *path = test_path(dir, "rt.glcap");
    char err[512];
    glcap_writer *w = glcap_writer_create(path, NULL, err, sizeof err);
    REQUIRE(w != NULL);
    uint8_t *datas[NSPECS];
    for (size_t i = 0; i < NSPECS; i++) {
        const spec *s = &SPECS[i];
        datas[i] = malloc(s->size + 1);
        REQUIRE(datas[i]);
        fill(datas[i], s->size, (uint32_t)i + 1);
        if (!s->streamed) {
            CHECK(glcap_writer_add_section(w, s->type, s->id, s->comp, datas[i], s->size) == 0);
            continue;
        }
        CHECK(glcap_writer_begin_section(w, s->type, s->id, s->comp) == 0);
        /* Odd-sized pieces cross the writer's buffer boundaries. */
        for (size_t off = 0; off < s->size;) {
            size_t n = s->size - off < 77777 ? s->size - off : 77777;
            CHECK(glcap_writer_write(w, datas[i] + off, n) == 0);
            off += n;
        }
        CHECK(glcap_writer_end_section(w) == 0);
    }
    /* Nothing is at the target path before finish. */
    struct stat st;
    CHECK(stat(path, &st) != 0);
    CHECK(glcap_writer_finish(w) == 0);
    CHECK_CONTAINS(glcap_writer_error(w), "");
    glcap_writer_destroy(w);
    CHECK(stat(path, &st) == 0);

    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    if (!r)
        fprintf(stderr, "open: %s\n", err);
    REQUIRE(r != NULL);
    CHECK(glcap_reader_version_major(r) == GLCAP_VERSION_MAJOR);
    CHECK(glcap_reader_version_minor(r) == GLCAP_VERSION_MINOR);
    CHECK(glcap_reader_file_size(r) == (uint64_t)st.st_size);
    CHECK(glcap_reader_section_count(r) == NSPECS);
    for (uint32_t i = 0; i < NSPECS; i++) {
        const spec *s = &SPECS[i];
        const glcap_section_info *info = glcap_reader_section(r, i);
        REQUIRE(info);
        CHECK(info->type == s->type && info->id == s->id && info->compression == s->comp);
        CHECK(info->raw_size == s->size && info->readable);
        CHECK(glcap_reader_find(r, s->type, s->id) == i);
        void *data;
        size_t size;
        int rc = glcap_reader_load(r, i, &data, &size);
        if (rc)
            fprintf(stderr, "load: %s\n", glcap_reader_error(r));
        CHECK(rc == 0 && size == s->size && memcmp(data, datas[i], size) == 0);
        CHECK(data && ((char *)data)[size] == '\0');
        free(data);
        chunk_sink cs = {datas[i], s->size, 0, false, 0};
        CHECK(glcap_reader_read(r, i, sink, &cs) == 0);
        CHECK(!cs.mismatch && cs.pos == s->size);
        CHECK(glcap_reader_read(r, i, NULL, NULL) == 0); /* verify only */
        if (s->size > 0) {
            CHECK(glcap_reader_read(r, i, stop_sink, NULL) == -1);
            CHECK_CONTAINS(glcap_reader_error(r), "stopped by caller");
        }
    }
    CHECK(glcap_reader_find(r, GLCAP_SECTION_RESOURCE_BLOB, 99) == -1);
    CHECK(glcap_reader_section(r, NSPECS) == NULL);
    void *data;
    size_t size;
    CHECK(glcap_reader_load(r, NSPECS, &data, &size) == -1 && data == NULL);
    CHECK_CONTAINS(glcap_reader_error(r), "no section 10 (the file has 10)");
    char label[200];
    CHECK_CONTAINS(glcap_reader_section_label(r, 3, label, sizeof label),
                   "rt.glcap: section 3 (RESOURCE_BLOB, id 1)");
    CHECK_CONTAINS(glcap_reader_section_label(r, 6, label, sizeof label),
                   "rt.glcap: section 6 (COMMAND_STREAM)");
    glcap_reader_close(r);
    for (size_t i = 0; i < NSPECS; i++)
        free(datas[i]);

    /* A file with no sections at all is valid. */
    w = glcap_writer_create(path, NULL, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);
    r = glcap_reader_open(path, NULL, err, sizeof err);
    CHECK(r && glcap_reader_section_count(r) == 0 && glcap_reader_file_size(r) == 64);
    glcap_reader_close(r);
    free(path);
}

/* Many small sections: ids are looked up, duplicates found, the table is
 * validated, all without quadratic work. */
static void test_many_sections(const char *dir)
{
    char *path = test_path(dir, "many.glcap");
    char err[512];
    glcap_writer_options o = {.no_fsync = true};
    glcap_writer *w = glcap_writer_create(path, &o, err, sizeof err);
    REQUIRE(w);
    const uint32_t n = 20000;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = i * 7919u;
        CHECK(glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, v,
                                       i % 3 ? GLCAP_COMPRESSION_NONE : GLCAP_COMPRESSION_ZSTD,
                                       &v, sizeof v) == 0);
    }
    CHECK(glcap_writer_bytes_written(w) > 64 + 4 * (uint64_t)n);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 5 * 7919u,
                                   GLCAP_COMPRESSION_NONE, "x", 1) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "section 20000 (RESOURCE_BLOB, id 39595) duplicates "
                                          "section 5");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &o, err, sizeof err);
    REQUIRE(w);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = i * 7919u;
        glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, v,
                                 i % 3 ? GLCAP_COMPRESSION_NONE : GLCAP_COMPRESSION_ZSTD, &v,
                                 sizeof v);
    }
    CHECK(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);
    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_section_count(r) == n);
    for (uint32_t i = 0; i < n; i += 997) {
        uint32_t v = i * 7919u;
        int64_t idx = glcap_reader_find(r, GLCAP_SECTION_RESOURCE_BLOB, v);
        CHECK(idx == (int64_t)i);
        void *data;
        size_t size;
        CHECK(glcap_reader_load(r, (uint32_t)idx, &data, &size) == 0 && size == 4 &&
              memcmp(data, &v, 4) == 0);
        free(data);
    }
    glcap_reader_close(r);
    free(path);
}

static void test_writer_misuse(const char *dir)
{
    char *path = test_path(dir, "misuse.glcap");
    char err[512];
    glcap_writer_options opts = {.zstd_level = 3, .no_fsync = true};

    glcap_writer *w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_write(w, "x", 1) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "misuse.glcap: write outside a section");
    CHECK(glcap_writer_finish(w) == -1); /* sticky */
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_add_section(w, 0, 0, GLCAP_COMPRESSION_NONE, "x", 1) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "unknown section type 0");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_TYPE_END, 0, GLCAP_COMPRESSION_NONE, "x", 1) == -1);
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, (glcap_compression)9, "x", 1) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "unknown compression 9");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE, "x", 1) == 0);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD, "y", 1) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "duplicates section 0");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_begin_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD) == 0);
    CHECK(glcap_writer_begin_section(w, GLCAP_SECTION_CONTEXTS, 0, GLCAP_COMPRESSION_ZSTD) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "still open");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_begin_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD) == 0);
    CHECK(glcap_writer_finish(w) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "finish while section 0 (METADATA) is still open");
    glcap_writer_destroy(w);

    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_end_section(w) == -1);
    glcap_writer_destroy(w);

    /* None of the failed writers left a file or a temporary behind. */
    struct stat st;
    CHECK(stat(path, &st) != 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q tmp", dir);
    CHECK(system(cmd) != 0);

    CHECK(glcap_writer_create("/nonexistent-dir/x.glcap", NULL, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "/nonexistent-dir/x.glcap: cannot create temporary file");
    CHECK_CONTAINS(err, "No such file or directory");
    opts.zstd_level = 1000;
    CHECK(glcap_writer_create(path, &opts, err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "zstd level 1000 out of range");
    CHECK(glcap_writer_create("", NULL, err, sizeof err) == NULL);
    CHECK(err[0] != '\0');

    /* An aborted rewrite leaves the previous capture intact. */
    test_write_file(path, "old", 3);
    opts.zstd_level = 0;
    w = glcap_writer_create(path, &opts, err, sizeof err);
    REQUIRE(w);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE, "x", 1) == 0);
    glcap_writer_destroy(w);
    size_t n;
    uint8_t *old = test_read_file(path, &n);
    CHECK(n == 3 && memcmp(old, "old", 3) == 0);
    free(old);
    free(path);
}

/* A write error (file size limit, like a full disk) is reported with
 * its cause; run in a child so the limit does not leak into other tests. */
static void test_write_error(const char *dir)
{
    char *path = test_path(dir, "full.glcap");
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        g_failures = 0; /* count only the child's own checks */
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {1 << 20, 1 << 20};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(3);
        char err[512];
        glcap_writer *w = glcap_writer_create(path, NULL, err, sizeof err);
        if (!w)
            _exit(4);
        uint8_t *big = malloc(8 << 20);
        if (!big)
            _exit(5);
        fill(big, 8 << 20, 3);
        int rc = glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 1,
                                          GLCAP_COMPRESSION_NONE, big, 8 << 20);
        if (rc == 0)
            rc = glcap_writer_finish(w);
        int ok = rc == -1 && strstr(glcap_writer_error(w), "full.glcap: write failed: File too large");
        if (!ok)
            fprintf(stderr, "unexpected: rc %d, '%s'\n", rc, glcap_writer_error(w));
        CHECK(glcap_writer_finish(w) == -1);
        glcap_writer_destroy(w);
        free(big);
        _exit(ok && g_failures == 0 ? 0 : 1);
    }
    int status;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat st;
    CHECK(stat(path, &st) != 0);
    free(path);
}

/* glcap_writer_set_zstd_level: the level applies to the sections begun after it (a fast level
 * stores the same bytes larger), 0 goes back to the writer's own, a level out of range fails. */
static void test_section_levels(const char *dir)
{
    char *path = test_path(dir, "levels.glcap");
    char err[512];
    size_t n = 4 << 20, len = 0;
    char *text = malloc(n + 64);
    REQUIRE(text != NULL);
    for (uint32_t i = 0; len < n; i++)   /* a call log: repetitive, not trivially so */
        len += (size_t)snprintf(text + len, 64, "call %u arg %u ctx %u\n", i * 2654435761u % 977u, i / 3, i % 7);
    glcap_writer *w = glcap_writer_create(path, NULL, err, sizeof err);
    REQUIRE(w != NULL);
    CHECK(glcap_writer_set_zstd_level(w, -5) == 0);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 1, GLCAP_COMPRESSION_ZSTD, text, len) == 0);
    CHECK(glcap_writer_set_zstd_level(w, 0) == 0);
    CHECK(glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 2, GLCAP_COMPRESSION_ZSTD, text, len) == 0);
    CHECK(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);
    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    REQUIRE(r != NULL);
    const glcap_section_info *fast = glcap_reader_section(r, 0), *dflt = glcap_reader_section(r, 1);
    REQUIRE(fast && dflt);
    CHECK(fast->raw_size == len && dflt->raw_size == len);
    CHECK(fast->stored_size > dflt->stored_size);
    for (uint32_t i = 0; i < 2; i++) {
        void *data = NULL;
        size_t size = 0;
        CHECK(glcap_reader_load(r, i, &data, &size) == 0 && size == len && memcmp(data, text, len) == 0);
        free(data);
    }
    glcap_reader_close(r);
    w = glcap_writer_create(path, NULL, err, sizeof err);
    REQUIRE(w != NULL);
    CHECK(glcap_writer_set_zstd_level(w, 1000) == -1);
    CHECK_CONTAINS(glcap_writer_error(w), "zstd level 1000 out of range");
    glcap_writer_destroy(w);
    free(text);
    free(path);
}

int main(void)
{
    char *dir = test_tmpdir();
    test_round_trip(dir);
    test_many_sections(dir);
    test_writer_misuse(dir);
    test_write_error(dir);
    test_section_levels(dir);
    test_tmpdir_remove(dir);
    return test_finish("test_glcap_roundtrip");
}
