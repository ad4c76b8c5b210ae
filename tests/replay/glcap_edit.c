/* Test helper: rewrites a .glcap with valid checksums, so tests can feed the replayer content
 * errors the container cannot catch (bad METADATA JSON, unknown context attributes, a corrupt
 * command stream, a wrong image header, a missing section).
 *   glcap_edit IN OUT [--drop TYPE:ID]... [--replace TYPE:ID FILE]...
 *   glcap_edit --extract IN TYPE:ID FILE
 * TYPE is the numeric section type (1 METADATA, 5 COMMAND_STREAM, 7 REFERENCE_IMAGE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"

struct edit {
    unsigned type, id;
    const char *file; /* NULL: drop */
};

static int parse_key(const char *s, unsigned *type, unsigned *id)
{
    return sscanf(s, "%u:%u", type, id) == 2 ? 0 : -1;
}

static void *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

static int extract(const char *in, const char *key, const char *out)
{
    unsigned type, id;
    char err[512];
    if (parse_key(key, &type, &id) != 0)
        return 2;
    glcap_reader *r = glcap_reader_open(in, NULL, err, sizeof err);
    if (!r) {
        fprintf(stderr, "glcap_edit: %s\n", err);
        return 1;
    }
    int64_t idx = glcap_reader_find(r, (uint16_t)type, id);
    void *data;
    size_t size;
    if (idx < 0 || glcap_reader_load(r, (uint32_t)idx, &data, &size) != 0) {
        fprintf(stderr, "glcap_edit: no section %s\n", key);
        glcap_reader_close(r);
        return 1;
    }
    FILE *f = fopen(out, "wb");
    int rc = f && fwrite(data, 1, size, f) == size ? 0 : 1;
    if (f)
        fclose(f);
    free(data);
    glcap_reader_close(r);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--extract") == 0)
        return extract(argv[2], argv[3], argv[4]);
    if (argc < 3) {
        fprintf(stderr, "usage: glcap_edit IN OUT [--drop T:ID]... [--replace T:ID FILE]...\n");
        return 2;
    }
    struct edit edits[32];
    int n_edits = 0;
    for (int i = 3; i < argc && n_edits < 32; i++) {
        struct edit *e = &edits[n_edits];
        if (strcmp(argv[i], "--drop") == 0 && i + 1 < argc && parse_key(argv[i + 1], &e->type, &e->id) == 0) {
            e->file = NULL;
            i++;
        } else if (strcmp(argv[i], "--replace") == 0 && i + 2 < argc &&
                   parse_key(argv[i + 1], &e->type, &e->id) == 0) {
            e->file = argv[i + 2];
            i += 2;
        } else {
            fprintf(stderr, "glcap_edit: bad argument %s\n", argv[i]);
            return 2;
        }
        n_edits++;
    }
    char err[512];
    glcap_reader *r = glcap_reader_open(argv[1], NULL, err, sizeof err);
    if (!r) {
        fprintf(stderr, "glcap_edit: %s\n", err);
        return 1;
    }
    glcap_writer_options wo = { .no_fsync = true };
    glcap_writer *w = glcap_writer_create(argv[2], &wo, err, sizeof err);
    if (!w) {
        fprintf(stderr, "glcap_edit: %s\n", err);
        glcap_reader_close(r);
        return 1;
    }
    int rc = 0;
    for (uint32_t s = 0; s < glcap_reader_section_count(r) && rc == 0; s++) {
        const glcap_section_info *si = glcap_reader_section(r, s);
        const struct edit *e = NULL;
        for (int k = 0; k < n_edits; k++)
            if (edits[k].type == si->type && edits[k].id == si->id)
                e = &edits[k];
        if (e && !e->file)
            continue;
        void *data;
        size_t size;
        if (e)
            data = read_all(e->file, &size);
        else if (glcap_reader_load(r, s, &data, &size) != 0)
            data = NULL;
        if (!data) {
            fprintf(stderr, "glcap_edit: cannot read section %u\n", s);
            rc = 1;
            break;
        }
        /* A packed command stream loads unpacked (the 1.0 records): it is written back as zstd. */
        glcap_compression comp = si->compression == GLCAP_COMPRESSION_ZSTD_PACKED ? GLCAP_COMPRESSION_ZSTD
                                                                                 : (glcap_compression)si->compression;
        if (glcap_writer_add_section(w, si->type, si->id, comp, data, size) != 0)
            rc = 1;
        free(data);
    }
    if (rc == 0 && glcap_writer_finish(w) != 0)
        rc = 1;
    if (rc)
        fprintf(stderr, "glcap_edit: %s\n", glcap_writer_error(w));
    glcap_writer_destroy(w);
    glcap_reader_close(r);
    return rc;
}
