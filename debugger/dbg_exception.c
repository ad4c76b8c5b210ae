/* Exception breakpoints: see dbg_exception.h. Reads the instruction about to issue (and the one
 * the warp issued before) from the model's register IR, through the executor's internal headers
 * as dbg_shared_read.c does: the model has no public per-instruction operand view. */
#include <math.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/exec/gm_exec.h"
#include "gpu_model/spirv/gm_spirv_tables.h"
#include "gpu_model/ir/gm_op_operands.h"
#include "debugger/dbg_exception.h"

static const struct {
    const char *id, *label, *description;
    unsigned bit;
    bool on;
} filters[] = {
    { "nan", "NaN produced", "Stop where a float instruction produces a NaN from operands that held none (0/0, sqrt(-1), normalize(vec3(0)), inf-inf)", DBG_EXC_NAN, false },
    { "inf", "Infinity produced", "Stop where a float instruction produces an infinity from finite operands (overflow, x/0.0)", DBG_EXC_INF, false },
    { "divzero", "Division by zero", "Stop before a float or integer division or modulo by zero", DBG_EXC_DIV0, false },
    { "bounds", "Out-of-bounds access", "Stop before an array, vector or matrix index outside its size, or a buffer access past the end of its buffer", DBG_EXC_BOUNDS, false },
    { "uninit", "Uninitialized variable read", "Stop where a computation or a branch reads a local variable (or a component of one) that the lane never wrote", DBG_EXC_UNINIT, false },
    { "texture", "Incomplete texture", "Stop before a texture fetch from a texture that is not complete with its sampler state (missing mipmap levels, no base level) or from a unit with no texture: GL returns (0, 0, 0, 1)", DBG_EXC_TEXTURE, false },
};
#define N_FILTERS ((int)(sizeof filters / sizeof filters[0]))

cJSON *dbg_exc_filters_json(void)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < N_FILTERS; i++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "filter", filters[i].id);
        cJSON_AddStringToObject(f, "label", filters[i].label);
        cJSON_AddStringToObject(f, "description", filters[i].description);
        cJSON_AddBoolToObject(f, "default", filters[i].on);
        cJSON_AddItemToArray(a, f);
    }
    return a;
}

static int filter_index(const char *id)
{
    for (int i = 0; id && i < N_FILTERS; i++)
        if (!strcmp(filters[i].id, id))
            return i;
    return -1;
}

static void add_answer(cJSON *breakpoints, const char *id, bool *seen)
{
    cJSON *b = cJSON_CreateObject();
    int i = filter_index(id);
    if (i < 0) {
        char msg[200];
        snprintf(msg, sizeof msg, "unknown exception filter '%.80s' (known: nan, inf, divzero, bounds, uninit, texture)", id);
        cJSON_AddBoolToObject(b, "verified", false);
        cJSON_AddStringToObject(b, "message", msg);
    } else {
        cJSON_AddBoolToObject(b, "verified", !seen[i]);
        if (seen[i])
            cJSON_AddStringToObject(b, "message", "this filter is already set");
        seen[i] = true;
    }
    cJSON_AddItemToArray(breakpoints, b);
}

bool dbg_exc_parse(const cJSON *args, unsigned *bits, cJSON *breakpoints, char *err, size_t err_size)
{
    *bits = 0;
    const cJSON *fl = cJSON_GetObjectItemCaseSensitive(args, "filters");
    const cJSON *fo = cJSON_GetObjectItemCaseSensitive(args, "filterOptions");
    if (!cJSON_IsArray(fl)) {
        snprintf(err, err_size, "setExceptionBreakpoints: 'filters' (an array of strings) is required");
        return false;
    }
    if (fo && !cJSON_IsArray(fo)) {
        snprintf(err, err_size, "setExceptionBreakpoints: 'filterOptions' must be an array");
        return false;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, fl)
        if (!cJSON_IsString(e)) {
            snprintf(err, err_size, "setExceptionBreakpoints: 'filters' must hold strings");
            return false;
        }
    cJSON_ArrayForEach(e, fo) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "filterId");
        if (!cJSON_IsString(id)) {
            snprintf(err, err_size, "setExceptionBreakpoints: each filterOptions entry needs a 'filterId' string");
            return false;
        }
    }
    bool seen[N_FILTERS] = { false };
    cJSON_ArrayForEach(e, fl) {
        add_answer(breakpoints, e->valuestring, seen);
    }
    cJSON_ArrayForEach(e, fo) {
        add_answer(breakpoints, cJSON_GetObjectItemCaseSensitive(e, "filterId")->valuestring, seen);
    }
    for (int i = 0; i < N_FILTERS; i++)
        if (seen[i])
            *bits |= filters[i].bit;
    return true;
}

/* ---------------------------------------------------------------- per pass */

/* The instruction each warp of the current draw issued last (nan/inf are checked once it ran). */
struct last_issue {
    bool used;
    int stage;
    uint64_t warp;
    gm_issue is;
    uint32_t *undef;         /* "uninit": per register word, the lanes whose value is undefined */
    int32_t *origin;         /* per register word: the variable its undefined value came from */
    int32_t *output;         /* per register word: the output variable it belongs to, or -1 */
    int nregs;
};

struct dbg_exc_state {
    unsigned bits;
    int draw;
    struct last_issue *tab;
    size_t cap, used;
};

struct dbg_exc_state *dbg_exc_new(unsigned bits)
{
    struct dbg_exc_state *st = calloc(1, sizeof *st);
    if (st) {
        st->bits = bits;
        st->draw = -1;
    }
    return st;
}

static void forget_warps(struct dbg_exc_state *st)
{
    for (size_t i = 0; i < st->cap; i++) {
        free(st->tab[i].undef);
        free(st->tab[i].origin);
        free(st->tab[i].output);
    }
    if (st->tab)
        memset(st->tab, 0, st->cap * sizeof *st->tab);
    st->used = 0;
}

void dbg_exc_free(struct dbg_exc_state *st)
{
    if (st) {
        forget_warps(st);
        free(st->tab);
    }
    free(st);
}

static size_t slot_hash(int stage, uint64_t warp)
{
    uint64_t h = warp * 0x9E3779B97F4A7C15ull ^ (uint64_t)stage * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h ^ (h >> 31));
}

static struct last_issue *slot(struct dbg_exc_state *st, int stage, uint64_t warp)
{
    if (st->used * 2 >= st->cap) {
        size_t nc = st->cap ? st->cap * 2 : 256;
        struct last_issue *n = calloc(nc, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < st->cap; i++)
            if (st->tab[i].used) {
                size_t j = slot_hash(st->tab[i].stage, st->tab[i].warp) & (nc - 1);
                while (n[j].used)
                    j = (j + 1) & (nc - 1);
                n[j] = st->tab[i];
            }
        free(st->tab);
        st->tab = n;
        st->cap = nc;
    }
    size_t j = slot_hash(stage, warp) & (st->cap - 1);
    while (st->tab[j].used) {
        if (st->tab[j].stage == stage && st->tab[j].warp == warp)
            return &st->tab[j];
        j = (j + 1) & (st->cap - 1);
    }
    struct last_issue *e = &st->tab[j];
    memset(e, 0, sizeof *e);
    e->used = true;
    e->stage = stage;
    e->warp = warp;
    e->is.pc = -1;
    st->used++;
    return e;
}

/* ---------------------------------------------------------------- what an instruction reads */

/* The float operands of a float-result instruction: up to 3 (register word, words). A 64-bit
 * value (dst_d, src_d) is a pair of words, low word first (gm_exec_f64.c). */
struct shape {
    int dst_n;               /* words written */
    bool dst_d;
    int n_src;
    uint32_t src[3];
    int src_n[3];
    bool src_d[3];
    bool quad;               /* derivatives: a lane's result reads its whole 2x2 quad */
};

/* Component k of a value at register word `reg` of lane l, as a double. */
static double comp(const gm_warp *w, uint32_t reg, bool dbl, int k, int l)
{
    if (dbl) {
        uint64_t v = (uint64_t)w->R[reg + 2 * (uint32_t)k][l] | (uint64_t)w->R[reg + 2 * (uint32_t)k + 1][l] << 32;
        double d;
        memcpy(&d, &v, sizeof d);
        return d;
    }
    float f;
    memcpy(&f, &w->R[reg + (uint32_t)k][l], sizeof f);
    return f;
}

static void shape_src(void *ctx, int64_t word, int64_t words, gm_op_type type)
{
    struct shape *s = ctx;
    if (type == GM_OPT_NONE || s->n_src >= 3 || word < 0 || word > UINT32_MAX || words <= 0 || words > INT32_MAX)
        return; /* not a float operand (Ldexp's exponent) */
    s->src[s->n_src] = (uint32_t)word;
    s->src_n[s->n_src] = (int)words;
    s->src_d[s->n_src++] = type == GM_OPT_F64;
}

/* false: not a float-result instruction (not checked for nan/inf). The operands are the IR's
 * declared ones (gpu_model/ir/gm_opcodes.py, gm_op_operands), the float ones kept. */
static bool float_shape(const gm_program *p, const gm_inst *in, struct shape *s)
{
    memset(s, 0, sizeof *s);
    gm_op_type result;
    int32_t dst, dst_n;
    gm_op_operands(p, in, &dst, &dst_n, &result, shape_src, s);
    if (result == GM_OPT_NONE)
        return false;
    s->dst_n = dst_n;
    s->dst_d = result == GM_OPT_F64;
    s->quad = in->op < GM_OP_COUNT && (gm_op_table[in->op].flags & GM_OPF_QUAD);
    return true;
}

/* The operation in the user's words ("division"), from the opcode table. */
static const char *op_name(const gm_inst *in)
{
    if (in->op == GM_OP_EXT || in->op == GM_OP_DEXT) {
        const char *n = gm_glsl450_name(in->x & 0xffff);
        return n ? n : "GLSL.std.450 function";
    }
    const char *what = in->op < GM_OP_COUNT ? gm_op_table[in->op].what : NULL;
    return what ? what : "instruction";
}

static bool word_ok(const gm_program *p, uint32_t reg, int words)
{
    return words >= 0 && (uint64_t)reg + (uint64_t)words <= (uint64_t)p->nregs;
}

static bool bad_value(double v, unsigned kind)
{
    return kind == DBG_EXC_NAN ? isnan(v) : isinf(v);
}

/* Components of a value of `words` words. */
static int comps(int words, bool dbl)
{
    return dbl ? words / 2 : words;
}

/* A float operand of lane l held a NaN (for nan) or a NaN or infinity (for inf). */
static bool operand_bad(const gm_warp *w, const struct shape *s, int l, unsigned kind)
{
    int lo = s->quad ? l & ~3 : l, hi = s->quad ? (l | 3) : l;
    for (int i = 0; i < s->n_src; i++)
        for (int k = 0; k < comps(s->src_n[i], s->src_d[i]); k++)
            for (int q = lo; q <= hi; q++) {
                double v = comp(w, s->src[i], s->src_d[i], k, q);
                if (isnan(v) || (kind == DBG_EXC_INF && isinf(v)))
                    return true;
            }
    return false;
}

static void lane_list(gm_mask m, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = 0;
    for (int l = 0; l < 32 && o < size; l++) {
        if (!((m >> l) & 1))
            continue;
        int e = l;
        while (e + 1 < 32 && ((m >> (e + 1)) & 1))
            e++;
        int r = e > l ? snprintf(buf + o, size - o, "%s%d-%d", o ? "," : "", l, e)
                      : snprintf(buf + o, size - o, "%s%d", o ? "," : "", l);
        if (r < 0)
            break;
        o += (size_t)r;
        l = e;
    }
}

static int first_lane(gm_mask m)
{
    for (int l = 0; l < 32; l++)
        if ((m >> l) & 1)
            return l;
    return 0;
}

static float as_float(uint32_t v)
{
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* A float as GLSL users read it: "NaN" (never "-nan"), "inf", "-inf", else %g. */
static const char *fmt_float(float f, char *buf, size_t size)
{
    if (isnan(f))
        snprintf(buf, size, "NaN");
    else
        snprintf(buf, size, "%g", (double)f);
    return buf;
}

/* A value as GLSL users read it ("NaN", "inf", "-inf", %.17g for doubles' other values would be
 * noise: %g as for floats). */
static const char *fmt_double(double d, char *buf, size_t size)
{
    if (isnan(d))
        snprintf(buf, size, "NaN");
    else
        snprintf(buf, size, "%g", d);
    return buf;
}

static void where(const struct dbg_observe_info *info, int lane, char *buf, size_t size)
{
    buf[0] = 0;
    if (info->lane_x && info->lane_y) {
        if (info->stage == GM_STAGE_FRAGMENT)
            snprintf(buf, size, " at pixel (%d, %d)", info->lane_x[lane], info->lane_y[lane]);
        else if (info->stage == GM_STAGE_VERTEX)
            snprintf(buf, size, " (vertex %d)", info->lane_x[lane]);
    }
}

/* The previous instruction of the warp ran: did it produce a NaN/infinity? */
static bool check_after(const struct dbg_observe_info *info, const gm_warp *w, const gm_issue *prev, unsigned bits,
                        struct dbg_exc_hit *hit)
{
    const gm_program *p = w->p;
    if (prev->pc < 0 || prev->pc >= p->code_count)
        return false;
    const gm_inst *in = &p->code[prev->pc];
    struct shape s;
    if (!float_shape(p, in, &s) || !word_ok(p, in->d, s.dst_n))
        return false;
    for (int i = 0; i < s.n_src; i++)
        if (!word_ok(p, s.src[i], s.src_n[i]))
            return false;
    gm_mask m = prev->active & ~w->helper;
    for (unsigned kind = DBG_EXC_NAN; kind <= DBG_EXC_INF; kind <<= 1) {
        if (!(bits & kind))
            continue;
        gm_mask did = 0;
        int nd = comps(s.dst_n, s.dst_d);
        for (int l = 0; l < 32; l++) {
            if (!((m >> l) & 1))
                continue;
            for (int k = 0; k < nd; k++)
                if (bad_value(comp(w, in->d, s.dst_d, k, l), kind)) {
                    if (!operand_bad(w, &s, l, kind))
                        did |= 1u << l;
                    break;
                }
        }
        if (!did)
            continue;
        int l0 = first_lane(did);
        int k0 = 0;
        for (int k = 0; k < nd; k++)
            if (bad_value(comp(w, in->d, s.dst_d, k, l0), kind)) {
                k0 = k;
                break;
            }
        char lanes[200], ops[200] = "", at[64];
        lane_list(did, lanes, sizeof lanes);
        where(info, l0, at, sizeof at);
        /* The first lane's operands of that component, when the instruction is per component. */
        if (s.n_src > 0 && comps(s.src_n[0], s.src_d[0]) == nd && !s.quad) {
            size_t o = 0;
            for (int i = 0; i < s.n_src && o < sizeof ops; i++) {
                int k = comps(s.src_n[i], s.src_d[i]) == nd ? k0 : 0;
                char fb[32];
                int r = snprintf(ops + o, sizeof ops - o, "%s%s", i ? ", " : "; operands ",
                                 fmt_double(comp(w, s.src[i], s.src_d[i], k, l0), fb, sizeof fb));
                if (r < 0)
                    break;
                o += (size_t)r;
            }
        }
        hit->kind = kind;
        hit->id = kind == DBG_EXC_NAN ? "nan" : "inf";
        hit->at = *prev;
        hit->lanes = did;
        hit->lane = l0;
        char rb[32];
        snprintf(hit->text, sizeof hit->text,
                 "%s produced by %s at line %d (pc %d) in %d lane%s: %s; lane %d%s: component %d = %s%s",
                 kind == DBG_EXC_NAN ? "NaN" : "infinity", op_name(in), prev->line, prev->pc,
                 __builtin_popcount(did), __builtin_popcount(did) == 1 ? "" : "s", lanes, l0, at, k0,
                 fmt_double(comp(w, in->d, s.dst_d, k0, l0), rb, sizeof rb), ops);
        return true;
    }
    return false;
}

/* This instruction is about to run: a division by zero or an index out of bounds? */
static bool check_before(const struct dbg_observe_info *info, const gm_warp *w, const gm_issue *is, unsigned bits,
                         struct dbg_exc_hit *hit)
{
    const gm_program *p = w->p;
    if (is->pc < 0 || is->pc >= p->code_count)
        return false;
    const gm_inst *in = &p->code[is->pc];
    gm_mask m = is->active & ~w->helper, did = 0;
    unsigned kind = 0;
    char what[160] = "";
    int l0 = -1;
    switch (in->op) {
    case GM_OP_FDIV: case GM_OP_FMOD: case GM_OP_FREM:
    case GM_OP_SDIV: case GM_OP_UDIV: case GM_OP_SMOD: case GM_OP_SREM: case GM_OP_UMOD: {
        if (!(bits & DBG_EXC_DIV0) || !word_ok(p, in->b, in->n) || !word_ok(p, in->a, in->n))
            return false;
        bool fl = in->op == GM_OP_FDIV || in->op == GM_OP_FMOD || in->op == GM_OP_FREM;
        int k0 = 0;
        for (int l = 0; l < 32; l++)
            for (int k = 0; ((m >> l) & 1) && k < in->n; k++) {
                uint32_t v = w->R[in->b + (uint32_t)k][l];
                if (fl ? (v & 0x7fffffffu) == 0 : v == 0) {
                    if (l0 < 0) {
                        l0 = l;
                        k0 = k;
                    }
                    did |= 1u << l;
                    break;
                }
            }
        if (!did)
            return false;
        kind = DBG_EXC_DIV0;
        uint32_t num = w->R[in->a + (uint32_t)k0][l0];
        if (fl)
        {
            char nb[32];
            snprintf(what, sizeof what, "component %d: %s / 0", k0, fmt_float(as_float(num), nb, sizeof nb));
        }
        else
            snprintf(what, sizeof what, "component %d: %d / 0", k0, (int32_t)num);
        break;
    }
    case GM_OP_ADDR_ADD: {
        if (!(bits & DBG_EXC_BOUNDS) || !word_ok(p, in->b, 1) || (uint64_t)in->x + 1 >= (uint64_t)p->aux_count)
            return false;
        uint32_t limit = p->aux[in->x + 1];
        if (limit >= 0x3fffffffu)
            return false;      /* a runtime-sized array: its length is the buffer's */
        for (int l = 0; l < 32; l++) {
            int32_t idx = (int32_t)w->R[in->b][l];
            if (((m >> l) & 1) && (idx < 0 || (uint32_t)idx > limit)) {
                if (l0 < 0) {
                    l0 = l;
                    snprintf(what, sizeof what, "index %d of a size of %u", idx, limit + 1);
                }
                did |= 1u << l;
            }
        }
        kind = DBG_EXC_BOUNDS;
        break;
    }
    case GM_OP_VEC_EXTRACT_DYN:
    case GM_OP_VEC_INSERT_DYN: {
        uint32_t ir = in->op == GM_OP_VEC_EXTRACT_DYN ? in->b : in->c;
        uint32_t size = in->op == GM_OP_VEC_EXTRACT_DYN ? in->x & 0xffffu : in->n;
        if (!(bits & DBG_EXC_BOUNDS) || !word_ok(p, ir, 1))
            return false;
        for (int l = 0; l < 32; l++) {
            uint32_t idx = w->R[ir][l];
            if (((m >> l) & 1) && idx >= size) {
                if (l0 < 0) {
                    l0 = l;
                    snprintf(what, sizeof what, "component %d of a vector of %u", (int32_t)idx, size);
                }
                did |= 1u << l;
            }
        }
        kind = DBG_EXC_BOUNDS;
        break;
    }
    case GM_OP_BUF_LOAD:
    case GM_OP_BUF_STORE: {
        if (!(bits & DBG_EXC_BOUNDS) || !w->env.buffer || !word_ok(p, in->a, 1) ||
            (uint64_t)in->b + (uint64_t)in->n > (uint64_t)p->aux_count || in->n <= 0)
            return false;
        size_t size = 0;
        const void *base = w->env.buffer(w->env.ctx, (gm_buffer_kind)(in->x & 3), in->x >> 2, &size);
        if (!base)
            size = 0;
        for (int l = 0; l < 32; l++) {
            if (!((m >> l) & 1))
                continue;
            for (int k = 0; k < in->n; k++) {
                uint64_t off = (uint64_t)w->R[in->a][l] + p->aux[in->b + (uint32_t)k];
                if (off + 4 > size) {
                    if (l0 < 0) {
                        l0 = l;
                        if (base)
                            snprintf(what, sizeof what, "byte %llu of binding %u, a buffer of %zu bytes",
                                     (unsigned long long)off, in->x >> 2, size);
                        else
                            snprintf(what, sizeof what, "binding %u has no buffer", in->x >> 2);
                    }
                    did |= 1u << l;
                    break;
                }
            }
        }
        kind = DBG_EXC_BOUNDS;
        break;
    }
    case GM_OP_TEX: {
        /* a fetch from an incomplete texture: asked of the runner per unit the lanes use */
        if (!(bits & DBG_EXC_TEXTURE) || !info->texture_incomplete || (uint64_t)in->x >= (uint64_t)p->tex_count)
            return false;
        const gm_tex_desc *t = &p->tex[in->x];
        if ((t->kind != GM_TEX_SAMPLE && t->kind != GM_TEX_FETCH && t->kind != GM_TEX_GATHER) || !word_ok(p, (uint32_t)t->handle, 1))
            return false;
        gm_mask todo = m;
        while (todo) {
            int first = __builtin_ctz(todo);
            uint32_t u = w->R[t->handle][first];
            gm_mask same = 0;
            for (int l = 0; l < 32; l++)
                if (((todo >> l) & 1) && w->R[t->handle][l] == u)
                    same |= 1u << l;
            todo &= ~same;
            uint32_t name = 0;
            if (info->texture_incomplete(info->texture_ctx, u, t->dim, t->arrayed, t->ms, &name) != 1)
                continue;
            if (l0 < 0) {
                l0 = first;
                if (name)
                    snprintf(what, sizeof what, "texture %u on unit %u is not complete (its sampler state needs "
                             "levels or a base level it lacks): the fetch returns (0, 0, 0, 1)", name, u);
                else
                    snprintf(what, sizeof what, "unit %u has no texture of this target bound: the fetch returns "
                             "(0, 0, 0, 1)", u);
            }
            did |= same;
        }
        kind = DBG_EXC_TEXTURE;
        break;
    }
    case GM_OP_DDIV: case GM_OP_DMOD: case GM_OP_DREM:
    case GM_OP_LALU: {
        /* 64-bit: n words, 2 per component (LALU: the integer division ops; GM_I64_B32: b has
         * one word per component) */
        int op = in->op == GM_OP_LALU ? (int)(in->x & 0xffff) : in->op;
        bool b32 = in->op == GM_OP_LALU && (in->x & GM_I64_B32);
        if (in->op == GM_OP_LALU && op != GM_OP_SDIV && op != GM_OP_UDIV && op != GM_OP_SMOD && op != GM_OP_SREM &&
            op != GM_OP_UMOD)
            return false;
        int nc = in->n / 2;
        if (!(bits & DBG_EXC_DIV0) || !word_ok(p, in->b, b32 ? nc : in->n) || !word_ok(p, in->a, in->n))
            return false;
        bool fl = in->op != GM_OP_LALU;
        int k0 = 0;
        for (int l = 0; l < 32; l++)
            for (int k = 0; ((m >> l) & 1) && k < nc; k++) {
                uint64_t v = b32 ? w->R[in->b + (uint32_t)k][l]
                                 : (uint64_t)w->R[in->b + 2 * (uint32_t)k][l] |
                                   (uint64_t)w->R[in->b + 2 * (uint32_t)k + 1][l] << 32;
                if (fl ? (v & 0x7fffffffffffffffull) == 0 : v == 0) {
                    if (l0 < 0) {
                        l0 = l;
                        k0 = k;
                    }
                    did |= 1u << l;
                    break;
                }
            }
        if (!did)
            return false;
        kind = DBG_EXC_DIV0;
        char nb[32];
        if (fl)
            snprintf(what, sizeof what, "component %d: %s / 0 (double)", k0,
                     fmt_double(comp(w, in->a, true, k0, l0), nb, sizeof nb));
        else
            snprintf(what, sizeof what, "component %d: %lld / 0 (64-bit)", k0,
                     (long long)((uint64_t)w->R[in->a + 2 * (uint32_t)k0][l0] |
                                 (uint64_t)w->R[in->a + 2 * (uint32_t)k0 + 1][l0] << 32));
        break;
    }
    default:
        return false;
    }
    if (!did)
        return false;
    char lanes[200], at[64];
    lane_list(did, lanes, sizeof lanes);
    where(info, l0, at, sizeof at);
    hit->kind = kind;
    hit->id = kind == DBG_EXC_DIV0 ? "divzero" : kind == DBG_EXC_TEXTURE ? "texture" : "bounds";
    hit->at = *is;
    hit->lanes = did;
    hit->lane = l0;
    snprintf(hit->text, sizeof hit->text, "%s: %s at line %d (pc %d) in %d lane%s: %s; lane %d%s: %s",
             kind == DBG_EXC_DIV0 ? "division by zero" : kind == DBG_EXC_TEXTURE ? "incomplete texture"
                                  : "out-of-bounds access", op_name(in), is->line, is->pc,
             __builtin_popcount(did), __builtin_popcount(did) == 1 ? "" : "s", lanes, l0, at, what);
    return true;
}

/* ---------------------------------------------------------------- uninitialized reads */

static bool is_local(const gm_var *v)
{
    return v->space == GM_SPACE_REG && (v->info.klass == GM_VAR_LOCAL || v->info.klass == GM_VAR_GLOBAL);
}

/* Words of `words` at `reg` some lane of m holds undefined; the first such lane in *lane. */
static gm_mask undef_in(const struct last_issue *e, uint32_t reg, int words, gm_mask m)
{
    gm_mask u = 0;
    for (int k = 0; k < words; k++)
        if (reg + (uint32_t)k < (uint32_t)e->nregs)
            u |= e->undef[reg + (uint32_t)k] & m;
    return u;
}

/* Tex dimensions of a coordinate (gm_exec_res.c's rule: cubes and 3D take 3, 1D and buffers 1). */
static int tex_dims(gm_tex_dim dim)
{
    switch (dim) {
    case GM_DIM_1D: case GM_DIM_BUFFER: return 1;
    case GM_DIM_3D: case GM_DIM_CUBE: return 3;
    default: return 2;
    }
}

/* The register words a texture instruction reads as values (what gm_exec_res.c passes the
 * sampler): the coordinates (and q of a projective fetch), the depth reference, level, bias,
 * minimum level, gradients, offset and sample. The unit (handle) is a uniform, never undefined. */
static int tex_reads(const gm_program *p, const gm_inst *in, uint32_t *src, int *src_n, int max)
{
    if ((uint64_t)in->x >= (uint64_t)p->tex_count)
        return 0;
    const gm_tex_desc *t = &p->tex[in->x];
    int n = 0, dims = tex_dims(t->dim);
#define READ(reg, words) do { if ((reg) >= 0 && (words) > 0 && n < max) { src[n] = (uint32_t)(reg); src_n[n++] = (words); } } while (0)
    if (t->kind == GM_TEX_SAMPLE || t->kind == GM_TEX_FETCH || t->kind == GM_TEX_GATHER || t->kind == GM_TEX_QUERY_LOD) {
        int nc = t->kind == GM_TEX_QUERY_LOD ? dims : dims + (t->arrayed ? 1 : 0);
        READ(t->coord, nc < t->coord_n ? nc : t->coord_n);
        if (t->proj && t->coord_n > 0 && t->kind != GM_TEX_FETCH)
            READ(t->coord + t->coord_n - 1, 1);
        if (t->kind != GM_TEX_FETCH)
            READ(t->dref, 1);
        READ(t->offset, dims < 3 ? dims : 3);
    }
    READ(t->lod, 1);
    READ(t->bias, 1);
    READ(t->min_lod, 1);
    READ(t->sample, 1);
    if (t->grad_x >= 0 && t->grad_y >= 0) {
        READ(t->grad_x, t->grad_n < 3 ? t->grad_n : 3);
        READ(t->grad_y, t->grad_n < 3 ? t->grad_n : 3);
    }
#undef READ
    return n;
}

/* The stop for a use of undefined words (lanes `did` of the words [reg, reg + words)): `what` is
 * what read them; the text names the variable they came from (followed through the moves). */
static bool uninit_hit(const struct dbg_observe_info *info, const gm_warp *w, const gm_issue *is,
                       const struct last_issue *e, gm_mask did, uint32_t reg, int words, const char *what,
                       struct dbg_exc_hit *hit)
{
    const gm_program *p = w->p;
    uint32_t nr = (uint32_t)e->nregs;
    int l0 = first_lane(did);
    const gm_var *v = NULL;
    for (int k = 0; k < words && !v; k++) {
        uint32_t r = reg + (uint32_t)k;
        if (r < nr && ((e->undef[r] >> l0) & 1) && e->origin[r] >= 0 && e->origin[r] < p->var_count)
            v = &p->vars[e->origin[r]];
    }
    char lanes[200], at[64];
    lane_list(did, lanes, sizeof lanes);
    where(info, l0, at, sizeof at);
    hit->kind = DBG_EXC_UNINIT;
    hit->id = "uninit";
    hit->at = *is;
    hit->lanes = did;
    hit->lane = l0;
    snprintf(hit->text, sizeof hit->text,
             "uninitialized read: %s at line %d (pc %d) reads %s%s%s never written on the lane's path in %d lane%s: %s; "
             "lane %d%s",
             what, is->line, is->pc, v ? "variable '" : "a value of a variable", v && v->info.name ? v->info.name : "",
             v ? "'" : "", __builtin_popcount(did), __builtin_popcount(did) == 1 ? "" : "s", lanes, l0, at);
    return true;
}

/* A move of undefined words into a stage output is a use: the value leaves the shader there. */
static bool output_use(const struct last_issue *e, uint32_t dst, gm_mask u)
{
    return u && dst < (uint32_t)e->nregs && e->output[dst] >= 0;
}

static void output_what(const gm_program *p, const struct last_issue *e, uint32_t dst, char *buf, size_t n)
{
    const gm_var *v = &p->vars[e->output[dst]];
    snprintf(buf, n, "store to output '%s'", v->info.name ? v->info.name : "?");
}

/* What the instruction about to run does with undefined values: moves (loads, stores, copies,
 * dynamic indexing, return values) carry them word by word, and a select carries the chosen
 * operand's; a computation that reads one, a texture instruction's coordinates (and level, bias,
 * gradients, offset, reference), a select's condition and a move into a stage output are uses
 * (the stop); anything else defines its result. */
static bool check_uninit(const struct dbg_observe_info *info, const gm_warp *w, const gm_issue *is,
                         struct last_issue *e, struct dbg_exc_hit *hit)
{
    const gm_program *p = w->p;
    if (is->pc < 0 || is->pc >= p->code_count)
        return false;
    if (!e->undef) {
        /* first instruction of the warp: every local's words are undefined on every lane */
        e->nregs = p->nregs;
        e->undef = calloc((size_t)p->nregs + 1, sizeof *e->undef);
        e->origin = calloc((size_t)p->nregs + 1, sizeof *e->origin);
        e->output = malloc(((size_t)p->nregs + 1) * sizeof *e->output);
        if (!e->undef || !e->origin || !e->output) {
            free(e->undef);
            free(e->origin);
            free(e->output);
            e->undef = NULL;
            e->origin = NULL;
            e->output = NULL;
            return false;
        }
        for (int r = 0; r <= p->nregs; r++)
            e->output[r] = -1;
        for (int i = 0; i < p->var_count; i++) {
            const gm_var *v = &p->vars[i];
            if (v->space != GM_SPACE_REG || v->addr < 0)
                continue;
            for (int k = 0; k < v->ncomp && v->addr + k < p->nregs; k++) {
                if (is_local(v)) {
                    e->undef[v->addr + k] = 0xffffffffu;
                    e->origin[v->addr + k] = i;
                } else if (v->info.klass == GM_VAR_OUTPUT) {
                    e->output[v->addr + k] = i;
                }
            }
        }
    }
    const gm_inst *in = &p->code[is->pc];
    gm_mask m = is->active, live = m & ~w->helper;
    uint32_t nr = (uint32_t)e->nregs;
    char what[160];
#define SET(reg, lanes, val) do { if ((reg) < nr) e->undef[reg] = (e->undef[reg] & ~(lanes)) | ((val) & (lanes)); } while (0)
#define ORIGIN(dst, src) do { if ((dst) < nr && (src) < nr && e->undef[src]) e->origin[dst] = e->origin[src]; } while (0)
    switch (in->op) {
    case GM_OP_COPY:
    case GM_OP_STORE:
    case GM_OP_RETURN_VALUE: {
        gm_mask mm = in->op == GM_OP_STORE && (in->x & 1) ? m & ~w->helper : m;
        uint32_t tmp[64];
        int n = in->n < 64 ? in->n : 64;
        for (int k = 0; k < n; k++)
            tmp[k] = in->a + (uint32_t)k < nr ? e->undef[in->a + (uint32_t)k] : 0;
        for (int k = 0; k < n; k++)
            if (output_use(e, in->d + (uint32_t)k, tmp[k] & live)) {
                output_what(p, e, in->d + (uint32_t)k, what, sizeof what);
                return uninit_hit(info, w, is, e, tmp[k] & live, in->a + (uint32_t)k, 1, what, hit);
            }
        for (int k = 0; k < n; k++) {
            ORIGIN(in->d + (uint32_t)k, in->a + (uint32_t)k);
            SET(in->d + (uint32_t)k, mm, tmp[k]);
        }
        return false;
    }
    case GM_OP_COPY_LIST: {
        const uint32_t *pairs = p->aux + in->x;
        if ((uint64_t)in->x + 2u * in->n > (uint64_t)p->aux_count)
            return false;
        uint32_t tmp[128];
        int n = in->n < 128 ? in->n : 128;
        for (int k = 0; k < n; k++)
            tmp[k] = pairs[2 * k + 1] < nr ? e->undef[pairs[2 * k + 1]] : 0;
        for (int k = 0; k < n; k++)
            if (output_use(e, pairs[2 * k], tmp[k] & live)) {
                output_what(p, e, pairs[2 * k], what, sizeof what);
                return uninit_hit(info, w, is, e, tmp[k] & live, pairs[2 * k + 1], 1, what, hit);
            }
        for (int k = 0; k < n; k++) {
            ORIGIN(pairs[2 * k], pairs[2 * k + 1]);
            SET(pairs[2 * k], m, tmp[k]);
        }
        return false;
    }
    case GM_OP_REG_LOAD_DYN:
    case GM_OP_REG_STORE_DYN:
        if (in->op == GM_OP_REG_STORE_DYN)
            for (int l = 0; l < 32; l++) {
                uint32_t base = in->a < nr ? w->R[in->a][l] : nr;
                for (int k = 0; k < in->n && ((live >> l) & 1); k++) {
                    uint32_t src = in->b + (uint32_t)k;
                    if (src < nr && output_use(e, base + (uint32_t)k, e->undef[src] & (1u << l))) {
                        output_what(p, e, base + (uint32_t)k, what, sizeof what);
                        gm_mask did = 0;   /* every lane storing an undefined word to an output */
                        for (int j = l; j < 32; j++) {
                            uint32_t bj = in->a < nr ? w->R[in->a][j] : nr;
                            for (int q = 0; q < in->n && ((live >> j) & 1); q++)
                                if (in->b + (uint32_t)q < nr && output_use(e, bj + (uint32_t)q, e->undef[in->b + (uint32_t)q] & (1u << j)))
                                    did |= 1u << j;
                        }
                        return uninit_hit(info, w, is, e, did, in->b, in->n, what, hit);
                    }
                }
            }
        for (int l = 0; l < 32; l++) {
            if (!((m >> l) & 1) || (in->op == GM_OP_REG_STORE_DYN && (in->x & 1) && ((w->helper >> l) & 1)))
                continue;
            uint32_t base = in->a < nr ? w->R[in->a][l] : nr;
            for (int k = 0; k < in->n; k++) {
                uint32_t src = in->op == GM_OP_REG_LOAD_DYN ? base + (uint32_t)k : in->b + (uint32_t)k;
                uint32_t dst = in->op == GM_OP_REG_LOAD_DYN ? in->d + (uint32_t)k : base + (uint32_t)k;
                bool u = src < nr && ((e->undef[src] >> l) & 1);
                if (u)
                    ORIGIN(dst, src);
                SET(dst, 1u << l, u ? 0xffffffffu : 0u);
            }
        }
        return false;
    case GM_OP_SELECT:
    case GM_OP_DSELECT: {
        /* the condition is a use; each lane's result is the operand its condition picked */
        bool dbl = in->op == GM_OP_DSELECT;
        int n = in->n < 64 ? in->n : 64, cn = in->x == 1 ? 1 : dbl ? (n + 1) / 2 : n;
        gm_mask u = undef_in(e, in->a, cn, live);
        uint32_t tmp[64];
        int32_t org[64];
        for (int k = 0; k < n; k++) {
            uint32_t cond = in->a + (uint32_t)(in->x == 1 ? 0 : dbl ? k / 2 : k);
            tmp[k] = 0;
            org[k] = -1;
            for (int l = 0; l < 32 && cond < nr; l++) {
                if (!((m >> l) & 1))
                    continue;
                uint32_t src = (w->R[cond][l] ? in->b : in->c) + (uint32_t)k;
                if (src < nr && ((e->undef[src] >> l) & 1)) {
                    tmp[k] |= 1u << l;
                    if (org[k] < 0)
                        org[k] = e->origin[src];
                }
            }
        }
        for (int k = 0; k < n; k++) {
            SET(in->d + (uint32_t)k, m, u ? 0u : tmp[k]);
            if (!u && org[k] >= 0 && in->d + (uint32_t)k < nr)
                e->origin[in->d + (uint32_t)k] = org[k];
        }
        return u ? uninit_hit(info, w, is, e, u, in->a, cn, op_name(in), hit) : false;
    }
    default:
        break;
    }
    /* a use: the operands a computation reads */
    struct shape s;
    uint32_t src[12];
    int src_n[12], n_src = 0, dst_n = in->n;
    if (float_shape(p, in, &s)) {
        for (int i = 0; i < s.n_src; i++) {
            src[n_src] = s.src[i];
            src_n[n_src++] = s.src_n[i];
        }
        dst_n = s.dst_n;
    } else if ((in->op >= GM_OP_IADD && in->op <= GM_OP_SNEG) || (in->op >= GM_OP_AND && in->op <= GM_OP_SHR_A) ||
               (in->op >= GM_OP_LNOT && in->op <= GM_OP_FUGE)) {
        bool unary = in->op == GM_OP_SNEG || in->op == GM_OP_NOT || in->op == GM_OP_LNOT;
        src[n_src] = in->a;
        src_n[n_src++] = in->n;
        if (!unary) {
            src[n_src] = in->b;
            src_n[n_src++] = in->n;
        }
    } else if (in->op == GM_OP_BRANCH_COND) {
        src[n_src] = in->a;
        src_n[n_src++] = 1;
        dst_n = 0;
    } else if (in->op == GM_OP_TEX) {
        n_src = tex_reads(p, in, src, src_n, 12);
    }
    gm_mask did = 0;
    int which = -1;
    for (int i = 0; i < n_src; i++) {
        gm_mask u = undef_in(e, src[i], src_n[i], live);
        if (u && which < 0)
            which = i;
        did |= u;
    }
    /* the result is defined (for the lanes that ran it) */
    if (in->op != GM_OP_BRANCH_COND && in->op != GM_OP_RETURN && in->op != GM_OP_BRANCH && in->op != GM_OP_SWITCH)
        for (int k = 0; k < dst_n && k < 256; k++)
            SET(in->d + (uint32_t)k, m, 0u);
#undef SET
#undef ORIGIN
    if (!did)
        return false;
    if (in->op == GM_OP_TEX)
        snprintf(what, sizeof what, "the %s of a texture fetch",
                 src[which] == (uint32_t)p->tex[in->x].coord ? "coordinates" : "level, bias, gradients, offset or reference");
    return uninit_hit(info, w, is, e, did, src[which], src_n[which], in->op == GM_OP_TEX ? what : op_name(in), hit);
}

bool dbg_exc_observe(struct dbg_exc_state *st, const struct dbg_observe_info *info, gm_warp *w,
                     const gm_issue *is, struct dbg_exc_hit *hit)
{
    if (!st || !st->bits || !w || !w->p)
        return false;
    if (info->draw != st->draw) {
        /* Warps never span draws: forget the previous draw's. */
        forget_warps(st);
        st->draw = info->draw;
    }
    struct last_issue *e = slot(st, info->stage, info->warp);
    bool found = false;
    if (e && e->is.pc >= 0 && (st->bits & (DBG_EXC_NAN | DBG_EXC_INF)))
        found = check_after(info, w, &e->is, st->bits, hit);
    if (e)
        e->is = *is;
    if (!found && (st->bits & (DBG_EXC_DIV0 | DBG_EXC_BOUNDS | DBG_EXC_TEXTURE)))
        found = check_before(info, w, is, st->bits, hit);
    if (!found && (st->bits & DBG_EXC_UNINIT) && e)
        found = check_uninit(info, w, is, e, hit);
    return found;
}
