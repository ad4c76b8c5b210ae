/* Transform feedback in the model (see DESIGN.md, "Transform feedback"): while a transform
 * feedback object is active and not paused, each draw's vertex shader outputs named by the
 * program's transform-feedback varyings are written into the bound buffers (the state model's
 * contents, as SSBO writes are), primitive by primitive in GL's order: strips and fans
 * decomposed as llvmpipe's stream-output stage does (provoking vertex kept), interleaved or one
 * buffer per varying, gl_NextBuffer and gl_SkipComponents1..4 honoured, a primitive that does not
 * fit in every buffer ending the writes. The vertex shader runs again for this on the runner's
 * executor warp with no observer (the pipeline's run of the draw is the one observers see).
 * Geometry shaders, primitive restart and varyings given as array elements or struct members are
 * reported, not captured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

typedef struct gmf_xfb_obj {
    uint32_t ctx_id, name;
    uint64_t written[SM_MAX_TFB_BUFFERS];   /* bytes written since glBeginTransformFeedback */
    bool overflow;
    uint64_t vertices;        /* vertices written (glDrawTransformFeedback) */
} gmf_xfb_obj;

struct gmf_xfb {
    gmf_xfb_obj *o;
    int n;
};

void gmf_xfb_free(gmf_runner *r)
{
    if (r->xfb)
        free(r->xfb->o);
    free(r->xfb);
    r->xfb = NULL;
}

static gmf_xfb_obj *obj(gmf_runner *r, uint32_t ctx_id, uint32_t name)
{
    if (!r->xfb && !(r->xfb = calloc(1, sizeof *r->xfb)))
        return NULL;
    for (int i = 0; i < r->xfb->n; i++)
        if (r->xfb->o[i].ctx_id == ctx_id && r->xfb->o[i].name == name)
            return &r->xfb->o[i];
    gmf_xfb_obj *n = realloc(r->xfb->o, (size_t)(r->xfb->n + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->xfb->o = n;
    gmf_xfb_obj *o = &n[r->xfb->n++];
    memset(o, 0, sizeof *o);
    o->ctx_id = ctx_id;
    o->name = name;
    return o;
}

bool gmf_xfb_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    (void)ev;
    if (k != GLR_CMD_glBeginTransformFeedback)
        return false;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return true;
    gmf_xfb_obj *o = obj(r, call->ctx_id, sm_context_state(c)->tfo);
    if (o) {
        memset(o->written, 0, sizeof o->written);
        o->overflow = false;
        o->vertices = 0;
    }
    return true;
}

typedef gmf_xfb_out xfb_out;
#define XFB_MAX_OUTS GMF_XFB_MAX_OUTS

/* The capture layout of the program's varyings; 0, or -1 with a note. */
static int layout(gmf_draw_ctx *d, const struct sm_program *sp, xfb_out *outs, int *n_outs,
                  uint64_t stride[SM_MAX_TFB_BUFFERS])
{
    const gm_program *vs = d->p->vs;
    bool separate = sp->tf_buffer_mode == GL_SEPARATE_ATTRIBS;
    int buf = 0;
    *n_outs = 0;
    memset(stride, 0, sizeof(uint64_t) * SM_MAX_TFB_BUFFERS);
    for (uint32_t i = 0; i < sp->n_tf_varyings; i++) {
        const char *name = sp->tf_varyings[i];
        if (separate)
            buf = (int)i;
        if (!strcmp(name, "gl_NextBuffer")) {
            buf++;
            continue;
        }
        if (buf >= SM_MAX_TFB_BUFFERS || *n_outs >= XFB_MAX_OUTS) {
            gmf_note(d->ev, "transform feedback: too many buffers or varyings");
            return -1;
        }
        xfb_out *o = &outs[(*n_outs)++];
        o->buffer = buf;
        o->offset = stride[buf];
        if (!strncmp(name, "gl_SkipComponents", 17)) {
            o->var = -1;
            o->n = atoi(name + 17);
        } else if (!strcmp(name, "gl_Position")) {
            o->var = d->p->pos_var;
            o->word = d->p->pos_off;
            o->n = 4;
        } else if (!strcmp(name, "gl_PointSize")) {
            o->var = d->p->psize_var;
            o->word = d->p->psize_off;
            o->n = 1;
        } else {
            o->var = gm_program_find_var(vs, name, GM_VAR_OUTPUT);
            if (o->var < 0 && !strncmp(name, "gl_", 3) && strlen(name) < 60) {
                /* compatibility outputs (gl_FrontColor, gl_BackColor, gl_FogFragCoord, ...) are
                 * the upgrade pass's glr_ ones in the vertex stage (frontend/gm_upgrade_tables.c) */
                char up[64];
                snprintf(up, sizeof up, "glr_%s", name + 3);
                o->var = gm_program_find_var(vs, up, GM_VAR_OUTPUT);
            }
            o->word = 0;
            gm_type_desc td;
            o->n = o->var >= 0 && gm_type_get(vs, gm_program_var(vs, o->var)->type, &td) == 0
                       ? td.components : 0;
        }
        if ((o->var < 0 && strncmp(name, "gl_SkipComponents", 17)) || o->n <= 0) {
            gmf_note(d->ev, "transform feedback varying %s not captured", name);
            return -1;
        }
        stride[buf] += 4u * (uint64_t)o->n;
    }
    return 0;
}

/* The draw's vertex (element) sequence of one instance in transform feedback order. */
static int64_t *sequence(const gm_pipe_draw *pd, uint32_t base, int *n)
{
    int count = pd->count;
    int64_t *elem = malloc((size_t)(count > 0 ? count : 1) * sizeof *elem);
    if (!elem)
        return NULL;
    for (int i = 0; i < count; i++) {
        if (!pd->indices) {
            elem[i] = (int64_t)pd->first + i;
            continue;
        }
        uint32_t v;
        if (pd->index_type == GL_UNSIGNED_BYTE)
            v = ((const uint8_t *)pd->indices)[i];
        else if (pd->index_type == GL_UNSIGNED_SHORT) {
            uint16_t s;
            memcpy(&s, (const uint8_t *)pd->indices + 2 * (size_t)i, 2);
            v = s;
        } else
            memcpy(&v, (const uint8_t *)pd->indices + 4 * (size_t)i, 4);
        elem[i] = (int64_t)v + pd->base_vertex;
    }
    int per = base == GL_POINTS ? 1 : base == GL_LINES ? 2 : 3;
    int max_prims = count + 1;
    int64_t *out = malloc((size_t)max_prims * (size_t)per * sizeof *out);
    if (!out) {
        free(elem);
        return NULL;
    }
    int k = 0;
#define PUT(a) (out[k++] = elem[(a)])
    switch (pd->mode) {
    case GL_POINTS:
        for (int i = 0; i < count; i++) PUT(i);
        break;
    case GL_LINES:
        for (int i = 0; i + 1 < count; i += 2) { PUT(i); PUT(i + 1); }
        break;
    case GL_LINE_STRIP: case GL_LINE_LOOP:
        for (int i = 0; i + 1 < count; i++) { PUT(i); PUT(i + 1); }
        if (pd->mode == GL_LINE_LOOP && count > 1) { PUT(count - 1); PUT(0); }
        break;
    case GL_TRIANGLES:
        for (int i = 0; i + 2 < count; i += 3) { PUT(i); PUT(i + 1); PUT(i + 2); }
        break;
    case GL_TRIANGLE_STRIP:
        /* the last vertex stays last (provoking vertex last, GL's default) */
        for (int i = 0; i + 2 < count; i++) { PUT(i + (i & 1)); PUT(i + 1 - (i & 1)); PUT(i + 2); }
        break;
    case GL_TRIANGLE_FAN:
        for (int i = 0; i + 2 < count; i++) { PUT(0); PUT(i + 1); PUT(i + 2); }
        break;
    default:
        break;
    }
#undef PUT
    free(elem);
    *n = k;
    return out;
}

static uint32_t base_mode(uint32_t mode)
{
    switch (mode) {
    case GL_POINTS: return GL_POINTS;
    case GL_LINES: case GL_LINE_STRIP: case GL_LINE_LOOP: return GL_LINES;
    case GL_TRIANGLES: case GL_TRIANGLE_STRIP: case GL_TRIANGLE_FAN: return GL_TRIANGLES;
    default: return ~0u;   /* not 0: that is GL_POINTS */
    }
}

void gmf_xfb_capture(gmf_draw_ctx *d, const gm_pipe_draw *pd)
{
    const struct sm_context_state *st = d->st;
    const struct sm_transform_feedback *tf = sm_get_transform_feedback(d->c, st->tfo);
    if (!tf || !tf->active || tf->paused)
        return;
    gmf_event *ev = d->ev;
    if (d->p->gs) {
        gmf_note(ev, "transform feedback of geometry shader outputs not modelled");
        return;
    }
    if (d->p->tes) {
        gmf_note(ev, "transform feedback of tessellation outputs not modelled");
        return;
    }
    uint32_t base = base_mode(pd->mode);
    if (base == ~0u || base != tf->primitive_mode) {
        gmf_note(ev, "transform feedback: draw mode 0x%04x does not match 0x%04x", pd->mode,
                 tf->primitive_mode);
        return;
    }
    if (pd->indices && sm_is_enabled(d->c, GL_PRIMITIVE_RESTART, 0)) {
        gmf_note(ev, "transform feedback with primitive restart not modelled");
        return;
    }
    const struct sm_program *sp = sm_get_program(d->c, d->p->name);
    if (!sp || (!sp->n_tf_varyings && !d->p->spirv)) {
        gmf_note(ev, "transform feedback: the program has no varyings to capture");
        return;
    }
    xfb_out outs[XFB_MAX_OUTS];
    int n_outs;
    uint64_t stride[SM_MAX_TFB_BUFFERS];
    /* SPIR-V modules give their layout by decorations (gmf_spirv.c) */
    if ((d->p->spirv ? gmf_spirv_xfb_layout(d, outs, &n_outs, stride)
                     : layout(d, sp, outs, &n_outs, stride)) != 0)
        return;
    gmf_xfb_obj *o = obj(d->r, sm_context_id(d->c), st->tfo);
    if (!o)
        return;
    /* destination ranges */
    uint8_t *dst[SM_MAX_TFB_BUFFERS] = { 0 };
    uint64_t room[SM_MAX_TFB_BUFFERS] = { 0 };
    for (int b = 0; b < SM_MAX_TFB_BUFFERS; b++) {
        if (!stride[b])
            continue;
        const struct sm_indexed_buffer *ib = &tf->buffers[b];
        const struct sm_buffer *buf = ib->buffer ? sm_get_buffer(d->c, ib->buffer) : NULL;
        if (!buf || !buf->data_known || !buf->data || ib->offset > buf->size) {
            gmf_note(ev, "transform feedback buffer %d: %s", b,
                     !buf ? "none bound" : "contents unknown");
            return;
        }
        uint64_t size = ib->size ? ib->size : buf->size - ib->offset;
        if (ib->offset + size > buf->size)
            size = buf->size - ib->offset;
        dst[b] = buf->data + ib->offset;
        room[b] = size;
    }
    int per = base == GL_POINTS ? 1 : base == GL_LINES ? 2 : 3;
    int n;
    int64_t *seq = sequence(pd, base, &n);
    if (!seq)
        return;
    gm_warp *w = d->p->vw;
    gm_warp_set_observer(w, NULL, NULL);
    uint64_t prims = 0;
    for (int inst = 0; inst < pd->instance_count && !o->overflow; inst++) {
        for (int v0 = 0; v0 < n && !o->overflow; v0 += GM_LANES - GM_LANES % per) {
            /* whole primitives per warp */
            int cnt = n - v0 < GM_LANES - GM_LANES % per ? n - v0 : GM_LANES - GM_LANES % per;
            int32_t ids[GM_LANES];
            for (int l = 0; l < cnt; l++)
                ids[l] = (int32_t)seq[v0 + l];
            gm_warp_begin(w, cnt >= 32 ? 0xffffffffu : ((1u << cnt) - 1u), 0);
            gmf_vs_inputs(d, w, ids, cnt, inst);
            gm_run_status s;
            while ((s = gm_warp_run(w, 0)) != GM_RUN_DONE && s != GM_RUN_ERROR)
                ;
            if (s == GM_RUN_ERROR) {
                gmf_note(ev, "transform feedback: vertex shader runtime error: %s",
                         gm_warp_error(w));
                free(seq);
                return;
            }
            for (int p0 = 0; p0 + per <= cnt; p0 += per) {
                bool fits = true;
                for (int b = 0; b < SM_MAX_TFB_BUFFERS; b++)
                    if (stride[b] && o->written[b] + stride[b] * (uint64_t)per > room[b])
                        fits = false;
                if (!fits) {
                    o->overflow = true;   /* GL writes no later primitive until the end */
                    break;
                }
                for (int l = p0; l < p0 + per; l++) {
                    for (int i = 0; i < n_outs; i++) {
                        const xfb_out *x = &outs[i];
                        uint8_t *p = dst[x->buffer] + o->written[x->buffer] + x->offset;
                        if (x->var < 0)
                            continue;   /* skipped components keep the buffer's contents */
                        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, x->var);
                        for (int k = 0; k < x->n && v; k++)
                            memcpy(p + 4 * (size_t)k, &v[x->word + k][l], 4);
                    }
                    for (int b = 0; b < SM_MAX_TFB_BUFFERS; b++)
                        o->written[b] += stride[b];
                }
                o->vertices += (uint64_t)per;
                prims++;
            }
        }
    }
    free(seq);
    gmf_queries_add_written(d->r, sm_context_id(d->c), prims);
}

bool gmf_xfb_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k,
                       struct glr_call *out, gmf_event *ev)
{
    const struct glr_cmd_info *ci = &glr_cmds[k];   /* classes and roles: registry/gl_annotations.txt */
    if (ci->gpu_copy != GLR_GPU_COPY_XFB_DRAW)
        return false;
    bool stream = glr_cmd_param_role(ci, GLR_ROLE_stream) >= 0;
    bool inst = glr_cmd_param_role(ci, GLR_ROLE_instancecount) >= 0;
    uint32_t id = (uint32_t)call->args[1];
    uint32_t s = stream ? (uint32_t)call->args[2] : 0;
    int64_t instances = inst ? (int64_t)(int32_t)call->args[stream ? 3 : 2] : 1;
    gmf_xfb_obj *o = obj(r, call->ctx_id, id);
    uint64_t count = o ? o->vertices : 0;
    if (s != 0) {
        gmf_note(ev, "%s: vertex stream %u not modelled (nothing drawn)", glr_cmd_name(k), s);
        count = 0;
    }
    /* the same draw as glDrawArraysInstanced(mode, 0, vertices captured, instances) */
    memset(out, 0, sizeof *out);
    out->cmd = GLR_CMD_glDrawArraysInstanced;
    out->ctx_id = call->ctx_id;
    out->thread_id = call->thread_id;
    out->seq = call->seq;
    out->args[0] = call->args[0];
    out->args[1] = 0;
    out->args[2] = count > 0x7fffffffu ? 0x7fffffffu : count;
    out->args[3] = (uint64_t)instances;
    return true;
}
