/* A verb's options as a table: one parser for the verbs' argument loops (cli_opts.c).
 *
 * Each entry is a flag (sets *flag to set_to) or takes the next argument as its value (stored in
 * *str, or given to parse/parse_msg with dest). Arguments are read in order, so the first error
 * met is the one said, as in the verbs' hand loops this replaces. The errors are the verbs'
 * one-line usage errors, exit status 2; by default:
 *   VERB: --OPT needs NEEDS (USAGE)             value missing, empty (with nonempty) or refused
 *   VERB: unknown option 'ARG' (USAGE)
 *   VERB: more than one capture file given (USAGE)
 *   VERB: no capture file given (USAGE)
 * A verb whose lines differ gives templates (struct cli_verb): %v the verb, %o the option, %a the
 * argument or value met ("" when the value is missing), %n the option's needs, %e the message of
 * a parse_msg callback, %u the usage line, %% a percent sign. */
#ifndef GLR_CLI_OPTS_H
#define GLR_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>

struct cli_opt {
    const char *name;                       /* "--png" */
    bool *flag;                             /* a flag: *flag = set_to */
    bool set_to;
    bool stop;                              /* a flag that ends the parse at once (--help): status 1 */
    const char **str;                       /* a value kept as given */
    bool (*parse)(const char *arg, void *dest);   /* a value parsed into dest; false: refused */
    /* Like parse, with the reason for a refusal (%e in the template). */
    bool (*parse_msg)(const char *arg, void *dest, char *err, size_t err_size);
    void *dest;
    bool nonempty;                          /* an empty value is refused too */
    const char *needs;                      /* what the value must be, for the error (%n) */
    const char *missing;                    /* template: the value is missing; NULL: the verb's */
    const char *refused;                    /* template: refused; NULL: missing's, then the verb's */
};

/* A verb's table and its usage lines. The templates left NULL are the defaults above. */
struct cli_verb {
    const char *verb, *usage;
    const struct cli_opt *opts;
    size_t n;
    const char *missing, *refused;          /* a value missing / refused */
    const char *unknown;                    /* an option not in the table */
    const char *extra;                      /* a second capture file (any operand, with program) */
    bool path_later;                        /* the verb says "no capture file given" after its own checks */
    /* run, capture: options, then `--` and the program to start. There is no capture file: every
     * operand is an error (extra), and a value option last on the line is unknown (its name as
     * %a: it was never an option with a value there). *rest is the program's index (argc when
     * none is given). */
    bool program;
};

/* Parses argv (the arguments after the verb) against v: 0, 1 when a stop option was met (its
 * flag set, nothing after it read), or 2 after printing the error. *path is the capture file (NULL
 * when none, with path_later or program); rest may be NULL unless v->program. */
int cli_parse(const struct cli_verb *v, int argc, char **argv, const char **path, int *rest);

/* cli_parse with the default lines and a capture file required (model, replay, info). */
int cli_parse_opts(const char *verb, const char *usage, const struct cli_opt *opts, size_t n, int argc,
                   char **argv, const char **path);

/* parse callbacks for common values: seconds for --timeout (cli_parse_timeout, dest a double). */
bool cli_opt_seconds(const char *arg, void *dest);

#endif
