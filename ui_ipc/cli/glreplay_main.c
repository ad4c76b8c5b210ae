/* glreplay: the command-line front end (see README.md, "CLI reference"). */
#include <stdio.h>
#include <string.h>
#include "cli_common.h"
#include "cli_help.h"
#include "cli_verbs.h"
#include "glr_version.h"
#include "cli_state.h"
#include "cli_model.h"
#include "cli_dap.h"

struct verb {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *usage;
};

static const struct verb verbs[] = {
    { "run", cli_run, "run [--socket P] [--frame N [--count K] --out F.glcap] -- APP ARGS   run APP with the shim preloaded" },
    { "capture", cli_capture, "capture --frame N [--count K] --out F.glcap -- APP ARGS   capture frames N..N+K-1" },
    { "info", cli_info, "info F.glcap [--json] [--top N]   what a capture holds" },
    { "replay", cli_replay, "replay F.glcap [--loop N] [--verify] [--png DIR] [--benchmark] [--gl-errors]   headless replay" },
    { "state", cli_state, "state F.glcap --event K [--json] [--context ID]   API state before the K-th record (state model)" },
    { "model", cli_model, "model F.glcap [--compare] [--png DIR] [--json] [--benchmark] [--trace-hash] [--no-timing]   run the frame on the GPU model" },
    { "debug", cli_debug, "debug F.glcap --break FILE_OR_SHADER:LINE [--hit N] [--condition E] [--draw K] [--pixel X,Y] [--no-timing] [--json] | --list   stop at the N-th hit, print the snapshot" },
    { "pixel", cli_pixel, "pixel F.glcap --at X,Y [--target back|fboN/colorK] [--json] [--no-driver]   every event that touched a pixel: fragments, tests, blend; model and driver values" },
    { "profile", cli_profile, "profile F.glcap --out trace.json [--counters] [--pc-sampling P] [--edges B] [--trace-buffers TYPES] [--plot out.svg] [--json] ...   GPU model telemetry: Perfetto trace, report, plot" },
    { "report", cli_report, "report F.glcap --out DIR [--profile] [--no-model] [--thumb-size N]   self-contained HTML page of the frame" },
    { "dap", cli_dap, "dap --socket P F.glcap   Debug Adapter Protocol server for a capture file" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: glreplay <command> [options]\n"
               "       glreplay <command> --help   that command's usage and options\n"
               "       glreplay --version\n\ncommands:\n");
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  glreplay %s\n", verbs[i].usage);
    fprintf(f, "\nenvironment (read by the shim): GLREPLAY_LOG=error|warn|info|debug, GLREPLAY_DISABLE=1,\n"
               "  GLREPLAY_CAPTURE_FRAMES=N|N-M, GLREPLAY_CAPTURE_OUT, GLREPLAY_CAPTURE_MAX_MB, GLREPLAY_LIST_MAX_MB,\n"
               "  GLREPLAY_SOCKET, GLREPLAY_REPLAY_LOOP=N, GLREPLAY_REPLAY_LOOP_VERIFY=1, GLREPLAY_REPLAY_LOOP_DELAY_MS,\n"
               "  GLREPLAY_LIVE_PAUSE=0, GLREPLAY_LIVE_PAUSE_MAX_S,\n"
               "  GLREPLAY_NO_PROGRAM_BINARY=1; GLREPLAY_SHIM overrides the shim path the CLI uses.\n"
               "The manual: man glreplay.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("glreplay %s\n", GLR_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
        if (strcmp(argv[1], verbs[i].name) != 0)
            continue;
        /* Verbs without a help text here (debug, dap, state, profile) answer --help themselves. */
        if (cli_help_asked(argc - 2, argv + 2) && cli_help_print(verbs[i].name))
            return 0;
        return verbs[i].fn(argc - 2, argv + 2);
    }
    cli_error("unknown command '%s' (see glreplay --help)", argv[1]);
    return 2;
}
