/* The default build's driver of a fuzz target: every file named on the command line, or found in
 * a folder named there (not recursively), goes through the target once, in name order. The suite
 * runs it over the target's seed corpus (tests/fuzz/corpus/TARGET) so every input that once found
 * a bug stays a regression test; under the ASan+UBSan build a finding aborts the run. libFuzzer
 * builds (run_fuzz.sh) link libFuzzer's main instead of this one. */
#include "fuzz_target.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                fprintf(stderr, "fuzz: %s: out of memory\n", path);
                return -1;
            }
            buf = nb;
        }
        size_t n = fread(buf + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, size);
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "fuzz: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i] ? names[i] : "");
        if (names[i] && run_file(path) == 0)
            (*count)++;
        else
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    int count = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            rc |= run_dir(argv[i], &count);
        else if (run_file(argv[i]) == 0)
            count++;
        else
            rc = -1;
    }
    printf("fuzz: %d inputs ran without a finding\n", count);
    return rc ? 1 : 0;
}
