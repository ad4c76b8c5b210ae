/* `glreplay report F.glcap --out DIR [--profile] [--no-model] [--thumb-size N]`: a self-contained
 * HTML page of a captured frame (ui_ipc/report, docs/REPORT.md). Exit status: 0 written, 2 bad
 * usage or a capture or folder that cannot be used (one-line error). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_verbs.h"
#include "ui_ipc/report/report.h"

#define USAGE "usage: glreplay report F.glcap --out DIR [--profile] [--no-model] [--thumb-size N]"

static void help(void)
{
    printf(USAGE "\n\n"
           "Writes a self-contained HTML page of the captured frame into DIR (open DIR/index.html in a\n"
           "browser; no server or network needed): the frame's events in order with a thumbnail of the\n"
           "render target after every draw, clear and blit (from a replay on the driver); for a selected\n"
           "event the API state, the bound program's shader sources, the textures and buffers it reads and\n"
           "its vertex inputs; the GPU model's agreement with the driver per draw.\n\n"
           "  --out DIR         the folder to write (created; if it exists it must be empty or hold an\n"
           "                    earlier report)\n"
           "  --profile         add the GPU model profile: hot shader lines with stall reasons and the\n"
           "                    counters over the frame as plots (the data of glreplay profile)\n"
           "  --no-model        leave out the model's agreement with the driver (as glreplay model\n"
           "                    computes it when comparing), which runs every draw on the GPU model\n"
           "  --thumb-size N    the longest side of a thumbnail in pixels (16 to 1024; default 160)\n");
}

int cli_report(int argc, char **argv)
{
    struct glr_report_options o = { .model = true, .thumb_max = 160 };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            return 0;
        } else if (!strcmp(a, "--out")) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                cli_error("report: --out needs a folder (" USAGE ")");
                return 2;
            }
            o.out_dir = argv[++i];
        } else if (!strcmp(a, "--profile")) {
            o.profile = true;
        } else if (!strcmp(a, "--no-model")) {
            o.model = false;
        } else if (!strcmp(a, "--thumb-size")) {
            char *end = NULL;
            long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || *end || v < 16 || v > 1024) {
                cli_error("report: --thumb-size needs a number of pixels from 16 to 1024 (" USAGE ")");
                return 2;
            }
            o.thumb_max = (unsigned)v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            cli_error("report: unknown option '%s' (" USAGE ")", a);
            return 2;
        } else if (!o.capture) {
            o.capture = a;
        } else {
            cli_error("report: more than one capture file given (" USAGE ")");
            return 2;
        }
    }
    if (!o.capture || !o.out_dir) {
        cli_error("report: %s (" USAGE ")", !o.capture ? "no capture file given" : "--out DIR is required");
        return 2;
    }
    /* The model and the profile run in this same executable as child processes. */
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        cli_error("report: cannot find the glreplay executable: %s", strerror(errno));
        return 2;
    }
    self[n] = 0;
    o.self_exe = self;
    o.progress = isatty(2) != 0;
    char err[1024];
    if (glr_report_write(&o, err, sizeof err) != 0) {
        cli_error("%s", err);
        return 2;
    }
    return 0;
}
