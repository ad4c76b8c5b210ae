/* What `glreplay capture` and `glreplay run --frame N --out F` share: the capture environment for
 * the program, and the check of the file once the program has ended. */
#ifndef GLR_CLI_CAPTURE_CHECK_H
#define GLR_CLI_CAPTURE_CHECK_H

#include <stdbool.h>
#include <sys/stat.h>

struct cli_capture_plan {
    char *abs;                      /* the output path made absolute (owned) */
    const char *out;                /* as given, for messages */
    unsigned long long frame, count;
    bool existed;                   /* a file was there before the program started */
    struct stat before;
};

/* Option parsers for --frame (unsigned long long, at most 2^48) and --count (1..2^32). */
bool cli_parse_frame(const char *s, void *dest);
bool cli_parse_count(const char *s, void *dest);
#define CLI_NO_FRAME (~0ull)

/* Resolves the path and sets GLREPLAY_CAPTURE_FRAMES / GLREPLAY_CAPTURE_OUT for the program.
 * 0, or -1 (the error said, prefixed with verb). */
int cli_capture_prepare(struct cli_capture_plan *p, const char *verb, unsigned long long frame,
                        unsigned long long count, const char *out);

/* Whether this run wrote the file (a new file, or another inode or time than before). */
bool cli_capture_written(const struct cli_capture_plan *p);

/* Once the program has ended: whether this run wrote the file and it loads, said on stderr in one
 * line. status is the program's exit status, or -1 when it is not known to the caller. 0 when the
 * capture was written and loads, else 1. */
int cli_capture_check(const struct cli_capture_plan *p, int status);

void cli_capture_plan_free(struct cli_capture_plan *p);

#endif
