/* The table-driven option parser of the CLI verbs (cli_opts.h): the loop each verb had by hand,
 * once, with the same messages (each verb's own wording is a template in its table). */
#include <string.h>

#include "cli_common.h"
#include "cli_opts.h"
#include "cli_stop.h"

#define NEEDS_LINE "%v: %o needs %n (%u)"

/* What a template's % codes stand for. */
struct msg_args {
    const struct cli_verb *v;
    const char *opt, *arg, *needs, *err;
};

/* Prints template t with its codes replaced (cli_error: "glreplay: " and a newline). */
static void say(const char *t, const struct msg_args *m)
{
    char out[2048];
    size_t k = 0;
    for (; *t && k + 1 < sizeof out; t++) {
        const char *s = NULL;
        char one[2] = { 0, 0 };
        if (*t == '%' && t[1]) {
            switch (*++t) {
            case 'v': s = m->v->verb; break;
            case 'o': s = m->opt; break;
            case 'a': s = m->arg; break;
            case 'n': s = m->needs; break;
            case 'e': s = m->err; break;
            case 'u': s = m->v->usage; break;
            default: one[0] = *t; s = one; break;   /* %% and anything else: the character */
            }
        }
        if (!s) {
            out[k++] = *t;
            continue;
        }
        size_t len = strlen(s);
        if (len > sizeof out - 1 - k)
            len = sizeof out - 1 - k;
        memcpy(out + k, s, len);
        k += len;
    }
    out[k] = 0;
    cli_error("%s", out);
}

static const struct cli_opt *find(const struct cli_opt *opts, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(opts[k].name, name))
            return &opts[k];
    return NULL;
}

/* Takes option o's value at argv[i + 1]; false after saying why it cannot. */
static bool take_value(const struct cli_verb *v, const struct cli_opt *o, int i, int argc, char **argv)
{
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    char err[512] = "";
    struct msg_args m = { v, o->name, val ? val : "", o->needs ? o->needs : "", err };
    const char *missing = o->missing ? o->missing : v->missing ? v->missing : NEEDS_LINE;
    const char *refused = o->refused ? o->refused : o->missing ? o->missing
                        : v->refused ? v->refused : missing;
    if (!val) {
        say(missing, &m);
        return false;
    }
    bool ok;
    if (o->parse_msg)
        ok = o->parse_msg(val, o->dest, err, sizeof err);
    else if (o->parse)
        ok = o->parse(val, o->dest);
    else if ((ok = val && !(o->nonempty && !val[0])))
        *o->str = val;
    if (!ok)
        say(refused, &m);
    return ok;
}

int cli_parse(const struct cli_verb *v, int argc, char **argv, const char **path, int *rest)
{
    *path = NULL;
    if (rest)
        *rest = argc;
    const char *extra = v->extra ? v->extra : "%v: more than one capture file given (%u)";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        struct msg_args m = { v, a, a, "", "" };
        if (v->program && !strcmp(a, "--")) {
            *rest = i + 1;
            return 0;
        }
        const struct cli_opt *o = find(v->opts, v->n, a);
        if (o && !o->flag && v->program && i + 1 >= argc)
            o = NULL;
        if (o && o->flag) {
            *o->flag = o->set_to;
            if (o->stop)
                return 1;
        } else if (o) {
            if (!take_value(v, o, i, argc, argv))
                return 2;
            i++;
        } else if (a[0] == '-' && a[1]) {
            say(v->unknown ? v->unknown : "%v: unknown option '%a' (%u)", &m);
            return 2;
        } else if (!v->program && !*path) {
            *path = a;
        } else {
            say(extra, &m);
            return 2;
        }
    }
    if (!*path && !v->path_later && !v->program) {
        say("%v: no capture file given (%u)", &(struct msg_args){ v, "", "", "", "" });
        return 2;
    }
    return 0;
}

int cli_parse_opts(const char *verb, const char *usage, const struct cli_opt *opts, size_t n, int argc,
                   char **argv, const char **path)
{
    const struct cli_verb v = { .verb = verb, .usage = usage, .opts = opts, .n = n };
    return cli_parse(&v, argc, argv, path, NULL);
}

bool cli_opt_seconds(const char *arg, void *dest)
{
    return cli_parse_timeout(arg, dest);
}
