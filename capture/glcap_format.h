/* glcap_format.h: on-disk layout of the .glcap header and section table
 * (internal to glcap and its tests; docs/GLCAP_FORMAT.md is the reference).
 * All integers are little-endian. Checksums are XXH3-64 with seed 0.
 */
#ifndef GLCAP_FORMAT_H
#define GLCAP_FORMAT_H

#include <stdint.h>
#include <stddef.h>

/* 0x89 keeps text tools from taking the file for text; CR LF detects
 * line-ending conversion, like PNG's signature. */
#define GLCAP_MAGIC "\x89GLCAP\r\n"
#define GLCAP_MAGIC_SIZE 8

/* Header (v1.0: 64 bytes). Newer minors may make it longer; its checksum is
 * always its last 8 bytes and covers every byte before them. */
#define GLCAP_HEADER_SIZE_V1 64
#define GLCAP_HEADER_SIZE_MAX 4096
enum {
    GLCAP_HDR_MAGIC = 0,            /* 8 bytes */
    GLCAP_HDR_MAJOR = 8,            /* u16 */
    GLCAP_HDR_MINOR = 10,           /* u16 */
    GLCAP_HDR_FLAGS = 12,           /* u32 */
    GLCAP_HDR_HEADER_SIZE = 16,     /* u32 */
    GLCAP_HDR_SECTION_COUNT = 20,   /* u32 */
    GLCAP_HDR_TABLE_OFFSET = 24,    /* u64 */
    GLCAP_HDR_TABLE_ENTRY_SIZE = 32,/* u32 */
    GLCAP_HDR_RESERVED = 36,        /* u32, 0 */
    GLCAP_HDR_TABLE_CHECKSUM = 40,  /* u64, of all table bytes */
    GLCAP_HDR_FILE_SIZE = 48,       /* u64 */
    GLCAP_HDR_CHECKSUM = 56         /* u64 (= header_size - 8) */
};

/* Header flags: bits 0-15 must be understood by a reader (it refuses unknown
 * ones), bits 16-31 are informational. None are defined in 1.0. */
#define GLCAP_FLAGS_REQUIRED_MASK 0x0000ffffu
#define GLCAP_FLAGS_KNOWN 0u

/* Section table entry (v1.0: 48 bytes; newer minors may append fields, the
 * header's table_entry_size says how long an entry is). */
#define GLCAP_ENTRY_SIZE_V1 48
#define GLCAP_ENTRY_SIZE_MAX 1024
enum {
    GLCAP_ENT_TYPE = 0,             /* u16 */
    GLCAP_ENT_COMPRESSION = 2,      /* u8 */
    GLCAP_ENT_FLAGS = 3,            /* u8, 0 */
    GLCAP_ENT_ID = 4,               /* u32 */
    GLCAP_ENT_OFFSET = 8,           /* u64 */
    GLCAP_ENT_STORED_SIZE = 16,     /* u64 */
    GLCAP_ENT_RAW_SIZE = 24,        /* u64 */
    GLCAP_ENT_STORED_CHECKSUM = 32, /* u64 */
    GLCAP_ENT_RAW_CHECKSUM = 40     /* u64 */
};

/* Largest section table a reader accepts (about 1.4 million sections). */
#define GLCAP_TABLE_SIZE_MAX (UINT64_C(64) << 20)

typedef struct glcap_header {
    uint16_t major, minor;
    uint32_t flags;
    uint32_t header_size;
    uint32_t section_count;
    uint64_t table_offset;
    uint32_t table_entry_size;
    uint64_t table_checksum;
    uint64_t file_size;
    uint64_t header_checksum;
} glcap_header;

typedef struct glcap_entry {
    uint16_t type;
    uint8_t compression;
    uint32_t id;
    uint64_t offset, stored_size, raw_size, stored_checksum, raw_checksum;
} glcap_entry;

static inline uint16_t glcap_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t glcap_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t glcap_rd64(const uint8_t *p)
{
    return (uint64_t)glcap_rd32(p) | (uint64_t)glcap_rd32(p + 4) << 32;
}
static inline void glcap_wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void glcap_wr32(uint8_t *p, uint32_t v)
{
    glcap_wr16(p, (uint16_t)v);
    glcap_wr16(p + 2, (uint16_t)(v >> 16));
}
static inline void glcap_wr64(uint8_t *p, uint64_t v)
{
    glcap_wr32(p, (uint32_t)v);
    glcap_wr32(p + 4, (uint32_t)(v >> 32));
}

/* Encodes a v1.0 header (64 bytes) and computes its checksum. */
void glcap_header_encode(uint8_t out[GLCAP_HEADER_SIZE_V1], const glcap_header *h);
/* Decodes the fixed fields of a header of at least 64 bytes (no checks). */
void glcap_header_decode(glcap_header *h, const uint8_t *in);
/* XXH3-64 of the first header_size - 8 bytes. */
uint64_t glcap_header_checksum(const uint8_t *in, uint32_t header_size);

void glcap_entry_encode(uint8_t out[GLCAP_ENTRY_SIZE_V1], const glcap_entry *e);
void glcap_entry_decode(glcap_entry *e, const uint8_t *in);

uint64_t glcap_checksum(const void *data, size_t size);

#endif /* GLCAP_FORMAT_H */
