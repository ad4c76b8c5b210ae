/* Which current attributes a glBegin/glEnd draw takes per vertex, as Mesa's vbo exec module
 * decides (src/mesa/vbo/vbo_exec_api.c, Mesa 22.3). It matters because st/mesa's
 * fixed-function fragment program reads the primary and secondary colours from the vertex
 * stage only when they vary (texenvprogram.c filter_fp_input_mask: lighting, or the colour in
 * the draw's vertex format); otherwise it reads the current colour from a uniform, saturated
 * but never interpolated, so a NaN current colour stays NaN (piglit gl-1.0-fpexceptions).
 *
 * Mesa's rule, followed here per context:
 * - every attribute command (inside or outside glBegin/glEnd) adds its attribute to the vertex
 *   format, and glVertex the position; adding one flushes the buffered vertices first, and
 *   outside a pair with more than 8 buffered vertices it also resets the format (its heuristic
 *   that keeps attributes given outside pairs out of the vertices);
 * - glBegin resets the format when it holds attributes but no position;
 * - after a glEnd that stored vertices, the next state change (any other command but a query)
 *   flushes them and resets the format (FLUSH_VERTICES). Mesa skips that flush for a redundant
 *   state change (glEnable of an enabled cap); the model does not know which are redundant and
 *   resets on every one: the colour then counts as not per-vertex where Mesa would still have it.
 * Display lists compile through Mesa's vbo save module, not this one: a list's commands are run
 * through the same rule here (an approximation). */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "statemodel/sm_current.h"

#define FMT_OTHER (1u << 31)   /* generic attributes, materials, edge flags of no interest */

struct gmf_vbo_format {
    uint32_t ctx_id;
    uint32_t fmt;        /* bit s: legacy slot s (enum sm_legacy_slot) in the vertex format */
    bool in_pair;
    bool stored;         /* a glEnd stored vertices not yet flushed */
    uint32_t buffered;   /* vertices buffered since the last flush */
    uint32_t pair_vertices;
    uint32_t draw_fmt;   /* the format of the last glEnd / glRect */
};

void gmf_vbo_format_free(gmf_runner *r)
{
    free(r->vbo_fmt);
    r->vbo_fmt = NULL;
}

static void reset(struct gmf_vbo_format *f)
{
    f->fmt = 0;
    f->stored = false;
    f->buffered = 0;
}

static void add_attr(struct gmf_vbo_format *f, uint32_t bit)
{
    if (f->fmt & bit)
        return;
    if (!f->in_pair && f->buffered > 8 && f->fmt)
        f->fmt = 0;   /* vbo_exec_wrap_upgrade_vertex's heuristic */
    f->fmt |= bit;
    f->buffered = 0;  /* the upgrade flushed the buffered vertices */
}

static void vertex(struct gmf_vbo_format *f)
{
    add_attr(f, 1u << SM_LA_VERTEX);
    f->buffered++;
    f->pair_vertices++;
}

static bool is_query(uint32_t k)
{
    return (glr_cmds[k].flags & GLR_CF_QUERY) != 0;   /* glGet*, glIs*, ...: gl_annotations.txt */
}

void gmf_vbo_format_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k)
{
    if (k >= GLR_CMD_COUNT)
        return;
    if (!r->vbo_fmt && !(r->vbo_fmt = calloc(1, sizeof *r->vbo_fmt)))
        return;
    struct gmf_vbo_format *f = r->vbo_fmt;
    if (f->ctx_id != call->ctx_id) {   /* another context: its own vbo state, started afresh */
        memset(f, 0, sizeof *f);
        f->ctx_id = call->ctx_id;
    }
    enum sm_imm_kind kind = sm_imm_kind_of(k);
    if (k == GLR_CMD_glBegin) {
        if (f->in_pair)
            return;
        if (f->fmt && !(f->fmt & (1u << SM_LA_VERTEX)))
            reset(f);
        f->in_pair = true;
        f->pair_vertices = 0;
        return;
    }
    if (k == GLR_CMD_glEnd) {
        if (!f->in_pair)
            return;
        f->in_pair = false;
        f->draw_fmt = f->fmt;
        f->stored |= f->pair_vertices > 0;
        return;
    }
    if (kind == SM_IMM_VERTEX) {
        vertex(f);
        return;
    }
    if (kind == SM_IMM_ATTRIB) {
        struct sm_imm_value v;
        add_attr(f, sm_imm_decode(call, &v) && v.slot >= 0 && v.slot < 31 ? 1u << v.slot : FMT_OTHER);
        return;
    }
    if (sm_is_attrib_value_cmd(k)) {
        if (call->args[0] == 0 && f->in_pair)
            vertex(f);
        else
            add_attr(f, FMT_OTHER);
        return;
    }
    if (glr_cmds[k].flags & GLR_CF_MATERIAL) {   /* glMaterial*: gl_annotations.txt */
        add_attr(f, FMT_OTHER);
        return;
    }
    if (k == GLR_CMD_glArrayElement) {
        /* the enabled arrays' attributes and a vertex: taken as colour per vertex when the
         * colour array is enabled */
        const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
        const struct sm_vao *vao = c ? sm_get_vao(c, sm_context_state(c)->vao) : NULL;
        for (int s = 1; vao && s < SM_LA_COUNT && s < 31; s++)
            if (vao->legacy[s].enabled)
                add_attr(f, 1u << s);
        if (f->in_pair)
            vertex(f);
        return;
    }
    if (kind == SM_IMM_RECT) {   /* Mesa: a flush, glBegin(GL_POLYGON), four glVertex2f, glEnd */
        if (f->in_pair)
            return;
        if (f->stored)
            reset(f);
        if (f->fmt && !(f->fmt & (1u << SM_LA_VERTEX)))
            reset(f);
        for (int i = 0; i < 4; i++)
            add_attr(f, 1u << SM_LA_VERTEX), f->buffered++;
        f->draw_fmt = f->fmt;
        f->stored = true;
        return;
    }
    if (f->in_pair || is_query(k) || k == GLR_CMD_glCallList || k == GLR_CMD_glCallLists)
        return;
    if (f->stored)
        reset(f);   /* FLUSH_VERTICES: the stored vertices drawn, the format reset */
}

bool gmf_vbo_format_varies(const gmf_runner *r, uint32_t ctx_id, int slot)
{
    const struct gmf_vbo_format *f = r->vbo_fmt;
    if (!f || f->ctx_id != ctx_id || slot < 0 || slot >= 31)
        return true;
    return (f->draw_fmt >> slot) & 1u;
}
