/* bench_glcap.c: throughput of the .glcap writer and reader (not a test).
 *
 *   bench_glcap [MiB] [dir]     default 256 MiB in $TMPDIR or /tmp
 *
 * Writes MiB of vertex-like data as resource sections of 8 MiB (zstd at the
 * default level, then uncompressed), then loads every section back and
 * streams it once more through glcap_reader_read. Prints MiB/s of
 * uncompressed data. No fsync (it would measure the disk, not the code).
 * The file cache is warm for the read figures. */
#include "capture/glcap_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SECTION (8u << 20)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 7;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        x = x * 1103515245u + 12345u;
        float f = (float)(i % 65536) * 0.25f + (float)(x >> 28);
        memcpy(p + i, &f, 4);
    }
}

static int count_chunk(void *user, const void *data, size_t size)
{
    (void)data;
    *(uint64_t *)user += size;
    return 0;
}

static int run(const char *path, size_t total, glcap_compression comp, const uint8_t *data)
{
    const char *cname = glcap_compression_name(comp);
    char err[512];
    glcap_writer_options opts = {.no_fsync = true};
    uint32_t nsec = (uint32_t)(total / SECTION);

    double t0 = now();
    glcap_writer *w = glcap_writer_create(path, &opts, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (uint32_t i = 0; i < nsec; i++) {
        /* One section streamed in 64 KiB pieces, like a capture does. */
        if (glcap_writer_begin_section(w, GLCAP_SECTION_RESOURCE_BLOB, i + 1, comp) < 0)
            break;
        for (size_t off = 0; off < SECTION; off += 65536)
            glcap_writer_write(w, data + (size_t)i * SECTION + off, 65536);
        glcap_writer_end_section(w);
    }
    if (glcap_writer_finish(w) < 0) {
        fprintf(stderr, "%s\n", glcap_writer_error(w));
        glcap_writer_destroy(w);
        return 1;
    }
    glcap_writer_destroy(w);
    double t1 = now();

    glcap_reader *r = glcap_reader_open(path, NULL, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    uint64_t file_size = glcap_reader_file_size(r);
    for (uint32_t i = 0; i < nsec; i++) {
        void *out;
        size_t size;
        if (glcap_reader_load(r, i, &out, &size) < 0) {
            fprintf(stderr, "%s\n", glcap_reader_error(r));
            glcap_reader_close(r);
            return 1;
        }
        if (i == 0 && memcmp(out, data, size) != 0) {
            fprintf(stderr, "data mismatch\n");
            free(out);
            glcap_reader_close(r);
            return 1;
        }
        free(out);
    }
    double t2 = now();
    uint64_t streamed = 0;
    for (uint32_t i = 0; i < nsec; i++)
        if (glcap_reader_read(r, i, count_chunk, &streamed) < 0) {
            fprintf(stderr, "%s\n", glcap_reader_error(r));
            glcap_reader_close(r);
            return 1;
        }
    double t3 = now();
    glcap_reader_close(r);

    double mib = (double)((size_t)nsec * SECTION) / (1 << 20);
    printf("%-5s %6.0f MiB -> %7.1f MiB file | write %7.1f MiB/s | load %7.1f MiB/s | "
           "stream %7.1f MiB/s\n", cname, mib, (double)file_size / (1 << 20), mib / (t1 - t0),
           mib / (t2 - t1), (double)streamed / (1 << 20) / (t3 - t2));
    return 0;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 256;
    const char *tmp = getenv("TMPDIR");
    const char *dir = argc > 2 ? argv[2] : (tmp && tmp[0] ? tmp : "/tmp");
    if (mib < 8)
        mib = 8;
    size_t total = mib << 20;
    uint8_t *data = malloc(total);
    if (!data) {
        fprintf(stderr, "bench_glcap: out of memory for %zu MiB\n", mib);
        return 1;
    }
    fill(data, total, 1);
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_glcap-%ld.glcap", dir, (long)getpid());
    printf("bench_glcap: %zu MiB in sections of %u MiB, zstd level %d, file %s\n", mib,
           SECTION >> 20, GLCAP_DEFAULT_ZSTD_LEVEL, path);
    int rc = run(path, total, GLCAP_COMPRESSION_ZSTD, data);
    if (rc == 0)
        rc = run(path, total, GLCAP_COMPRESSION_NONE, data);
    unlink(path);
    free(data);
    return rc;
}
