/* fuzz_glcap_reader.c: libFuzzer driver for the .glcap reader and the
 * payload cursor: target glcap_reader of tests/fuzz (tests/fuzz/README.md).
 *
 * Input: one mode byte, then the file image.
 *   mode bit 0: recompute the header, table and section stored checksums
 *               first, so mutations reach the checks behind the checksums
 *               (bounds, overlaps, enums, zstd frames, sizes);
 *   mode bit 1: also decode the image with a cursor driven by its own bytes.
 * Sanitizer reports and crashes are the findings; error returns are fine.
 */
#include "capture/glcap_codec.h"
#include "capture/glcap_file.h"
#include "capture/glcap_format.h"
#include "glcap_fix_checksums.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void quiet(void *user, const char *note)
{
    (void)user, (void)note;
}

static void read_all(const uint8_t *img, size_t size)
{
    int fd = memfd_create("glcap-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return;
    if (size == 0 || write(fd, img, size) == (ssize_t)size) {
        char err[512];
        /* A small cap keeps absurd-but-consistent sizes from eating RAM. */
        glcap_reader_options opts = {.max_section_size = 64u << 20, .note = quiet};
        glcap_reader *r = glcap_reader_open_fd(fd, "fuzz.glcap", &opts, err, sizeof err);
        if (r) {
            for (uint32_t i = 0; i < glcap_reader_section_count(r); i++) {
                void *data;
                size_t n;
                if (glcap_reader_load(r, i, &data, &n) == 0)
                    free(data);
                const glcap_section_info *s = glcap_reader_section(r, i);
                if (s->raw_size <= (64u << 20))
                    (void)glcap_reader_read(r, i, NULL, NULL);
            }
            glcap_reader_close(r);
        }
    }
    close(fd);
}

/* Decodes the bytes as a program of cursor reads chosen by the bytes. */
static void cursor_ops(const uint8_t *data, size_t size)
{
    glcap_cursor c;
    glcap_cursor_init(&c, data, size);
    while (glcap_cursor_ok(&c) && !glcap_cursor_at_end(&c)) {
        size_t n;
        char *s;
        switch (glcap_get_u8(&c) % 14) {
        case 0: (void)glcap_get_u16(&c); break;
        case 1: (void)glcap_get_u32(&c); break;
        case 2: (void)glcap_get_u64(&c); break;
        case 3: (void)glcap_get_f32(&c); break;
        case 4: (void)glcap_get_f64(&c); break;
        case 5: (void)glcap_get_uvar(&c); break;
        case 6: (void)glcap_get_svar(&c); break;
        case 7: (void)glcap_get_bytes(&c, &n); break;
        case 8: s = glcap_get_strdup(&c); free(s); break;
        case 9: (void)glcap_get_bool(&c); break;
        case 10: (void)glcap_get_uvar_below(&c, 37, "enum"); break;
        case 11: (void)glcap_get_count(&c, 3, "things"); break;
        case 12: (void)glcap_get_raw(&c, glcap_get_u8(&c)); break;
        default: glcap_cursor_expect_end(&c); break;
        }
    }
    (void)glcap_cursor_error(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t mode = data[0];
    uint8_t *img = malloc(size - 1 ? size - 1 : 1);
    if (!img)
        return 0;
    memcpy(img, data + 1, size - 1);
    if (mode & 1)
        glcap_fuzz_fix_checksums(img, size - 1);
    read_all(img, size - 1);
    if (mode & 2)
        cursor_ops(img, size - 1);
    free(img);
    return 0;
}
