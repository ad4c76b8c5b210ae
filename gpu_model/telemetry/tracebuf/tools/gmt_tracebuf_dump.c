/* gmt_tracebuf_dump: prints a binary trace (.gmtb) written by gmt_tracebuf_write_binary.
 *
 *   gmt_tracebuf_dump FILE            summary: record counts per type, programs, variables
 *   gmt_tracebuf_dump FILE --jsonl    every record as a JSON line, in merged order
 *
 * Independent of the glreplay CLI (used by the tests). Exit status: 0, or 2 with one error line
 * on a missing, truncated or corrupt file or bad usage. */
#include <stdio.h>
#include <string.h>

#include "gmt_tracebuf.h"

int main(int argc, char **argv)
{
    const char *path = NULL;
    int jsonl = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--jsonl"))
            jsonl = 1;
        else if (argv[i][0] == '-' || path) {
            fprintf(stderr, "usage: gmt_tracebuf_dump FILE [--jsonl]\n");
            return 2;
        } else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: gmt_tracebuf_dump FILE [--jsonl]\n");
        return 2;
    }
    char err[512];
    gmt_tbr *r = gmt_tbr_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "gmt_tracebuf_dump: %s\n", err);
        return 2;
    }
    const char *names[GMT_TB_MAX_VARS];
    int nv = gmt_tbr_var_count(r);
    for (int i = 0; i < nv; i++)
        names[i] = gmt_tbr_var_name(r, i);
    if (jsonl) {
        char line[8192];
        const gmt_tb_key *rec;
        while (gmt_tbr_next(r, &rec) == 1) {
            if (gmt_tb_record_json(rec, names, nv, line, sizeof line) < 0) {
                fprintf(stderr, "gmt_tracebuf_dump: %s: a record does not fit a JSON line\n", path);
                gmt_tbr_close(r);
                return 2;
            }
            puts(line);
        }
    } else {
        uint64_t total = 0;
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
            uint64_t n = gmt_tbr_count(r, (gmt_tb_type)k);
            printf("%-5s %12llu records x %3zu bytes = %llu bytes\n", gmt_tb_type_name((gmt_tb_type)k),
                   (unsigned long long)n, gmt_tb_record_size((gmt_tb_type)k),
                   (unsigned long long)(n * gmt_tb_record_size((gmt_tb_type)k)));
            total += n;
        }
        printf("total %12llu records\n", (unsigned long long)total);
        for (int i = 0; i < gmt_tbr_program_count(r); i++) {
            gmt_tracebuf_program_info pi;
            gmt_tbr_program(r, i, &pi);
            printf("program %d: GL program %u, stage %u, %u blocks\n", i, pi.gl_program, pi.stage,
                   pi.blocks);
        }
        for (int i = 0; i < nv; i++)
            printf("variable %d: %s\n", i, names[i]);
    }
    gmt_tbr_close(r);
    return 0;
}
