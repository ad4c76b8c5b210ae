/* PAM (P7) writer, see pam_writer.h. */
#include "pam_writer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

bool pam_write_rgba(const char *path, int width, int height, const uint8_t *pixels,
                    bool bottom_up)
{
    if (width <= 0 || height <= 0 || !pixels) {
        fprintf(stderr, "pam_write_rgba: bad image %dx%d for %s\n", width, height, path);
        return false;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
            width, height);
    size_t row_bytes = (size_t)width * 4;
    bool ok = true;
    for (int y = 0; y < height && ok; ++y) {
        int src_row = bottom_up ? height - 1 - y : y;
        ok = fwrite(pixels + (size_t)src_row * row_bytes, 1, row_bytes, f) == row_bytes;
    }
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "error writing %s: %s\n", path, strerror(errno));
    return ok;
}
