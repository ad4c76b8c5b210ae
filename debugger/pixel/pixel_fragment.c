/* The JSON of the pixel history's values and fragments (pixel_internal.h). */
#include <stdio.h>
#include <string.h>

#include "pixel_internal.h"
#include "statemodel/statemodel.h"

/* ---- JSON helpers ---- */

cJSON *pxh_floats(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i] != v[i] ? 0.0 : (double)v[i]));
    return a;
}

cJSON *pxh_bytes4(const uint8_t *v)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static cJSON *value4(const float *v, bool integer)
{
    if (!integer)
        return pxh_floats(v, 4);
    uint32_t u[4];
    memcpy(u, v, sizeof u);
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(u[i]));
    return a;
}

/* The value's name in its registry group (GL_ONE, not GL_CURRENT_BIT, for blend factor 1), else
 * the value's preferred name, else the number. */
static void add_enum(cJSON *o, const char *key, const char *group, uint32_t v)
{
    const char *n = sm_enum_name_in(group, v);
    if (!n)
        n = sm_enum_name(v);
    if (n)
        cJSON_AddStringToObject(o, key, n);
    else
        cJSON_AddNumberToObject(o, key, v);
}

/* Why a fragment did not reach the target, or NULL when it was written. */
static const char *frag_outcome(const struct frag *f, char *buf, size_t n)
{
    for (int i = 0; i < f->n_ds; i++) {
        const gm_watch_rec *d = &f->ds[i];
        if (d->passed)
            continue;
        bool all_failed = true;
        for (int k = 0; k < f->n_ds; k++)
            all_failed &= !f->ds[k].passed;
        if (!all_failed || (f->n_col && !f->in.early))
            continue;
        const char *when = f->in.early ? "early " : "";
        if (!d->stencil_pass)
            snprintf(buf, n, "%sstencil test failed (%s, ref %d, stored %d)", when,
                     sm_enum_name(d->stencil_func) ? sm_enum_name(d->stencil_func) : "?", d->stencil_ref,
                     d->stencil_stored);
        else
            snprintf(buf, n, "%sdepth test failed (%s: incoming %.9g, stored %.9g)", when,
                     sm_enum_name(d->depth_func) ? sm_enum_name(d->depth_func) : "?", d->depth_in, d->depth_stored);
        return buf;
    }
    if (f->shaded && f->sh.discarded)
        return "discarded by the fragment shader";
    if (f->shaded && !f->sh.coverage_after)
        return "no sample left after gl_SampleMask / alpha-to-coverage / sample mask";
    if (f->n_col)
        return NULL;
    if (!f->shaded && f->n_ds == 0)
        return "the fragment shader did not complete (the draw failed: see the notes of `glreplay model`)";
    return "no colour written to the target (not a draw buffer of the draw, or its colour mask is empty)";
}

cJSON *pxh_frag_json(const struct frag *f, const char **outcome, char *why, size_t why_n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "draw", (double)f->draw);
    cJSON_AddNumberToObject(o, "primitive", f->in.primitive_id);
    cJSON_AddBoolToObject(o, "front_facing", f->in.front);
    if (f->in.sample_pass >= 0)
        cJSON_AddNumberToObject(o, "sample_pass", f->in.sample_pass);
    cJSON_AddNumberToObject(o, "coverage", f->in.coverage);
    cJSON_AddItemToObject(o, "frag_coord", pxh_floats(f->in.frag_coord, 4));
    cJSON_AddBoolToObject(o, "early_tests", f->in.early);
    if (f->in.prim.n > 0 && f->in.prim.n <= 3) {
        /* the primitive's vertices as the rasterizer took them: debug this vertex starts from them */
        cJSON *vs = cJSON_AddArrayToObject(o, "vertices");
        for (int i = 0; i < f->in.prim.n; i++) {
            cJSON *v = cJSON_CreateObject();
            cJSON_AddNumberToObject(v, "vertex_id", f->in.prim.vertex_id[i]);
            cJSON_AddItemToObject(v, "position", pxh_floats(f->in.prim.clip[i], 4));
            cJSON_AddItemToArray(vs, v);
        }
        cJSON_AddNumberToObject(o, "provoking", f->in.prim.provoking);
        cJSON_AddNumberToObject(o, "instance", f->in.prim.instance_id);
    }
    if (f->shaded) {
        cJSON *sh = cJSON_AddObjectToObject(o, "shader");
        cJSON_AddBoolToObject(sh, "discarded", f->sh.discarded);
        cJSON *outs = cJSON_AddArrayToObject(sh, "outputs");
        for (int rt = 0; rt < 8; rt++)
            cJSON_AddItemToArray(outs, pxh_floats(f->sh.out_f[rt], 4));
        cJSON_AddNumberToObject(sh, "depth", f->sh.frag_depth);
        cJSON_AddNumberToObject(sh, "coverage_after", f->sh.coverage_after);
    }
    cJSON *tests = cJSON_AddArrayToObject(o, "tests");
    for (int i = 0; i < f->n_ds; i++) {
        const gm_watch_rec *d = &f->ds[i];
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "sample", d->sample);
        cJSON_AddStringToObject(t, "stage", f->in.early ? "early" : "late");
        if (d->depth_on) {
            cJSON *z = cJSON_AddObjectToObject(t, "depth");
            add_enum(z, "func", "DepthFunction", d->depth_func);
            cJSON_AddNumberToObject(z, "incoming", d->depth_in);
            cJSON_AddNumberToObject(z, "stored", d->depth_stored);
            cJSON_AddBoolToObject(z, "pass", d->depth_pass);
            cJSON_AddBoolToObject(z, "written", d->depth_written);
        }
        if (d->stencil_on) {
            cJSON *s = cJSON_AddObjectToObject(t, "stencil");
            add_enum(s, "func", "StencilFunction", d->stencil_func);
            cJSON_AddNumberToObject(s, "ref", d->stencil_ref);
            cJSON_AddNumberToObject(s, "stored", d->stencil_stored);
            cJSON_AddNumberToObject(s, "after", d->stencil_after);
            cJSON_AddBoolToObject(s, "pass", d->stencil_pass);
        }
        cJSON_AddBoolToObject(t, "passed", d->passed);
        cJSON_AddItemToArray(tests, t);
    }
    cJSON *writes = cJSON_AddArrayToObject(o, "writes");
    for (int i = 0; i < f->n_col; i++) {
        const gm_watch_rec *c = &f->col[i];
        cJSON *w = cJSON_CreateObject();
        cJSON_AddNumberToObject(w, "draw_buffer", c->rt);
        cJSON_AddNumberToObject(w, "sample", c->sample);
        cJSON_AddItemToObject(w, "src", value4(c->src, c->integer));
        cJSON_AddItemToObject(w, "dst", value4(c->dst, c->integer));
        cJSON_AddItemToObject(w, "after", value4(c->after, c->integer));
        cJSON_AddNumberToObject(w, "color_mask", c->color_mask);
        if (c->blend) {
            cJSON *b = cJSON_AddObjectToObject(w, "blend");
            add_enum(b, "src_rgb", "BlendingFactor", c->blend_src_rgb);
            add_enum(b, "dst_rgb", "BlendingFactor", c->blend_dst_rgb);
            add_enum(b, "eq_rgb", "BlendEquationModeEXT", c->eq_rgb);
            add_enum(b, "src_alpha", "BlendingFactor", c->blend_src_alpha);
            add_enum(b, "dst_alpha", "BlendingFactor", c->blend_dst_alpha);
            add_enum(b, "eq_alpha", "BlendEquationModeEXT", c->eq_alpha);
        } else {
            cJSON_AddFalseToObject(w, "blend");
        }
        cJSON_AddItemToArray(writes, w);
    }
    *outcome = frag_outcome(f, why, why_n);
    cJSON_AddStringToObject(o, "outcome", *outcome ? *outcome : "written");
    return o;
}

