/* `glreplay report F.glcap --out DIR [--profile] [--no-model] [--thumb-size N]`: a self-contained
 * HTML page of a captured frame (ui_ipc/report, docs/REPORT.md). Exit status: 0 written, 2 bad
 * usage or a capture or folder that cannot be used (one-line error). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_opts.h"
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

/* --thumb-size's value (dest: unsigned). */
static bool parse_thumb(const char *s, void *dest)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 16 || v > 1024)
        return false;
    *(unsigned *)dest = (unsigned)v;
    return true;
}

int cli_report(int argc, char **argv)
{
    struct glr_report_options o = { .model = true, .thumb_max = 160 };
    bool help_asked = false;
    const struct cli_opt opts[] = {
        { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "-h", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "--out", .str = &o.out_dir, .nonempty = true, .needs = "a folder" },
        { .name = "--profile", .flag = &o.profile, .set_to = true },
        { .name = "--no-model", .flag = &o.model, .set_to = false },
        { .name = "--thumb-size", .parse = parse_thumb, .dest = &o.thumb_max,
          .needs = "a number of pixels from 16 to 1024" },
    };
    const struct cli_verb v = { .verb = "report", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts };
    int prc = cli_parse(&v, argc, argv, &o.capture, NULL);
    if (prc == 1)
        help();
    if (prc != 0)
        return prc == 1 ? 0 : 2;
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
