/* Loading a capture and running its frame in the model, as `glreplay model` does, for the
 * trace-buffer e2e test and benchmark (which must run the same frame several times). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_frame.h"
#include "debugger/snapshot_contents.h"
#include "capture/glcap_file.h"
#include "replay/player/player.h"
#include "replay/replay.h"

struct gmt_tb_frame {
    struct glrh_capture *cap;
    char *meta;
    struct glr_restore *snapshot;   /* NULL: the capture starts from context creation */
    gmf_surface_desc *surf;
    int n_surf;
};

static char *load_metadata(const char *path, char *err, size_t n)
{
    glcap_reader *rd = glcap_reader_open(path, NULL, err, n);
    if (!rd)
        return NULL;
    int64_t mi = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
    void *data = NULL;
    size_t size = 0;
    if (mi < 0 || glcap_reader_load(rd, (uint32_t)mi, &data, &size) != 0) {
        snprintf(err, n, "%s: %s", path, mi < 0 ? "no METADATA section" : glcap_reader_error(rd));
        glcap_reader_close(rd);
        return NULL;
    }
    glcap_reader_close(rd);
    char *s = realloc(data, size + 1);
    if (!s) {
        free(data);
        snprintf(err, n, "out of memory");
        return NULL;
    }
    s[size] = 0;
    return s;
}

/* Default framebuffer of each context: the size of its first back-buffer reference image (the
 * window it swapped), else its surface at its first make-current, else 256x256; alpha when an
 * image of it has alpha below 1. */
static int plan_surfaces(gmt_tb_frame *f)
{
    const struct glrh_capture *cap = f->cap;
    f->surf = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *f->surf);
    if (!f->surf)
        return -1;
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        gmf_surface_desc *s = &f->surf[i];
        s->ctx_id = cap->ctxs[i].id;
        for (unsigned k = 0; k < cap->n_images; k++) {
            const struct glrh_image *im = &cap->images[k];
            if (im->ctx_id != s->ctx_id || im->fbo)
                continue;
            if (!s->width) {
                s->width = (int)im->width;
                s->height = (int)im->height;
            }
            for (size_t p = 0; p < (size_t)im->width * im->height && !s->alpha; p++)
                s->alpha = im->pixels[4 * p + 3] != 255;
        }
        if (!s->width && cap->ctxs[i].surface_w) {
            s->width = (int)cap->ctxs[i].surface_w;
            s->height = (int)cap->ctxs[i].surface_h;
        }
        if (!s->width)
            s->width = s->height = 256;
    }
    f->n_surf = (int)cap->n_ctxs;
    return 0;
}

gmt_tb_frame *gmt_tb_frame_open(const char *path, char *err, size_t err_size)
{
    gmt_tb_frame *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (!(f->cap = glrh_capture_open(path, err, err_size)) ||
        !(f->meta = load_metadata(path, err, err_size))) {
        gmt_tb_frame_close(f);
        return NULL;
    }
    if (strstr(f->meta, "\"initial_state\":\"snapshot\"") &&
        !(f->snapshot = glr_restore_load(path, err, err_size))) {
        gmt_tb_frame_close(f);
        return NULL;
    }
    if (plan_surfaces(f) != 0) {
        snprintf(err, err_size, "out of memory");
        gmt_tb_frame_close(f);
        return NULL;
    }
    return f;
}

void gmt_tb_frame_close(gmt_tb_frame *f)
{
    if (!f)
        return;
    if (f->snapshot)
        glr_restore_free(f->snapshot);
    if (f->cap)
        glrh_capture_close(f->cap);
    free(f->meta);
    free(f->surf);
    free(f);
}

int gmt_tb_frame_run(gmt_tb_frame *f, const gmf_hooks *hooks, gmf_totals *totals, char *err,
                     size_t err_size)
{
    gmf_config cfg = {.metadata_json = f->meta, .surfaces = f->surf, .n_surfaces = f->n_surf,
                      .timing = GMF_TIMING_ON};
    gmf_runner *r = gmf_create(&cfg, err, err_size);
    if (!r)
        return -1;
    if (hooks)
        gmf_set_hooks(r, hooks);
    int rc = 0;
    if (f->snapshot && (gmf_feed_initial_state(r, glr_restore_state(f->snapshot)) != 0 ||
                        gmf_feed_snapshot_contents(r, f->snapshot) < 0)) {
        snprintf(err, err_size, "out of memory restoring the initial state");
        rc = -1;
    }
    if (!rc && gmf_run_stream(r, f->cap->stream, f->cap->stream_size, NULL, NULL, err, err_size) ==
                   GMF_ERROR)
        rc = -1;
    if (totals)
        gmf_get_totals(r, totals);
    gmf_destroy(r);
    return rc;
}
