/* For the fuzz targets that read .glcap images (capture/fuzz, tests/fuzz): rewrites the
 * stored checksums of the header, the section table and every section of a mutated image in
 * place, so the mutations reach the checks the checksums guard (bounds, overlaps, enums, zstd
 * frames, sizes) instead of all stopping at the first checksum. Out-of-range fields are left as
 * they are. */
#ifndef GLCAP_FIX_CHECKSUMS_H
#define GLCAP_FIX_CHECKSUMS_H

#include <stddef.h>
#include <stdint.h>

void glcap_fuzz_fix_checksums(uint8_t *img, size_t size);

#endif
