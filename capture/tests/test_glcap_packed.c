/* test_glcap_packed.c: the packed command stream (compression 2, format 1.1) gives back the 1.0
 * record bytes exactly, whatever the records (predicted and unpredicted headers, varints that are
 * not the shortest, bodies shorter than a header, records larger than the packer's chunk, a stream
 * packed in pieces), is smaller where the header is predicted, goes through the container, and
 * fails with a one-line message on malformed input. */
#include "capture/glcap_packed.h"
#include "glcap_test_util.h"

struct buf {
    uint8_t *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
    if (!n)
        return;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        REQUIRE(b->p);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static size_t uvar(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static uint64_t g_records;   /* records sample_stream wrote */

/* A 1.0 record: u32 body size | uvar cmd | uvar seq | uvar ctx | uvar thread | fields. */
static void record(struct buf *b, uint64_t cmd, uint64_t seq, uint64_t ctx, uint64_t tid, const void *fields,
                   size_t nf)
{
    uint8_t h[40];
    size_t k = uvar(h, cmd);
    k += uvar(h + k, seq);
    k += uvar(h + k, ctx);
    k += uvar(h + k, tid);
    uint32_t body = (uint32_t)(k + nf);
    g_records++;
    put(b, &body, 4);
    put(b, h, k);
    put(b, fields, nf);
}

static void raw_record(struct buf *b, const void *body, uint32_t n)
{
    g_records++;
    put(b, &n, 4);
    put(b, body, n);
}

/* Packs `in` with chunks of out_cap bytes (records that do not fit go through
 * glcap_pack_record, as the shim does), in pieces of at most `piece` input bytes cut at record
 * boundaries. */
static struct buf pack(const struct buf *in, size_t out_cap, size_t piece, uint64_t *records)
{
    struct buf out = {0};
    glcap_pack_state st;
    glcap_pack_init(&st);
    uint8_t *chunk = malloc(out_cap);
    REQUIRE(chunk);
    *records = 0;
    size_t off = 0;
    while (off < in->n) {
        /* The piece: whole records up to `piece` bytes (at least one). */
        size_t end = off;
        while (end < in->n) {
            uint32_t body;
            memcpy(&body, in->p + end, 4);
            if (end > off && end + 4 + body - off > piece)
                break;
            end += 4 + (size_t)body;
        }
        size_t o = off;
        while (o < end) {
            size_t olen = 0;
            size_t used = glcap_pack_block(&st, in->p + o, end - o, chunk, out_cap, &olen, records);
            put(&out, chunk, olen);
            o += used;
            if (used)
                continue;
            uint32_t body;
            memcpy(&body, in->p + o, 4);
            uint8_t hdr[GLCAP_PACK_HDR_MAX];
            size_t fields;
            size_t h = glcap_pack_record(&st, in->p + o + 4, body, hdr, &fields);
            put(&out, hdr, h);
            put(&out, in->p + o + 4 + fields, body - fields);
            o += 4 + (size_t)body;
            ++*records;
        }
        off = end;
    }
    free(chunk);
    return out;
}

static void check_round_trip(const struct buf *in, const struct buf *packed)
{
    char err[256];
    uint64_t n = 0;
    CHECK(glcap_unpacked_size(packed->p, packed->n, &n, err, sizeof err) == 0);
    CHECK(n == in->n);
    uint8_t *back = malloc(n + 1);
    REQUIRE(back);
    CHECK(glcap_unpack(packed->p, packed->n, back, n, err, sizeof err) == 0);
    CHECK(n == in->n && memcmp(back, in->p, in->n) == 0);
    free(back);
}

static struct buf sample_stream(void)
{
    struct buf in = {0};
    const float f4[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    uint8_t tex[3] = {0xe1, 0x1b, 1};
    /* A first record with seq 0 (predicted), then a run of predicted headers. */
    record(&in, 300, 0, 1, 1, tex, 3);
    for (uint64_t s = 1; s < 200; s++)
        record(&in, 100 + s % 3, s, 1, 1, f4, s % 3 == 0 ? sizeof f4 : 2);
    /* Seq and the context and thread grow past varint length boundaries (the packer's expected
     * header bytes carry, lengthen, then no longer fit in 8 bytes). */
    for (uint64_t s = 16370; s < 16400; s++)
        record(&in, 100 + s % 3, s, 300, 70000, f4, s % 5);
    for (uint64_t s = 2097140; s < 2097160; s++)
        record(&in, 100 + s % 3, s, 300, 70000, f4, s % 5);
    record(&in, 7, 1000, 1, 1, NULL, 0);          /* seq jumps, the context changes: raw */
    record(&in, 7, 1001, 1, 1, NULL, 0);
    record(&in, 7, 1000, 1, 1, NULL, 0);          /* seq jumps back: mode 2 */
    record(&in, 7, 1001, 2, 1, NULL, 0);          /* context changes: mode 1 */
    record(&in, 7, 5, 3, 9, f4, 4);               /* nothing predicted: raw */
    record(&in, 8, 6, 3, 9, NULL, 0);             /* predicted again after a raw one */
    record(&in, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, f4, 16);
    record(&in, 0, 0, UINT64_MAX, UINT64_MAX, NULL, 0);   /* seq wraps to 0 */
    /* Not the shortest varint (cmd 5 as 0x85 0x00): kept verbatim. */
    raw_record(&in, "\x85\x00\x08\x03\x09zz", 7);
    record(&in, 9, 9, 3, 9, "a", 1);              /* predicted from the verbatim one's header */
    raw_record(&in, "\x05\x0a", 2);               /* shorter than a header */
    raw_record(&in, "", 0);
    /* A varint longer than 64 bits. */
    raw_record(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02\x00\x00\x00", 13);
    /* A record larger than the packer's chunk (a big upload). */
    size_t big = 100000;
    uint8_t *blob = malloc(big);
    REQUIRE(blob);
    for (size_t i = 0; i < big; i++)
        blob[i] = (uint8_t)(i * 7);
    record(&in, 400, 10, 3, 9, blob, big);
    record(&in, 401, 11, 3, 9, blob, 10);
    free(blob);
    return in;
}

static void test_round_trips(void)
{
    g_records = 0;
    struct buf in = sample_stream();
    uint64_t whole_records = 0;
    struct buf whole = pack(&in, in.n + in.n / 4 + 64, in.n, &whole_records);
    check_round_trip(&in, &whole);
    CHECK(whole_records == g_records && g_records == 265);
    static const size_t caps[] = {64, 1000, 4096, 65536};
    static const size_t pieces[] = {1, 100, 5000, SIZE_MAX};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++)
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            uint64_t records = 0;
            struct buf b = pack(&in, caps[c], pieces[p], &records);
            CHECK(records == whole_records);
            /* Same bytes however it was cut: the state carries across pieces. */
            CHECK(b.n == whole.n && memcmp(b.p, whole.p, b.n) == 0);
            free(b.p);
        }
    free(in.p);
    free(whole.p);
}

static void test_sizes(void)
{
    /* A run of predicted headers costs tag + cmd + fields; the 1.0 record 4 + cmd + seq + ctx +
     * thread + fields. */
    struct buf in = {0};
    const uint8_t f17[17] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    for (uint64_t s = 0; s < 1000; s++)
        record(&in, 1234, 100000 + s, 1, 1, f17, 17);
    uint64_t records = 0;
    struct buf out = pack(&in, 1 << 16, SIZE_MAX, &records);
    /* The first is kept verbatim (neither its seq nor its context and thread are predicted from
     * the initial state): tag + body; every other one tag + cmd + fields. */
    CHECK(in.n == 1000 * (4 + 2 + 3 + 1 + 1 + 17));
    CHECK(out.n == (1 + 2 + 3 + 1 + 1 + 17) + 999 * (1 + 2 + 17));
    check_round_trip(&in, &out);
    free(in.p);
    free(out.p);
}

static void expect_bad(const void *packed, size_t n, const char *sub)
{
    char err[256] = "";
    uint64_t size = 12345;
    int rc = glcap_unpacked_size(packed, n, &size, err, sizeof err);
    CHECK(rc == -1);
    CHECK_CONTAINS(err, sub);
    CHECK(strchr(err, '\n') == NULL);
    /* glcap_unpack refuses it as well, into any buffer. */
    uint8_t out[256];
    err[0] = 0;
    CHECK(glcap_unpack(packed, n, out, sizeof out, err, sizeof err) == -1);
    CHECK(err[0] != 0);
}

static void test_malformed(void)
{
    expect_bad("\x80", 1, "packed record 0 at byte 0: tag cut off");
    expect_bad("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11, "tag cut off");
    expect_bad("\x13", 1, "header cut off");             /* mode 3, no cmd */
    expect_bad("\x12\x05", 2, "header cut off");         /* mode 2, no seq */
    expect_bad("\x11\x05\x01", 3, "header cut off");     /* mode 1, ctx but no thread */
    expect_bad("\x0f\x05", 2, "field bytes run past");   /* mode 3, 3 field bytes, none there */
    expect_bad("\x03\x05\x14\x00", 4, "packed record 1 at byte 2: a 5-byte body runs past");
    /* One record of 8 unpacked bytes, into too small and too large an output. */
    uint8_t out[4];
    char err[128];
    CHECK(glcap_unpack((const uint8_t *)"\x03\x05", 2, out, sizeof out, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "unpacks past its size");
    uint8_t big[16];
    CHECK(glcap_unpack((const uint8_t *)"\x03\x05", 2, big, sizeof big, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "unpacks to 8 bytes, not 16");
    uint64_t n = 1;
    CHECK(glcap_unpacked_size(NULL, 0, &n, err, sizeof err) == 0 && n == 0);
}

/* What the shim's writer does with the recorder's packed blocks (glcap_packed_scan): counts the
 * records and their 1.0 bytes and leaves the state a packer goes on from, for every record kind of
 * the sample, in one call or record by record; a padded 5-byte tag (the recorder's form for a
 * record over 64 KiB) reads back; glcap_packed_next gives each record's header. */
static void test_scan(void)
{
    g_records = 0;
    struct buf in = sample_stream();
    uint64_t records = 0;
    struct buf packed = pack(&in, 1 << 20, SIZE_MAX, &records);
    glcap_pack_state st;
    glcap_pack_init(&st);
    uint64_t n = 0, bytes = 0;
    char err[256];
    CHECK(glcap_packed_scan(&st, packed.p, packed.n, &n, &bytes, err, sizeof err) == 0);
    CHECK(n == g_records && bytes == in.n);
    /* Scanned in pieces cut at every record: the same counts and end state. */
    glcap_pack_state st2;
    glcap_pack_init(&st2);
    uint64_t n2 = 0, bytes2 = 0, seqs_ok = 1;
    size_t off = 0, in_off = 0;
    while (off < packed.n) {
        glcap_pack_state peek = st2;
        glcap_packed_rec r;
        size_t k = glcap_packed_next(&peek, packed.p + off, packed.p + packed.n, &r, n2, off, err, sizeof err);
        REQUIRE(k);
        uint32_t body;
        memcpy(&body, in.p + in_off, 4);
        seqs_ok &= r.body == body;
        CHECK(glcap_packed_scan(&st2, packed.p + off, k, &n2, &bytes2, err, sizeof err) == 0);
        CHECK(st2.seq == peek.seq && st2.ctx == peek.ctx && st2.tid == peek.tid);
        off += k;
        in_off += 4 + (size_t)body;
    }
    CHECK(seqs_ok && n2 == n && bytes2 == bytes);
    CHECK(st2.seq == st.seq && st2.ctx == st.ctx && st2.tid == st.tid);
    /* A packer that goes on from the scanned state predicts the next record from the last one. */
    struct buf more = {0};
    record(&more, 5, st.seq + 1, st.ctx, st.tid, "xy", 2);
    uint8_t out[64];
    size_t olen = 0;
    uint64_t c = 0;
    CHECK(glcap_pack_block(&st, more.p, more.n, out, sizeof out, &olen, &c) == more.n && c == 1);
    CHECK(olen == 1 + 1 + 2 && out[0] == (2 << 2 | 3));
    free(more.p);
    /* A padded tag: mode 3, 2 field bytes, as 5 bytes. */
    const uint8_t padded[] = {0x8b, 0x80, 0x80, 0x80, 0x00, 0x05, 'a', 'b'};
    glcap_pack_init(&st);
    n = bytes = 0;
    CHECK(glcap_packed_scan(&st, padded, sizeof padded, &n, &bytes, err, sizeof err) == 0);
    CHECK(n == 1 && bytes == 4 + 4 + 2 && st.seq == 0);
    uint8_t back[10];
    CHECK(glcap_unpack(padded, sizeof padded, back, sizeof back, err, sizeof err) == 0);
    CHECK(memcmp(back, "\x06\x00\x00\x00\x05\x00\x00\x00" "ab", 10) == 0);
    /* Cut off: one-line errors, as glcap_unpack's. */
    glcap_pack_init(&st);
    CHECK(glcap_packed_scan(&st, padded, 4, &n, &bytes, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "tag cut off");
    CHECK(glcap_packed_scan(&st, (const uint8_t *)"\x0f\x05", 2, &n, &bytes, err, sizeof err) == -1);
    CHECK_CONTAINS(err, "field bytes run past");
    free(in.p);
    free(packed.p);
}

/* Long runs of usual records (mode 3, a one-byte tag, a cmd of one or two bytes), which the scan
 * reads without a bounds test per record and sums once per run: across the seq lengths' edges
 * (2^7, 2^14: the 1.0 seq grows by a byte), with 0 to 31 field bytes, a cmd of three bytes, a
 * two-byte tag and a context change now and then in between, scanned whole and in pieces that end
 * near a run's end (where the scan goes one record at a time). */
static void test_scan_runs(void)
{
    g_records = 0;
    struct buf in = {0};
    uint8_t f[48];
    for (size_t i = 0; i < sizeof f; i++)
        f[i] = (uint8_t)(i * 7);
    uint64_t seq = 90;
    for (int i = 0; i < 20000; i++, seq++) {
        uint64_t cmd = i % 3 == 0 ? 5 : i % 3 == 1 ? 300 : 0x3ffe;
        size_t nf = (size_t)(i * 13) % 32;
        uint64_t ctx = 1;
        if (i % 4999 == 4998)
            cmd = 1u << 15;        /* a cmd of three bytes */
        if (i % 7001 == 7000)
            nf = 40;               /* a two-byte tag */
        if (i % 9000 == 8999)
            ctx = 2;               /* mode 1 or 0, then back */
        record(&in, cmd, seq, ctx, 3, f, nf);
    }
    uint64_t records = 0;
    struct buf packed = pack(&in, 1 << 20, SIZE_MAX, &records);
    CHECK(records == 20000);
    char err[256];
    for (size_t piece = 37;; piece *= 3) {
        if (piece > packed.n)
            piece = packed.n;
        /* Scanned in pieces of `piece` bytes, each taken on to the end of the record it cuts. */
        glcap_pack_state st;
        glcap_pack_init(&st);
        uint64_t n = 0, bytes = 0;
        size_t off = 0;
        while (off < packed.n) {
            size_t len = packed.n - off < piece ? packed.n - off : piece;
            /* Where the piece's last record ends: read one at a time (with a copy of the state). */
            glcap_pack_state w = st;
            size_t cut = 0;
            while (cut < len) {
                glcap_packed_rec r;
                size_t k = glcap_packed_next(&w, packed.p + off + cut, packed.p + packed.n, &r, 0, off + cut, err, sizeof err);
                REQUIRE(k);
                cut += k;
            }
            CHECK(glcap_packed_scan(&st, packed.p + off, cut, &n, &bytes, err, sizeof err) == 0);
            CHECK(st.seq == w.seq && st.ctx == w.ctx && st.tid == w.tid);
            off += cut;
        }
        CHECK(n == 20000 && bytes == in.n);
        CHECK(st.seq == seq - 1);
        if (piece == packed.n)
            break;
    }
    free(in.p);
    free(packed.p);
}

static int gather(void *user, const void *data, size_t size)
{
    put(user, data, size);
    return 0;
}

/* Through the container: a section written with compression 2 loads and reads as the 1.0 bytes. */
static void test_container(void)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "packed.glcap");
    struct buf in = sample_stream();
    uint64_t records = 0;
    struct buf packed = pack(&in, 1 << 16, SIZE_MAX, &records);
    char err[512];
    glcap_writer_options o = {.no_fsync = true};
    glcap_writer *w = glcap_writer_create(path, &o, err, sizeof err);
    REQUIRE(w);
    REQUIRE(glcap_writer_begin_section(w, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD_PACKED) == 0);
    /* In place (as the shim packs), then by copy; a reservation larger than a block is refused. */
    size_t room = 0;
    CHECK(glcap_writer_reserve(w, (size_t)1 << 20, &room) == NULL && room == 0);
    uint8_t *dst = glcap_writer_reserve(w, 10, &room);
    REQUIRE(dst && room >= 10);
    memcpy(dst, packed.p, 10);
    REQUIRE(glcap_writer_commit(w, 10) == 0);
    REQUIRE(glcap_writer_write(w, packed.p + 10, packed.n - 10) == 0);
    REQUIRE(glcap_writer_end_section(w) == 0);
    REQUIRE(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);

    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_version_major(r) == 1 && glcap_reader_version_minor(r) == 1);
    const glcap_section_info *s = glcap_reader_section(r, 0);
    CHECK(s->compression == GLCAP_COMPRESSION_ZSTD_PACKED && s->raw_size == packed.n && s->readable);
    CHECK(strcmp(glcap_compression_name(s->compression), "zstd-packed") == 0);
    void *data = NULL;
    size_t size = 0;
    CHECK(glcap_reader_load(r, 0, &data, &size) == 0);
    CHECK(size == in.n && data && memcmp(data, in.p, in.n) == 0 && ((uint8_t *)data)[size] == 0);
    free(data);
    struct buf streamed = {0};
    CHECK(glcap_reader_read(r, 0, gather, &streamed) == 0);
    CHECK(streamed.n == in.n && memcmp(streamed.p, in.p, in.n) == 0);
    CHECK(glcap_reader_read(r, 0, NULL, NULL) == 0);
    glcap_reader_close(r);

    /* A limit between the packed and the unpacked size: refused before allocating. */
    glcap_reader_options lim = {.max_section_size = packed.n + 1};
    r = glcap_reader_open(path, &lim, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_load(r, 0, &data, &size) == -1);
    CHECK_CONTAINS(glcap_reader_error(r), "COMMAND_STREAM): unpacked size");
    CHECK_MESSAGE(glcap_reader_error(r), path);
    glcap_reader_close(r);

    /* Reserving in an uncompressed section is an error (sticky, as every writer error). */
    unlink(path);
    w = glcap_writer_create(path, &o, err, sizeof err);
    REQUIRE(w);
    REQUIRE(glcap_writer_begin_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE) == 0);
    CHECK(glcap_writer_reserve(w, 10, &room) == NULL);
    CHECK_CONTAINS(glcap_writer_error(w), "reserve outside a compressed section");
    CHECK(glcap_writer_commit(w, 0) == -1);
    glcap_writer_destroy(w);

    /* A packed stream cut inside a record: a clean error naming the section. */
    unlink(path);
    w = glcap_writer_create(path, &o, err, sizeof err);
    REQUIRE(w);
    REQUIRE(glcap_writer_add_section(w, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD_PACKED, packed.p,
                                     packed.n - 3) == 0);
    REQUIRE(glcap_writer_finish(w) == 0);
    glcap_writer_destroy(w);
    r = glcap_reader_open(path, NULL, err, sizeof err);
    REQUIRE(r);
    CHECK(glcap_reader_load(r, 0, &data, &size) == -1);
    CHECK_CONTAINS(glcap_reader_error(r), "section 0 (COMMAND_STREAM): packed record");
    CHECK_CONTAINS(glcap_reader_error(r), "(file corrupt)");
    CHECK_MESSAGE(glcap_reader_error(r), path);
    CHECK(glcap_reader_read(r, 0, NULL, NULL) == -1);
    glcap_reader_close(r);

    free(streamed.p);
    free(in.p);
    free(packed.p);
    free(path);
    test_tmpdir_remove(dir);
}

int main(void)
{
    test_round_trips();
    test_sizes();
    test_malformed();
    test_scan();
    test_scan_runs();
    test_container();
    return test_finish("glcap_packed");
}
