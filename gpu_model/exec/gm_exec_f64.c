/* 64-bit floats (GLSL double, dvec*, dmat*). A double component occupies two consecutive
 * register words: the low 32 bits of every lane, then the high 32 bits (the same order
 * as a double in memory, so uniform words, buffer bytes, bitcasts to uvec2 and every
 * move, phi and blend of the 32-bit executor work on doubles unchanged). Only arithmetic
 * needs this file: each op gathers a lane's components into C doubles, computes with
 * IEEE double arithmetic (as llvmpipe does: real fp64, not emulation) and scatters the
 * result. Kept apart from gm_exec.c so the 32-bit ALU loops stay as they were. */
#include "gm_exec.h"

#include <math.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <string.h>

#define MAXC 16 /* components of a dmat4 */

static inline double ld(const gm_lanes *r, int k, int l)
{
    uint64_t v = (uint64_t)r[2 * k][l] | (uint64_t)r[2 * k + 1][l] << 32;
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline void st(gm_lanes *o, int k, int l, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    o[2 * k][l] = (uint32_t)v;
    o[2 * k + 1][l] = (uint32_t)(v >> 32);
}

static void gather(const gm_lanes *r, int comps, int l, double *v)
{
    for (int k = 0; k < comps && k < MAXC; k++)
        v[k] = ld(r, k, l);
}

static void scatter(gm_lanes *o, int comps, int l, const double *v)
{
    for (int k = 0; k < comps && k < MAXC; k++)
        st(o, k, l, v[k]);
}

/* Saturating conversions, like the 32-bit path (f2s/f2u in gm_exec.c). */
static int32_t d2s(double x)
{
    if (!(x == x))
        return 0;
    if (x >= 2147483647.0)
        return INT32_MAX;
    if (x <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)x;
}

static uint32_t d2u(double x)
{
    if (!(x > 0.0))
        return 0;
    if (x >= 4294967295.0)
        return UINT32_MAX;
    return (uint32_t)x;
}

static uint32_t dcmp(int op, double a, double b)
{
    switch (op) {
    case GM_OP_FOEQ: return a == b;
    case GM_OP_FONE: return a < b || a > b;
    case GM_OP_FOLT: return a < b;
    case GM_OP_FOLE: return a <= b;
    case GM_OP_FOGT: return a > b;
    case GM_OP_FOGE: return a >= b;
    case GM_OP_FUEQ: return !(a < b || a > b);
    case GM_OP_FUNE: return !(a == b);
    case GM_OP_FULT: return !(a >= b);
    case GM_OP_FULE: return !(a > b);
    case GM_OP_FUGT: return !(a <= b);
    default: return !(a < b); /* GM_OP_FUGE */
    }
}

/* Cofactor expansion of an n x n column-major matrix (n <= 4). */
static double det_n(const double *a, int n)
{
    if (n == 1)
        return a[0];
    if (n == 2)
        return a[0] * a[3] - a[2] * a[1];
    double sub[9], det = 0.0;
    for (int c = 0; c < n; c++) {
        int k = 0;
        for (int cc = 0; cc < n; cc++) {
            if (cc == c)
                continue;
            for (int r = 1; r < n; r++)
                sub[k++] = a[cc * n + r];
        }
        det += (c & 1 ? -1.0 : 1.0) * a[c * n] * det_n(sub, n - 1);
    }
    return det;
}

static void inverse_n(const double *a, double *o, int n)
{
    double det = det_n(a, n), sub[9];
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) {
            int k = 0;
            for (int cc = 0; cc < n; cc++) {
                if (cc == c)
                    continue;
                for (int rr = 0; rr < n; rr++)
                    if (rr != r)
                        sub[k++] = a[cc * n + rr];
            }
            double cof = ((c + r) & 1 ? -1.0 : 1.0) * (n > 1 ? det_n(sub, n - 1) : 1.0);
            o[r * n + c] = cof / det;
        }
}

/* n comes from the instruction (a vector size, or operand words / 2): an empty operand gives 0
 * rather than a read of a component that was never gathered, and no more than MAXC are read. */
static double dot_n(const double *a, const double *b, int n)
{
    if (n < 1)
        return 0.0;
    if (n > MAXC)
        n = MAXC;
    double s = a[0] * b[0];
    for (int k = 1; k < n; k++)
        s += a[k] * b[k];
    return s;
}

static int dim_of(int comps) { return comps == 4 ? 2 : comps == 9 ? 3 : 4; }

/* GLSL.std.450 for one lane. The functions are the ones GLSL 4.00 defines for double;
 * the decoder refuses the rest by name. Results follow llvmpipe: sqrt is the IEEE
 * square root, inversesqrt 1/sqrt (GLSL allows 2 ULP), round rounds half to even
 * (NIR lowers GLSL round to fround_even), mix is x*(1-a)+y*a as in the 32-bit path. */
static void ext_lane(const gm_warp *w, const gm_inst *in, gm_lanes *out, int l)
{
    const gm_lanes *R = w->R;
    const int op = (int)(in->x & 0xffff), m = (int)((in->x >> 16) & 0x7fff);
    int c = m / 2 < MAXC ? m / 2 : MAXC; /* components of the first operand */
    double a[MAXC], b[MAXC] = {0}, cc[MAXC] = {0}, o[2 * MAXC] = {0};
    gather(&R[in->a], c, l, a);
    switch (op) {
    case GLSLstd450Ldexp: {
        if (c > in->n / 2)
            c = in->n / 2;
        for (int k = 0; k < c; k++) {
            int32_t e = (int32_t)R[in->b + k][l];
            o[k] = ldexp(a[k], e > 3000 ? 3000 : e < -3000 ? -3000 : e);
        }
        scatter(out, c, l, o);
        return;
    }
    case GLSLstd450FrexpStruct:
        if (c > in->n / 3) /* mantissas (2c words) then exponents (c words) */
            c = in->n / 3;
        for (int k = 0; k < c; k++) {
            int e = 0;
            o[k] = isfinite(a[k]) ? frexp(a[k], &e) : a[k];
            out[2 * c + k][l] = (uint32_t)e;
        }
        scatter(out, c, l, o);
        return;
    case GLSLstd450ModfStruct:
        if (c > in->n / 4)
            c = in->n / 4;
        for (int k = 0; k < c; k++)
            o[k] = modf(a[k], &o[c + k]);
        scatter(out, 2 * c, l, o);
        return;
    default:
        break;
    }
    /* read only the operands the instruction has (the others' words may not exist) */
    switch (op) {
    case GLSLstd450FClamp: case GLSLstd450NClamp: case GLSLstd450FMix:
    case GLSLstd450SmoothStep: case GLSLstd450Fma: case GLSLstd450FaceForward:
        gather(&R[in->c], c, l, cc);
        /* fall through */
    case GLSLstd450FMin: case GLSLstd450FMax: case GLSLstd450NMin: case GLSLstd450NMax:
    case GLSLstd450Step: case GLSLstd450Distance: case GLSLstd450Cross:
    case GLSLstd450Reflect:
        gather(&R[in->b], c, l, b);
        break;
    case GLSLstd450Refract:
        gather(&R[in->b], c, l, b);
        if (!(in->x >> 31))
            gather(&R[in->c], 1, l, cc);
        break;
    default:
        break;
    }
    int on = in->n / 2 < MAXC ? in->n / 2 : MAXC; /* result components */
    switch (op) {
    case GLSLstd450Round:
    case GLSLstd450RoundEven:
        for (int k = 0; k < c; k++)
            o[k] = nearbyint(a[k]);
        break;
    case GLSLstd450Trunc:
        for (int k = 0; k < c; k++)
            o[k] = trunc(a[k]);
        break;
    case GLSLstd450FAbs:
        for (int k = 0; k < c; k++)
            o[k] = fabs(a[k]);
        break;
    case GLSLstd450FSign:
        for (int k = 0; k < c; k++)
            o[k] = a[k] > 0.0 ? 1.0 : a[k] < 0.0 ? -1.0 : a[k];
        break;
    case GLSLstd450Floor:
        for (int k = 0; k < c; k++)
            o[k] = floor(a[k]);
        break;
    case GLSLstd450Ceil:
        for (int k = 0; k < c; k++)
            o[k] = ceil(a[k]);
        break;
    case GLSLstd450Fract:
        for (int k = 0; k < c; k++)
            o[k] = a[k] - floor(a[k]);
        break;
    case GLSLstd450Sqrt:
        for (int k = 0; k < c; k++)
            o[k] = sqrt(a[k]);
        break;
    case GLSLstd450InverseSqrt:
        for (int k = 0; k < c; k++)
            o[k] = 1.0 / sqrt(a[k]);
        break;
    case GLSLstd450FMin:   /* llvmpipe's NaN-loses min (gm_exec_ext.c, lp_fmin) */
        for (int k = 0; k < c; k++)
            o[k] = isnan(b[k]) ? a[k] : a[k] < b[k] ? a[k] : b[k];
        break;
    case GLSLstd450FMax:
        for (int k = 0; k < c; k++)
            o[k] = isnan(b[k]) ? a[k] : a[k] > b[k] ? a[k] : b[k];
        break;
    case GLSLstd450NMin:
        for (int k = 0; k < c; k++)
            o[k] = fmin(a[k], b[k]);
        break;
    case GLSLstd450NMax:
        for (int k = 0; k < c; k++)
            o[k] = fmax(a[k], b[k]);
        break;
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
        for (int k = 0; k < c; k++)
            o[k] = fmin(fmax(a[k], b[k]), cc[k]);
        break;
    case GLSLstd450FMix:
        for (int k = 0; k < c; k++)
            o[k] = a[k] * (1.0 - cc[k]) + b[k] * cc[k];
        break;
    case GLSLstd450Step: /* step(edge, x) */
        for (int k = 0; k < c; k++)
            o[k] = b[k] < a[k] ? 0.0 : 1.0;
        break;
    case GLSLstd450SmoothStep:
        for (int k = 0; k < c; k++) {
            double t = fmin(fmax((cc[k] - a[k]) / (b[k] - a[k]), 0.0), 1.0);
            o[k] = t * t * (3.0 - 2.0 * t);
        }
        break;
    case GLSLstd450Fma:
        for (int k = 0; k < c; k++)
            o[k] = fma(a[k], b[k], cc[k]);
        break;
    case GLSLstd450Length:
        o[0] = sqrt(dot_n(a, a, c));
        break;
    case GLSLstd450Distance: {
        double dd[MAXC];
        for (int k = 0; k < c; k++)
            dd[k] = a[k] - b[k];
        o[0] = sqrt(dot_n(dd, dd, c));
        break;
    }
    case GLSLstd450Normalize: {
        double inv = 1.0 / sqrt(dot_n(a, a, c));
        for (int k = 0; k < c; k++)
            o[k] = a[k] * inv;
        break;
    }
    case GLSLstd450Cross:
        o[0] = a[1] * b[2] - b[1] * a[2];
        o[1] = a[2] * b[0] - b[2] * a[0];
        o[2] = a[0] * b[1] - b[0] * a[1];
        break;
    case GLSLstd450FaceForward: { /* N, I, Nref: dot(Nref, I) < 0 ? N : -N */
        double dt = dot_n(cc, b, c);
        for (int k = 0; k < c; k++)
            o[k] = dt < 0.0 ? a[k] : -a[k];
        break;
    }
    case GLSLstd450Reflect: { /* I - 2 dot(N, I) N */
        double dt = dot_n(b, a, c);
        for (int k = 0; k < c; k++)
            o[k] = a[k] - 2.0 * dt * b[k];
        break;
    }
    case GLSLstd450Refract: {
        double eta;
        if (in->x >> 31) { /* float eta */
            float f;
            memcpy(&f, &R[in->c][l], sizeof f);
            eta = f;
        } else {
            eta = cc[0];
        }
        double dt = dot_n(b, a, c);
        double kk = 1.0 - eta * eta * (1.0 - dt * dt);
        for (int k = 0; k < c; k++)
            o[k] = kk < 0.0 ? 0.0 : eta * a[k] - (eta * dt + sqrt(kk)) * b[k];
        break;
    }
    case GLSLstd450Determinant:
        o[0] = det_n(a, dim_of(c));
        break;
    case GLSLstd450MatrixInverse:
        inverse_n(a, o, dim_of(c));
        break;
    default:
        gm_exec_error((gm_warp *)w, "GLSL.std.450 instruction %d on doubles is not supported",
                      op);
        memset(o, 0, sizeof o);
        break;
    }
    scatter(out, on, l, o);
}

void gm_exec_f64(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    const gm_lanes *R = w->R;
    const gm_lanes *A = &R[in->a], *B = &R[in->b], *C = &R[in->c];
    const int n = in->n, c2 = n / 2;
    const int rows = (int)(in->x & 0xff), mid = (int)((in->x >> 8) & 0xff),
              cols3 = (int)((in->x >> 16) & 0xff);
    for (int l = 0; l < GM_LANES; l++) {
        double a[MAXC], b[MAXC], o[MAXC];
        switch (in->op) {
        case GM_OP_DADD: case GM_OP_DSUB: case GM_OP_DMUL: case GM_OP_DDIV:
        case GM_OP_DMOD: case GM_OP_DREM: case GM_OP_DNEG:
            for (int k = 0; k < c2; k++) {
                double x = ld(A, k, l), y = in->op == GM_OP_DNEG ? 0.0 : ld(B, k, l), r;
                switch (in->op) {
                case GM_OP_DADD: r = x + y; break;
                case GM_OP_DSUB: r = x - y; break;
                case GM_OP_DMUL: r = x * y; break;
                case GM_OP_DDIV: r = x / y; break;
                case GM_OP_DMOD: r = x - y * floor(x / y); break;
                case GM_OP_DREM: r = fmod(x, y); break;
                default: r = -x; break;
                }
                st(out, k, l, r);
            }
            break;
        case GM_OP_DCMP:
            for (int k = 0; k < n; k++)
                out[k][l] = dcmp((int)in->x, ld(A, k, l), ld(B, k, l));
            break;
        case GM_OP_DISNAN:
            for (int k = 0; k < n; k++)
                out[k][l] = isnan(ld(A, k, l)) ? 1 : 0;
            break;
        case GM_OP_DISINF:
            for (int k = 0; k < n; k++)
                out[k][l] = isinf(ld(A, k, l)) ? 1 : 0;
            break;
        case GM_OP_F2D:
            for (int k = 0; k < c2; k++) {
                float f;
                memcpy(&f, &A[k][l], sizeof f);
                st(out, k, l, (double)f);
            }
            break;
        case GM_OP_S2D:
            for (int k = 0; k < c2; k++)
                st(out, k, l, (double)(int32_t)A[k][l]);
            break;
        case GM_OP_U2D:
            for (int k = 0; k < c2; k++)
                st(out, k, l, (double)A[k][l]);
            break;
        case GM_OP_D2F:
            for (int k = 0; k < n; k++) {
                float f = (float)ld(A, k, l); /* round to nearest even, as llvmpipe's fptrunc */
                memcpy(&out[k][l], &f, sizeof f);
            }
            break;
        case GM_OP_D2S:
            for (int k = 0; k < n; k++)
                out[k][l] = (uint32_t)d2s(ld(A, k, l));
            break;
        case GM_OP_D2U:
            for (int k = 0; k < n; k++)
                out[k][l] = d2u(ld(A, k, l));
            break;
        case GM_OP_DVEC_TIMES_SCALAR: {
            double s = ld(B, 0, l);
            for (int k = 0; k < c2; k++)
                st(out, k, l, ld(A, k, l) * s);
            break;
        }
        case GM_OP_DDOT:
            gather(A, (int)in->x, l, a);
            gather(B, (int)in->x, l, b);
            st(out, 0, l, dot_n(a, b, (int)in->x));
            break;
        case GM_OP_DMAT_TIMES_VEC: /* a: rows x mid matrix, b: mid vector */
            gather(B, mid, l, b);
            for (int r = 0; r < rows; r++) {
                double s = ld(A, r, l) * b[0];
                for (int k = 1; k < mid; k++)
                    s += ld(A, k * rows + r, l) * b[k];
                o[r] = s;
            }
            scatter(out, rows, l, o);
            break;
        case GM_OP_DVEC_TIMES_MAT: /* a: rows vector, b: rows x mid matrix */
            gather(A, rows, l, a);
            for (int k = 0; k < mid; k++) {
                double s = a[0] * ld(B, k * rows, l);
                for (int r = 1; r < rows; r++)
                    s += a[r] * ld(B, k * rows + r, l);
                o[k] = s;
            }
            scatter(out, mid, l, o);
            break;
        case GM_OP_DMAT_TIMES_MAT: /* rows x mid times mid x cols3 */
            gather(A, rows * mid, l, a);
            gather(B, mid * cols3, l, b);
            for (int cc = 0; cc < cols3; cc++)
                for (int r = 0; r < rows; r++) {
                    double s = a[r] * b[cc * mid];
                    for (int t = 1; t < mid; t++)
                        s += a[t * rows + r] * b[cc * mid + t];
                    o[cc * rows + r] = s;
                }
            scatter(out, rows * cols3, l, o);
            break;
        case GM_OP_DOUTER:
            gather(A, rows, l, a);
            gather(B, mid, l, b);
            for (int cc = 0; cc < mid; cc++)
                for (int r = 0; r < rows; r++)
                    o[cc * rows + r] = a[r] * b[cc];
            scatter(out, rows * mid, l, o);
            break;
        case GM_OP_DTRANSPOSE:
            gather(A, rows * mid, l, a);
            for (int cc = 0; cc < mid; cc++)
                for (int r = 0; r < rows; r++)
                    o[r * mid + cc] = a[cc * rows + r];
            scatter(out, rows * mid, l, o);
            break;
        case GM_OP_DSELECT:
            for (int k = 0; k < c2; k++) {
                uint32_t cond = in->x ? A[0][l] : A[k][l];
                const gm_lanes *s = cond ? B : C;
                out[2 * k][l] = s[2 * k][l];
                out[2 * k + 1][l] = s[2 * k + 1][l];
            }
            break;
        case GM_OP_DEXTRACT_DYN: {
            uint32_t size = in->x, k = (int32_t)B[0][l] < 0 ? 0 : B[0][l] < size ? B[0][l] : size - 1;
            out[0][l] = A[2 * k][l];
            out[1][l] = A[2 * k + 1][l];
            break;
        }
        case GM_OP_DINSERT_DYN:
            for (int k = 0; k < c2; k++) {
                int hit = C[0][l] == (uint32_t)k;
                out[2 * k][l] = hit ? B[0][l] : A[2 * k][l];
                out[2 * k + 1][l] = hit ? B[1][l] : A[2 * k + 1][l];
            }
            break;
        case GM_OP_DEXT:
            ext_lane(w, in, out, l);
            break;
        default:
            gm_exec_error(w, "internal error: IR op %d in the 64-bit path", in->op);
            return;
        }
    }
}
