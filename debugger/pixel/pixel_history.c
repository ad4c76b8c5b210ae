/* Pixel history engine (pixel_history.h): one pass of the frame on the GPU model with the
 * pipeline's fragment observer on the watched pixel (gm_pipe_watch.h), then one headless replay
 * on the driver that reads the pixel after each event of the target (glrh_options.probe, in
 * pixel_driver.c). This file: the target, the observer, the model pass and pxh_run; the JSON of
 * one fragment's records is pixel_fragment.c.
 *
 * The model runs without the timing model: warps then complete in submission order, so the
 * records of one fragment arrive together and in pipeline order, and the run is faster. Images
 * are identical either way (gmf_frame.h). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pixel_internal.h"
#include "capture/glcap_file.h"
#include "gmf_frame.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "debugger/snapshot_contents.h"
#include "replay/player/player.h"
#include "replay/replay.h"
#include "registry/glr_registry.h"
#include "statemodel/statemodel.h"

bool pxh_parse_target(const char *s, struct pxh_target *t)
{
    memset(t, 0, sizeof *t);
    unsigned a, b;
    int n = 0;
    if (sscanf(s, "ctx%u/%n", &a, &n) == 1 && n > 0) {
        if (!a)
            return false;
        t->ctx_id = a;
        s += n;
    }
    if (!strcmp(s, "back") || !strcmp(s, "default") || !strcmp(s, "default/back"))
        return true;
    n = 0;
    if (sscanf(s, "fbo%u%n", &a, &n) != 1 || !a || n <= 0)
        return false;
    t->fbo = a;
    s += n;
    if (!*s)
        return true;
    n = 0;
    if (sscanf(s, "/color%u%n", &b, &n) != 1 || s[n] || b >= 8)
        return false;
    t->attachment = (int)b;
    return true;
}

static void on_watch(void *user, const gm_watch_rec *rec)
{
    struct engine *e = user;
    if (!e->active)
        return;
    if (rec->kind == GM_WATCH_FRAGMENT) {
        if (e->n_frags == MAX_FRAGS) {
            e->more_frags++;
            return;
        }
        struct frag *f = &e->frags[e->n_frags++];
        memset(f, 0, sizeof *f);
        f->in = *rec;
        gmf_totals t;
        gmf_get_totals(e->m, &t);
        f->draw = (int64_t)t.draws - 1;   /* the draw running now (draws inside a list count) */
        return;
    }
    if (e->n_frags == 0 || e->more_frags)
        return;   /* the fragment it belongs to was not kept */
    struct frag *f = &e->frags[e->n_frags - 1];
    if (rec->kind == GM_WATCH_SHADED) {
        f->shaded = true;
        f->sh = *rec;
    } else if (rec->kind == GM_WATCH_DEPTH_STENCIL && f->n_ds < MAX_SAMPLE_RECS) {
        f->ds[f->n_ds++] = *rec;
    } else if (rec->kind == GM_WATCH_COLOR && f->n_col < MAX_SAMPLE_RECS &&
               (!e->target_id || rec->surface == e->target_id)) {
        f->col[f->n_col++] = *rec;
    }
}

/* ---- the model pass ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Commands after which a back buffer drawn only at the pixel's quad would give other results:
 * reads of the framebuffer bound for reading, and queries (occlusion counts all fragments). */
static bool reads_framebuffer(uint32_t cmd)
{
    if (cmd >= GLR_CMD_COUNT)
        return false;
    return glr_cmds[cmd].flags & GLR_CF_READS_FRAMEBUFFER;
}

static int ask(struct engine *e, uint64_t record, uint32_t buffer, cJSON *entry)
{
    if (e->n_asks && e->asks[e->n_asks - 1].record == record) {
        if (entry)
            e->asks[e->n_asks - 1].entry = entry;
        return 0;
    }
    if (e->n_asks == e->cap_asks) {
        size_t cap = e->cap_asks ? 2 * e->cap_asks : 256;
        struct ask *a = realloc(e->asks, cap * sizeof *a);
        if (!a)
            return -1;
        e->asks = a;
        e->cap_asks = cap;
    }
    e->asks[e->n_asks++] = (struct ask){ .record = record, .buffer = buffer, .entry = entry };
    return 0;
}

static void add_scissor(cJSON *ev, const struct sm_context *c, int x, int y)
{
    if (!c)
        return;
    const struct sm_context_state *st = sm_context_state(c);
    cJSON *s = cJSON_AddObjectToObject(ev, "scissor");
    cJSON_AddBoolToObject(s, "enabled", st->scissor_test[0]);
    if (!st->scissor_test[0])
        return;
    const int32_t *b = st->scissor[0];
    cJSON *box = cJSON_AddArrayToObject(s, "box");
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToArray(box, cJSON_CreateNumber(b[i]));
    cJSON_AddBoolToObject(s, "pixel_inside", x >= b[0] && y >= b[1] && x < b[0] + b[2] && y < b[1] + b[3]);
}

static bool scissor_excludes(const struct sm_context *c, int x, int y)
{
    if (!c)
        return false;
    const struct sm_context_state *st = sm_context_state(c);
    const int32_t *b = st->scissor[0];
    return st->scissor_test[0] && !(x >= b[0] && y >= b[1] && x < b[0] + b[2] && y < b[1] + b[3]);
}

static uint32_t first_swapping_context(const struct glrh_capture *cap)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    while (glr_stream_next(&s, &c) == 1)
        if (c.cmd == GLR_PSEUDO_SWAP && c.ctx_id)
            return c.ctx_id;
    return cap->n_ctxs ? cap->ctxs[0].id : 0;
}

static int model_pass(struct engine *e, const struct glrh_capture *cap, cJSON *root, cJSON *events, char *err,
                      size_t n)
{
    const struct pxh_options *o = e->o;
    int rc = -1;
    char *meta = glcap_read_metadata(o->path, err, n);
    if (!meta)
        return -1;
    gmf_surface_desc *surf = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *surf);
    if (!surf) {
        free(meta);
        snprintf(err, n, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        struct glrh_surface plan;
        glrh_plan_surface(cap, i, &plan);
        surf[i] = (gmf_surface_desc){ cap->ctxs[i].id, (int)plan.w, (int)plan.h, plan.alpha };
    }
    size_t srcs_size = 0;
    void *srcs = glcap_read_optional_section(o->path, GLCAP_SECTION_SHADER_SOURCES, 0, &srcs_size, err, n);
    gmf_config cfg = { .metadata_json = meta, .surfaces = surf, .n_surfaces = (int)cap->n_ctxs,
                       .timing = GMF_TIMING_OFF, .program_sources = srcs, .program_sources_size = srcs_size };
    const struct glr_restore *snapshot = e->snap;
    e->m = srcs || !err[0] ? gmf_create(&cfg, err, n) : NULL;
    if (!e->m)
        goto out;
    if (snapshot) {
        if (gmf_feed_initial_state(e->m, glr_restore_state(snapshot)) != 0 ||
            gmf_feed_snapshot_contents(e->m, snapshot) < 0) {
            snprintf(err, n, "out of memory restoring the capture's initial state");
            goto out;
        }
    }
    e->watch = (gm_pipe_watch){ .x = o->x, .y = o->y, .fn = on_watch, .user = e,
                                .on_texture = e->t.fbo && e->clip ? pxh_clip_on_texture : NULL };
    e->n_asks = 0;
    e->n_clipped = 0;
    atomic_store(&e->clip_read, false);
    gmf_set_pixel_watch(e->m, &e->watch);
    const struct glrh_context *gc = glrh_capture_context(cap, e->t.ctx_id);
    uint32_t buffer = e->t.fbo ? GL_COLOR_ATTACHMENT0 + (uint32_t)e->t.attachment : 0;
    gmf_pixel last;
    bool have_last = false;
    if (!e->t.fbo) {
        /* the default framebuffer exists from the start: its size bounds the pixel */
        if (gmf_pixel_read(e->m, e->t.ctx_id, 0, 0, o->x, o->y, &last) != 0) {
            int w = 0, h = 0;
            for (unsigned i = 0; i < cap->n_ctxs; i++)
                if (surf[i].ctx_id == e->t.ctx_id)
                    w = surf[i].width, h = surf[i].height;
            snprintf(err, n, "pixel (%d, %d) is outside context %u's %dx%d back buffer%s", o->x, o->y, e->t.ctx_id,
                     w, h, gc ? "" : " (no such context)");
            goto out;
        }
        have_last = true;
        e->target_id = last.id;
        cJSON_AddItemToObject(root, "initial", pxh_bytes4(last.rgba8));
    }
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k = 1;
    uint64_t record;
    bool target_seen = !e->t.fbo;
    /* An FBO target is read only around the records that may write it while it is bound (below):
     * after the last one nothing can add to its history, so the pass ends there. (The back buffer
     * is read after every record of its context, so its pass runs to the end.) */
    uint64_t last_write = 0;
    bool stop_early = e->t.fbo && pxh_feed_last_write(e->feed, &last_write);
    for (record = 0; (!stop_early || record <= last_write) && (k = glr_stream_next(&s, &c)) == 1; record++) {
        const struct sm_context *sc = c.ctx_id == e->t.ctx_id ? sm_context_get(gmf_state(e->m), c.ctx_id) : NULL;
        bool bound = sc && gmf_draw_framebuffer(e->m, c.ctx_id) == e->t.fbo;
        const char *wk = pxh_writer_kind(c.cmd);
        if (e->clip && c.cmd < GLR_CMD_COUNT &&
            ((glr_cmds[c.cmd].flags & GLR_CF_BEGIN_QUERY) ||
             (reads_framebuffer(c.cmd) && c.ctx_id == e->t.ctx_id && sc && sm_context_state(sc)->read_fbo == 0))) {
            e->clip_broken = true;   /* the rest of the back buffer matters: run again unclipped */
            rc = 1;
            goto out;
        }
        /* glEnd, glRect* and display list calls draw too (the model runs them as draws) */
        bool may_write = bound && pxh_may_write_cmd(c.cmd);
        /* earlier passes from the driver: their draws left out, their images fed before use */
        bool left_out_candidate = false;
        if (pxh_feed_active(e->feed) && !pxh_feed_before(e, &c, record, &left_out_candidate)) {
            rc = 2;
            goto out;
        }
        if (e->clip && e->t.fbo && pxh_clip_fbo_breaks(e, &c, sc, left_out_candidate)) {
            e->clip_broken = true;   /* a partial image of the target's framebuffer would be read */
            rc = 1;
            goto out;
        }
        e->watch.clip = e->clip && bound;
        if (e->watch.clip && e->t.fbo && may_write && pxh_clip_wrote(e, sc) != 0)
            goto oom;
        cJSON *ev = NULL;
        gmf_pixel before = last;
        if (may_write && e->t.fbo) {
            /* an FBO attachment is read only where the frame draws to it (gmf_pixel_read) */
            if (gmf_pixel_read(e->m, c.ctx_id, e->t.fbo, buffer, o->x, o->y, &before) == 0) {
                target_seen = true;
                e->target_id = before.id;
                if (!have_last) {
                    last = before;
                    have_last = true;
                }
            } else {
                may_write = false;
            }
        }
        bool scissored = may_write && scissor_excludes(sc, o->x, o->y);
        if (may_write) {
            ev = cJSON_CreateObject();
            add_scissor(ev, sc, o->x, o->y);
        }
        e->n_frags = e->more_frags = 0;
        e->active = may_write;
        gmf_event gev;
        gmf_set_skip_draws(e->m, left_out_candidate);
        gmf_status st = gmf_feed(e->m, &c, record, &gev);
        gmf_set_skip_draws(e->m, false);
        e->active = false;
        if (st != GMF_ERROR && left_out_candidate && !pxh_feed_after(e, &c, record, &gev)) {
            rc = 2;
            goto out;
        }
        if (atomic_load(&e->clip_read)) {   /* the draw sampled a partial image (pixel_clip.c) */
            cJSON_Delete(ev);
            e->clip_broken = true;
            rc = 1;
            goto out;
        }
        if (st == GMF_ERROR) {
            cJSON_Delete(ev);
            snprintf(err, n, "the GPU model failed at record %llu", (unsigned long long)record);
            goto out;
        }
        gmf_pixel after;
        bool read_after = (!e->t.fbo && c.ctx_id == e->t.ctx_id) || may_write;
        if (read_after && gmf_pixel_read(e->m, e->t.ctx_id, e->t.fbo, buffer, o->x, o->y, &after) != 0)
            read_after = false;
        bool changed = read_after && have_last &&
                       (memcmp(after.rgba8, before.rgba8, 4) || memcmp(after.u, before.u, sizeof after.u));
        bool is_clear = gev.kind == GMF_EV_CLEAR;
        /* a draw the model could not run (fully) may have touched the pixel: listed, with why */
        bool unmodelled = gev.kind == GMF_EV_DRAW && may_write && (gev.failed || gev.n_unsupported);
        bool touched = e->n_frags > 0 || e->more_frags > 0 || changed || (is_clear && may_write && !scissored) ||
                       unmodelled;
        if (!touched) {
            if (may_write && ask(e, record, buffer, NULL) != 0)
                goto oom;
            cJSON_Delete(ev);
            if (read_after)
                last = after;
            continue;
        }
        if (!ev) {
            ev = cJSON_CreateObject();
            add_scissor(ev, sc, o->x, o->y);
        }
        cJSON_AddNumberToObject(ev, "record", (double)record);
        cJSON_AddStringToObject(ev, "command", c.cmd < GLR_CMD_COUNT ? glr_cmd_name(c.cmd) : "?");
        const char *kind = gev.kind == GMF_EV_DRAW ? "draw" : is_clear ? "clear" : wk ? wk : "other";
        cJSON_AddStringToObject(ev, "kind", kind);
        if (gev.kind == GMF_EV_DRAW || is_clear)
            cJSON_AddNumberToObject(ev, is_clear ? "clear" : "draw", (double)gev.draw);
        if (gev.kind == GMF_EV_DRAW)
            cJSON_AddNumberToObject(ev, "program", gev.program);
        cJSON *frags = cJSON_AddArrayToObject(ev, "fragments");
        int written = 0;
        char why[200] = "";
        for (int i = 0; i < e->n_frags; i++) {
            const char *outcome;
            char fw[200];
            cJSON_AddItemToArray(frags, pxh_frag_json(&e->frags[i], &outcome, fw, sizeof fw));
            if (!outcome)
                written++;
            else if (!why[0])
                snprintf(why, sizeof why, "%s", outcome);
        }
        if (e->more_frags)
            cJSON_AddNumberToObject(ev, "fragments_not_listed", e->more_frags);
        if (gev.kind == GMF_EV_DRAW) {
            bool rejected = written == 0 && !e->more_frags;
            cJSON_AddBoolToObject(ev, "rejected", rejected);
            if (rejected)
                cJSON_AddStringToObject(ev, "why", why[0] ? why : "no fragment reached the pixel");
            if (gev.n_unsupported || gev.failed)
                cJSON_AddStringToObject(ev, "model_note", gev.n_unsupported ? gev.unsupported[0]
                                                                            : "the model could not run this draw");
        }
        if (have_last)
            cJSON_AddItemToObject(ev, "before", pxh_bytes4(before.rgba8));
        if (read_after) {
            cJSON_AddItemToObject(ev, "after", pxh_bytes4(after.rgba8));
            if (after.integer) {
                cJSON *u = cJSON_AddArrayToObject(ev, "after_uint");
                for (int i = 0; i < 4; i++)
                    cJSON_AddItemToArray(u, cJSON_CreateNumber(after.u[i]));
            } else {
                cJSON_AddItemToObject(ev, "after_float", pxh_floats(after.f, 4));
            }
            last = after;
            have_last = true;
        }
        cJSON_AddBoolToObject(ev, "changed", changed);
        cJSON_AddItemToArray(events, ev);
        /* the driver can read the target where the frame has it bound for drawing */
        if (may_write && ask(e, record, buffer, ev) != 0)
            goto oom;
    }
    if (k < 0) {
        snprintf(err, n, "%s", s.err);
        goto out;
    }
    if (!target_seen) {
        snprintf(err, n, "framebuffer %u of context %u is never drawn to in this frame (or has no colour attachment %d, "
                 "or (%d, %d) is outside it)", e->t.fbo, e->t.ctx_id, e->t.attachment, o->x, o->y);
        goto out;
    }
    if (have_last) {
        cJSON_AddItemToObject(root, "final", pxh_bytes4(last.rgba8));
        cJSON_AddNumberToObject(root, "width", last.width);
        cJSON_AddNumberToObject(root, "height", last.height);
    }
    rc = 0;
    goto out;
oom:
    snprintf(err, n, "out of memory");
out:
    gmf_destroy(e->m);
    e->m = NULL;
    free(surf);
    free(meta);
    free(srcs);
    return rc;
}

cJSON *pxh_run(const struct pxh_options *o, char *err, size_t err_size)
{
    struct engine e;
    memset(&e, 0, sizeof e);
    e.o = o;
    e.t = o->target;
    if (o->x < 0 || o->y < 0) {
        snprintf(err, err_size, "pixel coordinates must be >= 0");
        return NULL;
    }
    struct glrh_capture *cap = glrh_capture_open(o->path, err, err_size);
    if (!cap)
        return NULL;
    if (!e.t.ctx_id)
        e.t.ctx_id = first_swapping_context(cap);
    if (!glrh_capture_context(cap, e.t.ctx_id)) {
        snprintf(err, err_size, "%s: no context %u in the capture", o->path, e.t.ctx_id);
        glrh_capture_close(cap);
        return NULL;
    }
    e.frags = calloc(MAX_FRAGS, sizeof *e.frags);
    cJSON *root = cJSON_CreateObject();
    if (!e.frags || !root) {
        snprintf(err, err_size, "out of memory");
        free(e.frags);
        cJSON_Delete(root);
        glrh_capture_close(cap);
        return NULL;
    }
    cJSON_AddStringToObject(root, "capture", o->path);
    cJSON_AddNumberToObject(root, "x", o->x);
    cJSON_AddNumberToObject(root, "y", o->y);
    char tn[64];
    if (e.t.fbo)
        snprintf(tn, sizeof tn, "ctx%u/fbo%u/color%d", e.t.ctx_id, e.t.fbo, e.t.attachment);
    else
        snprintf(tn, sizeof tn, "ctx%u/default/back", e.t.ctx_id);
    cJSON_AddStringToObject(root, "target", tn);
    cJSON *events = cJSON_CreateArray();
    double t0 = now_s();
    int rc = 0;
    char *meta = NULL;
    if (strcmp(cap->initial_state, "snapshot") == 0 && !(e.snap = glr_restore_load(o->path, err, err_size)))
        rc = -1;
    /* With the driver: its replay first, so the model can take the images of earlier passes from
     * it (pixel_feed.c); it reads the pixel after each record that may write the target too. */
    bool cached = false, disk = o->driver && !o->no_disk_cache && pxh_disk_on();
    if (rc == 0 && o->driver) {
        if (!(meta = glcap_read_metadata(o->path, err, err_size)) ||
            !(e.feed = pxh_feed_plan(&e, cap, e.snap, meta, err, err_size)))
            rc = -1;
        /* a history kept before answers this one; with o->keep the target's answers for every
         * pixel are kept for the next history (pixel_cache.c) */
        for (unsigned i = 0; rc == 0 && !e.t.fbo && i < cap->n_ctxs; i++)
            if (cap->ctxs[i].id == e.t.ctx_id) {
                struct glrh_surface plan;
                glrh_plan_surface(cap, i, &plan);
                pxh_feed_want_targets(e.feed, plan.w, plan.h, o->keep, disk);
            }
        unsigned fw, fh;
        if (rc == 0 && e.t.fbo && pxh_feed_target_size(e.feed, &fw, &fh))
            pxh_feed_want_targets(e.feed, fw, fh, o->keep, disk);
        if (rc == 0 && !(cached = pxh_cache_take(e.feed, o->path, &e.t, o->x, o->y)) &&
            !(cached = disk && pxh_disk_take(e.feed, o->path, &e.t, o->x, o->y, o->keep))) {
            if (pxh_driver_replay(&e, cap, err, err_size) != 0) {
                rc = -1;
            } else {
                if (disk)
                    pxh_disk_put(e.feed, o->path, &e.t);
                if (o->keep)
                    pxh_cache_put(e.feed, o->path, &e.t);
            }
        }
    }
    /* Without the driver, an FBO target still takes the plan (the state model alone): its last
     * write ends the model pass and lets its draws run at the quad. Nothing is left out. */
    if (rc == 0 && !o->driver && e.t.fbo) {
        if (!(meta = glcap_read_metadata(o->path, err, err_size)) ||
            !(e.feed = pxh_feed_plan(&e, cap, e.snap, meta, err, err_size)))
            rc = -1;
        pxh_feed_reset(e.feed, false);
    }
    double t1 = now_s();
    /* quad only: the back buffer always; an FBO target when its pass ends at its last write
     * (the plan's), so that later passes' reads of it do not count */
    uint64_t last_write;
    e.clip = !e.t.fbo || pxh_feed_last_write(e.feed, &last_write);
    while (rc == 0) {
        rc = model_pass(&e, cap, root, events, err, err_size);
        if (rc != 1 && rc != 2)
            break;
        /* 1: the frame reads its back buffer, every pixel of it matters; 2: an earlier pass is
         * needed in the model (pixel_feed.c says why). Run again without that shortcut. */
        cJSON_DeleteItemFromObject(root, "initial");
        cJSON_Delete(events);
        events = cJSON_CreateArray();
        if (rc == 1)
            e.clip = false;
        pxh_feed_reset(e.feed, rc == 1 && pxh_feed_active(e.feed));
        rc = 0;
    }
    double t2 = now_s();
    cJSON_AddBoolToObject(root, "quad_only", e.clip);
    if (e.feed && o->driver)
        pxh_feed_report(e.feed, root);
    cJSON_AddItemToObject(root, "events", events);
    if (rc == 0 && o->driver)
        pxh_driver_compare(&e, root);
    if (o->driver)
        cJSON_AddBoolToObject(root, "driver_cached", cached);
    cJSON *sec = cJSON_AddObjectToObject(root, "seconds");
    cJSON_AddNumberToObject(sec, "model", t2 - t1);
    cJSON_AddNumberToObject(sec, "driver", o->driver ? t1 - t0 : 0.0);
    if (o->model_seconds)
        *o->model_seconds = t2 - t1;
    if (o->driver_seconds)
        *o->driver_seconds = o->driver ? t1 - t0 : 0.0;
    free(meta);
    if (o->pass_feed)
        *o->pass_feed = rc == 0 && o->driver && e.feed && pxh_feed_active(e.feed) ? pxh_pass_feed_take(&e.feed, &e.t)
                                                                                : NULL;
    pxh_feed_free(e.feed);
    glr_restore_free(e.snap);
    free(e.frags);
    free(e.asks);
    free(e.clipped);
    glrh_capture_close(cap);
    if (rc != 0) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
