/* The capture environment and the check of the file after the program's end (cli_capture_check.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli_capture_check.h"
#include "cli_common.h"
#include "replay/player/player.h"

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

bool cli_parse_frame(const char *s, void *dest)
{
    return parse_u64(s, 1ull << 48, dest);
}

bool cli_parse_count(const char *s, void *dest)
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

int cli_capture_prepare(struct cli_capture_plan *p, const char *verb, unsigned long long frame,
                        unsigned long long count, const char *out)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->frame = frame;
    p->count = count;
    p->abs = absolute_path(out);
    if (!p->abs) {
        cli_error("%s: cannot resolve %s", verb, out);
        return -1;
    }
    char frames[64];
    snprintf(frames, sizeof frames, "%llu-%llu", frame, frame + count - 1);
    if (setenv("GLREPLAY_CAPTURE_FRAMES", frames, 1) != 0 || setenv("GLREPLAY_CAPTURE_OUT", p->abs, 1) != 0) {
        cli_error("%s: cannot set the environment: %s", verb, strerror(errno));
        cli_capture_plan_free(p);
        return -1;
    }
    /* Whether this run wrote the file: the writer renames a new file into place, so a file that
     * existed before is replaced by another inode. */
    p->existed = stat(p->abs, &p->before) == 0;
    return 0;
}

bool cli_capture_written(const struct cli_capture_plan *p)
{
    struct stat after;
    const struct stat *b = &p->before;
    return stat(p->abs, &after) == 0 &&
           (!p->existed || after.st_ino != b->st_ino || after.st_dev != b->st_dev ||
            after.st_mtim.tv_sec != b->st_mtim.tv_sec || after.st_mtim.tv_nsec != b->st_mtim.tv_nsec);
}

int cli_capture_check(const struct cli_capture_plan *p, int status)
{
    if (!cli_capture_written(p)) {
        char st[64] = "";
        if (status >= 0)
            snprintf(st, sizeof st, "the program exited with status %d; ", status);
        cli_error("capture: %s was not written (%sdid it create a GL context and reach frame %llu? "
                  "GLREPLAY_LOG=warn tells why)", p->out, st, p->frame);
        return 1;
    }
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(p->abs, err, sizeof err);
    if (!cap) {
        cli_error("capture: the capture written is unreadable: %s", err);
        return 1;
    }
    fprintf(stderr, "glreplay: captured frames %llu-%llu into %s (%llu records, %u reference images, %u frame hashes)%s\n",
            (unsigned long long)cap->first_frame, (unsigned long long)cap->last_frame, p->out,
            (unsigned long long)cap->n_records, cap->n_images, cap->n_hashes,
            status > 0 ? " (the program then exited with an error)" : "");
    glrh_capture_close(cap);
    return 0;
}

void cli_capture_plan_free(struct cli_capture_plan *p)
{
    free(p->abs);
    p->abs = NULL;
}
