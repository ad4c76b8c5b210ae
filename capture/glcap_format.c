/* glcap_format.c: encoding of the .glcap header and section table entries,
 * and the names of section types and compression methods. */
#include "capture/glcap_format.h"
#include "capture/glcap_file.h"

#include <string.h>
#include <xxhash.h>

const char *glcap_section_type_name(uint32_t type)
{
    switch (type) {
    case GLCAP_SECTION_METADATA: return "METADATA";
    case GLCAP_SECTION_CONTEXTS: return "CONTEXTS";
    case GLCAP_SECTION_INITIAL_STATE: return "INITIAL_STATE";
    case GLCAP_SECTION_RESOURCE_BLOB: return "RESOURCE_BLOB";
    case GLCAP_SECTION_COMMAND_STREAM: return "COMMAND_STREAM";
    case GLCAP_SECTION_SHADER_SOURCES: return "SHADER_SOURCES";
    case GLCAP_SECTION_REFERENCE_IMAGE: return "REFERENCE_IMAGE";
    default: return "UNKNOWN";
    }
}

const char *glcap_compression_name(uint32_t compression)
{
    switch (compression) {
    case GLCAP_COMPRESSION_NONE: return "none";
    case GLCAP_COMPRESSION_ZSTD: return "zstd";
    case GLCAP_COMPRESSION_ZSTD_PACKED: return "zstd-packed";
    default: return "unknown";
    }
}

uint64_t glcap_checksum(const void *data, size_t size)
{
    return XXH3_64bits(data, size);
}

uint64_t glcap_header_checksum(const uint8_t *in, uint32_t header_size)
{
    return XXH3_64bits(in, header_size - 8u);
}

void glcap_header_encode(uint8_t out[GLCAP_HEADER_SIZE_V1], const glcap_header *h)
{
    memset(out, 0, GLCAP_HEADER_SIZE_V1);
    memcpy(out + GLCAP_HDR_MAGIC, GLCAP_MAGIC, GLCAP_MAGIC_SIZE);
    glcap_wr16(out + GLCAP_HDR_MAJOR, h->major);
    glcap_wr16(out + GLCAP_HDR_MINOR, h->minor);
    glcap_wr32(out + GLCAP_HDR_FLAGS, h->flags);
    glcap_wr32(out + GLCAP_HDR_HEADER_SIZE, GLCAP_HEADER_SIZE_V1);
    glcap_wr32(out + GLCAP_HDR_SECTION_COUNT, h->section_count);
    glcap_wr64(out + GLCAP_HDR_TABLE_OFFSET, h->table_offset);
    glcap_wr32(out + GLCAP_HDR_TABLE_ENTRY_SIZE, h->table_entry_size);
    glcap_wr64(out + GLCAP_HDR_TABLE_CHECKSUM, h->table_checksum);
    glcap_wr64(out + GLCAP_HDR_FILE_SIZE, h->file_size);
    glcap_wr64(out + GLCAP_HDR_CHECKSUM, glcap_header_checksum(out, GLCAP_HEADER_SIZE_V1));
}

void glcap_header_decode(glcap_header *h, const uint8_t *in)
{
    h->major = glcap_rd16(in + GLCAP_HDR_MAJOR);
    h->minor = glcap_rd16(in + GLCAP_HDR_MINOR);
    h->flags = glcap_rd32(in + GLCAP_HDR_FLAGS);
    h->header_size = glcap_rd32(in + GLCAP_HDR_HEADER_SIZE);
    h->section_count = glcap_rd32(in + GLCAP_HDR_SECTION_COUNT);
    h->table_offset = glcap_rd64(in + GLCAP_HDR_TABLE_OFFSET);
    h->table_entry_size = glcap_rd32(in + GLCAP_HDR_TABLE_ENTRY_SIZE);
    h->table_checksum = glcap_rd64(in + GLCAP_HDR_TABLE_CHECKSUM);
    h->file_size = glcap_rd64(in + GLCAP_HDR_FILE_SIZE);
    h->header_checksum = 0; /* read by the caller from header_size - 8 */
}

void glcap_entry_encode(uint8_t out[GLCAP_ENTRY_SIZE_V1], const glcap_entry *e)
{
    memset(out, 0, GLCAP_ENTRY_SIZE_V1);
    glcap_wr16(out + GLCAP_ENT_TYPE, e->type);
    out[GLCAP_ENT_COMPRESSION] = e->compression;
    glcap_wr32(out + GLCAP_ENT_ID, e->id);
    glcap_wr64(out + GLCAP_ENT_OFFSET, e->offset);
    glcap_wr64(out + GLCAP_ENT_STORED_SIZE, e->stored_size);
    glcap_wr64(out + GLCAP_ENT_RAW_SIZE, e->raw_size);
    glcap_wr64(out + GLCAP_ENT_STORED_CHECKSUM, e->stored_checksum);
    glcap_wr64(out + GLCAP_ENT_RAW_CHECKSUM, e->raw_checksum);
}

void glcap_entry_decode(glcap_entry *e, const uint8_t *in)
{
    e->type = glcap_rd16(in + GLCAP_ENT_TYPE);
    e->compression = in[GLCAP_ENT_COMPRESSION];
    e->id = glcap_rd32(in + GLCAP_ENT_ID);
    e->offset = glcap_rd64(in + GLCAP_ENT_OFFSET);
    e->stored_size = glcap_rd64(in + GLCAP_ENT_STORED_SIZE);
    e->raw_size = glcap_rd64(in + GLCAP_ENT_RAW_SIZE);
    e->stored_checksum = glcap_rd64(in + GLCAP_ENT_STORED_CHECKSUM);
    e->raw_checksum = glcap_rd64(in + GLCAP_ENT_RAW_CHECKSUM);
}
