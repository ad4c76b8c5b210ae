/* Programs of SPIR-V shaders (GL_ARB_gl_spirv): the modules the application gave with
 * glShaderBinary, specialized as glSpecializeShader asked (gpu_model/spirv/gm_spirv_spec.c),
 * go straight to the decoder instead of the GLSL front end. Such a program has no names to go
 * by (OpName is optional and GL ignores it): its uniforms are set by location, its blocks, samplers
 * and atomic counters are bound by their Binding decorations, and its stages meet by location;
 * gmf_program.c asks gmf_prog.spirv where the GLSL path would go by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "spirv/gm_spirv_spec.h"

bool gmf_spirv_program(const struct sm_program *sp)
{
    for (uint32_t i = 0; sp && i < sp->n_linked; i++)
        if (sp->linked[i].spirv)
            return true;
    return false;
}

static uint32_t exec_model_of(uint32_t gl_type, gm_stage *stage)
{
    switch (gl_type) {
    case GL_VERTEX_SHADER: *stage = GM_STAGE_VERTEX; return 0;
    case GL_TESS_CONTROL_SHADER: *stage = GM_STAGE_TESS_CONTROL; return 1;
    case GL_TESS_EVALUATION_SHADER: *stage = GM_STAGE_TESS_EVALUATION; return 2;
    case GL_GEOMETRY_SHADER: *stage = GM_STAGE_GEOMETRY; return 3;
    case GL_FRAGMENT_SHADER: *stage = GM_STAGE_FRAGMENT; return 4;
    default: *stage = GM_STAGE_COMPUTE; return 5;
    }
}

static int log_error(gm_compile_result *cr, const char *fmt, const char *a, const char *b)
{
    char buf[600];
    snprintf(buf, sizeof buf, fmt, a, b);
    free(cr->log);
    cr->log = strdup(buf);
    cr->ok = 0;
    return -1;
}

int gmf_spirv_compile(const struct sm_program *sp, bool compute, gm_compile_result *cr)
{
    gm_compile_result_free(cr);
    memset(cr, 0, sizeof *cr);
    for (uint32_t i = 0; i < sp->n_linked; i++) {
        const struct sm_linked_shader *ls = &sp->linked[i];
        gm_stage stage;
        uint32_t model = exec_model_of(ls->type, &stage);
        if ((stage == GM_STAGE_COMPUTE) != compute)
            continue;
        const char *what = stage == GM_STAGE_VERTEX ? "vertex" : stage == GM_STAGE_FRAGMENT ? "fragment"
                           : stage == GM_STAGE_GEOMETRY ? "geometry"
                           : stage == GM_STAGE_TESS_CONTROL ? "tessellation control"
                           : stage == GM_STAGE_TESS_EVALUATION ? "tessellation evaluation" : "compute";
        /* GL links SPIR-V shaders only with SPIR-V shaders (GL 4.6 section 7.3). */
        if (!ls->spirv)
            return log_error(cr, "%s shader: GLSL source linked with SPIR-V shaders%s", what, "");
        if (!ls->spirv->entry)
            return log_error(cr, "%s shader: SPIR-V binary never specialized (glSpecializeShader)%s",
                             what, "");
        if (cr->shader_count >= GM_STAGE_COUNT)
            return log_error(cr, "%s shader: more SPIR-V shaders than stages%s", what, "");
        char err[256] = "";
        size_t words = 0;
        const struct sm_spirv *s = ls->spirv;
        uint32_t *w = gm_spirv_specialize(s->binary, s->size, s->entry, model, s->spec_ids,
                                          s->spec_values, s->n_spec, &words, err, sizeof err);
        if (!w)
            return log_error(cr, "%s shader: %s", what, err);
        gm_compiled_shader *cs = &cr->shaders[cr->shader_count++];
        cs->stage = stage;
        cs->spirv = w;
        cs->word_count = words;
    }
    cr->log = strdup("");
    cr->ok = cr->log != NULL;
    return cr->ok ? 0 : -1;
}

/* Sets, in one stage, the uniform element at `loc` from the state model's value. */
static void set_at(gm_program *gp, const struct sm_uniform *su, gmf_event *ev)
{
    for (int i = 0; gp && i < gm_program_uniform_count(gp); i++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, i);
        if (ui->location < 0 || su->location < ui->location ||
            su->location >= ui->location + ui->array_size)
            continue;
        int e = su->location - ui->location;
        if (ui->is_opaque) {
            int32_t unit;
            memcpy(&unit, su->data, 4);
            gm_program_set_uniform(gp, i, e, 1, &unit);
            return;
        }
        uint32_t words[32];
        if (!gmf_uniform_words(gp, ui->type, su, words, 32)) {
            gmf_note(ev, "uniform location %d: value of another shape", su->location);
            return;
        }
        gm_program_set_uniform(gp, i, e, 1, words);
        return;
    }
}

void gmf_spirv_upload_uniforms(const struct sm_program *sp, gmf_prog *p, gmf_event *ev)
{
    gm_program *st[] = { p->vs, p->fs, p->gs, p->tcs, p->tes, p->cs };
    /* A location no stage declares is a GL error: the value goes nowhere in the driver either. */
    for (uint32_t i = 0; sp && i < sp->n_uniforms; i++)
        for (size_t s = 0; s < sizeof st / sizeof *st; s++)
            set_at(st[s], &sp->uniforms[i], ev);
}

/* ---- transform feedback (GL 4.6 section 11.1.2.1; SPIR-V's Xfb execution mode) ----
 * A SPIR-V program names no varyings: each Output variable decorated with XfbBuffer is captured
 * at its Offset (or, for a block, each member with an Offset), into a buffer whose vertex stride
 * is its XfbStride. The model's types are indexed by SPIR-V id, so the decorations read here
 * from the module apply to the types gm_type_get describes. */

typedef struct xfb_deco {
    uint32_t bound;
    int32_t *offset, *buffer, *stride, *location;   /* per id; -1 when absent */
    int32_t **member_offset;                        /* per struct id: per member; NULL */
    uint32_t *n_members;
    uint8_t *output;                                /* Output variables */
    uint32_t *pointee;                              /* per pointer type id: its pointee */
    uint32_t *var_type;                             /* per variable id: its pointer type */
    uint32_t *outs, n_outs;                         /* Output variables in module order */
} xfb_deco;

static void xfb_deco_free(xfb_deco *x)
{
    for (uint32_t i = 0; x->member_offset && i < x->bound; i++)
        free(x->member_offset[i]);
    free(x->member_offset);
    free(x->n_members);
    free(x->offset);
    free(x->buffer);
    free(x->stride);
    free(x->location);
    free(x->output);
    free(x->pointee);
    free(x->var_type);
    free(x->outs);
}

static int xfb_deco_read(xfb_deco *x, const uint32_t *w, size_t wc)
{
    memset(x, 0, sizeof *x);
    if (!w || wc < 5 || w[3] == 0 || w[3] > (1u << 22))
        return -1;
    uint32_t b = x->bound = w[3];
    x->offset = malloc(b * sizeof *x->offset);
    x->buffer = malloc(b * sizeof *x->buffer);
    x->stride = malloc(b * sizeof *x->stride);
    x->location = malloc(b * sizeof *x->location);
    x->member_offset = calloc(b, sizeof *x->member_offset);
    x->n_members = calloc(b, sizeof *x->n_members);
    x->output = calloc(b, 1);
    x->pointee = calloc(b, sizeof *x->pointee);
    x->var_type = calloc(b, sizeof *x->var_type);
    x->outs = calloc(b, sizeof *x->outs);
    if (!x->offset || !x->buffer || !x->stride || !x->location || !x->member_offset ||
        !x->n_members || !x->output || !x->pointee || !x->var_type || !x->outs)
        return -1;
    for (uint32_t i = 0; i < b; i++)
        x->offset[i] = x->buffer[i] = x->stride[i] = x->location[i] = -1;
    for (size_t i = 5; i < wc;) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        if (len == 0 || len > wc - i)
            return -1;   /* the decoder accepted the module: cannot happen */
        if (op == 71 /* OpDecorate */ && len >= 4 && w[i + 1] < b) {
            int32_t v = (int32_t)w[i + 3];
            switch (w[i + 2]) {
            case 35: x->offset[w[i + 1]] = v; break;      /* Offset */
            case 36: x->buffer[w[i + 1]] = v; break;      /* XfbBuffer */
            case 37: x->stride[w[i + 1]] = v; break;      /* XfbStride */
            case 30: x->location[w[i + 1]] = v; break;    /* Location */
            default: break;
            }
        } else if (op == 72 /* OpMemberDecorate */ && len >= 5 && w[i + 1] < b &&
                   w[i + 3] == 35 && w[i + 2] < 4096) {
            uint32_t id = w[i + 1], m = w[i + 2];
            if (m >= x->n_members[id]) {
                int32_t *n = realloc(x->member_offset[id], (m + 1) * sizeof *n);
                if (!n)
                    return -1;
                for (uint32_t k = x->n_members[id]; k <= m; k++)
                    n[k] = -1;
                x->member_offset[id] = n;
                x->n_members[id] = m + 1;
            }
            x->member_offset[id][m] = (int32_t)w[i + 4];
        } else if (op == 59 /* OpVariable */ && len >= 4 && w[i + 2] < b && w[i + 3] == 3 /* Output */) {
            x->output[w[i + 2]] = 1;
            x->var_type[w[i + 2]] = w[i + 1];
            if (x->n_outs < b)   /* ids are unique in a valid module; never past the table */
                x->outs[x->n_outs++] = w[i + 2];
        } else if (op == 32 /* OpTypePointer */ && len >= 4 && w[i + 1] < b) {
            x->pointee[w[i + 1]] = w[i + 3];
        }
        i += len;
    }
    return 0;
}

static int32_t member_offset(const xfb_deco *x, int type, int m)
{
    return type >= 0 && (uint32_t)type < x->bound && (uint32_t)m < x->n_members[type]
               ? x->member_offset[type][m] : -1;
}

static int64_t xfb_size(const gm_program *vs, const xfb_deco *x, int type);

/* Whether a value of `type` holds 64-bit components (aligned to 8 bytes when captured). */
static bool has_64(const gm_program *vs, int type)
{
    gm_type_desc t;
    if (gm_type_get(vs, type, &t) != 0)
        return false;
    if (t.kind == GM_TYPE_ARRAY)
        return has_64(vs, t.element);
    if (t.kind == GM_TYPE_STRUCT) {
        for (int m = 0; m < t.length; m++) {
            int mt, off;
            if (gm_type_member(vs, type, m, &mt, NULL, &off) == 0 && has_64(vs, mt))
                return true;
        }
        return false;
    }
    return t.width == 64;
}

/* Byte offset of member m of struct `type` in a capture: its Offset decoration; in a struct
 * captured as a whole (an output of struct type, GLSL 4.50 section 4.4.2.1) a member without
 * one comes right after the previous member (end), aligned to 8 when it holds doubles; in a
 * block (whole false) a member without one is not captured: -1. */
static int64_t member_at(const gm_program *vs, const xfb_deco *x, int type, int m, int64_t end,
                         bool whole)
{
    int32_t mo = member_offset(x, type, m);
    if (mo >= 0 || !whole)
        return mo;
    int mt, off;
    if (gm_type_member(vs, type, m, &mt, NULL, &off) != 0)
        return -1;
    return has_64(vs, mt) ? (end + 7) & ~(int64_t)7 : end;
}

/* Bytes a value of `type` takes in a capture buffer (struct: its last captured member's end). */
static int64_t xfb_size(const gm_program *vs, const xfb_deco *x, int type)
{
    gm_type_desc t;
    if (gm_type_get(vs, type, &t) != 0)
        return 0;
    if (t.kind == GM_TYPE_ARRAY)
        return (int64_t)t.length * xfb_size(vs, x, t.element);
    if (t.kind != GM_TYPE_STRUCT)
        return 4 * (int64_t)t.components;
    int64_t end = 0;
    for (int m = 0; m < t.length; m++) {
        int mt, off;
        if (gm_type_member(vs, type, m, &mt, NULL, &off) != 0)
            continue;
        int64_t mo = member_at(vs, x, type, m, end, true);
        if (mo >= 0 && mo + xfb_size(vs, x, mt) > end)
            end = mo + xfb_size(vs, x, mt);
    }
    return end;
}

/* Adds the outputs of a value of `type` at model word `word` of var, captured at byte `at`. */
static int xfb_flatten(gmf_draw_ctx *d, const xfb_deco *x, int var, int type, int word, int64_t at,
                       int buffer, bool members_only, gmf_xfb_out *outs, int *n)
{
    const gm_program *vs = d->p->vs;
    gm_type_desc t;
    if (gm_type_get(vs, type, &t) != 0)
        return -1;
    if (t.kind == GM_TYPE_STRUCT) {
        int64_t end = 0;
        for (int m = 0; m < t.length; m++) {
            int mt, off;
            if (gm_type_member(vs, type, m, &mt, NULL, &off) != 0)
                continue;
            int64_t mo = member_at(vs, x, type, m, end, !members_only);
            if (mo < 0)
                continue;   /* a block member without an Offset is not captured */
            end = mo + xfb_size(vs, x, mt);
            if (xfb_flatten(d, x, var, mt, word + off, at + mo, buffer, false, outs, n))
                return -1;
        }
        return 0;
    }
    if (members_only && t.kind == GM_TYPE_ARRAY) {
        /* an array of blocks: element i goes to buffer xfb_buffer + i (GLSL 4.50 section
         * 4.4.2.1), each at its members' offsets */
        gm_type_desc e;
        if (gm_type_get(vs, t.element, &e) != 0)
            return -1;
        for (int i = 0; i < t.length; i++) {
            if (buffer + i >= SM_MAX_TFB_BUFFERS) {
                gmf_note(d->ev, "transform feedback: XfbBuffer %d past the limit", buffer + i);
                return -1;
            }
            if (xfb_flatten(d, x, var, t.element, word + i * e.components, at, buffer + i, true,
                            outs, n))
                return -1;
        }
        return 0;
    }
    if (members_only)
        return 0;
    if (t.kind == GM_TYPE_ARRAY) {
        gm_type_desc e;
        if (gm_type_get(vs, t.element, &e) != 0)
            return -1;
        int64_t es = xfb_size(vs, x, t.element);
        for (int i = 0; i < t.length; i++)
            if (xfb_flatten(d, x, var, t.element, word + i * e.components, at + i * es, buffer, false,
                            outs, n))
                return -1;
        return 0;
    }
    if (*n >= GMF_XFB_MAX_OUTS) {
        gmf_note(d->ev, "transform feedback: too many buffers or varyings");
        return -1;
    }
    outs[(*n)++] = (gmf_xfb_out){ buffer, var, word, t.components, (uint64_t)at };
    return 0;
}

int gmf_spirv_xfb_layout(gmf_draw_ctx *d, gmf_xfb_out *outs, int *n_outs, uint64_t *stride)
{
    const gm_program *vs = d->p->vs;
    const gm_compiled_shader *cs = NULL;
    for (int i = 0; i < d->p->cr.shader_count; i++)
        if (d->p->cr.shaders[i].stage == GM_STAGE_VERTEX)
            cs = &d->p->cr.shaders[i];
    *n_outs = 0;
    memset(stride, 0, sizeof(uint64_t) * SM_MAX_TFB_BUFFERS);
    xfb_deco x;
    if (!cs || xfb_deco_read(&x, cs->spirv, cs->word_count) != 0) {
        xfb_deco_free(&x);
        gmf_note(d->ev, "transform feedback: the vertex module's decorations could not be read");
        return -1;
    }
    int rc = 0;
    for (uint32_t k = 0; k < x.n_outs && rc == 0; k++) {
        uint32_t id = x.outs[k];
        if (x.buffer[id] < 0)
            continue;
        if (x.buffer[id] >= SM_MAX_TFB_BUFFERS) {
            gmf_note(d->ev, "transform feedback: XfbBuffer %d past the limit", x.buffer[id]);
            rc = -1;
            break;
        }
        /* The model's variable: its outputs are the module's Output variables in module order
         * (gm_decode.c); the type (a SPIR-V id in both) and the Location must agree. */
        int var = -1;
        uint32_t pt = x.var_type[id] < x.bound ? x.pointee[x.var_type[id]] : 0;
        if (k < (uint32_t)gm_program_output_count(vs)) {
            const gm_var_info *vi = gm_program_var(vs, gm_program_output_var(vs, (int)k));
            if ((uint32_t)vi->type == pt && (x.location[id] < 0 || vi->location == x.location[id]))
                var = gm_program_output_var(vs, (int)k);
        }
        if (var < 0) {
            if (x.offset[id] >= 0) {
                gmf_note(d->ev, "transform feedback: captured output without a Location");
                rc = -1;
            }
            continue;
        }
        int type = gm_program_var(vs, var)->type;
        gm_type_desc vt;
        int nbuf = x.offset[id] < 0 && gm_type_get(vs, type, &vt) == 0 && vt.kind == GM_TYPE_ARRAY
                       ? vt.length : 1;   /* an array of blocks: one buffer per element */
        for (int b = 0; x.stride[id] > 0 && b < nbuf && x.buffer[id] + b < SM_MAX_TFB_BUFFERS; b++)
            stride[x.buffer[id] + b] = (uint64_t)x.stride[id];
        rc = xfb_flatten(d, &x, var, type, 0, x.offset[id] >= 0 ? x.offset[id] : 0, x.buffer[id],
                         x.offset[id] < 0, outs, n_outs);
    }
    xfb_deco_free(&x);
    return rc;
}
