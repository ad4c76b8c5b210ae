/* Resource instructions: texture sampling and queries, image load/store, UBO/SSBO
 * loads, stores and atomics. They reach the pipeline through gm_env (see
 * gm_sampler_iface.h); lanes are grouped by texture unit so one callback serves every
 * lane that uses the same unit. Compiled with -fno-strict-aliasing. */
#include "gm_exec.h"

#include <math.h>
#include <spirv/unified1/spirv.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int tex_dims(gm_tex_dim dim)
{
    switch (dim) {
    case GM_DIM_1D: case GM_DIM_BUFFER: return 1;
    case GM_DIM_3D: case GM_DIM_CUBE: return 3;
    default: return 2;
    }
}

/* Coarse 2x2-quad derivative of one register word. */
static void quad_deriv(const float *v, float *dx, float *dy)
{
    for (int q = 0; q < GM_LANES; q += 4) {
        float x = v[q + 1] - v[q], y = v[q + 2] - v[q];
        for (int i = 0; i < 4; i++) {
            dx[q + i] = x;
            dy[q + i] = y;
        }
    }
}

/* Writes `n` result words for the lanes in m: whole words when every lane is in m (one
 * texture unit for the warp, the usual case), else lane by lane. */
static void write_result(gm_warp *w, int dst, int n, const gm_texel_out *res, gm_mask m)
{
    const gm_mask all = (gm_mask)(((uint64_t)1 << GM_LANES) - 1);
    for (int k = 0; k < n && k < 4; k++) {
        if (m == all) {
            memcpy(w->R[dst + k], res->u[k], sizeof w->R[dst + k]);
            continue;
        }
#if defined(__SSE2__)
        /* four lanes at a time: the lanes' mask bits as all-ones words, then a blend */
        const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
        for (int q = 0; q < GM_LANES; q += 4) {
            __m128i sel = _mm_and_si128(_mm_set1_epi32((int)(m >> q)), bit);
            sel = _mm_cmpeq_epi32(sel, bit);
            __m128i *r = (__m128i *)&w->R[dst + k][q];
            __m128i v = _mm_loadu_si128((const __m128i *)&res->u[k][q]);
            _mm_storeu_si128(r, _mm_or_si128(_mm_and_si128(sel, v),
                                             _mm_andnot_si128(sel, _mm_loadu_si128(r))));
        }
#else
        for (gm_mask b = m; b; b &= b - 1) {
            int l = __builtin_ctz(b);
            w->R[dst + k][l] = res->u[k][l];
        }
#endif
    }
}

/* The lanes whose texture unit is u (every lane; the caller masks). */
static gm_mask lanes_of_unit(const uint32_t *unit, uint32_t u)
{
#if defined(__SSE2__)
    gm_mask m = 0;
    const __m128i vu = _mm_set1_epi32((int)u);
    for (int q = 0; q < GM_LANES; q += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)&unit[q]), vu);
        m |= (gm_mask)_mm_movemask_ps(_mm_castsi128_ps(eq)) << q;
    }
    return m;
#else
    gm_mask m = 0;
    for (int l = 0; l < GM_LANES; l++)   /* branch-free: every lane, then the mask */
        m |= (gm_mask)(unit[l] == u) << l;
    return m;
#endif
}

static void default_texel(gm_texel_out *res, gm_tex_result_type rt)
{
    memset(res, 0, sizeof *res);
    for (int l = 0; l < GM_LANES; l++) {
        if (rt == GM_TEX_RESULT_FLOAT)
            res->f[3][l] = 1.0f;
        else
            res->u[3][l] = 1;
    }
}

void gm_exec_tex(gm_warp *w, const gm_inst *in)
{
    const gm_program *p = w->p;
    const gm_tex_desc *t = &p->tex[in->x];
    gm_lanes *R = w->R;
    gm_sample_request req;
    gm_texel_out res;
    memset(&req, 0, sizeof req);
    req.op = (gm_tex_op)t->kind;
    req.dim = t->dim;
    req.arrayed = t->arrayed;
    req.shadow = t->shadow;
    req.legacy_shadow = t->legacy_shadow;
    req.multisampled = t->ms;
    req.result_type = t->rtype;
    int dims = tex_dims(t->dim);
    int ncoord = dims + (t->arrayed ? 1 : 0);
    if (t->kind == GM_TEX_QUERY_LOD)
        ncoord = dims;
    req.coord_count = ncoord;

    /* Coordinates (projective divide here so the sampler never sees q). */
    if (t->coord_n > 0) {
        if (t->kind == GM_TEX_FETCH) {
            for (int k = 0; k < ncoord && k < t->coord_n && k < 4; k++)
                memcpy(req.coord.i[k], R[t->coord + k], sizeof req.coord.i[k]);
        } else {
            const float *q = t->proj ? (const float *)R[t->coord + t->coord_n - 1] : NULL;
            for (int k = 0; k < ncoord && k < t->coord_n && k < 4; k++) {
                const float *c = (const float *)R[t->coord + k];
                if (!q) {
                    memcpy(req.coord.f[k], c, sizeof req.coord.f[k]);
                    continue;
                }
                for (int l = 0; l < GM_LANES; l++)
                    req.coord.f[k][l] = c[l] / q[l];
            }
            if (t->dref >= 0) {
                const float *dr = (const float *)R[t->dref];
                for (int l = 0; l < GM_LANES; l++)
                    req.dref[l] = q ? dr[l] / q[l] : dr[l];
            }
        }
    }
    if (t->lod >= 0) {
        req.has_lod = 1;
        if (t->kind == GM_TEX_FETCH || t->kind == GM_TEX_QUERY_SIZE)
            for (int l = 0; l < GM_LANES; l++)
                req.lod[l] = (float)((const int32_t *)R[t->lod])[l];
        else
            memcpy(req.lod, R[t->lod], sizeof req.lod);
    }
    if (t->bias >= 0) {
        req.has_bias = 1;
        memcpy(req.bias, R[t->bias], sizeof req.bias);
    }
    if (t->min_lod >= 0) {
        req.has_min_lod = 1;
        memcpy(req.min_lod, R[t->min_lod], sizeof req.min_lod);
    }
    if (t->grad_x >= 0) {
        req.has_grad = 1;
        for (int k = 0; k < t->grad_n && k < 3; k++) {
            memcpy(req.ddx[k], R[t->grad_x + k], sizeof req.ddx[k]);
            memcpy(req.ddy[k], R[t->grad_y + k], sizeof req.ddy[k]);
        }
    } else if ((t->kind == GM_TEX_SAMPLE && !t->explicit_lod && t->lod < 0) ||
               t->kind == GM_TEX_QUERY_LOD || (t->kind == GM_TEX_GATHER && 0)) {
        if (p->stage == GM_STAGE_FRAGMENT) {
            req.has_grad = 1;
            for (int k = 0; k < dims && k < 3; k++)
                quad_deriv(req.coord.f[k], req.ddx[k], req.ddy[k]);
        } else {
            req.has_lod = 1; /* no derivatives outside fragment shaders: level 0 */
        }
    }
    if (t->offset >= 0) {
        req.has_offset = 1;
        for (int k = 0; k < dims && k < 3; k++)
            memcpy(req.offset[k], R[t->offset + k], sizeof req.offset[k]);
    }
    if (t->gather_offsets >= 0) {
        req.has_offset = 2;
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 2; k++)
                req.gather_offsets[i][k] = (int32_t)R[t->gather_offsets + i * 2 + k][0];
    }
    if (t->sample >= 0) {
        req.has_sample = 1;
        memcpy(req.sample, R[t->sample], sizeof req.sample);
    }
    if (t->component >= 0)
        req.component = (int)(R[t->component][0] & 3);

    /* One callback per texture unit in use by the active lanes. */
    const uint32_t *unit = R[t->handle];
    gm_mask todo = w->mask;
    while (todo) {
        int first = __builtin_ctz(todo);
        uint32_t u = unit[first];
        gm_mask m = lanes_of_unit(unit, u) & todo;
        todo &= ~m;
        req.unit = u;
        req.mask = m;
        default_texel(&res, t->rtype);
        if (t->kind != GM_TEX_SAMPLE && t->kind != GM_TEX_FETCH && t->kind != GM_TEX_GATHER)
            memset(&res, 0, sizeof res);
        if (w->env.sample)
            w->env.sample(w->env.ctx, &req, &res);
        write_result(w, (int)in->d, t->result_n, &res, m);
    }
}

void gm_exec_image(gm_warp *w, const gm_inst *in)
{
    const gm_program *p = w->p;
    const gm_tex_desc *t = &p->tex[in->x];
    gm_lanes *R = w->R;
    gm_image_request req;
    gm_texel_out res;
    memset(&req, 0, sizeof req);
    req.op = (gm_image_op)t->image_op;
    req.dim = t->dim;
    req.arrayed = t->arrayed;
    req.result_type = t->rtype;
    for (int k = 0; k < t->coord_n && k < 3; k++)
        memcpy(req.coord[k], R[t->coord + k], sizeof req.coord[k]);
    if (t->sample >= 0)
        memcpy(req.sample, R[t->sample], sizeof req.sample);
    if (t->data >= 0)
        for (int k = 0; k < t->data_n && k < 4; k++)
            memcpy(req.data.u[k], R[t->data + k], sizeof req.data.u[k]);
    if (t->data2 >= 0) /* compare-exchange: the comparator in component 1 */
        memcpy(req.data.u[1], R[t->data2], sizeof req.data.u[1]);
    req.signed_atomic = t->rtype == GM_TEX_RESULT_INT;
    gm_mask todo = w->mask;
    if (req.op != GM_IMG_LOAD && req.op != GM_IMG_SIZE) /* stores, atomics: no helpers */
        todo &= ~w->helper;
    const uint32_t *unit = R[t->handle];
    while (todo) {
        int first = __builtin_ctz(todo);
        uint32_t u = unit[first];
        gm_mask m = 0;
        for (int l = 0; l < GM_LANES; l++)
            if (((todo >> l) & 1) && unit[l] == u)
                m |= 1u << l;
        todo &= ~m;
        req.unit = u;
        req.mask = m;
        memset(&res, 0, sizeof res);
        if (w->env.image)
            w->env.image(w->env.ctx, &req, &res);
        if (req.op != GM_IMG_STORE)
            write_result(w, (int)in->d, t->result_n, &res, m);
    }
}

static uint8_t *buffer_base(gm_warp *w, uint32_t x, size_t *size)
{
    *size = 0;
    if (!w->env.buffer)
        return NULL;
    uint8_t *b = w->env.buffer(w->env.ctx, (gm_buffer_kind)(x & 3), x >> 2, size);
    if (!b)
        *size = 0;
    return b;
}

void gm_exec_buf_load(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    if (in->x & GM_BUF_ARRAYED) {   /* arrays of blocks: gm_exec_bufarr.c */
        gm_exec_buf_load_arrayed(w, in, out);
        return;
    }
    size_t size;
    const uint8_t *base = buffer_base(w, in->x, &size);
    const uint32_t *addr = w->R[in->a];
    const uint32_t *offs = w->p->aux + in->b;
    for (int k = 0; k < in->n; k++)
        for (int l = 0; l < GM_LANES; l++) {
            uint64_t off = (uint64_t)addr[l] + offs[k];
            uint32_t v = 0;
            if (base && off + 4 <= size)
                memcpy(&v, base + off, 4);
            out[k][l] = v;
        }
}

void gm_exec_buf_store(gm_warp *w, const gm_inst *in)
{
    if (in->x & GM_BUF_ARRAYED) {   /* arrays of blocks: gm_exec_bufarr.c */
        gm_exec_buf_store_arrayed(w, in);
        return;
    }
    size_t size;
    uint8_t *base = buffer_base(w, in->x, &size);
    if (!base)
        return;
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    const uint32_t *offs = w->p->aux + in->b;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        for (int k = 0; k < in->n; k++) {
            uint64_t off = (uint64_t)addr[l] + offs[k];
            if (off + 4 <= size)
                memcpy(base + off, &w->R[in->c + k][l], 4);
        }
    }
}

/* Float atomics (GL_NV_shader_atomic_float, GL_INTEL_shader_atomic_float_minmax): llvmpipe
 * emits LLVM's atomicrmw fadd/fmin/fmax, whose min and max are minnum/maxnum (a NaN operand
 * gives the other one), as C's fminf/fmaxf. */
static uint32_t atomic_float(uint32_t op, uint32_t old, uint32_t v)
{
    float fo, fv, r;
    memcpy(&fo, &old, 4);
    memcpy(&fv, &v, 4);
    r = op == SpvOpAtomicFAddEXT ? fo + fv : op == SpvOpAtomicFMinEXT ? fminf(fo, fv) : fmaxf(fo, fv);
    uint32_t bits;
    memcpy(&bits, &r, 4);
    return bits;
}

/* The new value of an atomic read-modify-write (SPIR-V opcode op) on old. */
static uint32_t atomic_apply(uint32_t op, uint32_t old, uint32_t v, uint32_t cmp)
{
    int32_t so = (int32_t)old, sv = (int32_t)v;
    switch (op) {
    case SpvOpAtomicExchange: return v;
    case SpvOpAtomicCompareExchange: return old == cmp ? v : old;
    case SpvOpAtomicIIncrement: return old + 1;
    case SpvOpAtomicIDecrement: return old - 1;
    case SpvOpAtomicIAdd: return old + v;
    case SpvOpAtomicISub: return old - v;
    case SpvOpAtomicSMin: return (uint32_t)(sv < so ? sv : so);
    case SpvOpAtomicUMin: return v < old ? v : old;
    case SpvOpAtomicSMax: return (uint32_t)(sv > so ? sv : so);
    case SpvOpAtomicUMax: return v > old ? v : old;
    case SpvOpAtomicAnd: return old & v;
    case SpvOpAtomicOr: return old | v;
    case SpvOpAtomicXor: return old ^ v;
    case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT: case SpvOpAtomicFMaxEXT:
        return atomic_float(op, old, v);
    default: return old;
    }
}

void gm_exec_buf_atomic(gm_warp *w, const gm_inst *in)
{
    const uint32_t *aux = w->p->aux + in->x;
    uint32_t op = aux[0];
    if (aux[1] & GM_BUF_ARRAYED) {   /* arrays of blocks: gm_exec_bufarr.c */
        gm_exec_buf_atomic_arrayed(w, in, atomic_apply);
        return;
    }
    size_t size;
    uint8_t *base = buffer_base(w, (aux[1] << 2) | aux[2], &size);
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    /* Lanes in order: a deterministic serialization of the warp's atomics. */
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        uint64_t off = addr[l];
        uint32_t old = 0;
        if (base && off + 4 <= size) {
            memcpy(&old, base + off, 4);
            uint32_t nv = atomic_apply(op, old, w->R[in->b][l], w->R[in->c][l]);
            memcpy(base + off, &nv, 4);
        }
        w->R[in->d][l] = old;
    }
}

/* ---- workgroup shared memory (word addresses, bounds-checked like buffers) ---- */

void gm_exec_sh_load(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    const uint32_t *addr = w->R[in->a];
    const uint32_t *sh = w->shared;
    uint32_t limit = w->shared_count;
    for (int k = 0; k < in->n; k++)
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t a = addr[l] + (uint32_t)k;
            out[k][l] = sh && a < limit ? sh[a] : 0;
        }
}

void gm_exec_sh_store(gm_warp *w, const gm_inst *in)
{
    if (!w->shared)
        return;
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        for (int k = 0; k < in->n; k++) {
            uint32_t a = addr[l] + (uint32_t)k;
            if (a < w->shared_count)
                w->shared[a] = w->R[in->b + k][l];
        }
    }
}

void gm_exec_sh_atomic(gm_warp *w, const gm_inst *in)
{
    uint32_t op = w->p->aux[in->x];
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    /* Lanes in order, as for buffer atomics. */
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        uint32_t a = addr[l], old = 0;
        if (w->shared && a < w->shared_count) {
            old = w->shared[a];
            w->shared[a] = atomic_apply(op, old, w->R[in->b][l], w->R[in->c][l]);
        }
        w->R[in->d][l] = old;
    }
}
