/* A small recursive-descent evaluator of GLSL expressions over a snapshot (see dbg_eval.h).
 * Values are numbers (scalar, vector, matrix: up to 16 components) or references to aggregates
 * (arrays, structs) inside the snapshot's words, gathered for the lane into an arena. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_eval.h"
#include "debugger/dbg_eval_tex.h"

enum { V_NUM, V_AGG };

typedef union { float f; int32_t i; uint32_t u; } comp;

struct val {
    int kind;
    sh_scalar sc;
    int rows, cols;          /* NUM: rows components per column, cols columns (1: vector/scalar) */
    comp c[16];
    int type;                /* AGG: snapshot type */
    const uint32_t *w;       /* AGG: words */
    /* NUM loaded from a double (64-bit) variable: d holds the exact values (c[].f their float
     * roundings, for arithmetic). Kept through swizzles, indexing and negation so `x`, `v.y`
     * and `-m[1]` show the double; any other operation computes in float and drops it. */
    bool dbl;
    double d[16];
    int opaque;              /* NUM from a sampler/image variable: its snapshot type + 1 (0: none) */
};

struct ev {
    const sh_snapshot *s;
    int lane;
    const char *p;
    char err[160];
    bool failed;
    int depth;
    bool syntax_only;        /* dbg_eval_syntax: no snapshot; only grammar errors count */
    const struct dbg_eval_env *env;   /* texture sampling (NULL: none) */
    const char *function;    /* the frame whose locals names mean (NULL: the innermost) */
    void *arena[64];
    int n_arena;
};

static void fail(struct ev *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct ev *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    /* A syntax check has no values: an error about them (types, sizes, names) is not the
     * expression's grammar. Grammar errors are the messages with these openings. */
    if (e->syntax_only && strncmp(fmt, "missing", 7) && strncmp(fmt, "unexpected", 10) &&
        strncmp(fmt, "member name expected", 20) && strncmp(fmt, "too many", 8) && strncmp(fmt, "expression", 10))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, sizeof e->err, fmt, ap);
    va_end(ap);
    e->failed = true;
}

static void *arena_alloc(struct ev *e, size_t n)
{
    if (e->n_arena >= 64) {
        fail(e, "expression too complex");
        return NULL;
    }
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fail(e, "out of memory");
        return NULL;
    }
    e->arena[e->n_arena++] = p;
    return p;
}

static void skip_ws(struct ev *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static bool accept(struct ev *e, const char *tok)
{
    skip_ws(e);
    size_t n = strlen(tok);
    if (strncmp(e->p, tok, n) != 0)
        return false;
    /* "<" must not match "<=", "&" must be "&&", etc.: callers test longer tokens first. */
    e->p += n;
    return true;
}

static int ncomp(const struct val *v) { return v->rows * v->cols; }

static float as_f(const struct val *v, int i)
{
    switch (v->sc) {
    case SH_SCALAR_INT: return (float)v->c[i].i;
    case SH_SCALAR_UINT: return (float)v->c[i].u;
    case SH_SCALAR_BOOL: return v->c[i].u ? 1.0f : 0.0f;
    default: return v->c[i].f;
    }
}

/* float -> int as the model's conversion instruction does it (saturating, NaN 0): a plain C cast
 * of an out-of-range value is undefined, and an expression typed in the console can be anything. */
static int32_t float_to_int(float f)
{
    if (!(f == f))
        return 0;
    if (f >= 2147483647.0f)
        return INT32_MAX;
    if (f <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

static int32_t as_i(const struct val *v, int i)
{
    switch (v->sc) {
    case SH_SCALAR_FLOAT: return float_to_int(v->c[i].f);
    case SH_SCALAR_BOOL: return v->c[i].u ? 1 : 0;
    default: return v->c[i].i;
    }
}

static struct val num_from_words(const sh_type *t, const uint32_t *w)
{
    struct val v;
    memset(&v, 0, sizeof v);
    v.kind = V_NUM;
    v.sc = t->kind == SH_TYPE_OPAQUE ? SH_SCALAR_INT : t->scalar;
    v.rows = t->kind == SH_TYPE_SCALAR || t->kind == SH_TYPE_OPAQUE ? 1 : t->rows;
    v.cols = t->kind == SH_TYPE_MATRIX ? t->columns : 1;
    if (t->width == 64 && v.sc == SH_SCALAR_FLOAT) {
        v.dbl = true;
        for (int i = 0; i < ncomp(&v) && i < 16; i++) {
            uint64_t bits = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
            memcpy(&v.d[i], &bits, sizeof v.d[i]);
            v.c[i].f = (float)v.d[i];
        }
        return v;
    }
    for (int i = 0; i < ncomp(&v) && i < 16; i++)
        v.c[i].u = w[i];
    return v;
}

static struct val from_words(struct ev *e, int type, const uint32_t *w)
{
    const sh_type *t = sh_snapshot_type(e->s, type);
    struct val v;
    memset(&v, 0, sizeof v);
    if (!t) {
        fail(e, "unknown type");
        return v;
    }
    if (t->kind == SH_TYPE_ARRAY || t->kind == SH_TYPE_STRUCT) {
        v.kind = V_AGG;
        v.type = type;
        v.w = w;
        return v;
    }
    if (t->kind == SH_TYPE_OTHER || t->rows * t->columns > 16) {
        fail(e, "value of an unsupported type");
        return v;
    }
    v = num_from_words(t, w);
    if (t->kind == SH_TYPE_OPAQUE)
        v.opaque = type + 1;
    return v;
}

static struct val scalar_f(float f);
static struct val scalar_i(sh_scalar sc, int32_t i);

static size_t bare_len(const char *f)
{
    const char *p = strchr(f, '(');
    return p ? (size_t)(p - f) : strlen(f);
}

/* A name as the code of `function` sees it: that function's locals (its parameters among
 * them), then the shader's globals, inputs, outputs, uniforms and built-ins. */
static int find_in_frame(const sh_snapshot *s, const char *function, const char *name)
{
    int n = sh_snapshot_var_count(s);
    size_t fl = bare_len(function);
    for (int i = 0; i < n; i++) {
        const sh_var *v = sh_snapshot_var(s, i);
        if (v->klass == SH_VAR_LOCAL && v->function && !strcmp(v->name, name) && bare_len(v->function) == fl &&
            !strncmp(v->function, function, fl))
            return i;
    }
    static const sh_var_class order[] = { SH_VAR_GLOBAL, SH_VAR_INPUT, SH_VAR_OUTPUT, SH_VAR_UNIFORM, SH_VAR_BUILTIN };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        for (int i = 0; i < n; i++)
            if (sh_snapshot_var(s, i)->klass == order[k] && !strcmp(sh_snapshot_var(s, i)->name, name))
                return i;
    return -1;
}

static struct val load_var(struct ev *e, const char *name)
{
    struct val v;
    memset(&v, 0, sizeof v);
    if (e->syntax_only)
        return scalar_f(0);
    int idx = e->function ? find_in_frame(e->s, e->function, name) : sh_snapshot_find_var(e->s, name);
    if (idx < 0 && !strcmp(name, "gl_HelperInvocation")) {
        /* Undeclared built-in: what the lane stands for, from the warp's masks. */
        v = scalar_i(SH_SCALAR_BOOL, (sh_snapshot_header(e->s)->helper >> e->lane) & 1);
        return v;
    }
    if (idx < 0) {
        fail(e, "unknown variable '%s'", name);
        return v;
    }
    const sh_var *var = sh_snapshot_var(e->s, idx);
    const sh_type *t = sh_snapshot_type(e->s, var->type);
    uint32_t *w = arena_alloc(e, (size_t)t->components * sizeof *w);
    if (!w)
        return v;
    sh_var_lane_words(e->s, var, e->lane, w);
    return from_words(e, var->type, w);
}

static struct val parse_expr(struct ev *e);

static struct val scalar_f(float f)
{
    struct val v;
    memset(&v, 0, sizeof v);
    v.kind = V_NUM;
    v.sc = SH_SCALAR_FLOAT;
    v.rows = v.cols = 1;
    v.c[0].f = f;
    return v;
}

static struct val scalar_i(sh_scalar sc, int32_t i)
{
    struct val v = scalar_f(0);
    v.sc = sc;
    v.c[0].i = i;
    return v;
}

static bool need_num(struct ev *e, const struct val *v)
{
    if (v->kind != V_NUM)
        fail(e, "an array or struct cannot be used here");
    return !e->failed;
}

static struct val convert(struct val v, sh_scalar to)
{
    v.dbl = false;   /* converted operands are computed on in float */
    if (v.sc == to)
        return v;
    struct val r = v;
    r.sc = to;
    for (int i = 0; i < ncomp(&v); i++) {
        if (to == SH_SCALAR_FLOAT)
            r.c[i].f = as_f(&v, i);
        else if (to == SH_SCALAR_BOOL)
            r.c[i].u = as_f(&v, i) != 0.0f;
        else
            r.c[i].i = as_i(&v, i);
    }
    return r;
}

/* Constructors and built-in functions. */
static struct val call(struct ev *e, const char *fn, struct val *a, int n)
{
    struct val r = scalar_f(0);
    if (e->syntax_only)
        return r;
    for (int i = 0; i < n; i++)
        if (!need_num(e, &a[i]))
            return r;
    static const struct { const char *name; sh_scalar sc; int rows, cols; } ctors[] = {
        { "float", SH_SCALAR_FLOAT, 1, 1 }, { "int", SH_SCALAR_INT, 1, 1 }, { "uint", SH_SCALAR_UINT, 1, 1 },
        { "bool", SH_SCALAR_BOOL, 1, 1 }, { "vec2", SH_SCALAR_FLOAT, 2, 1 }, { "vec3", SH_SCALAR_FLOAT, 3, 1 },
        { "vec4", SH_SCALAR_FLOAT, 4, 1 }, { "ivec2", SH_SCALAR_INT, 2, 1 }, { "ivec3", SH_SCALAR_INT, 3, 1 },
        { "ivec4", SH_SCALAR_INT, 4, 1 }, { "uvec2", SH_SCALAR_UINT, 2, 1 }, { "uvec3", SH_SCALAR_UINT, 3, 1 },
        { "uvec4", SH_SCALAR_UINT, 4, 1 }, { "bvec2", SH_SCALAR_BOOL, 2, 1 }, { "bvec3", SH_SCALAR_BOOL, 3, 1 },
        { "bvec4", SH_SCALAR_BOOL, 4, 1 }, { "mat2", SH_SCALAR_FLOAT, 2, 2 }, { "mat3", SH_SCALAR_FLOAT, 3, 3 },
        { "mat4", SH_SCALAR_FLOAT, 4, 4 },
    };
    for (size_t k = 0; k < sizeof ctors / sizeof ctors[0]; k++) {
        if (strcmp(fn, ctors[k].name) != 0)
            continue;
        r.sc = ctors[k].sc;
        r.rows = ctors[k].rows;
        r.cols = ctors[k].cols;
        int want = r.rows * r.cols, got = 0;
        if (n == 1 && ncomp(&a[0]) == 1) {
            struct val c = convert(a[0], r.sc);
            for (int i = 0; i < want; i++)   /* splat; matrices get a diagonal */
                r.c[i] = (r.cols > 1 && i % (r.rows + 1) != 0) ? (comp){ .f = 0 } : c.c[0];
            return r;
        }
        for (int i = 0; i < n && got < want; i++) {
            struct val c = convert(a[i], r.sc);
            for (int j = 0; j < ncomp(&c) && got < want; j++)
                r.c[got++] = c.c[j];
        }
        if (got < want)
            fail(e, "%s() needs %d components, got %d", fn, want, got);
        return r;
    }
    if (n < 1) {
        fail(e, "%s() needs arguments", fn);
        return r;
    }
    struct val x = convert(a[0], SH_SCALAR_FLOAT);
    if (!strcmp(fn, "length") || !strcmp(fn, "normalize")) {
        float sum = 0;
        for (int i = 0; i < ncomp(&x); i++)
            sum += x.c[i].f * x.c[i].f;
        float len = sqrtf(sum);
        if (fn[0] == 'l')
            return scalar_f(len);
        for (int i = 0; i < ncomp(&x); i++)
            x.c[i].f /= len;
        return x;
    }
    if (n == 1 && (!strcmp(fn, "isnan") || !strcmp(fn, "isinf"))) {
        struct val b = x;
        b.sc = SH_SCALAR_BOOL;
        for (int i = 0; i < ncomp(&x); i++)
            b.c[i].u = fn[2] == 'n' ? isnan(x.c[i].f) != 0 : isinf(x.c[i].f) != 0;
        return b;
    }
    if (n == 1 && (!strcmp(fn, "sign") || !strcmp(fn, "inversesqrt"))) {
        for (int i = 0; i < ncomp(&x); i++) {
            float f = x.c[i].f;
            x.c[i].f = fn[0] == 's' ? (f > 0 ? 1.0f : f < 0 ? -1.0f : 0.0f) : 1.0f / sqrtf(f);
        }
        return x;
    }
    if (n == 2 && !strcmp(fn, "step")) {   /* step(edge, x): 0 where x < edge */
        struct val v = convert(a[1], SH_SCALAR_FLOAT);
        for (int i = 0; i < ncomp(&v); i++)
            v.c[i].f = v.c[i].f < x.c[ncomp(&x) == 1 ? 0 : i].f ? 0.0f : 1.0f;
        return v;
    }
    if (n == 3 && !strcmp(fn, "smoothstep")) {   /* smoothstep(e0, e1, x) */
        struct val e1 = convert(a[1], SH_SCALAR_FLOAT), v = convert(a[2], SH_SCALAR_FLOAT);
        for (int i = 0; i < ncomp(&v); i++) {
            float lo = x.c[ncomp(&x) == 1 ? 0 : i].f, hi = e1.c[ncomp(&e1) == 1 ? 0 : i].f;
            float t = fminf(fmaxf((v.c[i].f - lo) / (hi - lo), 0.0f), 1.0f);
            v.c[i].f = t * t * (3.0f - 2.0f * t);
        }
        return v;
    }
    if (n == 2 && (!strcmp(fn, "cross") || !strcmp(fn, "reflect"))) {
        struct val y = convert(a[1], SH_SCALAR_FLOAT);
        if (ncomp(&x) != ncomp(&y) || x.cols != 1 || (fn[0] == 'c' && ncomp(&x) != 3)) {
            fail(e, "%s() needs two vectors of the same size%s", fn, fn[0] == 'c' ? " (3)" : "");
            return r;
        }
        struct val v = x;
        if (fn[0] == 'c') {
            v.c[0].f = x.c[1].f * y.c[2].f - x.c[2].f * y.c[1].f;
            v.c[1].f = x.c[2].f * y.c[0].f - x.c[0].f * y.c[2].f;
            v.c[2].f = x.c[0].f * y.c[1].f - x.c[1].f * y.c[0].f;
        } else {   /* reflect(I, N) = I - 2 dot(N, I) N */
            float d = 0;
            for (int i = 0; i < ncomp(&x); i++)
                d += x.c[i].f * y.c[i].f;
            for (int i = 0; i < ncomp(&x); i++)
                v.c[i].f = x.c[i].f - 2.0f * d * y.c[i].f;
        }
        return v;
    }
    if (!strcmp(fn, "abs") || !strcmp(fn, "floor") || !strcmp(fn, "sqrt") || !strcmp(fn, "fract") ||
        !strcmp(fn, "exp")) {
        for (int i = 0; i < ncomp(&x); i++) {
            float f = x.c[i].f;
            x.c[i].f = fn[0] == 'a' ? fabsf(f) : fn[0] == 'f' && fn[1] == 'l' ? floorf(f)
                     : fn[0] == 's' ? sqrtf(f) : fn[0] == 'e' ? expf(f) : f - floorf(f);
        }
        return x;
    }
    if (n >= 2) {
        struct val y = convert(a[1], SH_SCALAR_FLOAT);
        if (!strcmp(fn, "dot") || !strcmp(fn, "distance")) {
            float sum = 0;
            for (int i = 0; i < ncomp(&x) && i < ncomp(&y); i++)
                sum += fn[0] == 'd' && fn[1] == 'o' ? x.c[i].f * y.c[i].f
                                                     : (x.c[i].f - y.c[i].f) * (x.c[i].f - y.c[i].f);
            return scalar_f(fn[1] == 'o' ? sum : sqrtf(sum));
        }
        if (!strcmp(fn, "min") || !strcmp(fn, "max") || !strcmp(fn, "pow")) {
            for (int i = 0; i < ncomp(&x); i++) {
                float b = y.c[ncomp(&y) == 1 ? 0 : i].f;
                x.c[i].f = fn[1] == 'i' ? fminf(x.c[i].f, b) : fn[1] == 'a' ? fmaxf(x.c[i].f, b) : powf(x.c[i].f, b);
            }
            return x;
        }
        if (n == 3 && (!strcmp(fn, "clamp") || !strcmp(fn, "mix"))) {
            struct val z = convert(a[2], SH_SCALAR_FLOAT);
            for (int i = 0; i < ncomp(&x); i++) {
                float b = y.c[ncomp(&y) == 1 ? 0 : i].f, c = z.c[ncomp(&z) == 1 ? 0 : i].f;
                x.c[i].f = fn[0] == 'c' ? fminf(fmaxf(x.c[i].f, b), c) : x.c[i].f * (1 - c) + b * c;
            }
            return x;
        }
    }
    fail(e, "unknown function %s() (or wrong argument count)", fn);
    return r;
}

/* ---- derivatives and texture sampling: re-evaluating an argument on another lane ---- */

/* The argument text at `at` evaluated for `lane` (the quad's other lanes); the parse position and
 * the lane are restored. */
static struct val arg_at_lane(struct ev *e, const char *at, int lane)
{
    const char *p = e->p;
    int l = e->lane;
    e->p = at;
    e->lane = lane;
    struct val v = parse_expr(e);
    e->p = p;
    e->lane = l;
    return v;
}

static bool is_derivative(const char *fn)
{
    static const char *names[] = { "dFdx", "dFdy", "fwidth", "dFdxFine", "dFdyFine", "fwidthFine", "dFdxCoarse",
                                   "dFdyCoarse", "fwidthCoarse" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(fn, names[i]))
            return true;
    return false;
}

static bool fragment_stop(struct ev *e, const char *fn)
{
    if (sh_snapshot_header(e->s)->stage != 4) {
        fail(e, "%s() needs a fragment shader's 2x2 quad (this stop is not in one)", fn);
        return false;
    }
    return true;
}

/* dFdx/dFdy/fwidth of the argument over the lane's quad (lanes 4k..4k+3 are (x,y) (x+1,y)
 * (x,y+1) (x+1,y+1)): per-row x differences and per-column y differences, for every variant, as
 * the model's derivative instruction computes them (gpu_model/exec/gm_exec.c). */
static struct val derivative(struct ev *e, const char *fn, const char *const *at, int n)
{
    struct val r = scalar_f(0);
    if (n != 1) {
        fail(e, "%s() takes one argument", fn);
        return r;
    }
    if (!fragment_stop(e, fn))
        return r;
    int q = e->lane & ~3, i = e->lane & 3;
    struct val v[4];
    for (int k = 0; k < 4 && !e->failed; k++) {
        v[k] = arg_at_lane(e, at[0], q + k);
        if (!e->failed && need_num(e, &v[k]))
            v[k] = convert(v[k], SH_SCALAR_FLOAT);
    }
    if (e->failed)
        return r;
    if (v[0].cols != 1) {
        fail(e, "%s() of a matrix", fn);
        return r;
    }
    r = v[0];
    r.dbl = false;
    r.opaque = 0;
    bool dx = fn[0] == 'd' && fn[3] == 'x', dy = fn[0] == 'd' && fn[3] == 'y';
    for (int c = 0; c < ncomp(&r); c++) {
        float ddx = i < 2 ? v[1].c[c].f - v[0].c[c].f : v[3].c[c].f - v[2].c[c].f;
        float ddy = (i & 1) == 0 ? v[2].c[c].f - v[0].c[c].f : v[3].c[c].f - v[1].c[c].f;
        r.c[c].f = dx ? ddx : dy ? ddy : fabsf(ddx) + fabsf(ddy);
    }
    return r;
}

/* An argument as the texture functions take it (dbg_eval_tex.h): up to 4 numbers. */
static bool tex_arg(struct ev *e, const char *fn, int i, const struct val *v, struct dbg_tex_arg *out)
{
    if (!need_num(e, v))
        return false;
    if (ncomp(v) > 4) {
        fail(e, "%s(): argument %d has %d components (at most 4)", fn, i + 1, ncomp(v));
        return false;
    }
    out->n = ncomp(v);
    for (int c = 0; c < out->n; c++) {
        out->f[c] = as_f(v, c);
        out->i[c] = as_i(v, c);
    }
    return true;
}

struct coord_at_ctx {
    struct ev *e;
    const char *fn;
    const char *at;   /* the coordinate argument's text */
};

/* The coordinate argument evaluated for another lane of the quad (implicit LOD). */
static bool tex_coord_at(void *ctx, int lane, struct dbg_tex_arg *out)
{
    struct coord_at_ctx *c = ctx;
    struct val v = arg_at_lane(c->e, c->at, lane);
    return !c->e->failed && tex_arg(c->e, c->fn, 1, &v, out);
}

/* A texture function (dbg_eval_tex.c builds the request the model's texture instruction would
 * make for this lane) sampled through the model's texture unit that the sampler names. */
static struct val texture_call(struct ev *e, const struct dbg_tex_fn *tf, const char *fn, struct val *a,
                               const char *const *at, int n)
{
    struct val r = scalar_f(0);
    if (n < 1 || !a[0].opaque) {
        fail(e, "%s() needs a sampler of the shader as its first argument", fn);
        return r;
    }
    struct dbg_sampler_kind k;
    const sh_type *st = sh_snapshot_type(e->s, a[0].opaque - 1);
    if (!st || !dbg_sampler_kind_parse(st->name, &k)) {
        fail(e, "%s(): '%s' is not a sampler type this debugger can sample", fn, st ? st->name : "?");
        return r;
    }
    if (!e->env || !e->env->sample) {
        fail(e, "%s(): sampling needs the GPU model at this stop (not available here)", fn);
        return r;
    }
    struct dbg_tex_arg args[15];
    for (int i = 1; i < n; i++)
        if (!tex_arg(e, fn, i, &a[i], &args[i - 1]))
            return r;
    gm_sample_request *req = arena_alloc(e, sizeof *req);
    gm_texel_out *out = arena_alloc(e, sizeof *out);
    if (!req || !out)
        return r;
    int L = e->lane;
    struct coord_at_ctx cc = { e, fn, n > 1 ? at[1] : NULL };
    struct dbg_tex_result res;
    char err[160] = "";
    bool fragment = sh_snapshot_header(e->s)->stage == 4;
    if (dbg_tex_request(tf, &k, fragment, L, args, n - 1, tex_coord_at, &cc, req, &res, err, sizeof err) != 0) {
        fail(e, "%s", err);
        return r;
    }
    if (e->failed)
        return r;
    req->unit = a[0].c[0].u;
    dbg_tex_default_out(req, out);
    if (e->env->sample(e->env->ctx, req, out, err, sizeof err) != 0) {
        fail(e, "%s(): %s", fn, err[0] ? err : "sampling failed");
        return r;
    }
    memset(&r, 0, sizeof r);
    r.kind = V_NUM;
    r.cols = 1;
    r.rows = res.comps;
    r.sc = res.is_float ? SH_SCALAR_FLOAT : res.query_int || res.type == GM_TEX_RESULT_INT ? SH_SCALAR_INT
         : SH_SCALAR_UINT;
    for (int c = 0; c < r.rows && c < 4; c++)
        r.c[c].u = out->u[c][L];
    return r;
}

static struct val parse_primary(struct ev *e)
{
    struct val v = scalar_f(0);
    skip_ws(e);
    if (accept(e, "(")) {
        v = parse_expr(e);
        if (!accept(e, ")"))
            fail(e, "missing ')'");
        return v;
    }
    if (isdigit((unsigned char)*e->p) || (*e->p == '.' && isdigit((unsigned char)e->p[1]))) {
        char *end;
        const char *start = e->p;
        bool is_float = false;
        for (const char *q = start; isalnum((unsigned char)*q) || *q == '.'; q++)
            if (*q == '.' || ((*q == 'e' || *q == 'E') && !(start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))))
                is_float = true;
        if (is_float) {
            v = scalar_f(strtof(start, &end));
            if (*end == 'f' || *end == 'F')
                end++;
        } else {
            unsigned long long n = strtoull(start, &end, 0);
            bool u = *end == 'u' || *end == 'U';
            if (u)
                end++;
            v = scalar_i(u ? SH_SCALAR_UINT : SH_SCALAR_INT, (int32_t)n);
        }
        e->p = end;
        return v;
    }
    if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        char name[128];
        size_t n = 0;
        while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n + 1 < sizeof name)
            name[n++] = *e->p++;
        name[n] = 0;
        if (!strcmp(name, "true") || !strcmp(name, "false"))
            return scalar_i(SH_SCALAR_BOOL, name[0] == 't');
        if (accept(e, "(")) {
            struct val args[16];
            const char *at[16];
            int na = 0;
            skip_ws(e);
            if (!accept(e, ")")) {
                do {
                    if (na == 16) {
                        fail(e, "too many arguments");
                        return v;
                    }
                    skip_ws(e);
                    at[na] = e->p;
                    args[na++] = parse_expr(e);
                } while (!e->failed && accept(e, ","));
                if (!accept(e, ")"))
                    fail(e, "missing ')' after the arguments of %s", name);
            }
            if (e->failed || e->syntax_only)
                return v;
            if (is_derivative(name))
                return derivative(e, name, at, na);
            const struct dbg_tex_fn *tf = dbg_tex_fn_find(name);
            if (tf)
                return texture_call(e, tf, name, args, at, na);
            return call(e, name, args, na);
        }
        return load_var(e, name);
    }
    if (*e->p)
        fail(e, "unexpected '%c'", *e->p);
    else
        fail(e, "unexpected end of expression");
    return v;
}

static int swizzle_index(char c)
{
    const char *sets[] = { "xyzw", "rgba", "stpq" };
    for (int s = 0; s < 3; s++) {
        const char *p = strchr(sets[s], c);
        if (p && c)
            return (int)(p - sets[s]);
    }
    return -1;
}

static struct val parse_postfix(struct ev *e)
{
    struct val v = parse_primary(e);
    for (;;) {
        if (e->failed)
            return v;
        if (accept(e, "[")) {
            struct val idx = parse_expr(e);
            if (!accept(e, "]"))
                fail(e, "missing ']'");
            if (e->syntax_only)
                continue;   /* no value to index: the grammar is all there is */
            if (e->failed || !need_num(e, &idx))
                return v;
            int i = as_i(&idx, 0);
            if (v.kind == V_AGG) {
                const sh_type *t = sh_snapshot_type(e->s, v.type);
                if (t->kind != SH_TYPE_ARRAY) {
                    fail(e, "only arrays, vectors and matrices can be indexed");
                    return v;
                }
                if (i < 0 || i >= t->length) {
                    fail(e, "index %d out of range [0, %d)", i, t->length);
                    return v;
                }
                const sh_type *el = sh_snapshot_type(e->s, t->element);
                v = from_words(e, t->element, v.w + (size_t)i * (size_t)el->components);
            } else if (v.cols > 1) {
                if (i < 0 || i >= v.cols) {
                    fail(e, "column %d out of range [0, %d)", i, v.cols);
                    return v;
                }
                struct val c = v;
                c.cols = 1;
                for (int k = 0; k < v.rows; k++) {
                    c.c[k] = v.c[i * v.rows + k];
                    c.d[k] = v.d[i * v.rows + k];
                }
                v = c;
            } else {
                if (i < 0 || i >= v.rows) {
                    fail(e, "index %d out of range [0, %d)", i, v.rows);
                    return v;
                }
                v.c[0] = v.c[i];
                v.d[0] = v.d[i];
                v.rows = 1;
            }
        } else if (accept(e, ".")) {
            skip_ws(e);
            char name[64];
            size_t n = 0;
            while ((isalnum((unsigned char)*e->p) || *e->p == '_') && n + 1 < sizeof name)
                name[n++] = *e->p++;
            name[n] = 0;
            if (!n) {
                fail(e, "member name expected after '.'");
                return v;
            }
            if (e->syntax_only)
                continue;
            if (v.kind == V_AGG) {
                const sh_type *t = sh_snapshot_type(e->s, v.type);
                int m = -1;
                for (int k = 0; t->kind == SH_TYPE_STRUCT && k < t->length; k++)
                    if (!strcmp(t->members[k].name, name))
                        m = k;
                if (m < 0) {
                    fail(e, "no member '%s'", name);
                    return v;
                }
                v = from_words(e, t->members[m].type, v.w + t->members[m].offset);
            } else {
                if (v.cols > 1 || n > 4) {
                    fail(e, "bad swizzle '.%s'", name);
                    return v;
                }
                struct val r = v;
                r.rows = (int)n;
                for (size_t k = 0; k < n; k++) {
                    int s = swizzle_index(name[k]);
                    if (s < 0 || s >= v.rows) {
                        fail(e, "bad swizzle '.%s' on a %d-component value", name, v.rows);
                        return v;
                    }
                    r.c[k] = v.c[s];
                    r.d[k] = v.d[s];
                }
                v = r;
            }
        } else {
            return v;
        }
    }
}

static struct val parse_unary(struct ev *e)
{
    if (accept(e, "-")) {
        struct val v = parse_unary(e);
        if (!need_num(e, &v))
            return v;
        for (int i = 0; i < ncomp(&v); i++) {
            v.d[i] = -v.d[i];
            if (v.sc == SH_SCALAR_FLOAT)
                v.c[i].f = -v.c[i].f;
            else
                v.c[i].i = (int32_t)(0u - v.c[i].u);
        }
        return v;
    }
    if (accept(e, "+"))
        return parse_unary(e);
    if (accept(e, "!")) {
        struct val v = parse_unary(e);
        if (!need_num(e, &v))
            return v;
        v = convert(v, SH_SCALAR_BOOL);
        for (int i = 0; i < ncomp(&v); i++)
            v.c[i].u = !v.c[i].u;
        return v;
    }
    return parse_postfix(e);
}

/* Component-wise arithmetic with scalar broadcast; `*` of matrices is the linear-algebra one. */
static struct val arith(struct ev *e, struct val a, struct val b, char op)
{
    if (!need_num(e, &a) || !need_num(e, &b))
        return a;
    sh_scalar sc = (a.sc == SH_SCALAR_FLOAT || b.sc == SH_SCALAR_FLOAT) ? SH_SCALAR_FLOAT
                 : (a.sc == SH_SCALAR_UINT || b.sc == SH_SCALAR_UINT) ? SH_SCALAR_UINT : SH_SCALAR_INT;
    a = convert(a, sc);
    b = convert(b, sc);
    if (op == '*' && sc == SH_SCALAR_FLOAT && (a.cols > 1 || b.cols > 1) && ncomp(&a) > 1 && ncomp(&b) > 1) {
        /* mat*vec, vec*mat, mat*mat */
        int ar = a.rows, ac = a.cols, br = b.rows, bc = b.cols;
        if (a.cols == 1) { ar = 1; ac = a.rows; }          /* row vector */
        if (ac != br) {
            fail(e, "matrix sizes do not match for '*'");
            return a;
        }
        struct val r = scalar_f(0);
        r.rows = ar;
        r.cols = bc;
        for (int j = 0; j < bc; j++)
            for (int i = 0; i < ar; i++) {
                float sum = 0;
                for (int k = 0; k < ac; k++)
                    sum += (a.cols == 1 ? a.c[k].f : a.c[k * a.rows + i].f) * b.c[j * br + k].f;
                r.c[j * ar + i].f = sum;
            }
        if (r.rows == 1 && r.cols > 1) { r.rows = r.cols; r.cols = 1; }
        return r;
    }
    int na = ncomp(&a), nb = ncomp(&b);
    if (na != nb && na != 1 && nb != 1) {
        fail(e, "operands of '%c' have %d and %d components", op, na, nb);
        return a;
    }
    struct val r = na >= nb ? a : b;
    for (int i = 0; i < ncomp(&r); i++) {
        int ia = na == 1 ? 0 : i, ib = nb == 1 ? 0 : i;
        if (sc == SH_SCALAR_FLOAT) {
            float x = a.c[ia].f, y = b.c[ib].f;
            r.c[i].f = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : op == '/' ? x / y : fmodf(x, y);
        } else {
            uint32_t x = a.c[ia].u, y = b.c[ib].u;
            if ((op == '/' || op == '%') && y == 0) {
                fail(e, "integer division by zero");
                return r;
            }
            if (sc == SH_SCALAR_INT)
                r.c[i].i = op == '+' ? (int32_t)(x + y) : op == '-' ? (int32_t)(x - y) : op == '*' ? (int32_t)(x * y)
                         : (a.c[ia].i == INT32_MIN && b.c[ib].i == -1) ? 0
                         : op == '/' ? a.c[ia].i / b.c[ib].i : a.c[ia].i % b.c[ib].i;
            else
                r.c[i].u = op == '+' ? x + y : op == '-' ? x - y : op == '*' ? x * y : op == '/' ? x / y : x % y;
        }
    }
    return r;
}

static struct val parse_mul(struct ev *e)
{
    struct val v = parse_unary(e);
    for (;;) {
        char op = 0;
        if (accept(e, "*")) op = '*';
        else if (accept(e, "/")) op = '/';
        else if (accept(e, "%")) op = '%';
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_unary(e), op);
    }
}

static struct val parse_add(struct ev *e)
{
    struct val v = parse_mul(e);
    for (;;) {
        char op = 0;
        if (accept(e, "+")) op = '+';
        else if (accept(e, "-")) op = '-';
        if (!op || e->failed)
            return v;
        v = arith(e, v, parse_mul(e), op);
    }
}

static struct val compare(struct ev *e, struct val a, struct val b, const char *op)
{
    struct val r = scalar_i(SH_SCALAR_BOOL, 0);
    if (!need_num(e, &a) || !need_num(e, &b))
        return r;
    bool eq = op[0] == '=' || op[0] == '!';
    if (ncomp(&a) != ncomp(&b) || (!eq && ncomp(&a) != 1)) {
        fail(e, "'%s' needs %s", op, eq ? "operands of the same size" : "scalars");
        return r;
    }
    bool fl = a.sc == SH_SCALAR_FLOAT || b.sc == SH_SCALAR_FLOAT;
    if (eq) {
        bool same = true;
        for (int i = 0; i < ncomp(&a); i++)
            same &= fl ? as_f(&a, i) == as_f(&b, i) : as_i(&a, i) == as_i(&b, i);
        r.c[0].u = op[0] == '=' ? same : !same;
        return r;
    }
    double x = fl ? as_f(&a, 0) : (a.sc == SH_SCALAR_UINT ? (double)a.c[0].u : as_i(&a, 0));
    double y = fl ? as_f(&b, 0) : (b.sc == SH_SCALAR_UINT ? (double)b.c[0].u : as_i(&b, 0));
    r.c[0].u = !strcmp(op, "<") ? x < y : !strcmp(op, "<=") ? x <= y : !strcmp(op, ">") ? x > y : x >= y;
    return r;
}

static struct val parse_rel(struct ev *e)
{
    struct val v = parse_add(e);
    for (;;) {
        const char *op = NULL;
        if (accept(e, "<=")) op = "<=";
        else if (accept(e, ">=")) op = ">=";
        else if (accept(e, "==")) op = "==";
        else if (accept(e, "!=")) op = "!=";
        else if (accept(e, "<")) op = "<";
        else if (accept(e, ">")) op = ">";
        if (!op || e->failed)
            return v;
        v = compare(e, v, parse_add(e), op);
    }
}

static bool truth(struct ev *e, const struct val *v)
{
    if (!need_num(e, v))
        return false;
    if (ncomp(v) != 1) {
        fail(e, "a condition must be a scalar");
        return false;
    }
    return as_f(v, 0) != 0.0f || (v->sc != SH_SCALAR_FLOAT && v->c[0].u != 0);
}

static struct val parse_and(struct ev *e)
{
    struct val v = parse_rel(e);
    while (!e->failed && accept(e, "&&")) {
        struct val b = parse_rel(e);
        bool r = truth(e, &v) && truth(e, &b);
        v = scalar_i(SH_SCALAR_BOOL, r);
    }
    return v;
}

static struct val parse_or(struct ev *e)
{
    struct val v = parse_and(e);
    while (!e->failed && accept(e, "||")) {
        struct val b = parse_and(e);
        bool r = truth(e, &v) || truth(e, &b);
        v = scalar_i(SH_SCALAR_BOOL, r);
    }
    return v;
}

static struct val parse_expr(struct ev *e)
{
    if (++e->depth > 64) {
        fail(e, "expression nested too deeply");
        return scalar_f(0);
    }
    struct val c = parse_or(e);
    e->depth--;
    if (!e->failed && accept(e, "?")) {
        struct val a = parse_expr(e);
        if (!accept(e, ":"))
            fail(e, "missing ':'");
        struct val b = parse_expr(e);
        e->depth--;
        return truth(e, &c) ? a : b;
    }
    return c;
}

static void type_name(const struct val *v, const sh_snapshot *s, char *buf, size_t n)
{
    if (v->kind == V_AGG) {
        sh_type_glsl(s, v->type, buf, n);
        return;
    }
    const char *pre = v->sc == SH_SCALAR_INT ? "i" : v->sc == SH_SCALAR_UINT ? "u" : v->sc == SH_SCALAR_BOOL ? "b" : "";
    const char *sc = v->sc == SH_SCALAR_INT ? "int" : v->sc == SH_SCALAR_UINT ? "uint" : v->sc == SH_SCALAR_BOOL ? "bool" : "float";
    if (v->dbl) {
        pre = "d";
        sc = "double";
    }
    if (v->cols > 1)
        snprintf(buf, n, v->cols == v->rows ? "%smat%d" : "%smat%dx%d", v->dbl ? "d" : "", v->cols,
                 v->rows);
    else if (v->rows > 1)
        snprintf(buf, n, "%svec%d", pre, v->rows);
    else
        snprintf(buf, n, "%s", sc);
}

static void format(const struct val *v, const sh_snapshot *s, char *buf, size_t n)
{
    if (v->kind == V_AGG) {
        sh_format_value(s, v->type, v->w, buf, n);
        return;
    }
    size_t len = 0;
    char tn[32];
    type_name(v, s, tn, sizeof tn);
    bool agg = ncomp(v) > 1;
    if (agg)
        len += (size_t)snprintf(buf, n, "%s(", tn);
    for (int i = 0; i < ncomp(v) && len < n; i++) {
        const char *sep = i ? ", " : "";
        switch (v->sc) {
        case SH_SCALAR_INT: len += (size_t)snprintf(buf + len, n - len, "%s%d", sep, v->c[i].i); break;
        case SH_SCALAR_UINT: len += (size_t)snprintf(buf + len, n - len, "%s%u", sep, v->c[i].u); break;
        case SH_SCALAR_BOOL: len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, v->c[i].u ? "true" : "false"); break;
        default:
            len += (size_t)snprintf(buf + len, n - len, v->dbl ? "%s%.17g" : "%s%.9g", sep,
                                    v->dbl ? v->d[i] : (double)v->c[i].f);
            break;
        }
    }
    if (agg && len < n)
        snprintf(buf + len, n - len, ")");
}

static void ev_free(struct ev *e)
{
    for (int i = 0; i < e->n_arena; i++)
        free(e->arena[i]);
}

static struct val run(struct ev *e, const sh_snapshot *s, int lane, const char *function, const char *expr,
                      const struct dbg_eval_env *env)
{
    memset(e, 0, sizeof *e);
    e->s = s;
    e->env = env;
    e->function = function;
    e->lane = lane < 0 || lane >= SH_LANES ? 0 : lane;
    e->p = expr ? expr : "";
    struct val v = parse_expr(e);
    skip_ws(e);
    if (!e->failed && *e->p)
        fail(e, "unexpected '%.20s' after the expression", e->p);
    return v;
}

int dbg_eval(const sh_snapshot *s, int lane, const char *expr, char *text, size_t text_size, char *type,
             size_t type_size)
{
    return dbg_eval_frame(s, lane, NULL, expr, text, text_size, type, type_size);
}

int dbg_eval_frame(const sh_snapshot *s, int lane, const char *function, const char *expr, char *text,
                   size_t text_size, char *type, size_t type_size)
{
    return dbg_eval_frame_env(s, lane, function, expr, NULL, text, text_size, type, type_size);
}

int dbg_eval_frame_env(const sh_snapshot *s, int lane, const char *function, const char *expr,
                       const struct dbg_eval_env *env, char *text, size_t text_size, char *type, size_t type_size)
{
    struct ev e;
    struct val v = run(&e, s, lane, function, expr, env);
    int rc = 0;
    if (e.failed) {
        snprintf(text, text_size, "%s", e.err);
        rc = -1;
    } else {
        format(&v, s, text, text_size);
        if (type && type_size)
            type_name(&v, s, type, type_size);
    }
    ev_free(&e);
    return rc;
}

int dbg_eval_syntax(const char *expr, char *err, size_t err_size)
{
    struct ev e;
    memset(&e, 0, sizeof e);
    e.syntax_only = true;
    e.p = expr ? expr : "";
    (void)parse_expr(&e);
    skip_ws(&e);
    if (!e.failed && *e.p)
        fail(&e, "unexpected '%.20s' after the expression", e.p);
    if (e.failed && err_size)
        snprintf(err, err_size, "%s", e.err);
    ev_free(&e);
    return e.failed ? -1 : 0;
}

int dbg_eval_bool(const sh_snapshot *s, int lane, const char *expr, char *err, size_t err_size)
{
    return dbg_eval_bool_env(s, lane, expr, NULL, err, err_size);
}

int dbg_eval_bool_env(const sh_snapshot *s, int lane, const char *expr, const struct dbg_eval_env *env, char *err,
                      size_t err_size)
{
    struct ev e;
    struct val v = run(&e, s, lane, NULL, expr, env);
    bool t = !e.failed && truth(&e, &v);
    int rc = e.failed ? -1 : t;
    if (e.failed && err_size)
        snprintf(err, err_size, "%s", e.err);
    ev_free(&e);
    return rc;
}

void dbg_eval_message(const sh_snapshot *s, int lane, const char *msg, char *out, size_t size)
{
    dbg_eval_message_env(s, lane, msg, NULL, out, size);
}

void dbg_eval_message_env(const sh_snapshot *s, int lane, const char *msg, const struct dbg_eval_env *env, char *out,
                          size_t size)
{
    size_t len = 0;
    if (!size)
        return;
    out[0] = 0;
    for (const char *p = msg; *p && len + 1 < size;) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            out[len++] = *p;
            p += 2;
        } else if (*p == '{') {
            const char *end = strchr(p, '}');
            if (!end) {
                out[len++] = *p++;
                continue;
            }
            char expr[256], val[512];
            size_t n = (size_t)(end - p - 1) < sizeof expr - 1 ? (size_t)(end - p - 1) : sizeof expr - 1;
            memcpy(expr, p + 1, n);
            expr[n] = 0;
            int bad = dbg_eval_frame_env(s, lane, NULL, expr, env, val, sizeof val, NULL, 0) != 0;
            len += (size_t)snprintf(out + len, size - len, bad ? "<%s>" : "%s", val);
            if (len >= size)
                len = size - 1;
            p = end + 1;
        } else {
            out[len++] = *p++;
        }
    }
    out[len] = 0;
}
