/* glRenderMode: in GL_SELECT and GL_FEEDBACK mode nothing reaches the framebuffer. Mesa runs
 * draws through the draw module's feedback or selection stage instead of rasterizing them
 * (st_feedback_draw_vbo), glClear does nothing (_mesa_Clear clears only in GL_RENDER mode),
 * and glDrawPixels/glBitmap/glCopyPixels only emit tokens (glBitmap still moves the raster
 * position). The model follows: such draws and clears are events that draw nothing. The
 * selection hits and feedback values themselves are written to client memory, which the
 * capture does not keep, so there is nothing to compare them with: they are not computed. */
#include "gmf_internal.h"

static int find(const gmf_runner *r, uint32_t ctx_id)
{
    for (int i = 0; i < r->n_rmode; i++)
        if (r->rmode[i].ctx_id == ctx_id)
            return i;
    return -1;
}

void gmf_render_mode_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    if (k != GLR_CMD_glRenderMode)
        return;
    uint32_t mode = (uint32_t)call->args[0];
    if (mode != GL_RENDER && mode != GL_SELECT && mode != GL_FEEDBACK)
        return;   /* GL_INVALID_ENUM: the mode stays */
    int i = find(r, call->ctx_id);
    if (i < 0) {
        if (mode == GL_RENDER)
            return;
        if (r->n_rmode == (int)(sizeof r->rmode / sizeof r->rmode[0])) {
            gmf_note(ev, "glRenderMode in more than %d contexts (drawn as in GL_RENDER)", r->n_rmode);
            return;
        }
        i = r->n_rmode++;
        r->rmode[i].ctx_id = call->ctx_id;
    }
    r->rmode[i].mode = mode;
}

bool gmf_render_mode_off(const gmf_runner *r, uint32_t ctx_id)
{
    int i = find(r, ctx_id);
    return i >= 0 && r->rmode[i].mode != GL_RENDER;
}
