/* test_glcap_corrupt.c: damaged .glcap files fail with one-line messages
 * naming the file (and the section), never crash. Covers truncation at every
 * byte, every single bit flip, wrong magic and versions, sections from a
 * newer minor version, absurd sizes, overlaps, and field patches whose
 * checksums were recomputed (so the checks behind the checksums run too). */
#include "glcap_test_util.h"

#include <sys/mman.h>
#include <sys/stat.h>

static char *g_dir;
static char *g_path;     /* the pristine small capture */
static char *g_scratch;  /* damaged copies go here */
static uint8_t *g_img;   /* bytes of g_path */
static size_t g_size;

static const char COMMANDS[] =
    "draw draw draw bind bind bind uniform uniform uniform draw draw draw clear clear "
    "draw draw draw bind bind bind uniform uniform uniform draw draw draw clear clear "
    "viewport viewport scissor scissor blend blend depth depth stencil stencil end";

enum { S_META, S_CTX, S_STATE, S_CMDS, S_SHADERS, S_IMAGE, S_BLOB, S_COUNT };

/* Written piecewise: its zstd frame records no content size. */
static const char BLOB[] = "0123456789abcdef0123456789abcdef0123456789abcdef";

static void make_small(void)
{
    char err[512];
    glcap_writer_options o = {.no_fsync = true};
    glcap_writer *w = glcap_writer_create(g_path, &o, err, sizeof err);
    REQUIRE(w);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_ZSTD,
                                     "program=test driver=llvmpipe", 29) == 0);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_CONTEXTS, 0, GLCAP_COMPRESSION_NONE,
                                     "ctx0 core 4.5 double", 20) == 0);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_INITIAL_STATE, 0, GLCAP_COMPRESSION_ZSTD,
                                     NULL, 0) == 0);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD,
                                     COMMANDS, sizeof COMMANDS - 1) == 0);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_SHADER_SOURCES, 0, GLCAP_COMPRESSION_NONE,
                                     NULL, 0) == 0);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_REFERENCE_IMAGE, 0, GLCAP_COMPRESSION_NONE,
                                     "\x89PNG\r\n\x1a\n12345678", 16) == 0);
    REQUIRE(glcap_writer_begin_section(w, GLCAP_SECTION_RESOURCE_BLOB, 1,
                                       GLCAP_COMPRESSION_ZSTD) == 0);
    REQUIRE(glcap_writer_write(w, BLOB, 20) == 0);
    REQUIRE(glcap_writer_write(w, BLOB + 20, sizeof BLOB - 21) == 0);
    REQUIRE(glcap_writer_end_section(w) == 0);
    REQUIRE(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);
    g_img = test_read_file(g_path, &g_size);
}

typedef struct notes {
    int count;
    char last[512];
} notes;

static void on_note(void *user, const char *note)
{
    notes *n = user;
    n->count++;
    snprintf(n->last, sizeof n->last, "%s", note);
}

/* Opens name and loads and reads every readable section. Returns 0 if all
 * of it worked; otherwise 1 with the (checked) first message in msg. */
static int try_all_fd(int fd, const char *name, char *msg, size_t msg_size)
{
    char err[512];
    notes n = {0};
    glcap_reader_options quiet = {.note = on_note, .note_user = &n};
    glcap_reader *r = fd >= 0 ? glcap_reader_open_fd(fd, name, &quiet, err, sizeof err)
                              : glcap_reader_open(name, &quiet, err, sizeof err);
    if (!r) {
        CHECK_MESSAGE(err, name);
        snprintf(msg, msg_size, "%s", err);
        return 1;
    }
    int failed = 0;
    for (uint32_t i = 0; i < glcap_reader_section_count(r); i++) {
        if (!glcap_reader_section(r, i)->readable)
            continue;
        void *data;
        size_t size;
        /* the cheap check of the stored bytes never refuses what a full load accepts */
        int rc0 = glcap_reader_check_stored(r, i);
        int rc1 = glcap_reader_load(r, i, &data, &size);
        if (rc0 != 0 && rc1 == 0) {
            fprintf(stderr, "%s: section %u: check_stored failed, load worked\n", name, i);
            g_failures++;
        }
        if (rc1 == 0)
            free(data);
        else if (!failed) {
            CHECK_MESSAGE(glcap_reader_error(r), name);
            snprintf(msg, msg_size, "%s", glcap_reader_error(r));
        }
        int rc2 = glcap_reader_read(r, i, NULL, NULL);
        /* load and read must agree about a section */
        if (rc1 != rc2) {
            fprintf(stderr, "%s: section %u: load %d, read %d: %s\n", name, i, rc1, rc2,
                    glcap_reader_error(r));
            g_failures++;
        }
        if (rc2 != 0 && !failed && rc1 == 0) {
            CHECK_MESSAGE(glcap_reader_error(r), name);
            snprintf(msg, msg_size, "%s", glcap_reader_error(r));
        }
        failed |= rc1 != 0 || rc2 != 0;
    }
    glcap_reader_close(r);
    return failed;
}

static int try_all(const char *path, char *msg, size_t msg_size)
{
    return try_all_fd(-1, path, msg, msg_size);
}

/* Runs try_all on img, held in a memory file (rewriting a real file
 * thousands of times is slow on ext4) opened with glcap_reader_open_fd.
 * The name in messages is the scratch path. */
static int try_image(const uint8_t *img, size_t size, char *msg, size_t msg_size)
{
    int fd = memfd_create("glcap-scratch", MFD_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(size == 0 || write(fd, img, size) == (ssize_t)size);
    int rc = try_all_fd(fd, g_scratch, msg, msg_size);
    close(fd);
    return rc;
}

static uint8_t *copy_img(void)
{
    uint8_t *c = malloc(g_size);
    REQUIRE(c);
    memcpy(c, g_img, g_size);
    return c;
}

static void expect_failure(uint8_t *img, size_t size, const char *sub, int line)
{
    char msg[512] = "";
    int rc = try_image(img, size, msg, sizeof msg);
    if (rc == 0 || !strstr(msg, sub)) {
        fprintf(stderr, "line %d: expected failure with '%s', got rc %d '%s'\n", line, sub, rc,
                msg);
        g_failures++;
    }
}
#define EXPECT_FAILURE(img, size, sub) expect_failure((img), (size), (sub), __LINE__)

static void test_pristine(void)
{
    char msg[512] = "";
    CHECK(try_all(g_path, msg, sizeof msg) == 0);
    CHECK(test_get(g_img + T_HDR_COUNT, 4) == S_COUNT);
    printf("small capture: %zu bytes\n", g_size);
}

static void test_truncation(void)
{
    int failures = 0;
    for (size_t n = 0; n < g_size; n++) {
        char msg[512] = "";
        if (try_image(g_img, n, msg, sizeof msg) == 0) {
            fprintf(stderr, "truncated to %zu bytes: accepted\n", n);
            failures++;
        }
    }
    CHECK(failures == 0);
    char msg[512];
    try_image(g_img, g_size - 1, msg, sizeof msg);
    CHECK_CONTAINS(msg, "scratch.glcap: truncated (");
    try_image(g_img, 40, msg, sizeof msg);
    CHECK_CONTAINS(msg, "truncated (40 bytes; the header alone has 64)");
    try_image(g_img, 0, msg, sizeof msg);
    CHECK_CONTAINS(msg, "not a .glcap file (only 0 bytes)");
}

/* Every bit of the file is covered by some checksum (or is a checksum). */
static void test_bit_flips(void)
{
    uint8_t *img = copy_img();
    int accepted = 0;
    for (size_t i = 0; i < g_size; i++) {
        for (int bit = 0; bit < 8; bit++) {
            img[i] ^= (uint8_t)(1u << bit);
            char msg[512] = "";
            if (try_image(img, g_size, msg, sizeof msg) == 0) {
                fprintf(stderr, "bit %d of byte %zu flipped: accepted\n", bit, i);
                accepted++;
            }
            img[i] ^= (uint8_t)(1u << bit);
        }
    }
    CHECK(accepted == 0);

    /* The messages say where. */
    char msg[512];
    img[20] ^= 1;
    try_image(img, g_size, msg, sizeof msg);
    CHECK_CONTAINS(msg, "scratch.glcap: header checksum mismatch (file corrupt)");
    img[20] ^= 1;
    uint8_t *e = test_entry(img, S_CMDS);
    e[T_ENT_ID] ^= 1;
    try_image(img, g_size, msg, sizeof msg);
    CHECK_CONTAINS(msg, "scratch.glcap: section table checksum mismatch (file corrupt)");
    e[T_ENT_ID] ^= 1;
    uint64_t off = test_get(e + T_ENT_OFFSET, 8);
    img[off + 3] ^= 0x10;
    try_image(img, g_size, msg, sizeof msg);
    CHECK_CONTAINS(msg, "scratch.glcap: section 3 (COMMAND_STREAM): checksum mismatch (file corrupt)");
    free(img);
}

static void test_magic_and_version(void)
{
    uint8_t *img = copy_img();
    img[1] = 'X';
    EXPECT_FAILURE(img, g_size, "scratch.glcap: not a .glcap file (wrong magic)");
    memcpy(img, "PK\3\4", 4);
    EXPECT_FAILURE(img, g_size, "not a .glcap file (wrong magic)");
    free(img);

    img = copy_img();
    test_put(img + T_HDR_MAJOR, 2, 2);
    test_put(img + T_HDR_MINOR, 2, 3);
    EXPECT_FAILURE(img, g_size, "scratch.glcap: unsupported .glcap version 2.3 (this glreplay "
                                "reads up to 1.1)");
    /* Even a tiny file of a newer major gets the version message. */
    EXPECT_FAILURE(img, 12, "unsupported .glcap version 2.3");
    test_put(img + T_HDR_MAJOR, 2, 0);
    EXPECT_FAILURE(img, g_size, "unsupported .glcap version 0.3");
    free(img);

    /* Required flag bits this reader does not know: refused; informational
     * ones: accepted. */
    img = copy_img();
    test_put(img + T_HDR_FLAGS, 4, 0x4);
    test_refresh_checksums(img, g_size);
    EXPECT_FAILURE(img, g_size, "uses features this glreplay does not have (header flags 0x00000004");
    test_put(img + T_HDR_FLAGS, 4, 0x10000);
    test_refresh_checksums(img, g_size);
    char msg[512] = "";
    CHECK(try_image(img, g_size, msg, sizeof msg) == 0);
    free(img);
}

static void test_newer_minor(void)
{
    /* A 1.2 file with a section type and a compression method 1.1 lacks. */
    uint8_t *img = copy_img();
    test_put(img + T_HDR_MINOR, 2, 2);
    test_put(test_entry(img, S_CTX) + T_ENT_TYPE, 2, 200);
    test_entry(img, S_IMAGE)[T_ENT_COMP] = 9;
    test_refresh_checksums(img, g_size);
    test_write_file(g_scratch, img, g_size);

    notes n = {0};
    glcap_reader_options opts = {.note = on_note, .note_user = &n};
    char err[512];
    glcap_reader *r = glcap_reader_open(g_scratch, &opts, err, sizeof err);
    if (!r)
        fprintf(stderr, "%s\n", err);
    REQUIRE(r);
    CHECK(glcap_reader_version_minor(r) == 2);
    CHECK(n.count == 2);
    CHECK_CONTAINS(n.last, "scratch.glcap: skipping section 5 (type 7, compression 9): written by "
                           "a newer glreplay (format 1.2; this one reads 1.1)");
    CHECK(glcap_reader_section_count(r) == S_COUNT);
    CHECK(!glcap_reader_section(r, S_CTX)->readable);
    CHECK(glcap_reader_find(r, GLCAP_SECTION_REFERENCE_IMAGE, 0) == -1);
    void *data;
    size_t size;
    CHECK(glcap_reader_load(r, S_CTX, &data, &size) == -1);
    CHECK_CONTAINS(glcap_reader_error(r), "section 1 (UNKNOWN): cannot be read by this glreplay");
    CHECK(glcap_reader_load(r, S_CMDS, &data, &size) == 0 && size == sizeof COMMANDS - 1 &&
          memcmp(data, COMMANDS, size) == 0);
    free(data);
    glcap_reader_close(r);

    /* Without a callback the note goes to stderr and the open still works. */
    r = glcap_reader_open(g_scratch, NULL, err, sizeof err);
    CHECK(r != NULL);
    glcap_reader_close(r);

    /* The same unknown type in a 1.0 file is corruption. */
    test_put(img + T_HDR_MINOR, 2, 0);
    test_refresh_checksums(img, g_size);
    EXPECT_FAILURE(img, g_size, "section 1 (UNKNOWN): unknown section type 200 in a format 1.0 file");
    test_put(test_entry(img, S_CTX) + T_ENT_TYPE, 2, GLCAP_SECTION_CONTEXTS);
    test_refresh_checksums(img, g_size);
    EXPECT_FAILURE(img, g_size, "section 5 (REFERENCE_IMAGE): unknown compression method 9");
    free(img);

    /* The packed command stream came with 1.1: in a 1.0 file compression 2 is corruption. */
    img = copy_img();
    test_put(img + T_HDR_MINOR, 2, 0);
    test_entry(img, S_CMDS)[T_ENT_COMP] = GLCAP_COMPRESSION_ZSTD_PACKED;
    test_refresh_checksums(img, g_size);
    EXPECT_FAILURE(img, g_size, "section 3 (COMMAND_STREAM): unknown compression method 2 in a format 1.0 file");
    free(img);
}

/* Patches one u64/u32/u16 field of an entry, refreshes checksums, expects
 * the failure message sub. */
static void patch_entry(uint32_t index, int field, int bytes, uint64_t value, const char *sub,
                        int line)
{
    uint8_t *img = copy_img();
    test_put(test_entry(img, index) + field, bytes, value);
    test_refresh_checksums(img, g_size);
    expect_failure(img, g_size, sub, line);
    free(img);
}
#define PATCH_ENTRY(i, f, b, v, sub) patch_entry((i), (f), (b), (v), (sub), __LINE__)

static void test_bad_fields(void)
{
    uint8_t *e;
    uint64_t cmds_raw = sizeof COMMANDS - 1;
    /* Absurd sizes: the cap refuses before allocating. */
    PATCH_ENTRY(S_CMDS, T_ENT_RAW, 8, UINT64_C(1) << 60,
                "scratch.glcap: section 3 (COMMAND_STREAM): uncompressed size 1152921504606846976 "
                "bytes exceeds the limit of 4294967296 bytes");
    PATCH_ENTRY(S_CMDS, T_ENT_RAW, 8, UINT64_MAX, "exceeds the limit");
    PATCH_ENTRY(S_CMDS, T_ENT_STORED, 8, UINT64_C(1) << 62,
                "section 3 (COMMAND_STREAM): stored bytes (offset");
    PATCH_ENTRY(S_CMDS, T_ENT_STORED, 8, UINT64_MAX, "lie outside");
    PATCH_ENTRY(S_CMDS, T_ENT_OFFSET, 8, UINT64_MAX - 2, "lie outside");
    PATCH_ENTRY(S_CMDS, T_ENT_OFFSET, 8, 10, "lie outside"); /* inside the header */
    PATCH_ENTRY(S_CMDS, T_ENT_OFFSET, 8, test_get(g_img + T_HDR_TABLE_OFF, 8) - 10,
                "overlap the section table");
    /* Wrong sizes of the uncompressed data, checksums left as they are. */
    char expect[200];
    snprintf(expect, sizeof expect, "its frame header records %d bytes, the table %d",
             (int)cmds_raw, (int)cmds_raw - 1);
    PATCH_ENTRY(S_CMDS, T_ENT_RAW, 8, cmds_raw - 1, expect);
    uint64_t blob_raw = sizeof BLOB - 1;
    PATCH_ENTRY(S_BLOB, T_ENT_RAW, 8, blob_raw - 1,
                "section 6 (RESOURCE_BLOB, id 1): zstd decompression failed: more data than the "
                "recorded uncompressed size");
    snprintf(expect, sizeof expect, "decompressed to %d bytes, the table records %d",
             (int)blob_raw, (int)blob_raw + 1);
    PATCH_ENTRY(S_BLOB, T_ENT_RAW, 8, blob_raw + 1, expect);
    PATCH_ENTRY(S_BLOB, T_ENT_RAW, 8, 0, "more data than the recorded");
    PATCH_ENTRY(S_CMDS, T_ENT_RAW_SUM, 8, 12345,
                "section 3 (COMMAND_STREAM): checksum of the uncompressed data mismatch");
    PATCH_ENTRY(S_CTX, T_ENT_RAW, 8, 21, "uncompressed, but stored and raw sizes");
    PATCH_ENTRY(S_CTX, T_ENT_RAW_SUM, 8, 1, "uncompressed, but stored and raw sizes");
    PATCH_ENTRY(S_STATE, T_ENT_STORED, 8, 0, "zstd-compressed with no stored bytes");
    PATCH_ENTRY(S_META, T_ENT_TYPE, 2, 0, "section 0 (UNKNOWN): invalid section type 0");
    /* Two sections claim the same bytes; two share (type, id). */
    e = test_entry(g_img, S_META);
    PATCH_ENTRY(S_CTX, T_ENT_OFFSET, 8, test_get(e + T_ENT_OFFSET, 8) + 1, "overlap those of section");
    PATCH_ENTRY(S_IMAGE, T_ENT_TYPE, 2, GLCAP_SECTION_CONTEXTS,
                "section 5 (CONTEXTS): duplicates section 1");

    /* Header fields (checksums refreshed). */
    struct {
        int field, bytes;
        uint64_t value;
        const char *sub;
    } hp[] = {
        {T_HDR_SIZE, 4, 63, "corrupt header (header size 63)"},
        {T_HDR_SIZE, 4, 1u << 20, "corrupt header (header size 1048576)"},
        {T_HDR_ENTRY_SIZE, 4, 47, "section table entry size 47"},
        {T_HDR_ENTRY_SIZE, 4, 0, "section table entry size 0"},
        {T_HDR_COUNT, 4, UINT32_MAX, "is larger than the limit"},
        {T_HDR_COUNT, 4, 8, "lies outside"},
        {T_HDR_COUNT, 4, 6, "section table checksum mismatch"}, /* sum over 7, stored over 6 */
        {T_HDR_TABLE_OFF, 8, UINT64_MAX - 100, "lies outside"},
        {T_HDR_TABLE_OFF, 8, 8, "lies outside"},
        {T_HDR_FILE_SIZE, 8, UINT64_MAX, "truncated ("},
        {T_HDR_FILE_SIZE, 8, 64, "trailing data"},
    };
    for (size_t i = 0; i < sizeof hp / sizeof hp[0]; i++) {
        uint8_t *img = copy_img();
        test_put(img + hp[i].field, hp[i].bytes, hp[i].value);
        /* refresh the header checksum only: the table stays as written */
        test_put(img + T_HDR_SUM, 8, XXH3_64bits(img, 56));
        expect_failure(img, g_size, hp[i].sub, (int)i);
        free(img);
    }

    /* Appended bytes. */
    uint8_t *img = malloc(g_size + 1);
    REQUIRE(img);
    memcpy(img, g_img, g_size);
    img[g_size] = 0;
    snprintf(expect, sizeof expect, "has %zu bytes but its header records %zu (trailing data",
             g_size + 1, g_size);
    EXPECT_FAILURE(img, g_size + 1, expect);
    free(img);
}

/* Damaged compressed payload whose stored checksum was recomputed: zstd
 * itself must reject it or the raw checksum must catch it. */
static void test_zstd_payload_damage(void)
{
    uint8_t *img = copy_img();
    uint8_t *e = test_entry(img, S_CMDS);
    uint64_t off = test_get(e + T_ENT_OFFSET, 8), n = test_get(e + T_ENT_STORED, 8);
    int accepted = 0;
    for (uint64_t i = 0; i < n; i++) {
        static const uint8_t vals[] = {0x00, 0xff, 0x80, 0x01};
        for (size_t v = 0; v < sizeof vals; v++) {
            uint8_t old = img[off + i];
            if (old == vals[v])
                continue;
            img[off + i] = vals[v];
            test_refresh_stored_checksum(img, S_CMDS);
            test_refresh_checksums(img, g_size);
            char msg[512] = "";
            /* Some header bytes of a zstd frame (window size, for one) can
             * change without changing the output: then the file is valid
             * and must give exactly the original data. */
            if (try_image(img, g_size, msg, sizeof msg) == 0) {
                char err[512];
                test_write_file(g_scratch, img, g_size);
                glcap_reader *r = glcap_reader_open(g_scratch, NULL, err, sizeof err);
                void *data = NULL;
                size_t size = 0;
                if (!r || glcap_reader_load(r, S_CMDS, &data, &size) != 0 ||
                    size != sizeof COMMANDS - 1 || memcmp(data, COMMANDS, size) != 0)
                    accepted++;
                free(data);
                glcap_reader_close(r);
            }
            img[off + i] = old;
        }
    }
    CHECK(accepted == 0);
    free(img);
}

/* glcap_reader_check_stored: damage to a compressed section's stored bytes is found without
 * decompressing; content that only decompression shows wrong (the stored checksum refreshed) is
 * left to load and read, which report it. */
static void test_check_stored(void)
{
    uint8_t *img = copy_img();
    uint8_t *e = test_entry(img, S_BLOB);
    uint64_t off = test_get(e + T_ENT_OFFSET, 8), n = test_get(e + T_ENT_STORED, 8);
    char err[512];
    test_write_file(g_scratch, img, g_size);
    glcap_reader *r = glcap_reader_open(g_scratch, NULL, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_check_stored(r, S_BLOB) == 0);
    glcap_reader_close(r);

    img[off + n / 2] ^= 0x20;
    test_write_file(g_scratch, img, g_size);
    r = glcap_reader_open(g_scratch, NULL, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_check_stored(r, S_BLOB) != 0);
    CHECK_CONTAINS(glcap_reader_error(r), "section 6 (RESOURCE_BLOB, id 1): checksum mismatch (file corrupt)");
    glcap_reader_close(r);

    test_refresh_stored_checksum(img, S_BLOB);
    test_refresh_checksums(img, g_size);
    test_write_file(g_scratch, img, g_size);
    r = glcap_reader_open(g_scratch, NULL, err, sizeof err);
    REQUIRE(r);
    void *data = NULL;
    size_t size = 0;
    int rc = glcap_reader_load(r, S_BLOB, &data, &size);
    bool same = rc == 0 && size == sizeof BLOB - 1 && memcmp(data, BLOB, size) == 0;
    CHECK(glcap_reader_check_stored(r, S_BLOB) == 0);
    CHECK(!same); /* the flipped bit changed the content or broke the frame */
    free(data);
    glcap_reader_close(r);
    free(img);
}

/* Random field damage with checksums recomputed, deterministic seed: the
 * structural checks must hold on their own. Crashes and sanitizer reports
 * are the failure mode looked for. */
static void test_random_damage(void)
{
    uint32_t x = 0x9e3779b9u;
    int opened = 0;
    for (int iter = 0; iter < 4000; iter++) {
        uint8_t *img = copy_img();
        int edits = 1 + iter % 4;
        for (int k = 0; k < edits; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            /* Mostly header and table, where structure lives. */
            uint64_t toff = test_get(g_img + T_HDR_TABLE_OFF, 8);
            size_t pos;
            switch (x % 3) {
            case 0: pos = (x >> 8) % 56; break;
            case 1: pos = (size_t)(toff + (x >> 8) % (g_size - toff)); break;
            default: pos = (x >> 8) % g_size; break;
            }
            img[pos] = (uint8_t)(x >> 3);
        }
        for (uint32_t s = 0; s < S_COUNT; s++) {
            uint8_t *e = test_entry(g_img, s); /* original bounds: always valid */
            uint64_t off = test_get(e + T_ENT_OFFSET, 8), n = test_get(e + T_ENT_STORED, 8);
            test_put(test_entry(g_img, s) - g_img + img + T_ENT_STORED_SUM, 8,
                     XXH3_64bits(img + off, (size_t)n));
        }
        test_refresh_checksums(img, g_size);
        char msg[512] = "";
        if (try_image(img, g_size, msg, sizeof msg) == 0)
            opened++;
        free(img);
    }
    printf("random damage: %d of 4000 damaged images still fully readable\n", opened);
}

static void test_not_files(void)
{
    char msg[512] = "";
    CHECK(try_all(g_dir, msg, sizeof msg) == 1);
    CHECK_CONTAINS(msg, "is a directory, not a .glcap file");
    char *missing = test_path(g_dir, "missing.glcap");
    CHECK(try_all(missing, msg, sizeof msg) == 1);
    CHECK_CONTAINS(msg, "missing.glcap: cannot open: No such file or directory");
    free(missing);
    char err[64];
    CHECK(glcap_reader_open(NULL, NULL, err, sizeof err) == NULL && err[0]);
    /* A tiny error buffer truncates the message but never overflows. */
    char tiny[8];
    CHECK(glcap_reader_open(g_dir, NULL, tiny, sizeof tiny) == NULL && strlen(tiny) == 7);
    CHECK(glcap_reader_open(g_dir, NULL, NULL, 0) == NULL);
}

int main(void)
{
    g_dir = test_tmpdir();
    g_path = test_path(g_dir, "small.glcap");
    g_scratch = test_path(g_dir, "scratch.glcap");
    make_small();
    test_pristine();
    test_truncation();
    test_bit_flips();
    test_magic_and_version();
    test_newer_minor();
    test_bad_fields();
    test_zstd_payload_damage();
    test_check_stored();
    test_random_damage();
    test_not_files();
    free(g_img);
    free(g_path);
    free(g_scratch);
    test_tmpdir_remove(g_dir);
    return test_finish("test_glcap_corrupt");
}
