/* make_seeds.c: writes a few small valid .glcap files, each prefixed with
 * the fuzz driver's mode byte: the seeds of tests/fuzz/corpus/glcap_reader. */
#include "capture/glcap_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int seed(const char *dir, const char *name, int nsections)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s.glcap", dir, name);
    glcap_writer_options o = {.no_fsync = true};
    glcap_writer *w = glcap_writer_create(path, &o, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    static const char text[] = "glBindBuffer glBufferData glDrawArrays glDrawArrays glDrawArrays";
    for (int i = 0; i < nsections; i++) {
        uint16_t type = (uint16_t)(1 + i % (GLCAP_SECTION_TYPE_END - 1));
        glcap_compression c = i % 2 ? GLCAP_COMPRESSION_NONE : GLCAP_COMPRESSION_ZSTD;
        if (i == 3) { /* streamed: no content size in the zstd frame */
            glcap_writer_begin_section(w, type, (uint32_t)i, GLCAP_COMPRESSION_ZSTD);
            glcap_writer_write(w, text, 10);
            glcap_writer_write(w, text + 10, sizeof text - 11);
            glcap_writer_end_section(w);
        } else {
            glcap_writer_add_section(w, type, (uint32_t)i, c, text, (size_t)(i * 7) % sizeof text);
        }
    }
    if (glcap_writer_finish(w) < 0) {
        fprintf(stderr, "%s\n", glcap_writer_error(w));
        glcap_writer_destroy(w);
        return 1;
    }
    glcap_writer_destroy(w);

    /* Read back, then write one copy per mode byte. */
    FILE *f = fopen(path, "rb");
    if (!f)
        return 1;
    static unsigned char buf[1 << 16];
    size_t n = fread(buf + 1, 1, sizeof buf - 1, f);
    fclose(f);
    remove(path);
    for (int mode = 0; mode < 4; mode++) {
        snprintf(path, sizeof path, "%s/%s-mode%d", dir, name, mode);
        buf[0] = (unsigned char)mode;
        f = fopen(path, "wb");
        if (!f || fwrite(buf, 1, n + 1, f) != n + 1 || fclose(f) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds DIR\n");
        return 2;
    }
    return seed(argv[1], "empty", 0) || seed(argv[1], "one", 1) || seed(argv[1], "seven", 7) ||
           seed(argv[1], "twelve", 12);
}
