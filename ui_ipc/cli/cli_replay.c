/* `glreplay replay F.glcap [--loop N] [--verify] [--png DIR] [--benchmark] [--gl-errors]`:
 * headless replay on EGL surfaceless (see docs/REPLAY.md).
 * Exit status: 0 ran every call (and, with --verify, every image matched), 1 verification failed or
 * calls were refused as bad (each kind named on stderr with its reason: the replay is not the
 * captured frame), 2 bad usage or the capture/driver could not be used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_verbs.h"
#include "replay/player/player.h"
#include "replay/replay.h"

#define USAGE "usage: glreplay replay F.glcap [--loop N] [--verify] [--png DIR] [--benchmark] [--gl-errors]"

/* --loop's value (dest: unsigned). */
static bool parse_count(const char *s, void *dest)
{
    unsigned *out = dest;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v < 1 || v > 1000000 || s[0] == '-')
        return false;
    *out = (unsigned)v;
    return true;
}

/* "initial_state":"snapshot": replay/restore.c recreates the saved initial state before each pass
 * (the replayer's restore hook, glrh_options.restore). */
static int restore_snapshot(void *user, const struct glrh_capture *cap, struct glr_dispatch *d,
                            glrh_make_current_fn make_current, void *mc, char *err, size_t err_size)
{
    static bool warned;
    struct glr_restore_stats st;
    if (glr_restore_run(user, d, make_current, mc, &st, err, err_size) != 0)
        return -1;
    if ((st.calls_failed || st.contents_failed) && !warned)
        cli_error("warning: %s: initial state: %llu of %llu restore calls failed (first: %s), %u framebuffer "
                  "image(s) not restored", cap->path, (unsigned long long)st.calls_failed,
                  (unsigned long long)st.calls, st.first_failed ? st.first_failed : "-", st.contents_failed);
    warned = true;
    return 0;
}

int cli_replay(int argc, char **argv)
{
    struct glrh_options opt = { .loops = 1, .out = stdout };
    const char *path = NULL;
    const struct cli_opt opts[] = {
        { .name = "--loop", .parse = parse_count, .dest = &opt.loops, .needs = "a count from 1 to 1000000" },
        { .name = "--verify", .flag = &opt.verify, .set_to = true },
        { .name = "--png", .str = &opt.png_dir, .needs = "a folder" },
        { .name = "--benchmark", .flag = &opt.benchmark, .set_to = true },
        { .name = "--gl-errors", .flag = &opt.gl_errors, .set_to = true },
    };
    if (cli_parse_opts("replay", USAGE, opts, sizeof opts / sizeof *opts, argc, argv, &path) != 0)
        return 2;
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 2;
    }
    opt.progress = isatty(2) != 0;
    /* Report lines reach a pipe before a driver crash ends the process (see the crash handler). */
    setvbuf(stdout, NULL, _IOLBF, 0);
    unsigned described = 0;
    for (unsigned i = 0; i < cap->n_ctxs; i++)
        described += cap->ctxs[i].described;
    printf("replaying %s: frames %llu-%llu, %u context%s, %llu records\n", path, (unsigned long long)cap->first_frame,
           (unsigned long long)cap->last_frame, described, described == 1 ? "" : "s",
           (unsigned long long)cap->n_records);
    struct glr_restore *snapshot = NULL;
    if (strcmp(cap->initial_state, "snapshot") == 0) {
        if (!(snapshot = glr_restore_load(path, err, sizeof err))) {
            cli_error("%s", err);
            glrh_capture_close(cap);
            return 2;
        }
        opt.restore = restore_snapshot;
        opt.restore_user = snapshot;
        opt.snapshot = snapshot; /* the pass-reset plan reads the same initial state (no second load) */
    } else if (!cap->initial_default)
        cli_error("warning: %s starts at frame %llu with initial state \"%s\", which this replayer cannot restore: "
                  "objects the program created before it are missing, so the replay is incomplete and verification "
                  "is expected to fail%s",
                  path, (unsigned long long)cap->first_frame, cap->initial_state, opt.loops > 1 ? "; replaying once" : "");
    if (cap->snapshot_losses)
        cli_error("warning: %s: its snapshot could not keep %llu content%s (first: %s): the replay differs where %s "
                  "used", path, (unsigned long long)cap->snapshot_losses, cap->snapshot_losses == 1 ? "" : "s",
                  cap->snapshot_first_loss, cap->snapshot_losses == 1 ? "it is" : "they are");
    if (opt.verify && cap->n_images == 0 && cap->n_hashes == 0)
        cli_error("warning: %s has no reference images: only its read-backs can be verified", path);
    struct glrh_result res;
    int rc = glrh_replay(cap, &opt, &res, err, sizeof err);
    glr_restore_free(snapshot);
    if (rc != 0) {
        cli_error("replay: %s", err);
        glrh_capture_close(cap);
        return 2;
    }
    unsigned p = res.passes ? res.passes : 1;
    printf("replay: %u pass%s; per pass %llu calls: %llu ok, %llu skipped, %llu missing, %llu bad\n", res.passes,
           res.passes == 1 ? "" : "es",
           (unsigned long long)((res.counts[0] + res.counts[1] + res.counts[2] + res.counts[3]) / p),
           (unsigned long long)(res.counts[GLR_DISPATCH_OK] / p), (unsigned long long)(res.counts[GLR_DISPATCH_SKIPPED] / p),
           (unsigned long long)(res.counts[GLR_DISPATCH_MISSING] / p), (unsigned long long)(res.counts[GLR_DISPATCH_BAD] / p));
    /* A refused call means the frame replayed is not the one captured (and a crafted capture must
     * not pass for a good one in CI): the reasons are already on stderr, one line per command. */
    int status = res.counts[GLR_DISPATCH_BAD] ? 1 : 0;
    if (opt.verify) {
        bool ok = res.frames_differing == 0 && res.frames_unmatched == 0 && res.passes_inconsistent == 0 &&
                  res.readbacks_differing == 0 && (res.frames_checked > 0 || res.readbacks_checked > 0);
        printf("verify: %s: %u frame images checked, %u differ, %u unmatched; passes %s\n", ok ? "PASS" : "FAIL",
               res.frames_checked, res.frames_differing, res.frames_unmatched,
               res.passes_inconsistent ? "DIFFER from each other" : "identical");
        if (res.readbacks_checked || res.readbacks_unchecked)
            printf("verify: read-backs: %u checked, %u differ, %u not compared\n", res.readbacks_checked,
                   res.readbacks_differing, res.readbacks_unchecked);
        if (!ok)
            status = 1;
    } else if (res.passes_inconsistent) {
        printf("replay: %u frame images differ between passes\n", res.passes_inconsistent);
    }
    if (opt.benchmark)
        printf("benchmark: %u passes in %.3f s: %.2f passes/s, %.0f calls/s\n", res.passes, res.seconds,
               res.seconds > 0 ? res.passes / res.seconds : 0.0,
               res.seconds > 0 ? (double)(res.counts[0] + res.counts[1] + res.counts[2] + res.counts[3]) / res.seconds
                               : 0.0);
    glrh_capture_close(cap);
    return status;
}
