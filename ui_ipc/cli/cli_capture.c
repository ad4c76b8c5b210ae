/* `glreplay capture --frame N [--count K] --out F.glcap -- APP ARGS`: runs APP under the shim with
 * GLREPLAY_CAPTURE_FRAMES=N-(N+K-1) and GLREPLAY_CAPTURE_OUT=F. The program runs to its own end
 * (the capture does not stop it). Exit 0 only when this run wrote F and F loads as a capture.
 * Since its exit status is the capture's, it waits for APP as a parent (cli_run_supervised);
 * `glreplay run --frame N --out F` is the same capture with APP in this process (exact signals,
 * the program's status; cli_run.c). */
#include <stdio.h>
#include <stdlib.h>
#include "cli_capture_check.h"
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_verbs.h"

#define USAGE "usage: glreplay capture --frame N [--count K] --out F.glcap -- APP ARGS"

int cli_capture(int argc, char **argv)
{
    unsigned long long frame = CLI_NO_FRAME, count = 1;
    const char *out = NULL;
    int i;
    const char *none;
    const struct cli_opt opts[] = {
        { .name = "--frame", .parse = cli_parse_frame, .dest = &frame, .needs = "a frame number" },
        { .name = "--count", .parse = cli_parse_count, .dest = &count, .needs = "a number of frames, at least 1" },
        { .name = "--out", .str = &out },
    };
    const struct cli_verb v = { .verb = "capture", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .program = true, .unknown = "%v: unexpected argument '%a' (%u)",
                                .extra = "%v: unexpected argument '%a' (%u)" };
    if (cli_parse(&v, argc, argv, &none, &i) != 0)
        return 2;
    if (frame == CLI_NO_FRAME || !out || !out[0]) {
        cli_error("capture: --frame and --out are required (" USAGE ")");
        return 2;
    }
    if (i >= argc) {
        cli_error("capture: no program given (" USAGE ")");
        return 2;
    }
    struct cli_capture_plan plan;
    if (cli_capture_prepare(&plan, "capture", frame, count, out) != 0)
        return 2;
    char **run_argv = calloc((size_t)(argc - i) + 2, sizeof *run_argv);
    if (!run_argv) {
        cli_capture_plan_free(&plan);
        cli_error("capture: out of memory");
        return 2;
    }
    run_argv[0] = "--";
    for (int k = i; k < argc; k++)
        run_argv[1 + k - i] = argv[k];
    int status = cli_run_supervised(argc - i + 1, run_argv);
    free(run_argv);
    /* 127: cli_run_supervised already said the program could not be started. */
    int rc = status == 127 && !cli_capture_written(&plan) ? 1 : cli_capture_check(&plan, status);
    cli_capture_plan_free(&plan);
    return rc;
}
