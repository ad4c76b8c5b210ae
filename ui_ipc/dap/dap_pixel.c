/* Debug this pixel and the pixel history request (dap_pixel.h). */
#include <cjson/cJSON.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_pixel.h"
#include "debugger/dbg_bind.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner.h"
#include "debugger/pixel/pixel_history.h"
#include "debugger/pixel/pixel_pass_feed.h"
#include "gpu_model/gpu_model.h"

static bool num(const cJSON *o, const char *k, double lo, double hi, double *v, bool *present)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
    *present = x != NULL;
    if (!x)
        return true;
    if (!cJSON_IsNumber(x) || x->valuedouble < lo || x->valuedouble > hi || x->valuedouble != (double)(int64_t)x->valuedouble)
        return false;
    *v = x->valuedouble;
    return true;
}

bool dap_pixel_parse(const cJSON *o, struct dap_pixel_req *rq, char *err, size_t n)
{
    memset(rq, 0, sizeof *rq);
    rq->event = -1;
    double x = -1, y = -1, ev = -1, fr = 0, pr = -1;
    bool px, py, pe, pf, pp;
    if (!cJSON_IsObject(o) || !num(o, "x", 0, 65535, &x, &px) || !num(o, "y", 0, 65535, &y, &py) || !px || !py) {
        snprintf(err, n, "pixel: 'x' and 'y' (integers >= 0) are required");
        return false;
    }
    if (!num(o, "event", 0, 9007199254740992.0, &ev, &pe) || !num(o, "fragment", 0, 1 << 20, &fr, &pf) ||
        !num(o, "primitive", 0, 2147483647.0, &pr, &pp)) {
        snprintf(err, n, "pixel: 'event', 'fragment' and 'primitive' must be integers >= 0");
        return false;
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "target");
    struct pxh_target pt;
    if (t && (!cJSON_IsString(t) || !pxh_parse_target(t->valuestring, &pt))) {
        snprintf(err, n, "pixel: 'target' must be back, fboN or fboN/colorK (optionally after ctxN/)");
        return false;
    }
    rq->x = (int)x;
    rq->y = (int)y;
    rq->event = pe ? (int64_t)ev : -1;
    rq->fragment = (int)fr;
    rq->primitive = pp ? (int)pr : -1;
    rq->target = t ? t->valuestring : NULL;
    return true;
}

/* The first line with code of the shader's main() (the first line of the invocation), or of the
 * shader when main is not found. */
static int first_line(const struct dbg_shader *s)
{
    int from = 1;
    regex_t re;
    if (regcomp(&re, "void[[:space:]]+main[[:space:]]*\\(", REG_EXTENDED) == 0) {
        regmatch_t m;
        if (regexec(&re, s->source, 1, &m, 0) == 0) {
            from = 1;
            for (regoff_t i = 0; i < m.rm_so; i++)
                from += s->source[i] == '\n';
        }
        regfree(&re);
    }
    char msg[200];
    int line = dbg_bind_line(s, from, s->line_count, msg, sizeof msg);
    return line > 0 ? line : dbg_bind_line(s, 1, s->line_count, msg, sizeof msg);
}

int dap_pixel_resolve(const struct dbg_capture *c, const struct dap_pixel_req *rq, struct dap_pixel_stop *out,
                      char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    /* With the driver, the earlier passes are its images (pixel_feed.c) rather than the model's:
     * the target's draws, and so the order of the fragments at the pixel, are the model's either way. */
    struct pxh_options o = { .path = c->path, .x = rq->x, .y = rq->y, .driver = rq->driver, .keep = true,
                             .pass_feed = rq->pass_feed };
    if (rq->target && !pxh_parse_target(rq->target, &o.target)) {
        snprintf(err, n, "pixel: bad target '%s'", rq->target);
        return -1;
    }
    cJSON *h = pxh_run(&o, err, n);
    if (!h && o.driver) {
        o.driver = false;   /* no usable driver here (no EGL, a replay error): the model alone */
        h = pxh_run(&o, err, n);
    }
    if (!h)
        return -1;
    int rc = -1;
    const cJSON *ev = NULL, *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(h, "events")) {
        const cJSON *rec = cJSON_GetObjectItem(e, "record");
        bool is_draw = cJSON_GetObjectItem(e, "draw") != NULL;
        if (rq->event >= 0) {
            if ((int64_t)rec->valuedouble == rq->event) {
                if (!is_draw) {
                    snprintf(err, n, "pixel: event %lld of the pixel's history is a %s, not a draw",
                             (long long)rq->event, cJSON_GetObjectItem(e, "kind")->valuestring);
                    goto out;
                }
                ev = e;
            }
        } else if (is_draw && !cJSON_IsTrue(cJSON_GetObjectItem(e, "rejected"))) {
            ev = e;   /* the last draw that wrote the pixel */
        }
    }
    if (!ev) {
        if (rq->event >= 0)
            snprintf(err, n, "pixel: event %lld is not in the history of pixel (%d, %d)", (long long)rq->event, rq->x,
                     rq->y);
        else
            snprintf(err, n, "pixel: no draw wrote pixel (%d, %d)", rq->x, rq->y);
        goto out;
    }
    /* the fragment: its ordinal among the fragments the shader ran for (hits at the first line) */
    const cJSON *frags = cJSON_GetObjectItem(ev, "fragments");
    int nf = cJSON_GetArraySize(frags), pick = -1;
    if (rq->primitive >= 0) {
        for (int i = 0; i < nf; i++)
            if (cJSON_GetObjectItem(cJSON_GetArrayItem(frags, i), "primitive")->valueint == rq->primitive)
                pick = i;
        if (pick < 0) {
            snprintf(err, n, "pixel: no fragment of primitive %d in event %.0f at (%d, %d)", rq->primitive,
                     cJSON_GetObjectItem(ev, "record")->valuedouble, rq->x, rq->y);
            goto out;
        }
    } else if (rq->fragment > 0) {
        if (rq->fragment > nf) {
            snprintf(err, n, "pixel: event %.0f has %d fragment%s at (%d, %d)", cJSON_GetObjectItem(ev, "record")->valuedouble,
                     nf, nf == 1 ? "" : "s", rq->x, rq->y);
            goto out;
        }
        pick = rq->fragment - 1;
    } else {
        for (int i = 0; i < nf; i++)
            if (!strcmp(cJSON_GetObjectItem(cJSON_GetArrayItem(frags, i), "outcome")->valuestring, "written"))
                pick = i;
        if (pick < 0)
            pick = nf - 1;
    }
    if (pick < 0) {
        snprintf(err, n, "pixel: no fragment of event %.0f is at (%d, %d)", cJSON_GetObjectItem(ev, "record")->valuedouble,
                 rq->x, rq->y);
        goto out;
    }
    const cJSON *f = cJSON_GetArrayItem(frags, pick);
    if (!cJSON_GetObjectItem(f, "shader")) {
        snprintf(err, n, "pixel: fragment %d of event %.0f was rejected before its shader ran (%s)", pick + 1,
                 cJSON_GetObjectItem(ev, "record")->valuedouble, cJSON_GetObjectItem(f, "outcome")->valuestring);
        goto out;
    }
    /* the fragment's own draw (a display list call's event runs several), and its ordinal among
     * the fragments of that draw the shader ran for (hits at the first line) */
    const cJSON *fd = cJSON_GetObjectItem(f, "draw");
    int draw = cJSON_IsNumber(fd) && fd->valueint >= 0 ? fd->valueint : cJSON_GetObjectItem(ev, "draw")->valueint;
    int ordinal = 0;
    for (int i = 0; i <= pick; i++) {
        const cJSON *fi = cJSON_GetArrayItem(frags, i), *di = cJSON_GetObjectItem(fi, "draw");
        ordinal += cJSON_GetObjectItem(fi, "shader") != NULL && (!cJSON_IsNumber(di) || di->valueint == draw);
    }
    int shader = dbg_capture_draw_shader(c, draw, GM_STAGE_FRAGMENT);
    if (shader < 0) {
        snprintf(err, n, "pixel: the fragment shader of draw %d is not known to the debugger", draw);
        goto out;
    }
    const struct dbg_shader *s = &c->shaders[shader];
    int line = first_line(s);
    if (line <= 0) {
        snprintf(err, n, "pixel: %s has no line with code%s%s", s->name, s->compile_error ? ": " : "",
                 s->compile_error ? s->compile_error : "");
        goto out;
    }
    out->bp = (struct dbg_bp){ .id = 0, .shader = s->id, .line = line, .hit_op = DBG_HIT_EQ, .hit_n = (uint64_t)ordinal };
    out->draw = draw;
    out->x = rq->x;
    out->y = rq->y;
    out->record = (uint64_t)cJSON_GetObjectItem(ev, "record")->valuedouble;
    out->primitive = cJSON_GetObjectItem(f, "primitive")->valueint;
    out->written = !strcmp(cJSON_GetObjectItem(f, "outcome")->valuestring, "written");
    const cJSON *o0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(f, "shader"), "outputs"), 0);
    for (int k = 0; k < 4; k++)
        out->output[k] = (float)cJSON_GetArrayItem(o0, k)->valuedouble;
    const cJSON *vs = cJSON_GetObjectItem(f, "vertices");
    out->n_vertices = cJSON_GetArraySize(vs) <= 3 ? cJSON_GetArraySize(vs) : 0;
    for (int i = 0; i < out->n_vertices; i++) {
        const cJSON *v = cJSON_GetArrayItem(vs, i);
        out->vertex_id[i] = cJSON_GetObjectItem(v, "vertex_id")->valueint;
        for (int k = 0; k < 4; k++)
            out->position[i][k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(v, "position"), k)->valuedouble;
    }
    if (out->n_vertices) {
        out->provoking = cJSON_GetObjectItem(f, "provoking")->valueint;
        out->instance = cJSON_GetObjectItem(f, "instance")->valueint;
    }
    out->corner = -1;
    rc = 0;
out:
    cJSON_Delete(h);
    return rc;
}

cJSON *dap_pixel_history(const struct dbg_capture *c, const cJSON *args, bool allow_driver, char *err, size_t n)
{
    struct dap_pixel_req rq;
    if (!dap_pixel_parse(args, &rq, err, n))
        return NULL;
    struct pxh_options o = { .path = c->path, .x = rq.x, .y = rq.y, .driver = true, .keep = true };   /* one pixel after another */
    const cJSON *drv = cJSON_GetObjectItemCaseSensitive(args, "driver");
    if (cJSON_IsBool(drv))
        o.driver = cJSON_IsTrue(drv);
    o.driver = o.driver && allow_driver;
    if (rq.target)
        pxh_parse_target(rq.target, &o.target);
    return pxh_run(&o, err, n);
}

/* ---------------------------------------------------------------- debug this vertex */

int dap_vertex_resolve(const struct dbg_capture *c, const cJSON *args, struct dap_pixel_stop *out, char *err,
                       size_t n)
{
    memset(out, 0, sizeof *out);
    bool pd, pi, pn, pc;
    double draw = -1, index = -1, inst = 0, corner = -1;
    if (!cJSON_IsObject(args) || !num(args, "draw", 0, 2147483647.0, &draw, &pd) ||
        !num(args, "index", 0, 2147483647.0, &index, &pi) || !num(args, "instance", 0, 2147483647.0, &inst, &pn) ||
        !num(args, "corner", 0, 2, &corner, &pc)) {
        snprintf(err, n, "vertex: 'draw', 'index' and 'instance' must be integers >= 0, 'corner' 0, 1 or 2");
        return -1;
    }
    if (pd || pi) {
        if (!pd || !pi) {
            snprintf(err, n, "vertex: 'draw' and 'index' go together (or give a pixel: 'x', 'y')");
            return -1;
        }
        if (pc) {
            snprintf(err, n, "vertex: 'corner' picks a vertex of a pixel's primitive, not of a draw and index");
            return -1;
        }
        int nd = c->n_draws;
        for (int i = 0; i < c->n_ff_draws; i++)   /* the model's count includes draws inside lists */
            nd = c->ff_draws[i].draw >= nd ? c->ff_draws[i].draw + 1 : nd;
        if (draw >= nd) {
            snprintf(err, n, "vertex: the frame has %d draws (0 to %d), not draw %.0f", nd, nd - 1, draw);
            return -1;
        }
        out->draw = (int)draw;
        out->record = out->draw < c->n_draws ? c->draws[out->draw].record : 0;
        for (int i = 0; i < c->n_ff_draws; i++)
            if (c->ff_draws[i].draw == out->draw)
                out->record = c->ff_draws[i].record;
        out->x = (int)index;
        out->y = (int)inst;
        out->corner = -1;
    } else {
        struct dap_pixel_req rq;
        if (!dap_pixel_parse(args, &rq, err, n) || dap_pixel_resolve(c, &rq, out, err, n) != 0)
            return -1;
        if (!out->n_vertices) {
            snprintf(err, n, "vertex: the fragment's primitive at (%d, %d) has no vertices of the vertex shader "
                     "(a geometry or tessellation stage made it)", rq.x, rq.y);
            return -1;
        }
        int k = pc ? (int)corner : out->provoking;
        if (k >= out->n_vertices) {
            snprintf(err, n, "vertex: the fragment's primitive has %d vertices, no corner %d", out->n_vertices, k);
            return -1;
        }
        out->corner = k;
        out->x = out->vertex_id[k];
        out->y = out->instance;
    }
    int shader = dbg_capture_draw_shader(c, out->draw, GM_STAGE_VERTEX);
    if (shader < 0) {
        snprintf(err, n, "vertex: the vertex shader of draw %d is not known to the debugger", out->draw);
        return -1;
    }
    for (int st = GM_STAGE_TESS_CONTROL; st <= GM_STAGE_GEOMETRY && out->corner >= 0; st++)
        if (dbg_capture_draw_shader(c, out->draw, st) >= 0) {
            snprintf(err, n, "vertex: draw %d has a %s stage: its fragments come from that stage's vertices",
                     out->draw, dbg_stage_short(st));
            return -1;
        }
    const struct dbg_shader *s = &c->shaders[shader];
    int line = first_line(s);
    if (line <= 0) {
        snprintf(err, n, "vertex: %s has no line with code%s%s", s->name, s->compile_error ? ": " : "",
                 s->compile_error ? s->compile_error : "");
        return -1;
    }
    out->bp = (struct dbg_bp){ .id = 0, .shader = s->id, .line = line, .hit_op = DBG_HIT_EQ, .hit_n = 1 };
    out->vertex = true;
    return 0;
}

struct dbg_record_hooks *dap_pixel_pass_hooks(struct pxh_pass_feed *feed, uint64_t until)
{
    struct dbg_record_hooks *h = calloc(1, sizeof *h);
    if (!h) {
        pxh_pass_feed_free(feed);
        return NULL;
    }
    *h = (struct dbg_record_hooks){ .before = pxh_pass_feed_before, .after = pxh_pass_feed_after,
                                    .restart = pxh_pass_feed_restart, .ctx = feed, .until = until };
    return h;
}

void dap_pixel_pass_hooks_free(struct dbg_record_hooks *h)
{
    if (!h)
        return;
    pxh_pass_feed_free(h->ctx);
    free(h);
}

void dap_pixel_feed_free(struct pxh_pass_feed *feed)
{
    pxh_pass_feed_free(feed);
}
