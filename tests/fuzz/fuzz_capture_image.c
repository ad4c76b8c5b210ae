/* fuzz_capture_image: the file-image targets' input as a capture file (fuzz_target.h). */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "glcap_fix_checksums.h"

int fuzz_capture_image(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    if (size < 1)
        return -1;
    uint8_t *img = malloc(size - 1 ? size - 1 : 1);
    if (!img)
        return -1;
    memcpy(img, data + 1, size - 1);
    if (data[0] & 1)
        glcap_fuzz_fix_checksums(img, size - 1);
    int fd = fuzz_memfile(img, size - 1, path, path_size);
    free(img);
    return fd;
}
