/* The fixed-function tessellator (gm_tessellator.h): llvmpipe's D3D11-rule tessellator
 * re-derived in C. Everything below works in unsigned 15.16 fixed point like the reference:
 * the float domain coordinates are exact conversions of fixed-point values, and the
 * connectivity is built ring by ring (outer ring first, then inward), edge by edge, with the
 * same triangle order and vertex order. Notation: a "level" is a tessellation factor; its
 * "half" context describes the points on one half of an edge (edges are symmetric about
 * their midpoint); fractional levels split one segment per half following the ruler
 * function, so points appear one by one as a level grows.
 *
 * Parity: for equal spacing each level gets the parity of its (rounded up) integer value;
 * fractional_odd / fractional_even use one parity for all. The reference keeps a "current
 * parity" that every helper reads; here it is passed as state in `ts` and set before each
 * use exactly where the rules need it. */
#include "gm_tessellator.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef uint32_t fxp;   /* unsigned 15.16 fixed point */
#define FX_ONE 0x10000u
#define FX_HALF 0x8000u
#define FX_THIRD 0x5555u
#define FX_TWO_THIRDS 0xaaaau
#define FX_INT_MASK 0x7fff0000u
#define FX_FRAC_MASK 0x0000ffffu
#define FX_EPSILON (1.0f / 65536.0f)   /* the smallest positive fixed-point fraction */

enum { EVEN = 0, ODD = 1 };

typedef struct half_ctx {
    fxp inv_floor, inv_ceil;   /* 1 / segment count of the levels rounded down and up */
    fxp frac;                  /* fraction of the half level between those two */
    int n_half;                /* points on a half edge (the middle point of even excluded) */
    int split;                 /* index past which the floor level has one point less */
} half_ctx;

/* Index remapping while stitching: the last edge of a ring wraps to the ring's first points
 * (wrap), and the degenerate middle row of even quads is walked backwards (mirror). */
typedef struct wrap_map {
    int in_delta, in_bad, in_repl, out_base, out_delta, out_bad, out_repl;
} wrap_map;
typedef struct mirror_map {
    int base, bad, repl, end;
} mirror_map;

typedef enum { DIAG_IN_TO_OUT, DIAG_IN_TO_OUT_EXCEPT_MIDDLE, DIAG_MIRRORED } diag_kind;

typedef struct ts {
    gm_tess_out *o;
    gm_tess_spacing spacing;
    int parity;                /* current parity */
    bool cw;
    bool wrap_on, mirror_on;
    wrap_map wrap;
    mirror_map mirror;
} ts;

/* ---- arithmetic ---- */

static fxp reciprocal(int n)
{
    /* 1/n rounded to nearest in 16.16 (no n in 1..64 gives an exact tie) */
    return n <= 0 ? 0xffffffffu : (fxp)((65536u + (unsigned)n / 2u) / (unsigned)n);
}

/* float -> 15.16 with round-half-to-even, NaN and negatives to 0, saturating */
static fxp to_fixed(float f)
{
    if (!(f > 0.0f))
        return 0;
    double s = (double)f * 65536.0;
    if (s >= 2147483647.0)
        return 0x7fffffffu;
    return (fxp)nearbyint(s);
}

static float to_float(fxp x)
{
    return (float)(x >> 16) + (float)(x & FX_FRAC_MASK) / 65536.0f;
}

static fxp fx_ceil(fxp x) { return (x & FX_FRAC_MASK) ? (x & FX_INT_MASK) + FX_ONE : x; }
static fxp fx_floor(fxp x) { return x & FX_INT_MASK; }
static bool even_float(float f) { return (((int)f) & 1) == 0; }

/* lo <= x <= hi; NaN (and denormals, which the reference flushes) become lo */
static float clamp_level(float x, float lo, float hi)
{
    if (x != x || fabsf(x) < 1.17549435e-38f)
        x = lo;
    if (x < lo)
        x = lo;
    return x > hi ? hi : x;
}

static int clear_msb(int v)
{
    if (v <= 0)
        return 0;
    int b = 1;
    while (b <= v / 2)
        b <<= 1;
    return v & ~b;
}

static bool odd(const ts *t) { return t->parity == ODD; }
static bool integer_spacing(const ts *t) { return t->spacing == GM_TESS_EQUAL; }

static int points_for_level(const ts *t, fxp level)
{
    if (odd(t))
        return (int)((fx_ceil(FX_HALF + (level + 1) / 2) * 2) >> 16);
    return (int)((fx_ceil((level + 1) / 2) * 2) >> 16) + 1;
}

static void half_context(const ts *t, fxp level, half_ctx *c)
{
    fxp half = (level + 1) / 2;
    if (odd(t) || half == FX_HALF)   /* level 1 treated as even: half is 1/2 */
        half += FX_HALF;
    fxp lo = fx_floor(half), hi = fx_ceil(half);
    c->frac = half - lo;
    c->n_half = (int)(hi >> 16);
    if (hi == lo)
        c->split = c->n_half + 1;   /* never reached */
    else if (odd(t))
        c->split = lo == FX_ONE ? 0 : (clear_msb((int)(lo >> 16) - 1) << 1) + 1;
    else
        c->split = (clear_msb((int)(lo >> 16)) << 1) + 1;
    int n_lo = (int)((lo * 2) >> 16), n_hi = (int)((hi * 2) >> 16);
    if (odd(t)) {
        n_lo--;
        n_hi--;
    }
    c->inv_floor = reciprocal(n_lo);
    c->inv_ceil = reciprocal(n_hi);
}

/* Location in [0,1] of point `point` along an edge of the context's level. */
static fxp place(const ts *t, const half_ctx *c, int point)
{
    bool flip = false;
    if (point >= c->n_half) {
        point = (c->n_half << 1) - point - (odd(t) ? 1 : 0);
        flip = true;
    }
    if (point == c->n_half)
        return FX_HALF;   /* the middle, which the 16-bit products below cannot hit */
    fxp on_hi = (fxp)point, on_lo = (fxp)point;
    if (point > c->split)
        on_lo -= 1;
    fxp a = on_lo * c->inv_floor, b = on_hi * c->inv_ceil;
    fxp loc = a * (FX_ONE - c->frac) + b * c->frac;
    loc = (loc + FX_HALF) >> 16;
    return flip ? FX_ONE - loc : loc;
}

/* ---- output ---- */

static void put_point(ts *t, int at, fxp u, fxp v)
{
    if (at < 0 || at >= GM_TESS_MAX_POINTS)
        return;
    t->o->u[at] = to_float(u);
    t->o->v[at] = to_float(v);
}

static int remap(const ts *t, int i)
{
    if (t->wrap_on) {
        const wrap_map *m = &t->wrap;
        if (i >= m->out_base)
            return i == m->out_bad ? m->out_repl : i + m->out_delta;
        return i == m->in_bad ? m->in_repl : i + m->in_delta;
    }
    if (t->mirror_on) {
        const mirror_map *m = &t->mirror;
        if (i >= m->base)
            return i == m->bad ? m->repl : m->end - i;
        if (i == m->bad)
            return m->repl;
    }
    return i;
}

static void put_index(ts *t, int i, int at)
{
    if (at >= 0 && at < GM_TESS_MAX_INDICES)
        t->o->idx[at] = remap(t, i);
}

/* a, b, c given clockwise; stored in the requested winding */
static void put_triangle(ts *t, int a, int b, int c, int at)
{
    put_index(t, a, at);
    put_index(t, t->cw ? b : c, at + 1);
    put_index(t, t->cw ? c : b, at + 2);
}

static void all_points(ts *t)
{
    for (int p = 0; p < t->o->n_points; p++)
        put_index(t, p, t->o->n_indices++);
}

static void all_points_as_lines(ts *t)
{
    for (int p = 1; p < t->o->n_points; p++) {
        put_index(t, p - 1, t->o->n_indices++);
        put_index(t, p, t->o->n_indices++);
    }
}

/* ---- stitching two rows of points ---- */

/* Rows of equal spacing: an inner row of n_in points against an outer row (one more point
 * at each end when `trapezoid`). */
static void stitch_regular(ts *t, bool trapezoid, diag_kind diag, int at, int n_in, int in,
                           int out)
{
    if (trapezoid) {
        put_triangle(t, out, out + 1, in, at);
        at += 3;
        out++;
    }
    int p = 0;
    switch (diag) {
    case DIAG_IN_TO_OUT:
        for (; p < n_in - 1; p++, in++, out++, at += 6) {
            put_triangle(t, in, out, out + 1, at);
            put_triangle(t, in, out + 1, in + 1, at + 3);
        }
        break;
    case DIAG_IN_TO_OUT_EXCEPT_MIDDLE:
        for (; p < n_in / 2 - 1; p++, in++, out++, at += 6) {
            put_triangle(t, out, out + 1, in, at);
            put_triangle(t, in, out + 1, in + 1, at + 3);
        }
        put_triangle(t, out, in + 1, in, at);
        put_triangle(t, out, out + 1, in + 1, at + 3);
        at += 6;
        in++;
        out++;
        p += 2;
        for (; p < n_in; p++, in++, out++, at += 6) {
            put_triangle(t, out, out + 1, in, at);
            put_triangle(t, in, out + 1, in + 1, at + 3);
        }
        break;
    case DIAG_MIRRORED:
        for (; p < n_in / 2; p++, in++, out++, at += 6) {
            put_triangle(t, out, in + 1, in, at);
            put_triangle(t, out, out + 1, in + 1, at + 3);
        }
        for (; p < n_in - 1; p++, in++, out++, at += 6) {
            put_triangle(t, in, out, out + 1, at);
            put_triangle(t, in, out + 1, in + 1, at + 3);
        }
        break;
    }
    if (trapezoid)
        put_triangle(t, out, out + 1, in, at);
}

/* Where point i of a half edge ends up at the largest level when points are inserted in
 * ruler-function order (the reference's split order; supports half levels up to 32). */
static const int ruler_position[33] = { 0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22,
                                        11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3, 28, 14, 29, 7,
                                        30, 15, 31 };

/* Rows of different levels (the outer ring against the first inner ring): walk the first
 * half advancing whichever row has the next point in ruler order, the middle, then the
 * second half mirrored. Entries whose position is past both rows advance nothing, so the
 * walk visits every entry (the reference narrows the range only to save time). */
static void stitch_transition(ts *t, int at, int in, int in_half, int in_parity, int out,
                              int out_half, int out_parity)
{
    if (in_parity == ODD)
        in_half--;
    if (out_parity == ODD)
        out_half--;
    if (ruler_position[0] < out_half) {
        put_triangle(t, out, out + 1, in, at);
        at += 3;
        out++;
    }
    for (int i = 1; i <= 32; i++) {
        if (ruler_position[i] < in_half) {
            put_triangle(t, in, out, in + 1, at);
            at += 3;
            in++;
        }
        if (ruler_position[i] < out_half) {
            put_triangle(t, out, out + 1, in, at);
            at += 3;
            out++;
        }
    }
    if (in_parity != out_parity || in_parity == ODD) {
        if (in_parity == out_parity) {   /* a quad in the middle */
            put_triangle(t, in, out, in + 1, at);
            put_triangle(t, in + 1, out, out + 1, at + 3);
            at += 6;
            in++;
            out++;
        } else if (in_parity == EVEN) {   /* a triangle pointing inside */
            put_triangle(t, in, out, out + 1, at);
            at += 3;
            out++;
        } else {                          /* a triangle pointing outside */
            put_triangle(t, in, out, in + 1, at);
            at += 3;
            in++;
        }
    }
    for (int i = 32; i >= 1; i--) {
        if (ruler_position[i] < out_half) {
            put_triangle(t, out, out + 1, in, at);
            at += 3;
            out++;
        }
        if (ruler_position[i] < in_half) {
            put_triangle(t, in, out, in + 1, at);
            at += 3;
            in++;
        }
    }
    if (ruler_position[0] < out_half)
        put_triangle(t, out, out + 1, in, at);
}

/* ---- level processing shared by the domains ---- */

static void level_bounds(const ts *t, float *lo, float *hi)
{
    switch (t->spacing) {
    case GM_TESS_FRACTIONAL_EVEN: *lo = 2.0f; *hi = 64.0f; break;
    case GM_TESS_FRACTIONAL_ODD: *lo = 1.0f; *hi = 63.0f; break;
    default: *lo = 1.0f; *hi = 64.0f; break;
    }
}

static int spacing_parity(const ts *t)
{
    return t->spacing == GM_TESS_FRACTIONAL_ODD ? ODD : EVEN;
}

/* ---- triangles ---- */

static void tess_triangles(ts *t, const float outer_in[3], float inner)
{
    gm_tess_out *o = t->o;
    float outer[3];
    for (int e = 0; e < 3; e++)
        if (!(outer_in[e] > 0.0f))
            return;   /* culled */
    float lo, hi;
    level_bounds(t, &lo, &hi);
    for (int e = 0; e < 3; e++) {
        outer[e] = clamp_level(outer_in[e], lo, hi);
        if (integer_spacing(t))
            outer[e] = ceilf(outer[e]);
    }
    if (t->spacing == GM_TESS_FRACTIONAL_ODD &&
        (outer[0] > 1.0f + FX_EPSILON / 2 || outer[1] > 1.0f + FX_EPSILON / 2 ||
         outer[2] > 1.0f + FX_EPSILON / 2))
        lo = 1.0f + FX_EPSILON;   /* keep a ring inside the outer edges */
    inner = clamp_level(inner, lo, hi);
    if (integer_spacing(t))
        inner = ceilf(inner);
    int opar[3], ipar;
    if (integer_spacing(t)) {
        for (int e = 0; e < 3; e++)
            opar[e] = even_float(outer[e]) ? EVEN : ODD;
        ipar = even_float(inner) || inner == 1.0f ? EVEN : ODD;
    } else {
        opar[0] = opar[1] = opar[2] = ipar = spacing_parity(t);
    }
    fxp ofx[3], ifx = to_fixed(inner);
    for (int e = 0; e < 3; e++)
        ofx[e] = to_fixed(outer[e]);
    if ((integer_spacing(t) || spacing_parity(t) == ODD) && ifx == FX_ONE &&
        ofx[0] == FX_ONE && ofx[1] == FX_ONE && ofx[2] == FX_ONE) {
        /* every level 1: the patch itself */
        put_point(t, 0, 0, FX_ONE);
        put_point(t, 1, 0, 0);
        put_point(t, 2, FX_ONE, 0);
        o->n_points = 3;
        if (o->prim == GM_TESS_OUT_TRIANGLES) {
            put_triangle(t, 0, 1, 2, 0);
            o->n_indices = 3;
        } else if (o->prim == GM_TESS_OUT_POINTS) {
            all_points(t);
        } else {
            all_points_as_lines(t);
        }
        return;
    }
    half_ctx octx[3], ictx;
    int nout[3];
    for (int e = 0; e < 3; e++) {
        t->parity = opar[e];
        half_context(t, ofx[e], &octx[e]);
    }
    t->parity = ipar;
    half_context(t, ifx, &ictx);
    int np = 0;
    for (int e = 0; e < 3; e++) {
        t->parity = opar[e];
        nout[e] = points_for_level(t, ofx[e]);
        np += nout[e];
    }
    np -= 3;
    t->parity = ipar;
    int nin = points_for_level(t, ifx);
    if (nin < (odd(t) ? 4 : 3))
        nin = odd(t) ? 4 : 3;   /* inner level 1: a degenerate transition ring */
    int inside_base = np;
    int rings_in = (nin >> 1) - 1;
    np += odd(t) ? 3 * (rings_in * (rings_in + 1) - rings_in) : 3 * (rings_in * (rings_in + 1)) + 1;
    if (np > GM_TESS_MAX_POINTS)
        return;
    o->n_points = np;

    /* points: the outer ring clockwise from V (the u == 0 edge first) */
    int at = 0;
    for (int e = 0; e < 3; e++) {
        int end = nout[e] - 1;
        for (int p = 0; p < end; p++, at++) {
            t->parity = opar[e];
            fxp f = place(t, &octx[e], (e & 1) ? p : end - p);
            if (e == 0)
                put_point(t, at, 0, f);
            else
                put_point(t, at, f, e == 2 ? FX_ONE - f : 0);
        }
    }
    /* inner rings, spiralling in: a ring's points sit at 2/3 of the inner level's
     * placement towards the centre in barycentric space */
    t->parity = ipar;
    for (int ring = 1; ring < (nin >> 1); ring++) {
        int end = nin - 1 - ring;
        for (int e = 0; e < 3; e++) {
            fxp perp = place(t, &ictx, ring) * FX_TWO_THIRDS;
            perp = (perp + FX_HALF) >> 16;
            for (int p = ring; p < end; p++, at++) {
                fxp f = place(t, &ictx, (e & 1) ? p : end - (p - ring));
                fxp along = f - (perp + 1) / 2;
                if (e == 0)
                    put_point(t, at, perp, along);
                else if (e == 1)
                    put_point(t, at, along, perp);
                else
                    put_point(t, at, along, FX_ONE - along - perp);
            }
        }
    }
    if (!odd(t))
        put_point(t, at, FX_THIRD, FX_THIRD);   /* the centre */

    if (o->prim == GM_TESS_OUT_POINTS) {
        all_points(t);
        return;
    }
    if (o->prim == GM_TESS_OUT_LINES) {
        all_points_as_lines(t);
        return;
    }

    /* connectivity: ring by ring, edge by edge; parity is still the inner level's */
    const half_ctx *oc[3] = { &octx[0], &octx[1], &octx[2] };
    int in_base = inside_base, out_base = 0;
    int rings = (nin + 1) >> 1;
    for (int ring = 1; ring < rings; ring++) {
        int n_edge_in = nin - 2 * ring;
        int first_in = in_base, first_out = out_base;
        for (int e = 0; e < 3; e++) {
            int ntri = n_edge_in + nout[e] - 2;
            int ib = in_base, ob = out_base;
            if (e == 2) {   /* the last edge ends on the ring's first points */
                wrap_map *m = &t->wrap;
                m->in_delta = in_base;
                m->in_bad = n_edge_in - 1;
                m->in_repl = first_in;
                m->out_base = m->in_bad + 1;
                m->out_delta = out_base - m->out_base;
                m->out_bad = m->out_base + nout[e] - 1;
                m->out_repl = first_out;
                t->wrap_on = true;
                ib = 0;
                ob = m->out_base;
            }
            if (ring == 1)
                stitch_transition(t, o->n_indices, ib, ictx.n_half, ipar, ob, oc[e]->n_half,
                                  opar[e]);
            else
                stitch_regular(t, true, DIAG_MIRRORED, o->n_indices, n_edge_in, ib, ob);
            t->wrap_on = false;
            o->n_indices += ntri * 3;
            out_base += nout[e] - 1;
            in_base += n_edge_in - 1;
            nout[e] = n_edge_in;
        }
        if (ring == 1)
            for (int e = 0; e < 3; e++) {
                oc[e] = &ictx;
                opar[e] = ipar;
            }
    }
    if (odd(t)) {   /* the centre triangle */
        put_triangle(t, out_base, out_base + 1, out_base + 2, o->n_indices);
        o->n_indices += 3;
    }
}

/* ---- quads ---- */

static void tess_quads(ts *t, const float outer_in[4], const float inner_in[2])
{
    gm_tess_out *o = t->o;
    float outer[4], inner[2] = { inner_in[0], inner_in[1] };
    for (int e = 0; e < 4; e++)
        if (!(outer_in[e] > 0.0f))
            return;
    float lo, hi;
    level_bounds(t, &lo, &hi);
    for (int e = 0; e < 4; e++) {
        outer[e] = clamp_level(outer_in[e], lo, hi);
        if (integer_spacing(t))
            outer[e] = ceilf(outer[e]);
    }
    if (t->spacing == GM_TESS_FRACTIONAL_ODD) {
        bool frame = false;
        for (int e = 0; e < 4; e++)
            frame |= outer[e] > 1.0f + FX_EPSILON / 2;
        frame |= inner[0] > 1.0f + FX_EPSILON / 2 || inner[1] > 1.0f + FX_EPSILON / 2;
        if (frame)
            lo = 1.0f + FX_EPSILON;
    }
    for (int a = 0; a < 2; a++) {
        inner[a] = clamp_level(inner[a], lo, hi);
        if (integer_spacing(t))
            inner[a] = ceilf(inner[a]);
    }
    int opar[4], ipar[2];
    for (int e = 0; e < 4; e++)
        opar[e] = integer_spacing(t) ? (even_float(outer[e]) ? EVEN : ODD) : spacing_parity(t);
    for (int a = 0; a < 2; a++)
        ipar[a] = integer_spacing(t) ? (even_float(inner[a]) || inner[a] == 1.0f ? EVEN : ODD)
                                     : spacing_parity(t);
    fxp ofx[4], ifx[2];
    for (int e = 0; e < 4; e++)
        ofx[e] = to_fixed(outer[e]);
    for (int a = 0; a < 2; a++)
        ifx[a] = to_fixed(inner[a]);
    if ((integer_spacing(t) || spacing_parity(t) == ODD) && ifx[0] == FX_ONE &&
        ifx[1] == FX_ONE && ofx[0] == FX_ONE && ofx[1] == FX_ONE && ofx[2] == FX_ONE &&
        ofx[3] == FX_ONE) {
        put_point(t, 0, 0, 0);
        put_point(t, 1, FX_ONE, 0);
        put_point(t, 2, FX_ONE, FX_ONE);
        put_point(t, 3, 0, FX_ONE);
        o->n_points = 4;
        if (o->prim == GM_TESS_OUT_TRIANGLES) {
            put_triangle(t, 0, 1, 3, 0);
            put_triangle(t, 1, 2, 3, 3);
            o->n_indices = 6;
        } else if (o->prim == GM_TESS_OUT_POINTS) {
            all_points(t);
        } else {
            all_points_as_lines(t);
        }
        return;
    }
    half_ctx octx[4], ictx[2];
    int nout[4], nin[2];
    for (int e = 0; e < 4; e++) {
        t->parity = opar[e];
        half_context(t, ofx[e], &octx[e]);
    }
    for (int a = 0; a < 2; a++) {
        t->parity = ipar[a];
        half_context(t, ifx[a], &ictx[a]);
    }
    int np = 0;
    for (int e = 0; e < 4; e++) {
        t->parity = opar[e];
        nout[e] = points_for_level(t, ofx[e]);
        np += nout[e];
    }
    np -= 4;
    for (int a = 0; a < 2; a++) {
        t->parity = ipar[a];
        nin[a] = points_for_level(t, ifx[a]);
        int min = ipar[a] == ODD ? 4 : 3;
        if (nin[a] < min)
            nin[a] = min;
    }
    int inside_base = np;
    np += (nin[0] - 2) * (nin[1] - 2);
    if (np > GM_TESS_MAX_POINTS)
        return;
    o->n_points = np;

    /* points: the outer ring clockwise from (0,0) along u == 0 first */
    int at = 0;
    for (int e = 0; e < 4; e++) {
        int end = nout[e] - 1;
        for (int p = 0; p < end; p++, at++) {
            t->parity = opar[e];
            fxp f = place(t, &octx[e], (e == 1 || e == 2) ? p : end - p);
            if (e & 1)
                put_point(t, at, f, e == 3 ? FX_ONE : 0);
            else
                put_point(t, at, e == 2 ? FX_ONE : 0, f);
        }
    }
    int rings_pts = (nin[0] < nin[1] ? nin[0] : nin[1]) >> 1;
    for (int ring = 1; ring < rings_pts; ring++) {
        int end[2] = { nin[0] - 1 - ring, nin[1] - 1 - ring };
        for (int e = 0; e < 4; e++) {
            int ax_perp = e & 1, ax_along = (e + 1) & 1;
            t->parity = ipar[ax_perp];
            fxp perp = place(t, &ictx[ax_perp], e < 2 ? ring : end[ax_perp]);
            t->parity = ipar[ax_along];
            for (int p = ring; p < end[ax_along]; p++, at++) {
                fxp f = place(t, &ictx[ax_along],
                              (e == 1 || e == 2) ? p : end[ax_along] - (p - ring));
                if (ax_along)
                    put_point(t, at, perp, f);
                else
                    put_point(t, at, f, perp);
            }
        }
    }
    /* even inner levels leave a degenerate middle row (a line of points) */
    if (nin[0] > nin[1] && ipar[1] == EVEN) {
        t->parity = ipar[0];
        for (int p = rings_pts; p <= nin[0] - 1 - rings_pts; p++, at++)
            put_point(t, at, place(t, &ictx[0], p), FX_HALF);
    } else if (nin[1] >= nin[0] && ipar[0] == EVEN) {
        t->parity = ipar[1];
        for (int p = nin[1] - 1 - rings_pts; p >= rings_pts; p--, at++)
            put_point(t, at, FX_HALF, place(t, &ictx[1], p));
    }

    if (o->prim == GM_TESS_OUT_POINTS) {
        all_points(t);
        return;
    }
    if (o->prim == GM_TESS_OUT_LINES) {
        all_points_as_lines(t);
        return;
    }

    int to_centre[2] = { (nin[0] + 1) >> 1, (nin[1] + 1) >> 1 };
    int rings = to_centre[0] < to_centre[1] ? to_centre[0] : to_centre[1];
    int degenerate_ring[2] = { ipar[1] == EVEN ? to_centre[1] - 1 : -1,
                               ipar[0] == EVEN ? to_centre[0] - 1 : -1 };
    const half_ctx *oc[4] = { &octx[0], &octx[1], &octx[2], &octx[3] };
    int in_base = inside_base, out_base = 0;
    for (int ring = 1; ring < rings; ring++) {
        int n_edge_in[2] = { nin[0] - 2 * ring, nin[1] - 2 * ring };
        int first_in = in_base, first_out = out_base;
        for (int e = 0; e < 4; e++) {
            int ax = (e + 1) & 1;
            int ntri = n_edge_in[ax] + nout[e] - 2;
            int ib = in_base, ob = out_base;
            bool degenerate = ring == degenerate_ring[ax];
            if (e == 3) {
                if (degenerate) {
                    mirror_map *m = &t->mirror;
                    m->base = in_base + 1;
                    m->bad = out_base + nout[e] - 1;
                    m->repl = first_out;
                    m->end = (m->base << 1) - 1;
                    ib = m->base;
                    t->mirror_on = true;
                } else {
                    wrap_map *m = &t->wrap;
                    m->in_delta = in_base;
                    m->in_bad = n_edge_in[ax] - 1;
                    m->in_repl = first_in;
                    m->out_base = m->in_bad + 1;
                    m->out_delta = out_base - m->out_base;
                    m->out_bad = m->out_base + nout[e] - 1;
                    m->out_repl = first_out;
                    ib = 0;
                    ob = m->out_base;
                    t->wrap_on = true;
                }
            } else if (e == 2 && degenerate) {
                mirror_map *m = &t->mirror;
                m->base = in_base;
                m->bad = -1;
                m->repl = -1;
                m->end = m->base << 1;
                ib = m->base;
                t->mirror_on = true;
            }
            if (ring == 1)
                stitch_transition(t, o->n_indices, ib, ictx[ax].n_half, ipar[ax], ob,
                                  oc[e]->n_half, opar[e]);
            else
                stitch_regular(t, true, DIAG_MIRRORED, o->n_indices, n_edge_in[ax], ib, ob);
            t->wrap_on = t->mirror_on = false;
            o->n_indices += ntri * 3;
            out_base += nout[e] - 1;
            if (e == 2 && degenerate)
                in_base -= n_edge_in[ax] - 1;
            else
                in_base += n_edge_in[ax] - 1;
            nout[e] = n_edge_in[ax];
        }
        if (ring == 1)
            for (int e = 0; e < 4; e++) {
                oc[e] = &ictx[e & 1];
                opar[e] = ipar[e & 1];
            }
    }
    /* the centre: a strip of quads when an inner level is odd */
    if (nin[0] > nin[1] && ipar[1] == ODD) {
        int quads = (((nin[0] >> 1) - (nin[1] >> 1)) << 1) + (ipar[0] == EVEN ? 2 : 1);
        mirror_map *m = &t->mirror;
        m->base = out_base + quads + 2;
        m->bad = m->base;
        m->repl = out_base;
        m->end = m->base + m->base + quads;
        t->mirror_on = true;
        stitch_regular(t, false, DIAG_IN_TO_OUT, o->n_indices, quads + 1, m->base, out_base + 1);
        t->mirror_on = false;
        o->n_indices += quads * 6;
    } else if (nin[1] >= nin[0] && ipar[0] == ODD) {
        int quads = (((nin[1] >> 1) - (nin[0] >> 1)) << 1) + (ipar[1] == EVEN ? 2 : 1);
        mirror_map *m = &t->mirror;
        m->base = out_base + quads + 1;
        m->bad = -1;
        m->end = m->base + m->base + quads;
        t->mirror_on = true;
        stitch_regular(t, false, ipar[1] == EVEN ? DIAG_IN_TO_OUT : DIAG_IN_TO_OUT_EXCEPT_MIDDLE,
                       o->n_indices, quads + 1, m->base, out_base);
        t->mirror_on = false;
        o->n_indices += quads * 6;
    }
}

/* ---- isolines ---- */

static void tess_isolines(ts *t, float density, float detail)
{
    gm_tess_out *o = t->o;
    if (!(density > 0.0f) || !(detail > 0.0f))
        return;
    float lo, hi;
    level_bounds(t, &lo, &hi);
    density = clamp_level(density, 1.0f, 64.0f);
    detail = clamp_level(detail, lo, hi);
    int detail_par = spacing_parity(t);
    if (integer_spacing(t)) {
        detail = ceilf(detail);
        detail_par = even_float(detail) ? EVEN : ODD;
    }
    half_ctx detail_ctx, density_ctx;
    t->parity = detail_par;
    fxp fdetail = to_fixed(detail);
    half_context(t, fdetail, &detail_ctx);
    int per_line = points_for_level(t, fdetail);
    /* the line count always follows equal spacing */
    density = ceilf(density);
    int density_par = even_float(density) ? EVEN : ODD;
    t->parity = density_par;
    fxp fdensity = to_fixed(density);
    half_context(t, fdensity, &density_ctx);
    int lines = points_for_level(t, fdensity) - 1;   /* no line at v == 1 */
    if (per_line * lines > GM_TESS_MAX_POINTS)
        return;
    o->n_points = per_line * lines;
    int at = 0;
    for (int l = 0; l < lines; l++)
        for (int p = 0; p < per_line; p++, at++) {
            t->parity = density_par;
            fxp v = place(t, &density_ctx, l);
            t->parity = detail_par;
            fxp u = place(t, &detail_ctx, p);
            put_point(t, at, u, v);
        }
    if (o->prim == GM_TESS_OUT_POINTS) {
        all_points(t);
        return;
    }
    at = 0;
    for (int l = 0; l < lines; l++)
        for (int p = 0; p < per_line; p++, at++)
            if (p > 0) {
                put_index(t, at - 1, o->n_indices++);
                put_index(t, at, o->n_indices++);
            }
}

void gm_tessellate(gm_tess_out *out, gm_tess_domain domain, gm_tess_spacing spacing, bool cw,
                   bool point_mode, const float outer[4], const float inner[2])
{
    ts t;
    memset(&t, 0, sizeof t);
    t.o = out;
    t.spacing = spacing;
    /* llvmpipe hands the D3D rules the opposite of GLSL's vertex order (draw_tess.c): GL's
     * domain has the other handedness, so GL's ccw triangles are the rules' clockwise ones */
    t.cw = !cw;
    t.parity = spacing == GM_TESS_FRACTIONAL_ODD ? ODD : EVEN;
    out->n_points = out->n_indices = 0;
    out->prim = point_mode ? GM_TESS_OUT_POINTS
                : domain == GM_TESS_ISOLINES ? GM_TESS_OUT_LINES : GM_TESS_OUT_TRIANGLES;
    switch (domain) {
    case GM_TESS_TRIANGLES: tess_triangles(&t, outer, inner[0]); break;
    case GM_TESS_QUADS: tess_quads(&t, outer, inner); break;
    case GM_TESS_ISOLINES: tess_isolines(&t, outer[0], outer[1]); break;
    }
    if (out->n_indices > GM_TESS_MAX_INDICES)
        out->n_indices = GM_TESS_MAX_INDICES;
}
