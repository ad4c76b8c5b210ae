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

/* A verb with its own lines, --help, a value refused with a reason, and a program after `--`
 * (run, capture): cli_parse on its struct cli_verb. */
static bool help_asked;
static const char *sock;

static bool parse_even(const char *arg, void *dest, char *err, size_t err_size)
{
    if (arg[0] && !((arg[strlen(arg) - 1] - '0') % 2))
        return *(const char **)dest = arg, true;
    snprintf(err, err_size, "'%s' is odd", arg);
    return false;
}

static const char *even;
static const struct cli_opt vopts[] = {
    { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
    { .name = "--socket", .str = &sock, .needs = "a path" },
    { .name = "--even", .parse_msg = parse_even, .dest = &even, .needs = "a number", .refused = "%v: %e (%u)" },
    { .name = "--hit", .str = &sock, .refused = "%v: %o needs %n, got '%a'" },
};

static int vparse(const struct cli_verb *v, const char **path, int *rest, char *err, size_t n, ...)
{
    char *argv[16];
    int argc = 0;
    va_list ap;
    va_start(ap, n);
    for (const char *a; argc < 16 && (a = va_arg(ap, const char *));)
        argv[argc++] = (char *)a;
    va_end(ap);
    help_asked = false, sock = NULL, even = NULL;
    FILE *tmp = tmpfile();
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    int rc = cli_parse(v, argc, argv, path, rest);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t k = fread(err, 1, n - 1, tmp);
    err[k] = 0;
    fclose(tmp);
    return rc;
}

static void verb_tables(void)
{
    const char *path;
    int rest;
    char err[512];
    const struct cli_verb d = { .verb = "d", .usage = "U", .opts = vopts, .n = 4, .path_later = true,
                                .missing = "%v: %o needs a value (%u)", .extra = "%v: unexpected argument '%a' (%u)" };
    /* --help stops the parse where it stands: what follows is not read. */
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "--help", "--bogus", NULL) == 1 && help_asked && !err[0]);
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "--bogus", "--help", NULL) == 2 && !help_asked);
    CHECK(!strcmp(err, "glreplay: d: unknown option '--bogus' (U)\n"));
    /* path_later: no capture file is no error here. */
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "--even", "4", NULL) == 0 && !path && even && !err[0]);
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "--even", "3", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: d: '3' is odd (U)\n"));
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "--even", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: d: --even needs a value (U)\n"));
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "a", "b", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: d: unexpected argument 'b' (U)\n"));
    CHECK(vparse(&d, &path, NULL, err, sizeof err, "a", "--socket", "--help", NULL) == 0 && !help_asked &&
          !strcmp(sock, "--help") && !strcmp(path, "a"));
    /* 100% and a code the templates do not know are kept as written. */
    const struct cli_verb pct = { .verb = "p", .usage = "U", .opts = vopts, .n = 4, .unknown = "%v: 100%% %q %a" };
    CHECK(vparse(&pct, &path, NULL, err, sizeof err, "-x", NULL) == 2 && !strcmp(err, "glreplay: p: 100% q -x\n"));

    /* A program after `--`: operands are errors, a value option last on the line is unknown. */
    const struct cli_verb r = { .verb = "run", .usage = "U", .opts = vopts, .n = 2, .program = true,
                                .unknown = "%v: unexpected argument '%a' (%u)",
                                .extra = "%v: unexpected argument '%a' (%u)" };
    CHECK(vparse(&r, &path, &rest, err, sizeof err, "--socket", "s", "--", "app", "--help", NULL) == 0);
    CHECK(rest == 3 && !strcmp(sock, "s") && !path && !err[0]);
    CHECK(vparse(&r, &path, &rest, err, sizeof err, "--socket", "--", "app", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: run: unexpected argument 'app' (U)\n"));
    CHECK(vparse(&r, &path, &rest, err, sizeof err, "--socket", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: run: unexpected argument '--socket' (U)\n"));
    CHECK(vparse(&r, &path, &rest, err, sizeof err, "-", "--", "app", NULL) == 2);
    CHECK(!strcmp(err, "glreplay: run: unexpected argument '-' (U)\n"));
    CHECK(vparse(&r, &path, &rest, err, sizeof err, "--socket", "s", NULL) == 0 && rest == 2);
}

int main(void)
{
    verb_tables();
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
