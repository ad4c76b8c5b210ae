/* `glreplay capture --frame N [--count K] --out F.glcap -- APP ARGS`: runs APP under the shim with
 * GLREPLAY_CAPTURE_FRAMES=N-(N+K-1) and GLREPLAY_CAPTURE_OUT=F. The program runs to its own end
 * (the capture does not stop it). Exit 0 only when this run wrote F and F loads as a capture. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_verbs.h"
#include "replay/player/player.h"

#define USAGE "usage: glreplay capture --frame N [--count K] --out F.glcap -- APP ARGS"

static bool parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!s[0] || s[0] == '-')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

/* --frame's value (dest: unsigned long long); NO_FRAME until one is given. */
#define NO_FRAME (~0ull)
static bool parse_frame(const char *s, void *dest)
{
    return parse_u64(s, 1ull << 48, dest);
}

/* --count's value (dest: unsigned long long). */
static bool parse_count(const char *s, void *dest)
{
    unsigned long long *count = dest;
    return parse_u64(s, 1ull << 32, count) && *count != 0;
}

/* The output path made absolute: the program may change its working directory. */
static char *absolute_path(const char *p)
{
    if (p[0] == '/')
        return strdup(p);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    size_t n = strlen(cwd) + strlen(p) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", cwd, p);
    return s;
}

int cli_capture(int argc, char **argv)
{
    unsigned long long frame = NO_FRAME, count = 1;
    const char *out = NULL;
    int i;
    const char *none;
    const struct cli_opt opts[] = {
        { .name = "--frame", .parse = parse_frame, .dest = &frame, .needs = "a frame number" },
        { .name = "--count", .parse = parse_count, .dest = &count, .needs = "a number of frames, at least 1" },
        { .name = "--out", .str = &out },
    };
    const struct cli_verb v = { .verb = "capture", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .program = true, .unknown = "%v: unexpected argument '%a' (%u)",
                                .extra = "%v: unexpected argument '%a' (%u)" };
    if (cli_parse(&v, argc, argv, &none, &i) != 0)
        return 2;
    if (frame == NO_FRAME || !out || !out[0]) {
        cli_error("capture: --frame and --out are required (" USAGE ")");
        return 2;
    }
    if (i >= argc) {
        cli_error("capture: no program given (" USAGE ")");
        return 2;
    }
    char *abs = absolute_path(out);
    if (!abs) {
        cli_error("capture: cannot resolve %s", out);
        return 2;
    }
    char frames[64];
    snprintf(frames, sizeof frames, "%llu-%llu", frame, frame + count - 1);
    if (setenv("GLREPLAY_CAPTURE_FRAMES", frames, 1) != 0 || setenv("GLREPLAY_CAPTURE_OUT", abs, 1) != 0) {
        cli_error("capture: cannot set the environment: %s", strerror(errno));
        free(abs);
        return 2;
    }
    /* Whether this run wrote the file: the writer renames a new file into place, so a file that
     * existed before is replaced by another inode. */
    struct stat before;
    bool existed = stat(abs, &before) == 0;
    char **run_argv = calloc((size_t)(argc - i) + 2, sizeof *run_argv);
    if (!run_argv) {
        free(abs);
        cli_error("capture: out of memory");
        return 2;
    }
    run_argv[0] = "--";
    for (int k = i; k < argc; k++)
        run_argv[1 + k - i] = argv[k];
    int status = cli_run_supervised(argc - i + 1, run_argv);
    free(run_argv);
    struct stat after;
    bool written = stat(abs, &after) == 0 &&
                   (!existed || after.st_ino != before.st_ino || after.st_dev != before.st_dev ||
                    after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec);
    if (!written) {
        /* 127: cli_run_supervised already said the program could not be started. */
        if (status != 127)
            cli_error("capture: %s was not written (the program exited with status %d; did it create a GL context "
                      "and reach frame %llu? GLREPLAY_LOG=warn tells why)", out, status, frame);
        free(abs);
        return 1;
    }
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(abs, err, sizeof err);
    if (!cap) {
        cli_error("capture: the capture written is unreadable: %s", err);
        free(abs);
        return 1;
    }
    fprintf(stderr, "glreplay: captured frames %llu-%llu into %s (%llu records, %u reference images, %u frame hashes)%s\n",
            (unsigned long long)cap->first_frame, (unsigned long long)cap->last_frame, out,
            (unsigned long long)cap->n_records, cap->n_images, cap->n_hashes,
            status ? " (the program then exited with an error)" : "");
    glrh_capture_close(cap);
    free(abs);
    return 0;
}
