/* glreplay: the command-line front end (see README.md, "CLI reference"). */
#include <stdio.h>
#include <string.h>
#include "cli_common.h"
#include "cli_verbs.h"
#include "cli_state.h"
#include "cli_model.h"
#include "cli_dap.h"

struct verb {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *usage;
};

static const struct verb verbs[] = {
    { "run", cli_run, "run [--socket P] -- APP ARGS     run APP with the shim preloaded" },
    { "capture", cli_capture, "capture --frame N [--count K] --out F.glcap -- APP ARGS   capture frames N..N+K-1" },
    { "info", cli_info, "info F.glcap [--json] [--top N]   what a capture holds" },
    { "replay", cli_replay, "replay F.glcap [--loop N] [--verify] [--png DIR] [--benchmark] [--gl-errors]   headless replay" },
    { "state", cli_state, "state F.glcap --event K [--json]   API state before the K-th record (state model)" },
    { "model", cli_model, "model F.glcap [--compare] [--png DIR] [--json] [--benchmark] [--trace-hash]   run the frame on the GPU model" },
    { "debug", cli_debug, "debug F.glcap --break FILE_OR_SHADER:LINE [--hit N] [--condition E] [--draw K] [--pixel X,Y] [--json]   stop at the N-th hit, print the snapshot" },
    { "profile", cli_profile, "profile F.glcap --out trace.json [--counters] [--pc-sampling P] [--edges B] [--trace-buffers TYPES] [--plot out.svg] [--json]   GPU model telemetry: Perfetto trace, report, plot" },
    { "dap", cli_dap, "dap --socket P F.glcap   Debug Adapter Protocol server for a capture file" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: glreplay <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        fprintf(f, "  glreplay %s\n", verbs[i].usage);
    fprintf(f, "\nenvironment (read by the shim): GLREPLAY_SOCKET, GLREPLAY_CAPTURE_FRAMES, GLREPLAY_CAPTURE_OUT,\n"
               "  GLREPLAY_LOG=error|warn|info|debug, GLREPLAY_DISABLE=1; GLREPLAY_SHIM overrides the shim path.\n");
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
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(argv[1], verbs[i].name) == 0)
            return verbs[i].fn(argc - 2, argv + 2);
    cli_error("unknown command '%s' (see glreplay --help)", argv[1]);
    return 2;
}
