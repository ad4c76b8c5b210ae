/* Command-line parsing for the samples (see sample_args.h). */
#include "sample_args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SAMPLES_SHADER_DIR
#define SAMPLES_SHADER_DIR "shaders"
#endif

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Parses a decimal integer in [lo, hi] that spans the whole of [s, end). Only digits are
 * accepted (no sign, no spaces) so "1e3", " 5" and "-1" are all rejected. */
static bool parse_int_range(const char *s, const char *end, long lo, long hi, int *out)
{
    if (s == end)
        return false;
    long v = 0;
    for (const char *p = s; p < end; ++p) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (*p - '0');
        if (v > hi)
            return false;
    }
    if (v < lo)
        return false;
    *out = (int)v;
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    const char *x = strchr(s, 'x');
    if (!x)
        return false;
    return parse_int_range(s, x, 1, SAMPLE_MAX_SIZE, w) &&
           parse_int_range(x + 1, x + 1 + strlen(x + 1), 1, SAMPLE_MAX_SIZE, h);
}

static bool parse_frame_list(const char *s, SampleArgs *a, char *err, size_t errlen)
{
    a->dump_count = 0;
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        int v;
        if (!parse_int_range(p, end, 0, SAMPLE_MAX_FRAMES - 1, &v)) {
            set_err(err, errlen, "bad frame index '%.*s' in --dump-frames '%s'",
                    (int)(end - p), p, s);
            return false;
        }
        if (a->dump_count == SAMPLE_MAX_DUMP_FRAMES) {
            set_err(err, errlen, "--dump-frames lists more than %d frames",
                    SAMPLE_MAX_DUMP_FRAMES);
            return false;
        }
        a->dump_frames[a->dump_count++] = v;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

/* Returns the value of option `name` at argv[*i], accepting "--name VALUE" and "--name=VALUE";
 * NULL when argv[*i] is not this option. *missing is set when the value is absent. */
static const char *option_value(const char *name, int argc, char **argv, int *i, bool *missing)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

SampleArgsResult sample_args_parse(SampleArgs *a, int argc, char **argv,
                                   const char *default_shader_dir, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->frames = 100;
    a->width = 640;
    a->height = 360;
    a->shader_dir = default_shader_dir;

    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *v;
        bool missing = false;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return SAMPLE_ARGS_HELP;
        if ((v = option_value("--frames", argc, argv, &i, &missing))) {
            if (!parse_int_range(v, v + strlen(v), 1, SAMPLE_MAX_FRAMES, &a->frames)) {
                set_err(err, errlen, "bad --frames value '%s' (expected 1..%d)", v,
                        SAMPLE_MAX_FRAMES);
                return SAMPLE_ARGS_ERROR;
            }
        } else if ((v = option_value("--first-frame", argc, argv, &i, &missing))) {
            if (!parse_int_range(v, v + strlen(v), 0, SAMPLE_MAX_FRAMES - 1, &a->first_frame)) {
                set_err(err, errlen, "bad --first-frame value '%s' (expected 0..%d)", v,
                        SAMPLE_MAX_FRAMES - 1);
                return SAMPLE_ARGS_ERROR;
            }
        } else if ((v = option_value("--size", argc, argv, &i, &missing))) {
            if (!parse_size(v, &a->width, &a->height)) {
                set_err(err, errlen, "bad --size value '%s' (expected WxH, each 1..%d)", v,
                        SAMPLE_MAX_SIZE);
                return SAMPLE_ARGS_ERROR;
            }
        } else if ((v = option_value("--dump-frames", argc, argv, &i, &missing))) {
            if (!parse_frame_list(v, a, err, errlen))
                return SAMPLE_ARGS_ERROR;
        } else if ((v = option_value("--dump-dir", argc, argv, &i, &missing))) {
            if (!*v) {
                set_err(err, errlen, "empty --dump-dir");
                return SAMPLE_ARGS_ERROR;
            }
            a->dump_dir = v;
        } else if ((v = option_value("--shader-dir", argc, argv, &i, &missing))) {
            if (!*v) {
                set_err(err, errlen, "empty --shader-dir");
                return SAMPLE_ARGS_ERROR;
            }
            a->shader_dir = v;
        } else if (missing) {
            set_err(err, errlen, "option '%s' needs a value", arg);
            return SAMPLE_ARGS_ERROR;
        } else {
            set_err(err, errlen, "unknown option '%s'", arg);
            return SAMPLE_ARGS_ERROR;
        }
    }
    if (a->first_frame >= a->frames) {
        set_err(err, errlen, "--first-frame %d is not below --frames %d", a->first_frame, a->frames);
        return SAMPLE_ARGS_ERROR;
    }
    if (a->dump_count > 0 && !a->dump_dir) {
        set_err(err, errlen, "--dump-frames needs --dump-dir");
        return SAMPLE_ARGS_ERROR;
    }
    return SAMPLE_ARGS_OK;
}

void sample_args_usage(void *stream, const char *name)
{
    fprintf((FILE *)stream,
            "usage: %s [options]\n"
            "  --frames N          exit after N frames (default 100)\n"
            "  --first-frame K     start the animation at frame K (draws frames K..N-1)\n"
            "  --size WxH          window size (default 640x360)\n"
            "  --dump-frames LIST  comma list of frame indices (frame 0 is the first) whose\n"
            "                      back buffer is written before the swap that ends them\n"
            "  --dump-dir DIR      where dumps go, as DIR/frame_NNNN.pam (created if missing)\n"
            "  --shader-dir DIR    shader folder (default %s)\n"
            "  -h, --help          this text\n",
            name, SAMPLES_SHADER_DIR);
}

void sample_args_parse_or_exit(SampleArgs *a, const char *name, int argc, char **argv)
{
    char err[512];
    switch (sample_args_parse(a, argc, argv, SAMPLES_SHADER_DIR, err, sizeof err)) {
    case SAMPLE_ARGS_OK:
        return;
    case SAMPLE_ARGS_HELP:
        sample_args_usage(stdout, name);
        exit(0);
    case SAMPLE_ARGS_ERROR:
        fprintf(stderr, "%s: %s\n", name, err);
        sample_args_usage(stderr, name);
        exit(2);
    }
}

bool sample_args_wants_dump(const SampleArgs *a, int frame)
{
    for (int i = 0; i < a->dump_count; ++i)
        if (a->dump_frames[i] == frame)
            return true;
    return false;
}
