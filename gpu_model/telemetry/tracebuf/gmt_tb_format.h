/* On-disk layout of a binary trace (.gmtb), shared by the writer and the reader. Every field
 * is little-endian (the only byte order the model runs on; the writer refuses others) and
 * every table starts at an 8-byte multiple. See DESIGN.md ("Binary file"). */
#ifndef GMT_TB_FORMAT_H
#define GMT_TB_FORMAT_H

#include <stdint.h>

#include "gmt_tracebuf.h"

#define GMT_TB_MAGIC "GMTRACE\0"
#define GMT_TB_VERSION_MAJOR 1
#define GMT_TB_VERSION_MINOR 0

typedef struct gmt_tb_file_header {
    char magic[8];            /* "GMTRACE\0" */
    uint32_t version_major, version_minor;
    uint32_t header_size;     /* sizeof(gmt_tb_file_header) = 64 */
    uint32_t types;           /* record types recorded (GMT_TB_BIT mask) */
    uint32_t program_count;   /* entries of the program table */
    uint32_t var_count;       /* entries of the variable table */
    uint32_t section_count;   /* GMT_TB_TYPE_COUNT */
    uint32_t reserved;        /* 0 */
    uint64_t total_records;
    uint64_t file_size;       /* bytes of the whole file */
    uint64_t checksum;        /* FNV-1a 64 of bytes [header_size, file_size) */
} gmt_tb_file_header;

typedef struct gmt_tb_file_program {
    uint32_t gl_program, stage, blocks, reserved;
} gmt_tb_file_program;

/* Variable names: GMT_TB_VAR_NAME bytes each, NUL-padded. */

typedef struct gmt_tb_file_section {
    uint32_t type;            /* gmt_tb_type, sections in type order */
    uint32_t record_size;
    uint64_t count;
    uint64_t offset;          /* from the file start, 8-byte aligned */
    uint64_t bytes;           /* count x record_size */
} gmt_tb_file_section;

_Static_assert(sizeof(gmt_tb_file_header) == 64, "file header layout");
_Static_assert(sizeof(gmt_tb_file_program) == 16, "program entry layout");
_Static_assert(sizeof(gmt_tb_file_section) == 32, "section entry layout");

#define GMT_TB_FNV_OFFSET 1469598103934665603ull
#define GMT_TB_FNV_PRIME 1099511628211ull

static inline uint64_t gmt_tb_fnv(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= GMT_TB_FNV_PRIME;
    }
    return h;
}

#endif
