/* Unit test of the CLI verbs' option parser (cli_opts.c): flags, values kept and parsed, the
 * capture file, and each usage error (its exact line on stderr and status 2). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../cli_opts.h"
#include "../../../tests/support/glr_check.h"

#define USAGE "usage: glreplay t F.glcap [--on] [--off] [--dir D] [--secs S]"

static bool on, off = true;
static const char *dir;
static double secs;

static const struct cli_opt opts[] = {
    { .name = "--on", .flag = &on, .set_to = true },
    { .name = "--off", .flag = &off, .set_to = false },
    { .name = "--dir", .str = &dir, .nonempty = true, .needs = "a folder" },
    { .name = "--secs", .parse = cli_opt_seconds, .dest = &secs, .needs = "a number of seconds" },
};

/* Runs the parser on the arguments (NULL-terminated); returns its status, stderr in err. */
static int parse(const char **path, char *err, size_t n, ...)
{
    char *argv[16];
    int argc = 0;
    va_list ap;
    va_start(ap, n);
    for (const char *a; argc < 16 && (a = va_arg(ap, const char *));)
        argv[argc++] = (char *)a;
    va_end(ap);
    on = false, off = true, dir = NULL, secs = 0;
    FILE *tmp = tmpfile();
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    int rc = cli_parse_opts("t", USAGE, opts, sizeof opts / sizeof *opts, argc, argv, path);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t k = fread(err, 1, n - 1, tmp);
    err[k] = 0;
    fclose(tmp);
    return rc;
}

int main(void)
{
    const char *path;
    char err[512];
    CHECK(parse(&path, err, sizeof err, "--on", "f.glcap", "--off", "--dir", "d", "--secs", "2.5", NULL) == 0);
    CHECK(path && !strcmp(path, "f.glcap"));
    CHECK(on && !off && dir && !strcmp(dir, "d") && secs == 2.5);
    CHECK(!err[0]);
    /* "-" alone is a file name (stdin), not an option. */
    CHECK(parse(&path, err, sizeof err, "-", NULL) == 0 && !strcmp(path, "-"));

    static const struct {
        const char *args[4];
        const char *line;
    } bad[] = {
        { { NULL }, "glreplay: t: no capture file given (" USAGE ")\n" },
        { { "a", "b" }, "glreplay: t: more than one capture file given (" USAGE ")\n" },
        { { "a", "--bogus" }, "glreplay: t: unknown option '--bogus' (" USAGE ")\n" },
        { { "a", "--dir" }, "glreplay: t: --dir needs a folder (" USAGE ")\n" },
        { { "a", "--dir", "" }, "glreplay: t: --dir needs a folder (" USAGE ")\n" },
        { { "a", "--secs", "x" }, "glreplay: t: --secs needs a number of seconds (" USAGE ")\n" },
        { { "--secs", "-1", "a" }, "glreplay: t: --secs needs a number of seconds (" USAGE ")\n" },
        { { "--secs" }, "glreplay: t: --secs needs a number of seconds (" USAGE ")\n" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = parse(&path, err, sizeof err, bad[i].args[0], bad[i].args[1], bad[i].args[2], bad[i].args[3]);
        CHECKF(rc == 2, "case %zu: status %d", i, rc);
        CHECKF(!strcmp(err, bad[i].line), "case %zu: stderr '%s'", i, err);
    }
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
