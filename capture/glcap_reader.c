/* glcap_reader.c: validating, lazy reader of .glcap files.
 *
 * Open reads only the header and the section table, and checks every field
 * against the file size before anything is allocated or read from it.
 * Payloads are read with pread on demand (never mmap: a file truncated by
 * someone else while mapped would raise SIGBUS), hashed while they stream
 * by, and decompressed in 1 MiB steps, so memory use is the output plus a
 * constant. */
#include "capture/glcap_file.h"
#include "capture/glcap_packed.h"
#include "capture/glcap_format.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#define IN_CHUNK (1u << 20)
#define OUT_CHUNK (1u << 20)

struct glcap_reader {
    char *name;
    int fd;
    bool own_fd;
    uint64_t file_size;
    glcap_header hdr;
    glcap_section_info *sections;
    uint32_t count;
    uint32_t *by_key;  /* section indices sorted by (type, id), for find */
    uint64_t max_section_size;
    size_t in_chunk;   /* I/O buffer sizes: 1 MiB, less for small files */
    size_t out_chunk;
    glcap_note_fn note;
    void *note_user;

    /* Created on first use, reused by every section. */
    ZSTD_DCtx *dctx;
    uint8_t *inbuf;
    uint8_t *outbuf;
    XXH3_state_t *stored_hash;
    XXH3_state_t *raw_hash;

    char err[512];
};

static void vformat(char *buf, size_t size, const char *prefix, const char *fmt, va_list ap)
{
    if (size == 0)
        return;
    int n = snprintf(buf, size, "%s: ", prefix);
    if (n >= 0 && (size_t)n < size)
        vsnprintf(buf + n, size - (size_t)n, fmt, ap);
    /* One line, whatever a name or a library message contains. */
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
}

static int fail(glcap_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(glcap_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat(r->err, sizeof r->err, r->name, fmt, ap);
    va_end(ap);
    return -1;
}

static void note(glcap_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(glcap_reader *r, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vformat(buf, sizeof buf, r->name, fmt, ap);
    va_end(ap);
    if (r->note)
        r->note(r->note_user, buf);
    else
        fprintf(stderr, "note: %s\n", buf);
}

const char *glcap_reader_section_label(const glcap_reader *r, uint32_t index, char *buf,
                                       size_t buf_size)
{
    if (buf_size == 0)
        return buf;
    if (index >= r->count) {
        snprintf(buf, buf_size, "%s: section %" PRIu32, r->name, index);
        return buf;
    }
    const glcap_section_info *s = &r->sections[index];
    if (s->id != 0)
        snprintf(buf, buf_size, "%s: section %" PRIu32 " (%s, id %" PRIu32 ")", r->name, index,
                 glcap_section_type_name(s->type), s->id);
    else
        snprintf(buf, buf_size, "%s: section %" PRIu32 " (%s)", r->name, index,
                 glcap_section_type_name(s->type));
    return buf;
}

static int section_fail(glcap_reader *r, uint32_t index, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int section_fail(glcap_reader *r, uint32_t index, const char *fmt, ...)
{
    char label[300];
    glcap_reader_section_label(r, index, label, sizeof label);
    va_list ap;
    va_start(ap, fmt);
    /* label already holds the file name: format without another prefix */
    int n = snprintf(r->err, sizeof r->err, "%s: ", label);
    if (n >= 0 && (size_t)n < sizeof r->err)
        vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    for (char *p = r->err; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    return -1;
}

/* Reads exactly size bytes at off; a short read means the file changed
 * under us (sizes were validated against fstat at open). */
static int pread_all(glcap_reader *r, void *buf, size_t size, uint64_t off)
{
    uint8_t *p = buf;
    while (size > 0) {
        size_t want = size > (1u << 30) ? (1u << 30) : size;
        ssize_t n = pread(r->fd, p, want, (off_t)off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(r, "read failed at offset %" PRIu64 ": %s", off, strerror(errno));
        }
        if (n == 0)
            return fail(r, "file ended at offset %" PRIu64 " while reading (changed since it "
                           "was opened?)", off);
        p += n;
        size -= (size_t)n;
        off += (uint64_t)n;
    }
    return 0;
}

/* ---- open: header and table validation ---- */

static int check_header(glcap_reader *r)
{
    uint64_t fsize = r->file_size;
    uint8_t fixed[GLCAP_HEADER_SIZE_V1] = {0};
    size_t got = fsize < sizeof fixed ? (size_t)fsize : sizeof fixed;
    if (pread_all(r, fixed, got, 0) < 0)
        return -1;

    if (fsize < GLCAP_MAGIC_SIZE)
        return fail(r, "not a .glcap file (only %" PRIu64 " bytes)", fsize);
    if (memcmp(fixed, GLCAP_MAGIC, GLCAP_MAGIC_SIZE) != 0)
        return fail(r, "not a .glcap file (wrong magic)");
    if (fsize < GLCAP_HDR_FLAGS)
        return fail(r, "truncated (%" PRIu64 " bytes; the header alone has %d)", fsize,
                    GLCAP_HEADER_SIZE_V1);
    /* The version comes before the checksum: another major version may lay
     * out (and checksum) its header differently. */
    glcap_header *h = &r->hdr;
    glcap_header_decode(h, fixed);
    if (h->major != GLCAP_VERSION_MAJOR)
        return fail(r, "unsupported .glcap version %u.%u (this glreplay reads up to %d.%d)",
                    h->major, h->minor, GLCAP_VERSION_MAJOR, GLCAP_VERSION_MINOR);
    if (fsize < GLCAP_HEADER_SIZE_V1)
        return fail(r, "truncated (%" PRIu64 " bytes; the header alone has %d)", fsize,
                    GLCAP_HEADER_SIZE_V1);
    if (h->header_size < GLCAP_HEADER_SIZE_V1 || h->header_size > GLCAP_HEADER_SIZE_MAX ||
        h->header_size % 8 != 0)
        return fail(r, "corrupt header (header size %" PRIu32 ")", h->header_size);
    if (h->header_size > fsize)
        return fail(r, "truncated (%" PRIu64 " bytes; the header alone has %" PRIu32 ")", fsize,
                    h->header_size);

    uint8_t full[GLCAP_HEADER_SIZE_MAX];
    memcpy(full, fixed, sizeof fixed);
    if (h->header_size > sizeof fixed &&
        pread_all(r, full + sizeof fixed, h->header_size - sizeof fixed, sizeof fixed) < 0)
        return -1;
    h->header_checksum = glcap_rd64(full + h->header_size - 8);
    if (glcap_header_checksum(full, h->header_size) != h->header_checksum)
        return fail(r, "header checksum mismatch (file corrupt)");

    uint32_t unknown = h->flags & GLCAP_FLAGS_REQUIRED_MASK & ~GLCAP_FLAGS_KNOWN;
    if (unknown)
        return fail(r, "uses features this glreplay does not have (header flags 0x%08" PRIx32
                       ", format %u.%u); update glreplay", unknown, h->major, h->minor);
    if (fsize < h->file_size)
        return fail(r, "truncated (%" PRIu64 " of %" PRIu64 " bytes)", fsize, h->file_size);
    if (fsize > h->file_size)
        return fail(r, "has %" PRIu64 " bytes but its header records %" PRIu64
                       " (trailing data; file corrupt)", fsize, h->file_size);
    if (h->table_entry_size < GLCAP_ENTRY_SIZE_V1 || h->table_entry_size > GLCAP_ENTRY_SIZE_MAX)
        return fail(r, "corrupt header (section table entry size %" PRIu32 ")",
                    h->table_entry_size);
    uint64_t table_bytes = (uint64_t)h->section_count * h->table_entry_size;
    if (table_bytes > GLCAP_TABLE_SIZE_MAX)
        return fail(r, "corrupt header (section table of %" PRIu32 " entries, %" PRIu64
                       " bytes, is larger than the limit of %" PRIu64 ")",
                    h->section_count, table_bytes, (uint64_t)GLCAP_TABLE_SIZE_MAX);
    if (h->table_offset < h->header_size || h->table_offset > fsize ||
        table_bytes > fsize - h->table_offset)
        return fail(r, "corrupt header (section table at offset %" PRIu64 ", %" PRIu64
                       " bytes, lies outside the %" PRIu64 "-byte file)",
                    h->table_offset, table_bytes, fsize);
    return 0;
}

static int cmp_by_offset(const void *a, const void *b)
{
    const glcap_section_info *x = *(const glcap_section_info *const *)a;
    const glcap_section_info *y = *(const glcap_section_info *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_by_key(const void *a, const void *b)
{
    const glcap_section_info *x = *(const glcap_section_info *const *)a;
    const glcap_section_info *y = *(const glcap_section_info *const *)b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Sections must not overlap each other, the header or the table, and each
 * (type, id) names one section. */
static int check_layout(glcap_reader *r)
{
    uint32_t n = r->count;
    if (n == 0)
        return 0;
    glcap_section_info **order = malloc((size_t)n * sizeof *order);
    if (!order)
        return fail(r, "out of memory (section table of %" PRIu32 " entries)", n);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (r->sections[i].stored_size > 0)
            order[m++] = &r->sections[i];
    qsort(order, m, sizeof *order, cmp_by_offset);
    int rc = 0;
    for (uint32_t i = 1; i < m && rc == 0; i++)
        if (order[i - 1]->offset + order[i - 1]->stored_size > order[i]->offset)
            rc = section_fail(r, order[i]->index, "stored bytes overlap those of section %" PRIu32
                              " (file corrupt)", order[i - 1]->index);

    for (uint32_t i = 0; i < n; i++)
        order[i] = &r->sections[i];
    qsort(order, n, sizeof *order, cmp_by_key);
    for (uint32_t i = 1; i < n && rc == 0; i++)
        if (order[i - 1]->type == order[i]->type && order[i - 1]->id == order[i]->id)
            rc = section_fail(r, order[i]->index, "duplicates section %" PRIu32
                              " (same type and id; file corrupt)", order[i - 1]->index);
    if (rc == 0) {
        r->by_key = malloc((size_t)n * sizeof *r->by_key);
        if (!r->by_key)
            rc = fail(r, "out of memory (section table of %" PRIu32 " entries)", n);
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            r->by_key[i] = order[i]->index;
    }
    free(order);
    return rc;
}

static bool newer_minor(const glcap_reader *r)
{
    return r->hdr.minor > GLCAP_VERSION_MINOR;
}

static int check_entry(glcap_reader *r, glcap_section_info *s, const glcap_entry *e,
                       uint64_t table_bytes)
{
    uint32_t i = s->index;
    s->type = e->type;
    s->compression = e->compression;
    s->id = e->id;
    s->offset = e->offset;
    s->stored_size = e->stored_size;
    s->raw_size = e->raw_size;
    s->stored_checksum = e->stored_checksum;
    s->raw_checksum = e->raw_checksum;
    s->readable = true;

    if (e->type == 0)
        return section_fail(r, i, "invalid section type 0 (file corrupt)");
    bool type_known = e->type < GLCAP_SECTION_TYPE_END;
    if (!type_known && !newer_minor(r))
        return section_fail(r, i, "unknown section type %u in a format %u.%u file (file corrupt)",
                            e->type, r->hdr.major, r->hdr.minor);
    /* The packed stream came with 1.1: in a 1.0 file its number is unknown, i.e. corruption. */
    bool comp_known = e->compression < GLCAP_COMPRESSION_END &&
                      (e->compression != GLCAP_COMPRESSION_ZSTD_PACKED || r->hdr.minor >= 1);
    if (!comp_known && !newer_minor(r))
        return section_fail(r, i, "unknown compression method %u in a format %u.%u file "
                            "(file corrupt)", e->compression, r->hdr.major, r->hdr.minor);

    uint64_t fsize = r->file_size;
    uint64_t hsize = r->hdr.header_size;
    if (e->offset < hsize || e->offset > fsize || e->stored_size > fsize - e->offset)
        return section_fail(r, i, "stored bytes (offset %" PRIu64 ", %" PRIu64 " bytes) lie "
                            "outside the %" PRIu64 "-byte file's data area (file corrupt)",
                            e->offset, e->stored_size, fsize);
    uint64_t t0 = r->hdr.table_offset, t1 = t0 + table_bytes;
    if (e->stored_size > 0 && e->offset < t1 && e->offset + e->stored_size > t0)
        return section_fail(r, i, "stored bytes overlap the section table (file corrupt)");

    if (!type_known || !comp_known) {
        s->readable = false;
        note(r, "skipping section %" PRIu32 " (type %u, compression %u): written by a newer "
                "glreplay (format %u.%u; this one reads %d.%d)", i, e->type, e->compression,
             r->hdr.major, r->hdr.minor, GLCAP_VERSION_MAJOR, GLCAP_VERSION_MINOR);
        return 0;
    }
    if (e->compression == GLCAP_COMPRESSION_NONE &&
        (e->stored_size != e->raw_size || e->stored_checksum != e->raw_checksum))
        return section_fail(r, i, "uncompressed, but stored and raw sizes or checksums differ "
                            "(file corrupt)");
    if (e->compression != GLCAP_COMPRESSION_NONE && e->stored_size == 0)
        return section_fail(r, i, "zstd-compressed with no stored bytes (file corrupt)");
    return 0;
}

static int check_table(glcap_reader *r)
{
    const glcap_header *h = &r->hdr;
    uint64_t table_bytes = (uint64_t)h->section_count * h->table_entry_size;
    uint8_t *table = malloc(table_bytes ? (size_t)table_bytes : 1);
    if (!table)
        return fail(r, "out of memory (section table of %" PRIu64 " bytes)", table_bytes);
    int rc = pread_all(r, table, (size_t)table_bytes, h->table_offset);
    if (rc == 0 && glcap_checksum(table, (size_t)table_bytes) != h->table_checksum)
        rc = fail(r, "section table checksum mismatch (file corrupt)");
    if (rc == 0) {
        r->sections = calloc(h->section_count ? h->section_count : 1, sizeof *r->sections);
        if (!r->sections)
            rc = fail(r, "out of memory (section table of %" PRIu32 " entries)",
                      h->section_count);
    }
    for (uint32_t i = 0; rc == 0 && i < h->section_count; i++) {
        glcap_entry e;
        glcap_entry_decode(&e, table + (size_t)i * h->table_entry_size);
        r->sections[i].index = i;
        r->count = i + 1; /* labels of this entry may be printed */
        rc = check_entry(r, &r->sections[i], &e, table_bytes);
    }
    free(table);
    if (rc == 0)
        rc = check_layout(r);
    /* Buffers no larger than the largest section needs. */
    uint64_t max_stored = 1, max_raw = 1;
    for (uint32_t i = 0; rc == 0 && i < r->count; i++) {
        if (r->sections[i].stored_size > max_stored)
            max_stored = r->sections[i].stored_size;
        if (r->sections[i].raw_size > max_raw)
            max_raw = r->sections[i].raw_size;
    }
    r->in_chunk = max_stored < IN_CHUNK ? (size_t)max_stored : IN_CHUNK;
    r->out_chunk = max_raw < OUT_CHUNK ? (size_t)max_raw : OUT_CHUNK;
    return rc;
}

static glcap_reader *reader_new(const char *name, const glcap_reader_options *opts)
{
    glcap_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->fd = -1;
    r->name = strdup(name ? name : "(unnamed)");
    if (!r->name) {
        free(r);
        return NULL;
    }
    r->max_section_size = opts && opts->max_section_size ? opts->max_section_size
                                                         : GLCAP_DEFAULT_MAX_SECTION_SIZE;
    r->note = opts ? opts->note : NULL;
    r->note_user = opts ? opts->note_user : NULL;
    return r;
}

static glcap_reader *open_common(glcap_reader *r, char *err, size_t err_size)
{
    struct stat st;
    int rc = 0;
    if (fstat(r->fd, &st) < 0)
        rc = fail(r, "cannot stat: %s", strerror(errno));
    else if (S_ISDIR(st.st_mode))
        rc = fail(r, "is a directory, not a .glcap file");
    else if (!S_ISREG(st.st_mode))
        rc = fail(r, "not a regular file");
    if (rc == 0) {
        r->file_size = (uint64_t)st.st_size;
        rc = check_header(r);
    }
    if (rc == 0)
        rc = check_table(r);
    if (rc < 0) {
        if (err_size > 0)
            snprintf(err, err_size, "%s", r->err);
        glcap_reader_close(r);
        return NULL;
    }
    r->err[0] = '\0';
    return r;
}

glcap_reader *glcap_reader_open(const char *path, const glcap_reader_options *opts, char *err,
                                size_t err_size)
{
    if (err_size > 0)
        err[0] = '\0';
    glcap_reader *r = reader_new(path, opts);
    if (!r) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: out of memory", path ? path : "(null)");
        return NULL;
    }
    r->fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (r->fd < 0) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: cannot open: %s", r->name,
                     path ? strerror(errno) : "no path");
        glcap_reader_close(r);
        return NULL;
    }
    r->own_fd = true;
    return open_common(r, err, err_size);
}

glcap_reader *glcap_reader_open_fd(int fd, const char *name, const glcap_reader_options *opts,
                                   char *err, size_t err_size)
{
    if (err_size > 0)
        err[0] = '\0';
    glcap_reader *r = reader_new(name, opts);
    if (!r) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: out of memory", name ? name : "(unnamed)");
        return NULL;
    }
    r->fd = fd;
    return open_common(r, err, err_size);
}

void glcap_reader_close(glcap_reader *r)
{
    if (!r)
        return;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    ZSTD_freeDCtx(r->dctx);
    if (r->stored_hash)
        XXH3_freeState(r->stored_hash);
    if (r->raw_hash)
        XXH3_freeState(r->raw_hash);
    free(r->inbuf);
    free(r->outbuf);
    free(r->sections);
    free(r->by_key);
    free(r->name);
    free(r);
}

uint16_t glcap_reader_version_major(const glcap_reader *r) { return r->hdr.major; }
uint16_t glcap_reader_version_minor(const glcap_reader *r) { return r->hdr.minor; }
uint32_t glcap_reader_flags(const glcap_reader *r) { return r->hdr.flags; }
uint64_t glcap_reader_file_size(const glcap_reader *r) { return r->file_size; }
uint32_t glcap_reader_section_count(const glcap_reader *r) { return r->count; }
const char *glcap_reader_error(const glcap_reader *r) { return r->err; }

const glcap_section_info *glcap_reader_section(const glcap_reader *r, uint32_t index)
{
    return index < r->count ? &r->sections[index] : NULL;
}

int64_t glcap_reader_find(const glcap_reader *r, uint16_t type, uint32_t id)
{
    /* Binary search of the (type, id) order built at open; keys are unique. */
    uint64_t key = (uint64_t)type << 32 | id;
    uint32_t lo = 0, hi = r->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const glcap_section_info *s = &r->sections[r->by_key[mid]];
        uint64_t k = (uint64_t)s->type << 32 | s->id;
        if (k == key)
            return s->readable ? (int64_t)s->index : -1;
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* ---- payloads ---- */

static int ensure_buffers(glcap_reader *r, bool zstd, bool chunked)
{
    if (!r->inbuf && !(r->inbuf = malloc(r->in_chunk)))
        return fail(r, "out of memory");
    if (chunked && !r->outbuf && !(r->outbuf = malloc(r->out_chunk)))
        return fail(r, "out of memory");
    if (!r->stored_hash && !(r->stored_hash = XXH3_createState()))
        return fail(r, "out of memory");
    if (!r->raw_hash && !(r->raw_hash = XXH3_createState()))
        return fail(r, "out of memory");
    if (zstd && !r->dctx) {
        if (!(r->dctx = ZSTD_createDCtx()))
            return fail(r, "out of memory (zstd)");
        /* A frame asking for a bigger window is refused instead of
         * allocating it (our writer's levels use far less). */
        ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, 27);
    }
    return 0;
}

static int read_plain(glcap_reader *r, const glcap_section_info *s, uint8_t *dst,
                      glcap_chunk_fn fn, void *user)
{
    uint64_t sum;
    if (dst) {
        if (pread_all(r, dst, (size_t)s->stored_size, s->offset) < 0)
            return -1;
        sum = glcap_checksum(dst, (size_t)s->stored_size);
    } else {
        XXH3_64bits_reset(r->stored_hash);
        uint64_t off = s->offset, left = s->stored_size;
        while (left > 0) {
            size_t n = left < r->in_chunk ? (size_t)left : r->in_chunk;
            if (pread_all(r, r->inbuf, n, off) < 0)
                return -1;
            XXH3_64bits_update(r->stored_hash, r->inbuf, n);
            if (fn && fn(user, r->inbuf, n) != 0)
                return section_fail(r, s->index, "reading stopped by caller");
            off += n;
            left -= n;
        }
        sum = XXH3_64bits_digest(r->stored_hash);
    }
    if (sum != s->stored_checksum)
        return section_fail(r, s->index, "checksum mismatch (file corrupt)");
    return 0;
}

/* A compressed section is decompressed into a buffer that grows with what the data really
 * produces, up to the size the table records: a small file whose table claims gigabytes costs
 * only what its frames decompress to (a 300-byte capture made the loader allocate 2 GiB before
 * reading a byte; found by fuzz_capture_load). Plain sections are bounded by the file itself.
 * zstd writes straight into it (an OpenArena snapshot of 242 MB went through a 1 MiB buffer and
 * a copy: 7 % of a whole `glreplay model` run). */
struct grow_buf {
    uint8_t *p;
    size_t len, cap, want; /* cap counts the terminating NUL's byte */
    bool oom;
};

/* Room for at least one more byte (the recorded size allows), or false: full or out of memory. */
static bool grow_room(struct grow_buf *g)
{
    if (g->len + 1 < g->cap)
        return true;
    if (g->cap > g->want)
        return false; /* already the recorded size: anything more is an overflow */
    size_t nc = g->cap > g->want / 2 ? g->want + 1 : g->cap * 2;
    uint8_t *q = realloc(g->p, nc);
    if (!q) {
        g->oom = true;
        return false;
    }
    g->p = q;
    g->cap = nc;
    return true;
}

/* Decompresses into dst (raw_size bytes), into the growing buffer g, or, if both are NULL, in
 * chunks to fn. The stored bytes are hashed as they are read; after a zstd error the rest is
 * still hashed so that corruption is reported as such. */
static int read_zstd(glcap_reader *r, const glcap_section_info *s, uint8_t *dst,
                     struct grow_buf *g, glcap_chunk_fn fn, void *user)
{
    ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
    XXH3_64bits_reset(r->stored_hash);
    XXH3_64bits_reset(r->raw_hash);
    uint8_t scratch[64];
    char zbuf[160];
    uint64_t off = s->offset, left = s->stored_size, produced = 0;
    size_t last = 1; /* 0 once a frame is complete */
    const char *zerr = NULL;

    while (left > 0) {
        size_t n = left < r->in_chunk ? (size_t)left : r->in_chunk;
        if (pread_all(r, r->inbuf, n, off) < 0)
            return -1;
        XXH3_64bits_update(r->stored_hash, r->inbuf, n);
        if (off == s->offset && !zerr) {
            /* The frame header's content size (when recorded) must agree
             * with the table. zstd checks it in some output modes but not
             * in others; checking it here makes load and read agree. */
            unsigned long long fcs = ZSTD_getFrameContentSize(r->inbuf, n);
            if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != ZSTD_CONTENTSIZE_ERROR &&
                fcs != s->raw_size) {
                snprintf(zbuf, sizeof zbuf, "its frame header records %llu bytes, the table %"
                         PRIu64, fcs, s->raw_size);
                zerr = zbuf;
            }
        }
        off += n;
        left -= n;
        ZSTD_inBuffer in = {r->inbuf, n, 0};
        while (!zerr) {
            uint8_t *obase;
            size_t osize;
            if (g) {
                if (grow_room(g)) {
                    obase = g->p + g->len;
                    osize = g->cap - 1 - g->len;
                } else if (g->oom) {
                    zerr = "out of memory";
                    break;
                } else {
                    obase = scratch;
                    osize = sizeof scratch;
                }
            } else if (!dst) {
                obase = r->outbuf;
                osize = r->out_chunk;
            } else if (produced < s->raw_size) {
                obase = dst + produced;
                osize = (size_t)(s->raw_size - produced);
            } else { /* full: anything more is an overflow */
                obase = scratch;
                osize = sizeof scratch;
            }
            ZSTD_outBuffer out = {obase, osize, 0};
            size_t in_before = in.pos;
            size_t ret = ZSTD_decompressStream(r->dctx, &out, &in);
            if (ZSTD_isError(ret)) {
                zerr = ZSTD_getErrorName(ret);
                break;
            }
            /* A call that consumed and produced nothing only says "a next
             * frame would start here": keep the previous frame's status. */
            if (in.pos != in_before || out.pos > 0)
                last = ret;
            if (out.pos > s->raw_size - produced) {
                zerr = "more data than the recorded uncompressed size";
                break;
            }
            if (out.pos > 0) {
                XXH3_64bits_update(r->raw_hash, obase, out.pos);
                produced += out.pos;
                if (g)
                    g->len += out.pos;
                else if (!dst && fn && fn(user, obase, out.pos) != 0)
                    return section_fail(r, s->index, "reading stopped by caller");
            }
            if (in.pos == in.size && out.pos < out.size)
                break; /* input used up and nothing left to flush */
            if (out.pos == 0 && in.pos == in_before) {
                zerr = "decoder made no progress";
                break;
            }
        }
    }

    if (XXH3_64bits_digest(r->stored_hash) != s->stored_checksum)
        return section_fail(r, s->index, "checksum mismatch (file corrupt)");
    if (zerr)
        return section_fail(r, s->index, "zstd decompression failed: %s (file corrupt)", zerr);
    if (last != 0)
        return section_fail(r, s->index, "compressed data end inside a zstd frame (file corrupt)");
    if (produced != s->raw_size)
        return section_fail(r, s->index, "decompressed to %" PRIu64 " bytes, the table records %"
                            PRIu64 " (file corrupt)", produced, s->raw_size);
    if (XXH3_64bits_digest(r->raw_hash) != s->raw_checksum)
        return section_fail(r, s->index, "checksum of the uncompressed data mismatch "
                            "(file corrupt)");
    return 0;
}

static const glcap_section_info *readable_section(glcap_reader *r, uint32_t index)
{
    if (index >= r->count) {
        fail(r, "no section %" PRIu32 " (the file has %" PRIu32 ")", index, r->count);
        return NULL;
    }
    const glcap_section_info *s = &r->sections[index];
    if (!s->readable) {
        section_fail(r, index, "cannot be read by this glreplay (type %u, compression %u, "
                     "format %u.%u)", s->type, s->compression, r->hdr.major, r->hdr.minor);
        return NULL;
    }
    return s;
}

static int load_growing(glcap_reader *r, const glcap_section_info *s, void **data, size_t *size)
{
    if (ensure_buffers(r, true, false) < 0)
        return -1;
    size_t want = (size_t)s->raw_size;
    uint64_t first = s->stored_size * 8 > (1u << 20) ? s->stored_size * 8 : (1u << 20);
    struct grow_buf g = { .want = want, .cap = first < want ? (size_t)first + 1 : want + 1 };
    g.p = malloc(g.cap);
    if (!g.p)
        return section_fail(r, s->index, "out of memory");
    if (read_zstd(r, s, NULL, &g, NULL, NULL) < 0) {
        free(g.p);
        if (g.oom)
            return section_fail(r, s->index, "out of memory for %" PRIu64 " bytes", s->raw_size);
        return -1;
    }
    g.p[g.len] = '\0';
    *data = g.p;
    *size = g.len;
    return 0;
}

/* A ZSTD_PACKED section: its zstd content (the packed records, checked against the table's raw
 * size and checksum), then the 1.0 records it unpacks to, bounded by the same size limit. */
static int load_packed(glcap_reader *r, const glcap_section_info *s, void **data, size_t *size)
{
    void *packed;
    size_t psize;
    if (load_growing(r, s, &packed, &psize) < 0)
        return -1;
    char perr[200];
    uint64_t usize = 0;
    int rc = glcap_unpacked_size(packed, psize, &usize, perr, sizeof perr);
    if (rc < 0) {
        free(packed);
        return section_fail(r, s->index, "%s (file corrupt)", perr);
    }
    if (usize > r->max_section_size || usize >= SIZE_MAX) {
        free(packed);
        return section_fail(r, s->index, "unpacked size %" PRIu64 " bytes exceeds the limit of %" PRIu64
                            " bytes (corrupt file, or raise the limit)", usize, r->max_section_size);
    }
    uint8_t *out = malloc((size_t)usize + 1);
    if (!out) {
        free(packed);
        return section_fail(r, s->index, "out of memory for %" PRIu64 " bytes", usize);
    }
    rc = glcap_unpack(packed, psize, out, usize, perr, sizeof perr);
    free(packed);
    if (rc < 0) {
        free(out);
        return section_fail(r, s->index, "%s (file corrupt)", perr);
    }
    out[usize] = '\0';
    *data = out;
    *size = (size_t)usize;
    return 0;
}

int glcap_reader_load(glcap_reader *r, uint32_t index, void **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    r->err[0] = '\0';
    const glcap_section_info *s = readable_section(r, index);
    if (!s)
        return -1;
    if (s->raw_size > r->max_section_size || s->raw_size >= SIZE_MAX)
        return section_fail(r, index, "uncompressed size %" PRIu64 " bytes exceeds the limit of %"
                            PRIu64 " bytes (corrupt file, or raise the limit)", s->raw_size,
                            r->max_section_size);
    if (s->compression == GLCAP_COMPRESSION_ZSTD_PACKED)
        return load_packed(r, s, data, size);
    bool zstd = s->compression == GLCAP_COMPRESSION_ZSTD;
    if (zstd)
        return load_growing(r, s, data, size);
    if (ensure_buffers(r, zstd, false) < 0)
        return -1;
    uint8_t *buf = malloc((size_t)s->raw_size + 1);
    if (!buf)
        return section_fail(r, index, "out of memory for %" PRIu64 " bytes", s->raw_size);
    int rc = read_plain(r, s, buf, NULL, NULL);
    if (rc < 0) {
        free(buf);
        return -1;
    }
    buf[s->raw_size] = '\0';
    *data = buf;
    *size = (size_t)s->raw_size;
    return 0;
}

int glcap_reader_check_stored(glcap_reader *r, uint32_t index)
{
    r->err[0] = '\0';
    const glcap_section_info *s = readable_section(r, index);
    if (!s)
        return -1;
    if (s->compression == GLCAP_COMPRESSION_NONE)
        return glcap_reader_read(r, index, NULL, NULL);
    if (ensure_buffers(r, false, false) < 0)
        return -1;
    XXH3_64bits_reset(r->stored_hash);
    for (uint64_t off = s->offset, left = s->stored_size; left > 0;) {
        size_t n = left < r->in_chunk ? (size_t)left : r->in_chunk;
        if (pread_all(r, r->inbuf, n, off) < 0)
            return -1;
        XXH3_64bits_update(r->stored_hash, r->inbuf, n);
        off += n;
        left -= n;
    }
    if (XXH3_64bits_digest(r->stored_hash) != s->stored_checksum)
        return section_fail(r, s->index, "checksum mismatch (file corrupt)");
    return 0;
}

int glcap_reader_read(glcap_reader *r, uint32_t index, glcap_chunk_fn fn, void *user)
{
    r->err[0] = '\0';
    const glcap_section_info *s = readable_section(r, index);
    if (!s)
        return -1;
    if (s->compression == GLCAP_COMPRESSION_ZSTD_PACKED) {
        /* Unpacking needs the previous record's header, so the section is unpacked whole and
         * then handed out in 1 MiB chunks. */
        void *data;
        size_t size;
        if (glcap_reader_load(r, index, &data, &size) < 0)
            return -1;
        int rc = 0;
        for (size_t off = 0; fn && off < size && rc == 0;) {
            size_t n = size - off < (1u << 20) ? size - off : (1u << 20);
            if (fn(user, (const uint8_t *)data + off, n) != 0)
                rc = section_fail(r, s->index, "reading stopped by caller");
            off += n;
        }
        free(data);
        return rc;
    }
    bool zstd = s->compression == GLCAP_COMPRESSION_ZSTD;
    if (ensure_buffers(r, zstd, true) < 0)
        return -1;
    return zstd ? read_zstd(r, s, NULL, NULL, fn, user) : read_plain(r, s, NULL, fn, user);
}

char *glcap_read_metadata(const char *path, char *err, size_t err_size)
{
    glcap_reader *rd = glcap_reader_open(path, NULL, err, err_size);
    if (!rd)
        return NULL;
    int64_t mi = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
    void *meta = NULL;
    size_t size = 0;
    if (mi < 0 || glcap_reader_load(rd, (uint32_t)mi, &meta, &size) != 0) {
        snprintf(err, err_size, "%s: %s", path, mi < 0 ? "no METADATA section" : glcap_reader_error(rd));
        glcap_reader_close(rd);
        return NULL;
    }
    glcap_reader_close(rd);
    return meta;   /* glcap_reader_load ends it with a NUL */
}

void *glcap_read_optional_section(const char *path, uint32_t type, uint32_t id, size_t *size, char *err,
                                  size_t err_size)
{
    *size = 0;
    if (err_size)
        err[0] = 0;
    glcap_reader *rd = glcap_reader_open(path, NULL, err, err_size);
    if (!rd)
        return NULL;
    int64_t i = glcap_reader_find(rd, type, id);
    void *data = NULL;
    if (i >= 0 && glcap_reader_load(rd, (uint32_t)i, &data, size) != 0) {
        snprintf(err, err_size, "%s: %s", path, glcap_reader_error(rd));
        data = NULL;
        *size = 0;
    }
    glcap_reader_close(rd);
    return data;
}
