/* A verb's options as a table: one parser for the verbs' argument loops (cli_opts.c).
 *
 * Each entry is a flag (sets *flag to set_to) or takes the next argument as its value (stored in
 * *str, or given to parse with dest). The first argument that is not an option is the capture
 * file. The errors are the verbs' one-line usage errors, exit status 2:
 *   VERB: --OPT needs NEEDS (USAGE)             value missing, empty (with nonempty) or refused
 *   VERB: unknown option 'ARG' (USAGE)
 *   VERB: more than one capture file given (USAGE)
 *   VERB: no capture file given (USAGE) */
#ifndef GLR_CLI_OPTS_H
#define GLR_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>

struct cli_opt {
    const char *name;                       /* "--png" */
    bool *flag;                             /* a flag: *flag = set_to */
    bool set_to;
    const char **str;                       /* a value kept as given */
    bool (*parse)(const char *arg, void *dest);   /* a value parsed into dest; false: refused */
    void *dest;
    bool nonempty;                          /* an empty value is refused too */
    const char *needs;                      /* what the value must be, for the error */
};

/* Parses argv (the arguments after the verb) against opts[0..n). 0, or 2 after printing the
 * error. *path is the capture file. */
int cli_parse_opts(const char *verb, const char *usage, const struct cli_opt *opts, size_t n, int argc,
                   char **argv, const char **path);

/* parse callbacks for common values: seconds for --timeout (cli_parse_timeout, dest a double). */
bool cli_opt_seconds(const char *arg, void *dest);

#endif
