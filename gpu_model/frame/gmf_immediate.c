/* Immediate mode in the model: the vertices of a glBegin/glEnd pair (and of glRect*) with the
 * current attribute values each was given, run as one draw of the primitive type through the
 * ordinary pipeline. The vertices become client arrays of a VAO made for the draw: every legacy
 * slot and every generic attribute an enabled float4 array, interleaved one vertex after the
 * other, so the vertex fetch (gmf_vertex.c) reads them as it reads a program's own client arrays
 * and the draw is a glDrawArrays(mode, 0, count) like any other (events, statistics, timing,
 * debugger). See DESIGN.md "Immediate mode and display lists". */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "statemodel/sm_current.h"
#include "fixedfunc/gm_ff.h"   /* the GM_FF_CM_* / GM_FF_VM_* bits of per-vertex materials */

/* Words per vertex: the legacy slots, then the generic attributes (4 words each). */
#define LEG_WORDS (SM_LA_COUNT * 4)
#define VTX_WORDS (LEG_WORDS + SM_MAX_VERTEX_ATTRIBS * 4)

struct gmf_imm {
    bool open;
    uint32_t mode, ctx_id;
    uint32_t *v;                  /* n vertices of VTX_WORDS words */
    size_t n, cap;
    bool failed;                  /* out of memory while the pair was open */
    bool array_element_unrecorded;
    uint8_t generic_kind[SM_MAX_VERTEX_ATTRIBS];   /* enum sm_value_kind at glEnd */
    struct sm_vao vao;            /* the draw's vertex arrays */
    gmf_client_array saved[SM_MAX_VERTEX_ATTRIBS], saved_legacy[SM_LA_COUNT];
    bool saved_used;
    uint32_t over[(SM_LA_COUNT + SM_MAX_VERTEX_ATTRIBS) * 4];   /* glArrayElement's values */
    /* glMaterial inside the pair: the materials the first vertex was given, and whether a
     * later vertex was given others (Mesa makes them per-vertex attributes then) */
    struct sm_ff_material mat[2];
    bool mat_set, mat_varies;
    /* The materials the draw's uniforms take (Mesa keeps glMaterial inside glBegin/glEnd as
     * per-vertex attributes and updates the context's materials after the draw): those at
     * glBegin for a GLSL vertex shader (gl_FrontMaterial), the first vertex's for the
     * fixed-function stage; the state's own (the last glMaterial) is put back after the draw. */
    struct sm_ff_material mat_begin[2], mat_first[2], mat_after[2];
    bool mat_swapped;
    uint32_t swap_ctx;
    /* per vertex: the materials (colour-tracked values zeroed), and for the draw the GM_FF_CM_*
     * bits of the values that vary, per side, given to the fixed-function stage as attributes */
    struct sm_ff_material (*vmat)[2];
    uint8_t vm_bits[2];
};

static struct gmf_imm *imm_get(gmf_runner *r)
{
    if (!r->imm)
        r->imm = calloc(1, sizeof *r->imm);
    return r->imm;
}

bool gmf_imm_open(const gmf_runner *r, uint32_t ctx_id)
{
    return r->imm && r->imm->open && r->imm->ctx_id == ctx_id;
}

void gmf_imm_free(gmf_runner *r)
{
    if (r->imm)
        free(r->imm->v), free(r->imm->vmat);
    free(r->imm);
    r->imm = NULL;
}

/* Appends a vertex at position pos with the context's current values (and `over`, values an
 * glArrayElement read from the enabled arrays, where set). */
/* The materials of st without the values glColorMaterial makes follow the current colour (those
 * vary per vertex with glColor, which the generated vertex stage reads anyway). */
static void untracked_materials(const struct sm_context *c, const struct sm_context_state *st,
                                struct sm_ff_material out[2])
{
    memcpy(out, st->ff.material, 2 * sizeof *out);
    if (!sm_is_enabled(c, GL_COLOR_MATERIAL, 0))
        return;
    uint32_t f = st->ff.color_material_face, mode = st->ff.color_material_mode;
    for (int k = 0; k < 2; k++) {
        if (!(k == 0 ? f == GL_FRONT || f == GL_FRONT_AND_BACK : f == GL_BACK || f == GL_FRONT_AND_BACK))
            continue;
        if (mode == GL_AMBIENT || mode == GL_AMBIENT_AND_DIFFUSE)
            memset(out[k].ambient, 0, sizeof out[k].ambient);
        if (mode == GL_DIFFUSE || mode == GL_AMBIENT_AND_DIFFUSE)
            memset(out[k].diffuse, 0, sizeof out[k].diffuse);
        if (mode == GL_SPECULAR)
            memset(out[k].specular, 0, sizeof out[k].specular);
        if (mode == GL_EMISSION)
            memset(out[k].emission, 0, sizeof out[k].emission);
    }
}

static void emit_vertex(struct gmf_imm *m, const struct sm_context *c, const struct sm_context_state *st,
                        const float pos[4],
                        const uint32_t *over, const bool *over_set)
{
    if (m->failed)
        return;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint32_t *v = cap < ((size_t)1 << 40) / VTX_WORDS ? realloc(m->v, cap * VTX_WORDS * 4) : NULL;
        if (!v) {
            m->failed = true;
            return;
        }
        m->v = v;
        struct sm_ff_material(*vm)[2] = realloc(m->vmat, cap * sizeof *vm);
        if (!vm) {
            m->failed = true;
            return;
        }
        m->vmat = vm;
        m->cap = cap;
    }
    uint32_t *o = m->v + m->n * VTX_WORDS;
    struct sm_ff_material mat[2];
    untracked_materials(c, st, mat);
    memcpy(m->vmat[m->n], mat, sizeof mat);
    if (!m->mat_set) {
        memcpy(m->mat, mat, sizeof m->mat);
        memcpy(m->mat_first, st->ff.material, sizeof m->mat_first);
        m->mat_set = true;
    } else if (memcmp(m->mat, mat, sizeof m->mat)) {
        m->mat_varies = true;
    }
    memcpy(o, st->legacy_current, LEG_WORDS * 4);
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_attrib_value *a = &st->attrib_value[i];
        uint32_t *g = o + LEG_WORDS + 4 * i;
        if (a->kind == SM_VK_DOUBLE) {
            for (int k = 0; k < 4; k++) {
                float f = (float)a->v.d[k];
                memcpy(&g[k], &f, 4);
            }
        } else {
            memcpy(g, a->v.u, 16);
        }
    }
    if (over)
        for (int s = 0; s < SM_LA_COUNT + SM_MAX_VERTEX_ATTRIBS; s++)
            if (over_set[s])
                memcpy(o + 4 * s, over + 4 * s, 16);
    memcpy(o + 4 * SM_LA_VERTEX, pos, 16);
    /* generic attribute 0 is the vertex position too (compatibility aliasing) */
    memcpy(o + LEG_WORDS, pos, 16);
    m->n++;
}

/* GL's glArrayElement passes each enabled array's element to its attribute command, so the
 * current values afterwards are the arrays': applied to the state model as those commands. */
static void apply_current(gmf_runner *r, uint32_t ctx_id, uint32_t cmd, int first_u, uint32_t u, const float *v,
                          int n)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = ctx_id;
    int a = 0;
    if (first_u)
        c.args[a++] = u;
    for (int k = 0; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        c.args[a++] = bits;
    }
    sm_apply(r->sm, &c);
}

static void leave_current(gmf_runner *r, uint32_t ctx_id, const uint32_t *over, const bool *set,
                          const struct sm_vao *vao)
{
    float v[4];
    for (int s = 0; s < SM_LA_COUNT; s++) {
        if (!set[s] || s == SM_LA_VERTEX)
            continue;
        memcpy(v, over + 4 * s, 16);
        switch (s) {
        case SM_LA_NORMAL: apply_current(r, ctx_id, GLR_CMD_glNormal3f, 0, 0, v, 3); break;
        case SM_LA_COLOR: apply_current(r, ctx_id, GLR_CMD_glColor4f, 0, 0, v, 4); break;
        case SM_LA_SECONDARY_COLOR: apply_current(r, ctx_id, GLR_CMD_glSecondaryColor3f, 0, 0, v, 3); break;
        case SM_LA_FOG_COORD: apply_current(r, ctx_id, GLR_CMD_glFogCoordf, 0, 0, v, 1); break;
        case SM_LA_INDEX: apply_current(r, ctx_id, GLR_CMD_glIndexf, 0, 0, v, 1); break;
        case SM_LA_EDGE_FLAG: apply_current(r, ctx_id, GLR_CMD_glEdgeFlag, 1, v[0] != 0.0f, NULL, 0); break;
        default:
            apply_current(r, ctx_id, GLR_CMD_glMultiTexCoord4f, 1, GL_TEXTURE0 + (uint32_t)(s - SM_LA_TEXCOORD0), v, 4);
            break;
        }
    }
    /* generic float attributes (index 0 is the position: no current value of its own here) */
    for (int i = 1; i < SM_MAX_VERTEX_ATTRIBS; i++)
        if (set[SM_LA_COUNT + i] && !vao->attrib[i].integer) {
            memcpy(v, over + 4 * (SM_LA_COUNT + i), 16);
            apply_current(r, ctx_id, GLR_CMD_glVertexAttrib4f, 1, (uint32_t)i, v, 4);
        }
}

static uint32_t ctx_id_of(const struct sm_context *c)
{
    return sm_context_id(c);
}

/* glArrayElement(i): the element of every enabled array (as a draw would fetch it) replaces the
 * current value; the vertex array (or generic attribute 0) provokes the vertex. */
static void array_element(gmf_runner *r, struct gmf_imm *m, const struct sm_context *c,
                          const struct sm_context_state *st, int64_t elem, gmf_event *ev)
{
    const struct sm_vao *vao = sm_get_vao(c, st->vao);
    if (!vao)
        return;
    gmf_draw_ctx d;
    memset(&d, 0, sizeof d);
    d.r = r;
    d.c = c;
    d.st = st;
    d.vao = vao;
    d.ev = ev;
    uint32_t *over = m->over;
    bool set[SM_LA_COUNT + SM_MAX_VERTEX_ATTRIBS] = { false };
    gmf_attr a;
    memset(&a, 0, sizeof a);
    a.c.scalar = GM_SCALAR_FLOAT;
    for (int s = 0; s < SM_LA_COUNT; s++) {
        const struct sm_legacy_array *la = &vao->legacy[s];
        if (!la->enabled)
            continue;
        if (!la->buffer && !r->client_legacy[s].set)
            m->array_element_unrecorded = true;
        a.src = GMF_ATTR_LEGACY;
        a.index = s;
        gmf_fetch_attr(&d, &a, elem, 0, over + 4 * s);
        set[s] = true;
    }
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_vertex_attrib *va = &vao->attrib[i];
        if (!va->enabled)
            continue;
        const struct sm_vertex_binding *bd = &vao->binding[va->binding < SM_MAX_VERTEX_ATTRIBS ? va->binding : 0];
        if (!bd->buffer && !r->client[i].set)
            m->array_element_unrecorded = true;
        a.src = GMF_ATTR_GENERIC;
        a.index = i;
        a.c.scalar = va->integer ? GM_SCALAR_INT : GM_SCALAR_FLOAT;
        gmf_fetch_attr(&d, &a, elem, 0, over + 4 * (SM_LA_COUNT + i));
        set[SM_LA_COUNT + i] = true;
    }
    leave_current(r, ctx_id_of(c), over, set, vao);
    float pos[4];
    if (set[SM_LA_VERTEX])
        memcpy(pos, over + 4 * SM_LA_VERTEX, 16);
    else if (set[SM_LA_COUNT])
        memcpy(pos, over + 4 * SM_LA_COUNT, 16);
    else
        return;   /* no vertex array: GL provokes no vertex */
    emit_vertex(m, c, st, pos, over, set);
}

/* Legacy commands that produce vertices the model does not run, reported by name: evaluators
 * (selection/feedback render modes: gmf_rendermode.c; the raster position and pixel rectangles:
 * statemodel/sm_apply_rasterpos.c, gmf_rasterpix.c). The class GLR_CF_EVALUATOR (glEvalCoord*,
 * glEvalPoint*, glEvalMesh*) is generated from the registry (registry/gl_annotations.txt). */
static void note_unmodelled(uint32_t k, gmf_event *ev)
{
    if (k < GLR_CMD_COUNT && (glr_cmds[k].flags & GLR_CF_EVALUATOR))
        gmf_note(ev, "%s (evaluators are not modelled)", glr_cmd_name(k));
}

void gmf_imm_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    note_unmodelled(k, ev);
    gmf_render_mode_cmd(r, call, k, ev);
    if (k == GLR_CMD_glBegin) {
        struct gmf_imm *m = imm_get(r);
        if (!m) {
            gmf_note(ev, "out of memory (glBegin)");
            return;
        }
        if (m->open && m->ctx_id == call->ctx_id)
            return;   /* GL_INVALID_OPERATION: ignored, the open pair goes on (Mesa's vbo) */
        if ((uint32_t)call->args[0] > GL_TRIANGLE_STRIP_ADJACENCY)
            return;   /* GL_INVALID_ENUM: no pair begins */
        m->open = true;
        const struct sm_context *bc = sm_context_get(r->sm, call->ctx_id);
        if (bc)
            memcpy(m->mat_begin, sm_context_state(bc)->ff.material, sizeof m->mat_begin);
        m->mode = (uint32_t)call->args[0];
        m->ctx_id = call->ctx_id;
        m->n = 0;
        m->failed = m->array_element_unrecorded = false;
        m->mat_set = m->mat_varies = false;
        return;
    }
    struct gmf_imm *m = r->imm;
    if (!m || !m->open || call->ctx_id != m->ctx_id)
        return;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return;
    const struct sm_context_state *st = sm_context_state(c);
    if (k == GLR_CMD_glArrayElement) {
        array_element(r, m, c, st, (int64_t)(int32_t)call->args[0], ev);
        return;
    }
    enum sm_imm_kind kind = sm_imm_kind_of(k);
    if (kind == SM_IMM_VERTEX) {
        struct sm_imm_value v;
        if (sm_imm_decode(call, &v))
            emit_vertex(m, c, st, v.v, NULL, NULL);
        else
            gmf_note(ev, "%s: vertex values not recorded", glr_cmd_name(k));
        return;
    }
    /* glVertexAttrib*(0, ...) provokes a vertex too (applied first: attrib_value[0] holds it) */
    if (sm_is_attrib_value_cmd(k) && call->args[0] == 0) {
        const struct sm_attrib_value *a = &st->attrib_value[0];
        float pos[4];
        for (int i = 0; i < 4; i++)
            pos[i] = a->kind == SM_VK_DOUBLE ? (float)a->v.d[i] : a->kind == SM_VK_INT ? (float)a->v.i[i]
                     : a->kind == SM_VK_UINT ? (float)a->v.u[i] : a->v.f[i];
        emit_vertex(m, c, st, pos, NULL, NULL);
    }
}

/* The draw's VAO and client arrays: every slot an interleaved float4 (integer generic
 * attributes as integers) client array over the vertices. */
static void point_arrays(gmf_runner *r, struct gmf_imm *m, const struct sm_context_state *st,
                         const struct sm_vao *cur)
{
    m->vao = *cur;
    memcpy(m->saved, r->client, sizeof m->saved);
    memcpy(m->saved_legacy, r->client_legacy, sizeof m->saved_legacy);
    m->saved_used = r->client_used;
    int32_t stride = VTX_WORDS * 4;
    uint64_t bytes = (uint64_t)m->n * (uint64_t)stride;
    const uint8_t *base = m->n ? (const uint8_t *)m->v : NULL;   /* no vertices: nothing is fetched */
    for (int s = 0; s < SM_LA_COUNT; s++) {
        m->vao.legacy[s] = (struct sm_legacy_array){ true, 4, GL_FLOAT, stride, 0, 0 };
        r->client_legacy[s] = (gmf_client_array){ true, base ? base + 16u * (size_t)s : NULL,
                                                  base ? bytes - 16u * (uint64_t)s : 0, 0, stride };
    }
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        uint8_t kind = (uint8_t)st->attrib_value[i].kind;
        struct sm_vertex_attrib *a = &m->vao.attrib[i];
        memset(a, 0, sizeof *a);
        a->enabled = true;
        a->size = 4;
        a->type = kind == SM_VK_INT ? GL_INT : kind == SM_VK_UINT ? GL_UNSIGNED_INT : GL_FLOAT;
        a->integer = kind == SM_VK_INT || kind == SM_VK_UINT;
        a->binding = (uint32_t)i;
        a->stride = stride;
        m->vao.binding[i] = (struct sm_vertex_binding){ 0, 0, stride, 0 };
        uint64_t off = (uint64_t)(LEG_WORDS + 4 * i) * 4u;
        r->client[i] = (gmf_client_array){ true, base ? base + off : NULL, base ? bytes - off : 0, 0, stride };
    }
}

bool gmf_imm_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k, struct glr_call *out,
                       gmf_event *ev)
{
    enum sm_imm_kind kind = sm_imm_kind_of(k);
    if (k != GLR_CMD_glEnd && kind != SM_IMM_RECT)
        return false;
    struct gmf_imm *m = k == GLR_CMD_glEnd ? r->imm : imm_get(r);
    if (k == GLR_CMD_glEnd && (!m || !m->open || m->ctx_id != call->ctx_id))
        return false;   /* GL_INVALID_OPERATION: nothing is drawn */
    if (!m) {
        gmf_note(ev, "out of memory (%s)", glr_cmd_name(k));
        return false;
    }
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    const struct sm_vao *cur = c ? sm_get_vao(c, sm_context_state(c)->vao) : NULL;
    if (!c || !cur) {
        m->open = false;
        return false;
    }
    const struct sm_context_state *st = sm_context_state(c);
    if (kind == SM_IMM_RECT) {
        /* GL: glBegin(GL_POLYGON), (x1,y1), (x2,y1), (x2,y2), (x1,y2), glEnd */
        struct sm_imm_value v;
        if (m->open)   /* GL_INVALID_OPERATION: GL draws nothing and the pair goes on */
            return false;
        if (!sm_imm_decode(call, &v)) {
            gmf_note(ev, "%s: values not recorded", glr_cmd_name(k));
            return false;
        }
        m->mode = GL_POLYGON;
        m->n = 0;
        m->failed = m->array_element_unrecorded = false;
        m->mat_set = m->mat_varies = false;
        const float corner[4][4] = { { v.v[0], v.v[1], 0, 1 }, { v.v[2], v.v[1], 0, 1 },
                                     { v.v[2], v.v[3], 0, 1 }, { v.v[0], v.v[3], 0, 1 } };
        for (int i = 0; i < 4; i++)
            emit_vertex(m, c, st, corner[i], NULL, NULL);
    }
    m->open = false;
    if (m->failed) {
        gmf_note(ev, "out of memory (immediate-mode vertices)");
        ev->failed = true;
    }
    if (m->array_element_unrecorded)
        gmf_note(ev, "glArrayElement: client array data not recorded (current values used)");
    bool glsl_vs = st->program != 0;
    m->vm_bits[0] = m->vm_bits[1] = 0;
    if (m->mat_varies && !glsl_vs && !m->failed) {
        /* which values vary: those become vertex attributes of the fixed-function stage
         * (shininess too: Mesa's vbo makes every glMaterial value an attribute) */
        for (size_t i = 1; i < m->n; i++)
            for (int f = 0; f < 2; f++) {
                const struct sm_ff_material *a = &m->vmat[0][f], *b = &m->vmat[i][f];
                m->vm_bits[f] |= (uint8_t)((memcmp(a->emission, b->emission, 16) ? GM_FF_CM_EMISSION : 0) |
                                           (memcmp(a->ambient, b->ambient, 16) ? GM_FF_CM_AMBIENT : 0) |
                                           (memcmp(a->diffuse, b->diffuse, 16) ? GM_FF_CM_DIFFUSE : 0) |
                                           (memcmp(a->specular, b->specular, 16) ? GM_FF_CM_SPECULAR : 0) |
                                           (a->shininess != b->shininess ? GM_FF_VM_SHININESS : 0));
            }
    }
    if (kind != SM_IMM_RECT && m->mat_set) {
        /* the runner owns this state: the draw's materials in place until gmf_imm_draw_done */
        struct sm_context_state *ws = (struct sm_context_state *)st;
        memcpy(m->mat_after, ws->ff.material, sizeof m->mat_after);
        memcpy(ws->ff.material, glsl_vs ? m->mat_begin : m->mat_first, sizeof ws->ff.material);
        m->mat_swapped = true;
        m->swap_ctx = call->ctx_id;
    }
    point_arrays(r, m, st, cur);
    r->vao_override = &m->vao;
    memset(out, 0, sizeof *out);
    out->cmd = GLR_CMD_glDrawArrays;
    out->ctx_id = call->ctx_id;
    out->seq = call->seq;
    out->args[0] = m->mode;
    out->args[1] = 0;
    out->args[2] = m->failed ? 0 : m->n;
    return true;
}

void gmf_imm_draw_done(gmf_runner *r)
{
    struct gmf_imm *m = r->imm;
    if (!m || r->vao_override != &m->vao)
        return;
    r->vao_override = NULL;
    if (m->mat_swapped) {
        const struct sm_context *c = sm_context_get(r->sm, m->swap_ctx);
        if (c)
            memcpy(((struct sm_context_state *)sm_context_state(c))->ff.material, m->mat_after,
                   sizeof m->mat_after);
        m->mat_swapped = false;
    }
    memcpy(r->client, m->saved, sizeof m->saved);
    memcpy(r->client_legacy, m->saved_legacy, sizeof m->saved_legacy);
    r->client_used = m->saved_used;
}

bool gmf_imm_drawing(const gmf_runner *r)
{
    return r->imm && r->vao_override == &r->imm->vao;
}

uint8_t gmf_imm_vertex_material(const gmf_runner *r, int side)
{
    const struct gmf_imm *m = r->imm;
    if (!m || r->vao_override != &m->vao || side < 0 || side > 1)
        return 0;
    return m->vm_bits[side];
}

/* Per-vertex materials into the generic attributes the fixed-function stage reads them from
 * (ff_vmat_<side>_<value>, at the attribute index the program gave them). */
void gmf_imm_bind_program(gmf_runner *r, const gmf_prog *p)
{
    struct gmf_imm *m = r->imm;
    if (!m || r->vao_override != &m->vao || !p || !(m->vm_bits[0] | m->vm_bits[1]))
        return;
    for (int a = 0; a < p->n_attrs; a++) {
        const gmf_attr *at = &p->attrs[a];
        if (at->src != GMF_ATTR_GENERIC || !at->name || strncmp(at->name, "ff_vmat_", 8) ||
            at->index < 0 || at->index >= SM_MAX_VERTEX_ATTRIBS)
            continue;
        const char *n = at->name + 8;
        int side = !strncmp(n, "back_", 5);
        n += side ? 5 : 6;
        for (size_t v = 0; v < m->n; v++) {
            const struct sm_ff_material *mt = &m->vmat[v][side];
            const float shin[4] = { mt->shininess, 0, 0, 1 };
            const float *src = !strcmp(n, "ambient") ? mt->ambient : !strcmp(n, "diffuse") ? mt->diffuse
                               : !strcmp(n, "specular") ? mt->specular : !strcmp(n, "shininess") ? shin
                               : mt->emission;
            memcpy(m->v + v * VTX_WORDS + LEG_WORDS + 4 * (size_t)at->index, src, 16);
        }
        /* the attribute reads floats whatever kind the current generic value had */
        struct sm_vertex_attrib *va = &m->vao.attrib[at->index];
        va->type = GL_FLOAT;
        va->integer = false;
    }
}
