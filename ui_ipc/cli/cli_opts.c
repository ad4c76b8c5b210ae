/* The table-driven option parser of the CLI verbs (cli_opts.h): the loop each verb had by hand,
 * once, with the same messages. */
#include <string.h>

#include "cli_common.h"
#include "cli_opts.h"
#include "cli_stop.h"

static const struct cli_opt *find(const struct cli_opt *opts, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(opts[k].name, name))
            return &opts[k];
    return NULL;
}

/* The value of option o at argv[i + 1]; false when it is missing or refused. */
static bool take_value(const struct cli_opt *o, int i, int argc, char **argv)
{
    if (i + 1 >= argc || (o->nonempty && !argv[i + 1][0]))
        return false;
    if (o->parse)
        return o->parse(argv[i + 1], o->dest);
    *o->str = argv[i + 1];
    return true;
}

int cli_parse_opts(const char *verb, const char *usage, const struct cli_opt *opts, size_t n, int argc,
                   char **argv, const char **path)
{
    *path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const struct cli_opt *o = find(opts, n, a);
        if (o && o->flag) {
            *o->flag = o->set_to;
        } else if (o) {
            if (!take_value(o, i, argc, argv)) {
                cli_error("%s: %s needs %s (%s)", verb, o->name, o->needs, usage);
                return 2;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            cli_error("%s: unknown option '%s' (%s)", verb, a, usage);
            return 2;
        } else if (!*path) {
            *path = a;
        } else {
            cli_error("%s: more than one capture file given (%s)", verb, usage);
            return 2;
        }
    }
    if (!*path) {
        cli_error("%s: no capture file given (%s)", verb, usage);
        return 2;
    }
    return 0;
}

bool cli_opt_seconds(const char *arg, void *dest)
{
    return cli_parse_timeout(arg, dest);
}
