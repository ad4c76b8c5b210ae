/* glcap_fuzz_fix_checksums: see glcap_fix_checksums.h. */
#include "glcap_fix_checksums.h"

#include <xxhash.h>

#include "capture/glcap_codec.h"
#include "capture/glcap_file.h"
#include "capture/glcap_format.h"

void glcap_fuzz_fix_checksums(uint8_t *img, size_t size)
{
    if (size < GLCAP_HEADER_SIZE_V1)
        return;
    uint64_t toff = glcap_rd64(img + GLCAP_HDR_TABLE_OFFSET);
    uint64_t count = glcap_rd32(img + GLCAP_HDR_SECTION_COUNT);
    uint64_t esize = glcap_rd32(img + GLCAP_HDR_TABLE_ENTRY_SIZE);
    if (esize >= GLCAP_ENTRY_SIZE_V1 && esize <= GLCAP_ENTRY_SIZE_MAX && toff <= size &&
        count <= (size - toff) / esize) {
        for (uint64_t i = 0; i < count; i++) {
            uint8_t *e = img + toff + i * esize;
            uint64_t off = glcap_rd64(e + GLCAP_ENT_OFFSET);
            uint64_t n = glcap_rd64(e + GLCAP_ENT_STORED_SIZE);
            if (off <= size && n <= size - off) {
                uint64_t sum = XXH3_64bits(img + off, (size_t)n);
                glcap_wr64(e + GLCAP_ENT_STORED_CHECKSUM, sum);
                if (e[GLCAP_ENT_COMPRESSION] == GLCAP_COMPRESSION_NONE)
                    glcap_wr64(e + GLCAP_ENT_RAW_CHECKSUM, sum);
            }
        }
        glcap_wr64(img + GLCAP_HDR_TABLE_CHECKSUM, XXH3_64bits(img + toff, (size_t)(count * esize)));
    }
    uint32_t hsize = glcap_rd32(img + GLCAP_HDR_HEADER_SIZE);
    if (hsize >= GLCAP_HEADER_SIZE_V1 && hsize <= size && hsize % 8 == 0)
        glcap_wr64(img + hsize - 8, XXH3_64bits(img, hsize - 8));
}
