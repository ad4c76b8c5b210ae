/* Sampler type names <-> image descriptions, and texture functions as the model's requests (see
 * dbg_eval_tex.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "debugger/dbg_eval_tex.h"

static const struct { gm_tex_dim dim; const char *name; int dims; } dim_names[] = {
    { GM_DIM_1D, "1D", 1 }, { GM_DIM_2D, "2D", 2 }, { GM_DIM_3D, "3D", 3 }, { GM_DIM_CUBE, "Cube", 3 },
    { GM_DIM_RECT, "2DRect", 2 }, { GM_DIM_BUFFER, "Buffer", 1 },
};

bool dbg_sampler_glsl_name(int dim, int arrayed, int depth, int ms, int scalar, char *buf, size_t size)
{
    for (size_t i = 0; i < sizeof dim_names / sizeof dim_names[0]; i++)
        if ((int)dim_names[i].dim == dim) {
            snprintf(buf, size, "%ssampler%s%s%s%s", scalar == 1 ? "i" : scalar == 2 ? "u" : "", dim_names[i].name,
                     ms ? "MS" : "", arrayed ? "Array" : "", depth == 1 ? "Shadow" : "");
            return true;
        }
    snprintf(buf, size, "sampler");
    return false;
}

bool dbg_sampler_kind_parse(const char *name, struct dbg_sampler_kind *k)
{
    memset(k, 0, sizeof *k);
    k->result = GM_TEX_RESULT_FLOAT;
    if (*name == 'i' || *name == 'u') {
        k->result = *name == 'i' ? GM_TEX_RESULT_INT : GM_TEX_RESULT_UINT;
        name++;
    }
    if (strncmp(name, "sampler", 7))
        return false;
    name += 7;
    /* Longest dimension name first: "2DRect" before "2D". */
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof dim_names / sizeof dim_names[0]; i++) {
        size_t n = strlen(dim_names[i].name);
        if (!strncmp(name, dim_names[i].name, n) && n > best_len) {
            best = (int)i;
            best_len = n;
        }
    }
    if (best < 0)
        return false;
    name += best_len;
    k->dim = dim_names[best].dim;
    if (!strncmp(name, "MS", 2)) {
        k->ms = 1;
        name += 2;
    }
    if (!strncmp(name, "Array", 5)) {
        k->arrayed = 1;
        name += 5;
    }
    if (!strcmp(name, "Shadow"))
        k->shadow = 1;
    else if (*name)
        return false;
    k->coords = dim_names[best].dims + k->arrayed;
    k->size_comps = (k->dim == GM_DIM_CUBE ? 2 : dim_names[best].dims) + k->arrayed;
    return true;
}

/* ---------------------------------------------------------------- texture functions */

enum {
    F_PROJ = 1,     /* the coordinate carries q last: divided out before sampling */
    F_LOD = 2,      /* an explicit level argument */
    F_GRAD = 4,     /* explicit dPdx, dPdy arguments */
    F_OFFSET = 8,   /* a texel offset argument */
    F_LEGACY = 16,  /* GLSL 1.10 shadow*(): the vec4 GL_DEPTH_TEXTURE_MODE makes of the compare */
};

struct dbg_tex_fn {
    const char *name;
    gm_tex_op op;
    unsigned flags;
};

static const struct dbg_tex_fn tex_fns[] = {
    { "texture", GM_TEX_SAMPLE, 0 },
    { "textureLod", GM_TEX_SAMPLE, F_LOD },
    { "textureOffset", GM_TEX_SAMPLE, F_OFFSET },
    { "textureLodOffset", GM_TEX_SAMPLE, F_LOD | F_OFFSET },
    { "textureGrad", GM_TEX_SAMPLE, F_GRAD },
    { "textureGradOffset", GM_TEX_SAMPLE, F_GRAD | F_OFFSET },
    { "textureProj", GM_TEX_SAMPLE, F_PROJ },
    { "textureProjLod", GM_TEX_SAMPLE, F_PROJ | F_LOD },
    { "textureProjOffset", GM_TEX_SAMPLE, F_PROJ | F_OFFSET },
    { "textureProjLodOffset", GM_TEX_SAMPLE, F_PROJ | F_LOD | F_OFFSET },
    { "textureProjGrad", GM_TEX_SAMPLE, F_PROJ | F_GRAD },
    { "textureProjGradOffset", GM_TEX_SAMPLE, F_PROJ | F_GRAD | F_OFFSET },
    { "textureGather", GM_TEX_GATHER, 0 },
    { "textureGatherOffset", GM_TEX_GATHER, F_OFFSET },
    { "texelFetch", GM_TEX_FETCH, 0 },
    { "texelFetchOffset", GM_TEX_FETCH, F_OFFSET },
    { "textureSize", GM_TEX_QUERY_SIZE, 0 },
    { "textureQueryLod", GM_TEX_QUERY_LOD, 0 },
    { "textureQueryLevels", GM_TEX_QUERY_LEVELS, 0 },
    { "textureSamples", GM_TEX_QUERY_SAMPLES, 0 },
    /* GLSL 1.10-1.20 names of the same functions */
    { "texture1D", GM_TEX_SAMPLE, 0 }, { "texture2D", GM_TEX_SAMPLE, 0 }, { "texture3D", GM_TEX_SAMPLE, 0 },
    { "textureCube", GM_TEX_SAMPLE, 0 }, { "texture2DRect", GM_TEX_SAMPLE, 0 },
    { "texture1DLod", GM_TEX_SAMPLE, F_LOD }, { "texture2DLod", GM_TEX_SAMPLE, F_LOD },
    { "texture3DLod", GM_TEX_SAMPLE, F_LOD }, { "textureCubeLod", GM_TEX_SAMPLE, F_LOD },
    { "texture1DProj", GM_TEX_SAMPLE, F_PROJ }, { "texture2DProj", GM_TEX_SAMPLE, F_PROJ },
    { "texture3DProj", GM_TEX_SAMPLE, F_PROJ }, { "texture2DRectProj", GM_TEX_SAMPLE, F_PROJ },
    { "texture1DProjLod", GM_TEX_SAMPLE, F_PROJ | F_LOD }, { "texture2DProjLod", GM_TEX_SAMPLE, F_PROJ | F_LOD },
    { "texture3DProjLod", GM_TEX_SAMPLE, F_PROJ | F_LOD },
    { "shadow1D", GM_TEX_SAMPLE, F_LEGACY }, { "shadow2D", GM_TEX_SAMPLE, F_LEGACY },
    { "shadow2DRect", GM_TEX_SAMPLE, F_LEGACY },
    { "shadow1DProj", GM_TEX_SAMPLE, F_LEGACY | F_PROJ }, { "shadow2DProj", GM_TEX_SAMPLE, F_LEGACY | F_PROJ },
    { "shadow2DRectProj", GM_TEX_SAMPLE, F_LEGACY | F_PROJ },
    { "shadow1DLod", GM_TEX_SAMPLE, F_LEGACY | F_LOD }, { "shadow2DLod", GM_TEX_SAMPLE, F_LEGACY | F_LOD },
    { "shadow1DProjLod", GM_TEX_SAMPLE, F_LEGACY | F_PROJ | F_LOD },
    { "shadow2DProjLod", GM_TEX_SAMPLE, F_LEGACY | F_PROJ | F_LOD },
};

const struct dbg_tex_fn *dbg_tex_fn_find(const char *name)
{
    for (size_t i = 0; i < sizeof tex_fns / sizeof tex_fns[0]; i++)
        if (!strcmp(name, tex_fns[i].name))
            return &tex_fns[i];
    return NULL;
}

const char *dbg_tex_fn_name(int i)
{
    return i >= 0 && (size_t)i < sizeof tex_fns / sizeof tex_fns[0] ? tex_fns[i].name : NULL;
}

static int failf(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int failf(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The coordinates the sampler gets from P at one lane: divided by q (P's last component) for the
 * projective forms, as the executor divides before sampling. */
static void divided(const struct dbg_tex_arg *p, int dims, bool proj, float *c)
{
    float q = proj ? p->f[p->n - 1] : 1.0f;
    for (int k = 0; k < dims && k < 4; k++)
        c[k] = proj ? p->f[k] / q : p->f[k];
}

/* Implicit LOD: in a fragment shader the coarse differences of the lane's quad (its first lane
 * against the next in x and in y, as the executor's quad_deriv), else level 0. */
static int implicit_lod(gm_sample_request *req, bool fragment, int lane, int dims, bool proj,
                        dbg_tex_coord_at_fn coord_at, void *ctx, char *err, size_t n)
{
    if (!fragment) {
        req->has_lod = 1;   /* no derivatives outside fragment shaders: level 0 */
        return 0;
    }
    int q = lane & ~3;
    struct dbg_tex_arg a[3];
    for (int i = 0; i < 3; i++)
        if (!coord_at(ctx, q + i, &a[i]))
            return failf(err, n, "the coordinate at lane %d of the quad cannot be evaluated", q + i);
    float c[3][4] = { { 0 } };
    for (int i = 0; i < 3; i++)
        divided(&a[i], dims, proj, c[i]);
    req->has_grad = 1;
    for (int k = 0; k < dims && k < 3; k++) {
        req->ddx[k][lane] = c[1][k] - c[0][k];
        req->ddy[k][lane] = c[2][k] - c[0][k];
    }
    return 0;
}

static int need_comps(const char *fn, const char *what, const struct dbg_tex_arg *a, int comps, char *err, size_t n)
{
    if (a->n < comps)
        return failf(err, n, "%s(): %s needs %d component%s", fn, what, comps, comps == 1 ? "" : "s");
    return 0;
}

static int sample_request(const struct dbg_tex_fn *fn, const struct dbg_sampler_kind *k, bool fragment, int L,
                          const struct dbg_tex_arg *a, int n, dbg_tex_coord_at_fn coord_at, void *ctx,
                          gm_sample_request *req, char *err, size_t en)
{
    const char *name = fn->name;
    bool proj = fn->flags & F_PROJ;
    int dims = k->coords - k->arrayed;
    if (proj && (k->arrayed || k->dim == GM_DIM_CUBE || k->ms || k->dim == GM_DIM_BUFFER))
        return failf(err, en, "%s(): a projective lookup takes no array, cube, buffer or multisample sampler", name);
    if (k->ms || k->dim == GM_DIM_BUFFER)
        return failf(err, en, "%s(): this sampler is only read with texelFetch", name);
    /* The compare reference: in P after the coordinates (P.z for 1D and 2D shadows, whose P is a
     * vec3 or, projective, a vec4 with q in w), or its own argument for cube-array shadows. */
    bool sep_ref = k->shadow && k->coords == 4;
    int ref_at = k->coords == 1 ? 2 : k->coords;
    int p_need = proj ? (k->shadow ? 4 : dims + 1) : k->shadow && !sep_ref ? ref_at + 1 : k->coords;
    if (need_comps(name, "the coordinate", &a[0], p_need, err, en))
        return -1;
    int fixed = 1 + (sep_ref ? 1 : 0) + ((fn->flags & F_LOD) ? 1 : 0) + ((fn->flags & F_GRAD) ? 2 : 0) +
                ((fn->flags & F_OFFSET) ? 1 : 0);
    bool implicit = !(fn->flags & (F_LOD | F_GRAD));
    if (n < fixed || n > fixed + (implicit ? 1 : 0))
        return failf(err, en, "%s() takes %d%s argument%s after the sampler", name, fixed,
                     implicit ? " or (with a bias) one more" : "", fixed == 1 && !implicit ? "" : "s");
    float c[4] = { 0 };
    divided(&a[0], k->coords, false, c);
    if (proj)
        divided(&a[0], dims, true, c);
    for (int i = 0; i < k->coords && i < 4; i++)
        req->coord.f[i][L] = c[i];
    int next = 1;
    if (k->shadow) {
        float q = proj ? a[0].f[a[0].n - 1] : 1.0f;
        req->dref[L] = sep_ref ? a[next++].f[0] : proj ? a[0].f[2] / q : a[0].f[ref_at];
    }
    if (fn->flags & F_LOD) {
        req->has_lod = 1;
        req->lod[L] = a[next++].f[0];
    }
    if (fn->flags & F_GRAD) {
        if (need_comps(name, "dPdx", &a[next], dims, err, en) || need_comps(name, "dPdy", &a[next + 1], dims, err, en))
            return -1;
        req->has_grad = 1;
        for (int i = 0; i < dims && i < 3; i++) {
            req->ddx[i][L] = a[next].f[i];
            req->ddy[i][L] = a[next + 1].f[i];
        }
        next += 2;
    }
    if (fn->flags & F_OFFSET) {
        if (k->dim == GM_DIM_CUBE)
            return failf(err, en, "%s(): a cube sampler takes no offset", name);
        if (need_comps(name, "the offset", &a[next], dims, err, en))
            return -1;
        req->has_offset = 1;
        for (int i = 0; i < dims && i < 3; i++)
            req->offset[i][L] = a[next].i[i];
        next++;
    }
    if (next < n) {
        req->has_bias = 1;
        req->bias[L] = a[next].f[0];
    }
    if (implicit)
        return implicit_lod(req, fragment, L, dims, proj, coord_at, ctx, err, en);
    return 0;
}

int dbg_tex_request(const struct dbg_tex_fn *fn, const struct dbg_sampler_kind *k, bool fragment, int L,
                    const struct dbg_tex_arg *a, int n, dbg_tex_coord_at_fn coord_at, void *ctx,
                    gm_sample_request *req, struct dbg_tex_result *res, char *err, size_t en)
{
    const char *name = fn->name;
    int dims = k->coords - k->arrayed;
    req->op = fn->op;
    req->mask = 1u << L;
    req->dim = k->dim;
    req->arrayed = k->arrayed;
    req->shadow = k->shadow;
    req->multisampled = k->ms;
    req->result_type = k->result;
    req->coord_count = k->coords;
    memset(res, 0, sizeof *res);
    res->type = k->result;
    res->comps = 4;
    res->is_float = k->result == GM_TEX_RESULT_FLOAT;
    if ((fn->flags & F_LEGACY) && !k->shadow)
        return failf(err, en, "%s() needs a shadow sampler", name);
    switch (fn->op) {
    case GM_TEX_SAMPLE:
        if (k->shadow) {
            req->legacy_shadow = (fn->flags & F_LEGACY) != 0;
            res->comps = req->legacy_shadow ? 4 : 1;
            res->is_float = true;
        }
        return sample_request(fn, k, fragment, L, a, n, coord_at, ctx, req, err, en);
    case GM_TEX_GATHER: {
        /* (P [, refZ for shadows] [, offset] [, comp for colour samplers]) at the base level */
        int fixed = 1 + (k->shadow ? 1 : 0) + ((fn->flags & F_OFFSET) ? 1 : 0);
        if (n < fixed || n > fixed + (k->shadow ? 0 : 1))
            return failf(err, en, "%s() takes %d%s argument%s after the sampler", name, fixed,
                         k->shadow ? "" : " or (with a component) one more", fixed == 1 && k->shadow ? "" : "s");
        if (k->ms || k->dim == GM_DIM_BUFFER || k->dim == GM_DIM_1D || k->dim == GM_DIM_3D)
            return failf(err, en, "%s() takes a 2D, 2D array, cube or rectangle sampler", name);
        if (need_comps(name, "the coordinate", &a[0], k->coords, err, en))
            return -1;
        for (int i = 0; i < k->coords && i < 4; i++)
            req->coord.f[i][L] = a[0].f[i];
        int next = 1;
        if (k->shadow) {
            req->dref[L] = a[next++].f[0];
            res->is_float = true;
        }
        if (fn->flags & F_OFFSET) {
            if (k->dim == GM_DIM_CUBE)
                return failf(err, en, "%s(): a cube sampler takes no offset", name);
            if (need_comps(name, "the offset", &a[next], 2, err, en))
                return -1;
            req->has_offset = 1;
            for (int i = 0; i < 2; i++)
                req->offset[i][L] = a[next].i[i];
            next++;
        }
        if (next < n) {
            if (a[next].i[0] < 0 || a[next].i[0] > 3)
                return failf(err, en, "%s(): the component must be 0 to 3", name);
            req->component = a[next].i[0];
        }
        return 0;
    }
    case GM_TEX_FETCH: {
        /* (P [, lod, or the sample of a multisample sampler] [, offset]) */
        int off = (fn->flags & F_OFFSET) ? 1 : 0;
        if (n < 1 + off || n > 2 + off)
            return failf(err, en, "%s() takes %d or %d arguments after the sampler", name, 1 + off, 2 + off);
        if (need_comps(name, "the coordinate", &a[0], k->coords, err, en))
            return -1;
        for (int i = 0; i < k->coords && i < 4; i++)
            req->coord.i[i][L] = a[0].i[i];
        int next = 1;
        if (n > 1 + off) {
            if (k->ms) {
                req->has_sample = 1;
                req->sample[L] = a[next].i[0];
            } else {
                req->has_lod = 1;
                req->lod[L] = (float)a[next].i[0];
            }
            next++;
        }
        if (off) {
            if (k->ms || k->dim == GM_DIM_CUBE || k->dim == GM_DIM_BUFFER)
                return failf(err, en, "%s(): this sampler takes no offset", name);
            if (need_comps(name, "the offset", &a[next], dims, err, en))
                return -1;
            req->has_offset = 1;
            for (int i = 0; i < dims && i < 3; i++)
                req->offset[i][L] = a[next].i[i];
        }
        return 0;
    }
    case GM_TEX_QUERY_SIZE:
        if (n > 1)
            return failf(err, en, "%s() takes the sampler and at most a level", name);
        req->has_lod = 1;
        req->lod[L] = n > 0 ? (float)a[0].i[0] : 0.0f;
        res->comps = k->size_comps;
        res->is_float = false;
        res->query_int = true;
        return 0;
    case GM_TEX_QUERY_LOD:
        if (n != 1)
            return failf(err, en, "%s() takes the sampler and a coordinate", name);
        if (need_comps(name, "the coordinate", &a[0], dims, err, en))
            return -1;
        req->coord_count = dims;
        for (int i = 0; i < dims && i < 4; i++)
            req->coord.f[i][L] = a[0].f[i];
        res->comps = 2;
        res->is_float = true;
        return implicit_lod(req, fragment, L, dims, false, coord_at, ctx, err, en);
    case GM_TEX_QUERY_LEVELS:
    case GM_TEX_QUERY_SAMPLES:
        if (n != 0)
            return failf(err, en, "%s() takes only the sampler", name);
        res->comps = 1;
        res->is_float = false;
        res->query_int = true;
        return 0;
    }
    return failf(err, en, "%s(): not a texture function", name);
}

void dbg_tex_default_out(const gm_sample_request *req, gm_texel_out *out)
{
    memset(out, 0, sizeof *out);
    if (req->op != GM_TEX_SAMPLE && req->op != GM_TEX_FETCH && req->op != GM_TEX_GATHER)
        return;
    for (int l = 0; l < GM_LANES; l++) {
        if (req->result_type == GM_TEX_RESULT_FLOAT)
            out->f[3][l] = 1.0f;
        else
            out->u[3][l] = 1;
    }
}
