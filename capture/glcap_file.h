/* glcap_file.h: the .glcap capture container (writer and reader).
 *
 * A .glcap file is a versioned header, a sequence of sections (each stored
 * raw or zstd-compressed, each with XXH3-64 checksums of its stored and of its
 * uncompressed bytes) and a section table at the end. The byte layout is in
 * docs/GLCAP_FORMAT.md. This module only moves opaque section payloads; what
 * a payload contains is defined by the module that writes it (payloads are
 * usually encoded with glcap_codec.h).
 *
 * Errors are one-line messages that name the file and, where it applies, the
 * section, e.g. "cap.glcap: section 4 (COMMAND_STREAM): checksum mismatch
 * (file corrupt)". No function aborts, exits or prints, except that the
 * reader prints notes to stderr when no note callback is given.
 * Writers and readers are not thread-safe: use one per thread.
 */
#ifndef GLCAP_FILE_H
#define GLCAP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format version this code writes and reads. A reader refuses files with a
 * different major version; it reads files with a newer minor version,
 * skipping (with a note) the section types and compression methods it does
 * not know. */
#define GLCAP_VERSION_MAJOR 1
#define GLCAP_VERSION_MINOR 1

/* Section types (u16 on disk). 0 is never valid; new minor versions may add
 * types after the last one. */
typedef enum glcap_section_type {
    GLCAP_SECTION_METADATA = 1,        /* program, driver, capture settings */
    GLCAP_SECTION_CONTEXTS = 2,        /* GL contexts and their attributes */
    GLCAP_SECTION_INITIAL_STATE = 3,   /* state model at the frame start */
    GLCAP_SECTION_RESOURCE_BLOB = 4,   /* buffer/texture contents */
    GLCAP_SECTION_COMMAND_STREAM = 5,  /* the recorded calls of the frame */
    GLCAP_SECTION_SHADER_SOURCES = 6,  /* shader source texts */
    GLCAP_SECTION_REFERENCE_IMAGE = 7, /* the frame's final image(s) */
    GLCAP_SECTION_TYPE_END             /* one past the last known type */
} glcap_section_type;

/* Compression of a section's stored bytes (u8 on disk). */
typedef enum glcap_compression {
    GLCAP_COMPRESSION_NONE = 0,
    GLCAP_COMPRESSION_ZSTD = 1,
    /* Since 1.1: zstd frames whose content is a command stream in the packed record form
     * (capture/glcap_packed.h); raw_size and raw_checksum are those of the packed bytes. The
     * reader unpacks it: loading gives the 1.0 record bytes. Not valid in a 1.0 file. */
    GLCAP_COMPRESSION_ZSTD_PACKED = 2,
    GLCAP_COMPRESSION_END
} glcap_compression;

/* "COMMAND_STREAM", ...; "UNKNOWN" for values this code does not know. */
const char *glcap_section_type_name(uint32_t type);
/* "none", "zstd", "zstd-packed"; "unknown" otherwise. */
const char *glcap_compression_name(uint32_t compression);

/* ------------------------------------------------------------------------
 * Writer. Sections are appended as they are produced; the file is written
 * to "<path>.tmp-<pid>-<n>" in the same directory and renamed to <path> by
 * glcap_writer_finish(), so <path> never holds a partial capture. Every
 * function returns 0 on success and -1 on error; the first error is sticky
 * (later calls fail at once) and glcap_writer_error() describes it.
 */
typedef struct glcap_writer glcap_writer;

typedef struct glcap_writer_options {
    int zstd_level;  /* 0: default (GLCAP_DEFAULT_ZSTD_LEVEL) */
    bool no_fsync;   /* skip fsync of file and directory before/after rename */
} glcap_writer_options;

#define GLCAP_DEFAULT_ZSTD_LEVEL 1

/* Returns NULL on error (message in err, if err_size > 0). opts may be NULL. */
glcap_writer *glcap_writer_create(const char *path, const glcap_writer_options *opts,
                                  char *err, size_t err_size);

/* One whole section at once. type: a glcap_section_type; id: the caller's
 * number for it (context index, resource id, ...); (type, id) pairs must be
 * unique in a file. */
int glcap_writer_add_section(glcap_writer *w, uint16_t type, uint32_t id,
                             glcap_compression compression, const void *data, size_t size);

/* A section written piecewise: begin, any number of writes, end. Only one
 * section can be open at a time. Memory use does not grow with its size. */
int glcap_writer_begin_section(glcap_writer *w, uint16_t type, uint32_t id,
                               glcap_compression compression);
int glcap_writer_write(glcap_writer *w, const void *data, size_t size);
int glcap_writer_end_section(glcap_writer *w);

/* Writing in place into an open compressed section: room for at least `min` bytes of its input
 * (*room says how many, up to the writer's 128 KiB block), to fill and then hand over with
 * glcap_writer_commit(size <= *room). Saves the copy of glcap_writer_write for a producer that
 * encodes its data anyway (the shim packs its command stream straight into it). NULL when min is
 * larger than a block (use glcap_writer_write) or on an error. Nothing else may be written between
 * the two calls. */
uint8_t *glcap_writer_reserve(glcap_writer *w, size_t min, size_t *room);
int glcap_writer_commit(glcap_writer *w, size_t size);

/* The zstd level of the sections begun from now on (0: the writer's own, from its options). A
 * section that arrives fast and must cost little CPU (a command stream compressed while the
 * program records) takes a negative ("fast") level; the others keep the default. -1 when out of
 * range. */
int glcap_writer_set_zstd_level(glcap_writer *w, int level);

/* Writes the section table and the header, syncs, renames into place. */
int glcap_writer_finish(glcap_writer *w);

/* Frees the writer; if glcap_writer_finish() did not succeed, the temporary
 * file is removed and <path> is left as it was. NULL is allowed. */
void glcap_writer_destroy(glcap_writer *w);

/* The first error, or "" if none. */
const char *glcap_writer_error(const glcap_writer *w);

/* Bytes of the file so far (header placeholder, sections, open section's
 * compressed output): for progress reports. */
uint64_t glcap_writer_bytes_written(const glcap_writer *w);

/* ------------------------------------------------------------------------
 * Reader. glcap_reader_open() reads and validates the header and the
 * section table only (offsets, sizes, enums, overlaps, checksums); section
 * payloads are read on demand and verified against both checksums.
 */
typedef struct glcap_reader glcap_reader;

typedef void (*glcap_note_fn)(void *user, const char *note);

typedef struct glcap_reader_options {
    /* Largest uncompressed section glcap_reader_load() will allocate;
     * 0: GLCAP_DEFAULT_MAX_SECTION_SIZE. */
    uint64_t max_section_size;
    /* Receives one-line notes (e.g. a skipped section of a newer type).
     * NULL: notes go to stderr as "<file>: note: ...". */
    glcap_note_fn note;
    void *note_user;
} glcap_reader_options;

#define GLCAP_DEFAULT_MAX_SECTION_SIZE (UINT64_C(4) << 30)

typedef struct glcap_section_info {
    uint32_t index;         /* position in the section table */
    uint16_t type;          /* glcap_section_type, or a newer unknown one */
    uint8_t compression;    /* glcap_compression, or a newer unknown one */
    uint32_t id;
    uint64_t offset;        /* of the stored bytes in the file */
    uint64_t stored_size;   /* bytes in the file */
    uint64_t raw_size;      /* bytes after decompression */
    uint64_t stored_checksum;
    uint64_t raw_checksum;
    bool readable;          /* false: unknown type or compression, skipped */
} glcap_section_info;

/* Returns NULL on error (message in err, if err_size > 0). opts may be NULL. */
glcap_reader *glcap_reader_open(const char *path, const glcap_reader_options *opts,
                                char *err, size_t err_size);
/* Same on an open, seekable file descriptor, which the reader does not
 * close; name is used in messages. */
glcap_reader *glcap_reader_open_fd(int fd, const char *name, const glcap_reader_options *opts,
                                   char *err, size_t err_size);
void glcap_reader_close(glcap_reader *r);

uint16_t glcap_reader_version_major(const glcap_reader *r);
uint16_t glcap_reader_version_minor(const glcap_reader *r);
uint32_t glcap_reader_flags(const glcap_reader *r);
uint64_t glcap_reader_file_size(const glcap_reader *r);

/* All entries of the section table, including skipped ones (readable false). */
uint32_t glcap_reader_section_count(const glcap_reader *r);
const glcap_section_info *glcap_reader_section(const glcap_reader *r, uint32_t index);
/* Index of the readable section (type, id), or -1. */
int64_t glcap_reader_find(const glcap_reader *r, uint16_t type, uint32_t id);

/* Loads a whole section into a malloc'd buffer (free() it) of *size bytes
 * plus a terminating NUL byte not counted in *size (handy for text). */
int glcap_reader_load(glcap_reader *r, uint32_t index, void **data, size_t *size);

/* The METADATA section (JSON text, NUL-terminated) of the capture at path, malloc'd; NULL with
 * "<path>: why" in err (no such file, not a capture, no METADATA section, corrupt section). */
char *glcap_read_metadata(const char *path, char *err, size_t err_size);
/* The whole section (type, id) of the file at path, malloc'd (NUL-terminated, *size without it);
 * NULL with *size 0 when the file has no such section (err empty), or on an error (err says). */
void *glcap_read_optional_section(const char *path, uint32_t type, uint32_t id, size_t *size, char *err,
                                  size_t err_size);

/* Streams a section's uncompressed bytes to fn in chunks (at most about
 * 1 MiB each) without holding the whole section. fn returns 0 to go on,
 * anything else to stop (then this returns -1 with "stopped by caller").
 * Checksums are only known at the end: treat the data as provisional until
 * this returns 0. fn may be NULL to just verify the section. */
typedef int (*glcap_chunk_fn)(void *user, const void *data, size_t size);
int glcap_reader_read(glcap_reader *r, uint32_t index, glcap_chunk_fn fn, void *user);
/* Checks a section's stored bytes against their checksum without decompressing them: damage to
 * the file is found at a fraction of a full read's cost; the uncompressed content is checked
 * when the section is loaded or read. 0, or -1 with the error. */
int glcap_reader_check_stored(glcap_reader *r, uint32_t index);

/* The last error of load/read, or "". */
const char *glcap_reader_error(const glcap_reader *r);

/* "<file>: section 4 (COMMAND_STREAM)" (", id N" added when id != 0): the
 * prefix payload decoders put before their own messages. Returns buf. */
const char *glcap_reader_section_label(const glcap_reader *r, uint32_t index,
                                       char *buf, size_t buf_size);

#ifdef __cplusplus
}
#endif

#endif /* GLCAP_FILE_H */
