/* Command-line options shared by every sample program.
 *
 * All samples accept the same options so that the demo scripts and the e2e tests can drive them
 * uniformly: a frame count, a window size, and a list of frames whose back buffer is dumped to
 * PAM files. Parsing is pure C (no GL), so it is unit-tested on its own. */
#ifndef SAMPLES_SAMPLE_ARGS_H
#define SAMPLES_SAMPLE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#define SAMPLE_MAX_DUMP_FRAMES 256
#define SAMPLE_MAX_FRAMES 100000000
#define SAMPLE_MAX_SIZE 8192

typedef struct SampleArgs {
    int frames;                              /* --frames N (default 100) */
    int first_frame;                         /* --first-frame K (default 0): the animation
                                              * starts at frame K, so one frame of a long run
                                              * can be drawn alone (frames K..N-1) */
    int width, height;                       /* --size WxH (default 640x360) */
    int dump_frames[SAMPLE_MAX_DUMP_FRAMES]; /* --dump-frames LIST, in the order given */
    int dump_count;
    const char *dump_dir;                    /* --dump-dir DIR (points into argv) */
    const char *shader_dir;                  /* --shader-dir DIR, default SAMPLES_SHADER_DIR */
} SampleArgs;

typedef enum SampleArgsResult {
    SAMPLE_ARGS_OK,
    SAMPLE_ARGS_HELP,   /* --help / -h was given */
    SAMPLE_ARGS_ERROR,  /* message written to err */
} SampleArgsResult;

/* Parses argv[1..argc-1] into *a (defaults first). default_shader_dir is used when
 * --shader-dir is absent. On error writes a one-line message (no newline) to err. */
SampleArgsResult sample_args_parse(SampleArgs *a, int argc, char **argv,
                                   const char *default_shader_dir, char *err, size_t errlen);

/* Parses or exits: usage on stdout and exit 0 for --help, error + usage on stderr and exit 2
 * for bad options. */
void sample_args_parse_or_exit(SampleArgs *a, const char *name, int argc, char **argv);

/* Prints the usage text of sample `name` to the given stream (a FILE *). */
void sample_args_usage(void *stream, const char *name);

/* True when frame index `frame` is in the --dump-frames list. */
bool sample_args_wants_dump(const SampleArgs *a, int frame);

#endif
