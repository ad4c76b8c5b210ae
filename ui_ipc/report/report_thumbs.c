/* The thumbnails of a report: the capture replayed on the driver (the headless replayer of
 * `glreplay replay`, EGL surfaceless), with the draw framebuffer's colour image after every draw,
 * clear and blit written downscaled to thumbs/<record>.png, and the textures each draw samples as
 * the driver holds them before it (report_textures.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/report/report.h"
#include "replay/player/player.h"
#include "replay/replay.h"

struct thumbs {
    const char *dir;
    unsigned max_side;
    uint64_t written;
    bool warned;
};

static void on_image(void *user, uint64_t record, uint32_t cmd, const uint8_t *rgba, unsigned w, unsigned h)
{
    (void)cmd;
    struct thumbs *t = user;
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/thumbs/%llu.png", t->dir, (unsigned long long)record);
    if (glrr_write_thumb_png(path, rgba, w, h, t->max_side, err, sizeof err) == 0)
        t->written++;
    else if (!t->warned) {
        fprintf(stderr, "glreplay: warning: report: %s\n", err);
        t->warned = true;
    }
}

static void before_draw(void *user, uint64_t record, const struct glr_call *c, const struct glrh_context *ctx)
{
    (void)c;
    glrr_dtex_before_draw(user, record, ctx);
}

/* A snapshot capture's initial state is restored before the pass, as `glreplay replay` does. */
static int restore_snapshot(void *user, const struct glrh_capture *cap, struct glr_dispatch *d,
                            glrh_make_current_fn make_current, void *mc, char *err, size_t err_size)
{
    (void)cap;
    struct glr_restore_stats st;
    return glr_restore_run(user, d, make_current, mc, &st, err, err_size);
}

int glrr_write_thumbs(const char *capture, const char *out_dir, unsigned max_side, bool progress,
                      uint64_t *written, uint64_t *texture_images, char *err, size_t err_size)
{
    *written = *texture_images = 0;
    struct glrh_capture *cap = glrh_capture_open(capture, err, err_size);
    if (!cap)
        return -1;
    struct thumbs t = { .dir = out_dir, .max_side = max_side };
    struct glrr_dtex *dtex = glrr_dtex_new(out_dir);
    FILE *devnull = fopen("/dev/null", "w");
    struct glrh_options opt = { .loops = 1, .out = devnull ? devnull : stderr, .progress = progress,
                                .on_image = on_image, .on_image_user = &t,
                                .before_draw = dtex ? before_draw : NULL, .before_draw_user = dtex };
    struct glr_restore *snapshot = NULL;
    int rc = 0;
    if (strcmp(cap->initial_state, "snapshot") == 0) {
        if (!(snapshot = glr_restore_load(capture, err, err_size)))
            rc = -1;
        opt.restore = restore_snapshot;
        opt.restore_user = snapshot;
        opt.snapshot = snapshot;
    }
    struct glrh_result res;
    if (rc == 0)
        rc = glrh_replay(cap, &opt, &res, err, err_size);
    if (rc == 0 && dtex)
        rc = glrr_dtex_finish(dtex, texture_images, err, err_size);
    glrr_dtex_free(dtex);
    glr_restore_free(snapshot);
    glrh_capture_close(cap);
    if (devnull)
        fclose(devnull);
    *written = t.written;
    return rc;
}
