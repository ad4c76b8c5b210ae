/* glcap_writer.c: streaming writer of .glcap files.
 *
 * Layout produced: header (written last, at offset 0), the sections in the
 * order they are added, then the section table. Compressed output goes
 * straight from zstd into one 1 MiB output buffer that is flushed to the
 * temporary file, so a section of any size costs constant memory.
 * Writes to a compressed section are first gathered into a 128 KiB input block: a command stream
 * arrives as one write per ~20-byte record, and a ZSTD_compressStream2 call (and a hash update)
 * per record cost more than the record itself. zstd sees the same bytes, so the output is the
 * same stream as before. */
#include "capture/glcap_file.h"
#include "capture/glcap_format.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#define OUT_BUF_SIZE (1u << 20)
#define IN_BLOCK_SIZE (128u << 10)

struct glcap_writer {
    char *path;       /* final name */
    char *tmp_path;   /* written here, renamed on finish */
    int fd;
    int zstd_level;
    int section_level;  /* of the sections begun from now on; 0: zstd_level */
    bool no_fsync;
    bool failed;
    bool finished;

    uint64_t pos;     /* file offset of the next byte (buffered ones count) */
    uint8_t *obuf;
    size_t olen;
    uint8_t *ibuf;    /* input block of the open compressed section (IN_BLOCK_SIZE) */
    size_t ilen;

    glcap_entry *entries;
    uint32_t count;
    uint32_t cap;
    /* (type, id) keys already used, open addressing; 0 = empty slot. */
    uint64_t *keys;
    size_t keys_cap;  /* power of two, kept at most half full */

    bool in_section;
    glcap_entry cur;
    ZSTD_CCtx *cctx;
    XXH3_state_t *raw_hash;
    XXH3_state_t *stored_hash;

    char err[512];
};

static int fail(glcap_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the first error (later ones are consequences) and returns -1. */
static int fail(glcap_writer *w, const char *fmt, ...)
{
    if (!w->failed) {
        int n = snprintf(w->err, sizeof w->err, "%s: ", w->path);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < sizeof w->err)
            vsnprintf(w->err + n, sizeof w->err - (size_t)n, fmt, ap);
        va_end(ap);
        w->failed = true;
    }
    return -1;
}

static int write_all(glcap_writer *w, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t n = write(w->fd, p, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(w, "write failed: %s", strerror(errno));
        }
        if (n == 0)
            return fail(w, "write failed: no progress");
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

static int flush_out(glcap_writer *w)
{
    if (w->olen == 0)
        return 0;
    int rc = write_all(w, w->obuf, w->olen);
    w->olen = 0;
    return rc;
}

/* Appends bytes to the file through the output buffer. */
static int out_write(glcap_writer *w, const void *data, size_t size)
{
    if (size <= OUT_BUF_SIZE - w->olen) {
        memcpy(w->obuf + w->olen, data, size);
        w->olen += size;
        w->pos += size;
        return 0;
    }
    if (flush_out(w) < 0)
        return -1;
    if (size >= OUT_BUF_SIZE / 2) { /* big: skip the copy */
        w->pos += size;
        return write_all(w, data, size);
    }
    memcpy(w->obuf, data, size);
    w->olen = size;
    w->pos += size;
    return 0;
}

glcap_writer *glcap_writer_create(const char *path, const glcap_writer_options *opts,
                                  char *err, size_t err_size)
{
    if (err_size > 0)
        err[0] = '\0';
    glcap_writer *w = calloc(1, sizeof *w);
    if (!w) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: out of memory", path ? path : "(null)");
        return NULL;
    }
    w->fd = -1;
    w->path = strdup(path ? path : "");
    size_t tmp_len = strlen(w->path ? w->path : "") + 64;
    w->tmp_path = calloc(1, tmp_len); /* "" until created: nothing to unlink */
    w->obuf = malloc(OUT_BUF_SIZE);
    w->ibuf = malloc(IN_BLOCK_SIZE);
    w->raw_hash = XXH3_createState();
    w->stored_hash = XXH3_createState();
    w->zstd_level = opts && opts->zstd_level != 0 ? opts->zstd_level : GLCAP_DEFAULT_ZSTD_LEVEL;
    w->no_fsync = opts && opts->no_fsync;
    if (!w->path || !w->tmp_path || !w->obuf || !w->ibuf || !w->raw_hash || !w->stored_hash) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: out of memory", path ? path : "(null)");
        glcap_writer_destroy(w);
        return NULL;
    }
    if (!path || !path[0]) {
        if (err_size > 0)
            snprintf(err, err_size, "(no path): cannot create a capture file without a name");
        glcap_writer_destroy(w);
        return NULL;
    }
    if (w->zstd_level < ZSTD_minCLevel() || w->zstd_level > ZSTD_maxCLevel()) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: zstd level %d out of range %d..%d", path,
                     w->zstd_level, ZSTD_minCLevel(), ZSTD_maxCLevel());
        glcap_writer_destroy(w);
        return NULL;
    }

    /* A unique name next to the target, created with O_EXCL so another
     * writer's temporary file is never reused. Mode 0600: a capture holds the
     * program's data (shaders, textures, buffers, its window's images), and
     * files outside the shim's private directory must not be readable by
     * other users whatever the umask. */
    static unsigned counter;
    for (int attempt = 0; attempt < 1000; attempt++) {
        unsigned n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(w->tmp_path, tmp_len, "%s.tmp-%ld-%u", path, (long)getpid(), n);
        w->fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (w->fd >= 0 || errno != EEXIST)
            break;
    }
    if (w->fd < 0) {
        if (err_size > 0)
            snprintf(err, err_size, "%s: cannot create temporary file %s: %s", path,
                     w->tmp_path, strerror(errno));
        w->tmp_path[0] = '\0'; /* nothing to unlink */
        glcap_writer_destroy(w);
        return NULL;
    }

    /* Placeholder header; the real one is written by finish(). */
    uint8_t zero[GLCAP_HEADER_SIZE_V1] = {0};
    out_write(w, zero, sizeof zero);
    return w;
}

static uint64_t section_key(uint16_t type, uint32_t id)
{
    return (uint64_t)type << 32 | id; /* type != 0: never 0 */
}

static size_t key_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t i = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
    while (keys[i] != 0 && keys[i] != key)
        i = (i + 1) & (cap - 1);
    return i;
}

/* Adds key; returns 1 if it was new, 0 if already present, -1 if out of
 * memory. */
static int key_insert(glcap_writer *w, uint64_t key)
{
    if (((size_t)w->count + 1) * 2 > w->keys_cap) {
        size_t ncap = w->keys_cap ? w->keys_cap * 2 : 64;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        if (!nk)
            return -1;
        for (size_t i = 0; i < w->keys_cap; i++)
            if (w->keys[i])
                nk[key_slot(nk, ncap, w->keys[i])] = w->keys[i];
        free(w->keys);
        w->keys = nk;
        w->keys_cap = ncap;
    }
    size_t slot = key_slot(w->keys, w->keys_cap, key);
    if (w->keys[slot] == key)
        return 0;
    w->keys[slot] = key;
    return 1;
}

static bool type_known(uint16_t type)
{
    return type >= GLCAP_SECTION_METADATA && type < GLCAP_SECTION_TYPE_END;
}

int glcap_writer_begin_section(glcap_writer *w, uint16_t type, uint32_t id,
                               glcap_compression compression)
{
    if (w->failed)
        return -1;
    if (w->finished)
        return fail(w, "section added after finish");
    if (w->in_section)
        return fail(w, "section %u (%s) begun while section %u (%s) is still open",
                    w->count, glcap_section_type_name(type), w->count,
                    glcap_section_type_name(w->cur.type));
    if (!type_known(type))
        return fail(w, "section %u: unknown section type %u", w->count, type);
    if (compression != GLCAP_COMPRESSION_NONE && compression != GLCAP_COMPRESSION_ZSTD &&
        compression != GLCAP_COMPRESSION_ZSTD_PACKED)
        return fail(w, "section %u (%s): unknown compression %d", w->count,
                    glcap_section_type_name(type), (int)compression);
    if (w->count == UINT32_MAX / 2)
        return fail(w, "too many sections");
    int added = key_insert(w, section_key(type, id));
    if (added < 0)
        return fail(w, "out of memory");
    if (added == 0) {
        uint32_t first = 0;
        while (w->entries[first].type != type || w->entries[first].id != id)
            first++;
        return fail(w, "section %u (%s, id %u) duplicates section %u", w->count,
                    glcap_section_type_name(type), id, first);
    }
    if (w->count == w->cap) {
        uint32_t ncap = w->cap ? w->cap * 2 : 16;
        glcap_entry *ne = realloc(w->entries, (size_t)ncap * sizeof *ne);
        if (!ne)
            return fail(w, "out of memory");
        w->entries = ne;
        w->cap = ncap;
    }

    memset(&w->cur, 0, sizeof w->cur);
    w->cur.type = type;
    w->cur.id = id;
    w->cur.compression = (uint8_t)compression;
    w->cur.offset = w->pos;
    XXH3_64bits_reset(w->raw_hash);
    /* ZSTD_PACKED is zstd to this writer: the caller hands it bytes already packed
     * (capture/glcap_packed.h), which the table's raw size and checksum describe. */
    if (compression != GLCAP_COMPRESSION_NONE) {
        if (!w->cctx && !(w->cctx = ZSTD_createCCtx()))
            return fail(w, "out of memory (zstd)");
        ZSTD_CCtx_reset(w->cctx, ZSTD_reset_session_and_parameters);
        size_t r = ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel,
                                          w->section_level ? w->section_level : w->zstd_level);
        /* Our own checksums cover the data; no zstd frame checksum. One
         * thread: capture runs inside the host program. */
        if (!ZSTD_isError(r))
            r = ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 0);
        if (!ZSTD_isError(r))
            r = ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_nbWorkers, 0);
        if (ZSTD_isError(r))
            return fail(w, "zstd setup failed: %s", ZSTD_getErrorName(r));
        XXH3_64bits_reset(w->stored_hash);
    }
    w->ilen = 0;
    w->in_section = true;
    return 0;
}

/* Feeds data (NULL at the end) through zstd into the output buffer. */
static int compress_chunk(glcap_writer *w, const void *data, size_t size, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer in = {data, size, 0};
    for (;;) {
        if (w->olen == OUT_BUF_SIZE && flush_out(w) < 0)
            return -1;
        ZSTD_outBuffer out = {w->obuf, OUT_BUF_SIZE, w->olen};
        size_t r = ZSTD_compressStream2(w->cctx, &out, &in, mode);
        if (ZSTD_isError(r))
            return fail(w, "section %u (%s): zstd compression failed: %s", w->count,
                        glcap_section_type_name(w->cur.type), ZSTD_getErrorName(r));
        size_t produced = out.pos - w->olen;
        XXH3_64bits_update(w->stored_hash, w->obuf + w->olen, produced);
        w->olen = out.pos;
        w->pos += produced;
        w->cur.stored_size += produced;
        if (mode == ZSTD_e_end ? r == 0 : in.pos == in.size)
            return 0;
    }
}

/* Compresses the gathered input block. */
static int flush_block(glcap_writer *w)
{
    if (w->ilen == 0)
        return 0;
    XXH3_64bits_update(w->raw_hash, w->ibuf, w->ilen);
    int rc = compress_chunk(w, w->ibuf, w->ilen, ZSTD_e_continue);
    w->ilen = 0;
    return rc;
}

int glcap_writer_write(glcap_writer *w, const void *data, size_t size)
{
    if (w->failed)
        return -1;
    if (!w->in_section)
        return fail(w, "write outside a section");
    if (size == 0)
        return 0;
    if (!data)
        return fail(w, "write of %zu bytes from NULL", size);
    w->cur.raw_size += size;
    if (w->cur.compression != GLCAP_COMPRESSION_NONE) {
        if (size <= IN_BLOCK_SIZE - w->ilen) {
            memcpy(w->ibuf + w->ilen, data, size);
            w->ilen += size;
            return w->ilen == IN_BLOCK_SIZE ? flush_block(w) : 0;
        }
        if (flush_block(w) < 0)
            return -1;
        if (size < IN_BLOCK_SIZE) {
            memcpy(w->ibuf, data, size);
            w->ilen = size;
            return 0;
        }
        XXH3_64bits_update(w->raw_hash, data, size);   /* big: no copy */
        return compress_chunk(w, data, size, ZSTD_e_continue);
    }
    XXH3_64bits_update(w->raw_hash, data, size);
    w->cur.stored_size += size;
    return out_write(w, data, size);
}

uint8_t *glcap_writer_reserve(glcap_writer *w, size_t min, size_t *room)
{
    *room = 0;
    if (w->failed)
        return NULL;
    if (!w->in_section || w->cur.compression == GLCAP_COMPRESSION_NONE) {
        fail(w, "reserve outside a compressed section");
        return NULL;
    }
    if (min > IN_BLOCK_SIZE)
        return NULL;
    if (IN_BLOCK_SIZE - w->ilen < min && flush_block(w) < 0)
        return NULL;
    *room = IN_BLOCK_SIZE - w->ilen;
    return w->ibuf + w->ilen;
}

int glcap_writer_commit(glcap_writer *w, size_t size)
{
    if (w->failed)
        return -1;
    if (!w->in_section || w->cur.compression == GLCAP_COMPRESSION_NONE || size > IN_BLOCK_SIZE - w->ilen)
        return fail(w, "commit of %zu bytes without that much reserved", size);
    w->ilen += size;
    w->cur.raw_size += size;
    return w->ilen == IN_BLOCK_SIZE ? flush_block(w) : 0;
}

int glcap_writer_end_section(glcap_writer *w)
{
    if (w->failed)
        return -1;
    if (!w->in_section)
        return fail(w, "end of a section that was not begun");
    if (w->cur.compression != GLCAP_COMPRESSION_NONE && flush_block(w) < 0)
        return -1;
    w->cur.raw_checksum = XXH3_64bits_digest(w->raw_hash);
    if (w->cur.compression != GLCAP_COMPRESSION_NONE) {
        if (compress_chunk(w, NULL, 0, ZSTD_e_end) < 0)
            return -1;
        w->cur.stored_checksum = XXH3_64bits_digest(w->stored_hash);
    } else {
        w->cur.stored_checksum = w->cur.raw_checksum;
    }
    w->entries[w->count++] = w->cur;
    w->in_section = false;
    return 0;
}

int glcap_writer_add_section(glcap_writer *w, uint16_t type, uint32_t id,
                             glcap_compression compression, const void *data, size_t size)
{
    if (glcap_writer_begin_section(w, type, id, compression) < 0)
        return -1;
    /* Known size: zstd records it in the frame header and picks parameters
     * for it (small inputs get small windows). */
    if (compression != GLCAP_COMPRESSION_NONE)
        ZSTD_CCtx_setPledgedSrcSize(w->cctx, size);
    if (glcap_writer_write(w, data, size) < 0)
        return -1;
    return glcap_writer_end_section(w);
}

int glcap_writer_set_zstd_level(glcap_writer *w, int level)
{
    if (level != 0 && (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()))
        return fail(w, "zstd level %d out of range %d..%d", level, ZSTD_minCLevel(), ZSTD_maxCLevel());
    w->section_level = level;
    return 0;
}

static int pwrite_all(glcap_writer *w, const void *data, size_t size, off_t off)
{
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t n = pwrite(w->fd, p, size, off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(w, "write failed: %s", strerror(errno));
        }
        if (n == 0)
            return fail(w, "write failed: no progress");
        p += n;
        size -= (size_t)n;
        off += n;
    }
    return 0;
}

/* Makes the rename itself durable (best effort: some file systems refuse
 * fsync on directories). */
static void sync_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return;
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(copy);
}

int glcap_writer_finish(glcap_writer *w)
{
    if (w->failed)
        return -1;
    if (w->finished)
        return fail(w, "finished twice");
    if (w->in_section)
        return fail(w, "finish while section %u (%s) is still open", w->count,
                    glcap_section_type_name(w->cur.type));

    glcap_header h = {0};
    h.major = GLCAP_VERSION_MAJOR;
    h.minor = GLCAP_VERSION_MINOR;
    h.section_count = w->count;
    h.table_offset = w->pos;
    h.table_entry_size = GLCAP_ENTRY_SIZE_V1;

    XXH3_64bits_reset(w->raw_hash);
    for (uint32_t i = 0; i < w->count; i++) {
        uint8_t ent[GLCAP_ENTRY_SIZE_V1];
        glcap_entry_encode(ent, &w->entries[i]);
        XXH3_64bits_update(w->raw_hash, ent, sizeof ent);
        if (out_write(w, ent, sizeof ent) < 0)
            return -1;
    }
    h.table_checksum = XXH3_64bits_digest(w->raw_hash);
    h.file_size = w->pos;
    if (flush_out(w) < 0)
        return -1;

    uint8_t hdr[GLCAP_HEADER_SIZE_V1];
    glcap_header_encode(hdr, &h);
    if (pwrite_all(w, hdr, sizeof hdr, 0) < 0)
        return -1;
    if (!w->no_fsync && fsync(w->fd) < 0)
        return fail(w, "fsync failed: %s", strerror(errno));
    int fd = w->fd;
    w->fd = -1;
    if (close(fd) < 0)
        return fail(w, "close failed: %s", strerror(errno));
    if (rename(w->tmp_path, w->path) < 0)
        return fail(w, "cannot rename %s into place: %s", w->tmp_path, strerror(errno));
    w->finished = true;
    if (!w->no_fsync)
        sync_dir(w->path);
    return 0;
}

void glcap_writer_destroy(glcap_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    if (!w->finished && w->tmp_path && w->tmp_path[0])
        unlink(w->tmp_path);
    ZSTD_freeCCtx(w->cctx);
    if (w->raw_hash)
        XXH3_freeState(w->raw_hash);
    if (w->stored_hash)
        XXH3_freeState(w->stored_hash);
    free(w->entries);
    free(w->keys);
    free(w->obuf);
    free(w->ibuf);
    free(w->tmp_path);
    free(w->path);
    free(w);
}

uint64_t glcap_writer_bytes_written(const glcap_writer *w)
{
    return w->pos;
}

const char *glcap_writer_error(const glcap_writer *w)
{
    return w && w->failed ? w->err : "";
}
