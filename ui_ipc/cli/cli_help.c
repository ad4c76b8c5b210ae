/* The help of the glreplay verbs that do not print their own (`glreplay VERB --help`). The verbs
 * debug, dap, state and profile answer --help themselves, next to their option parsing. Every
 * option named here is also documented in man/glreplay.1 (tests/install/man_test.py checks). */
#include <stdio.h>
#include <string.h>
#include "cli_help.h"

struct verb_help {
    const char *verb;
    const char *text;
};

static const struct verb_help helps[] = {
    { "run",
      "usage: glreplay run [--socket P] [--frame N [--count K] --out F.glcap] -- APP ARGS\n\n"
      "Runs APP with the shim (libglreplay.so) preloaded, prints its pid and socket path on stderr\n"
      "and becomes APP (exec): its pid, signals and exit status are its own.\n"
      "The shim reads the GLREPLAY_* environment variables (see glreplay --help).\n\n"
      "  --socket P    the program's request socket (sets GLREPLAY_SOCKET; default\n"
      "                $XDG_RUNTIME_DIR/glreplay/<pid>.sock or /tmp/glreplay-<uid>/<pid>.sock)\n"
      "  --frame N --count K --out F   capture frames N..N+K-1 into F as `capture` does; a detached\n"
      "                helper says on stderr, once APP has ended, whether F was written\n" },
    { "capture",
      "usage: glreplay capture --frame N [--count K] --out F.glcap -- APP ARGS\n\n"
      "Runs APP under the shim and captures frames N..N+K-1 into F.glcap. The program runs to its\n"
      "own end. Exits 0 only when this run wrote the file and it loads as a capture.\n\n"
      "  --frame N     the first frame to capture (frame 0 begins at context creation)\n"
      "  --count K     the number of frames (default 1)\n"
      "  --out F       the capture file to write\n" },
    { "info",
      "usage: glreplay info F.glcap [--json] [--top N]\n\n"
      "Prints what a capture holds: contexts, frames, calls (total and per command), draws, clears,\n"
      "shaders, resources, section sizes and reference images.\n\n"
      "  --json        strict JSON on stdout\n"
      "  --top N       list the N most frequent commands (default 10; 0: all)\n" },
    { "replay",
      "usage: glreplay replay F.glcap [--loop N] [--verify] [--png DIR] [--benchmark] [--gl-errors]\n\n"
      "Replays the captured frames headless (EGL surfaceless on Mesa, no X server needed).\n"
      "Exit status: 0 ran (with --verify: every image matched), 1 an image differed, 2 bad usage or a\n"
      "capture or driver that cannot be used.\n\n"
      "  --loop N      replay the frames N times (1 to 1000000; default 1)\n"
      "  --verify      compare the image at every swap with the captured reference image\n"
      "  --png DIR     write the image after every draw and clear into DIR\n"
      "  --benchmark   print passes and calls per second\n"
      "  --gl-errors   check glGetError after every call; list the first error per command\n" },
    { "model",
      "usage: glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark] [--trace-hash] "
      "[--no-timing] [--threads N]\n\n"
      "Runs every draw, clear and dispatch of the capture on the software GPU model.\n"
      "Exit status: 0 ran (with --compare: every comparison >= 99.9%), 1 a comparison below 99.9%,\n"
      "2 bad usage or a capture or driver that cannot be used.\n\n"
      "  --compare     replay the frame on the driver in lock step and compare every render target\n"
      "                after every draw and clear (and storage and atomic counter buffers after\n"
      "                every dispatch, but not the storage buffers of a program reading the\n"
      "                shader clock, whose values differ on every run;\n"
      "                transform feedback buffers after every draw that captures)\n"
      "  --png DIR     write the model's image after each draw and clear (and, where they differ,\n"
      "                the driver's and a diff image) into DIR\n"
      "  --json        strict JSON on stdout (per-draw cycles and instructions included)\n"
      "  --benchmark   time the model and the driver on the same frames\n"
      "  --trace-hash  print the count and a hash of every issued warp instruction (determinism check)\n"
      "  --no-timing   run warps to completion without the timing model (faster, no cycle counts)\n"
      "  --threads N   shade a draw's warps on N threads (default: GLREPLAY_MODEL_THREADS, else the\n"
      "                online CPUs, at most 8); results are byte-identical to one thread. Draws\n"
      "                with the timing model, --trace-hash or shader side effects use one thread\n" },
    { "pixel",
      "usage: glreplay pixel F.glcap --at X,Y [--target T] [--json] [--no-driver]\n\n"
      "Pixel history: every clear, draw, blit and copy of the capture that touched pixel X,Y (origin\n"
      "bottom-left) of a colour image, in order, with the fragments the GPU model produced there (the\n"
      "primitive, the shader's outputs, each depth/stencil test with both values, discard, sample\n"
      "coverage, the blend inputs), the draws whose fragments were all rejected and why, and the value\n"
      "after each event in the model and on the driver (a headless replay), with where they differ.\n"
      "Exit status: 0, 1 the model and the driver disagree (or the driver changed the pixel at an\n"
      "event the history lacks), 2 bad usage or a capture that cannot be used.\n\n"
      "  --at X,Y      the pixel (required)\n"
      "  --target T    the image: back (the default framebuffer's back buffer, the default), fboN\n"
      "                (its colour attachment 0) or fboN/colorK; ctxN/ before it picks the context\n"
      "                (default: the first that swaps)\n"
      "  --json        strict JSON on stdout (docs/PIXEL_HISTORY.md)\n"
      "  --no-driver   the model only (no driver replay, no confirmation)\n" },
};

bool cli_help_print(const char *verb)
{
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        if (strcmp(helps[i].verb, verb) == 0) {
            fputs(helps[i].text, stdout);
            return true;
        }
    }
    return false;
}

bool cli_help_asked(int argc, char **argv)
{
    /* Arguments after `--` belong to the program that run/capture start (`glreplay run -- app
     * --help` asks the app). */
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}
