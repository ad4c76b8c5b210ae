/* Quad only for a framebuffer-object target (docs/PIXEL_HISTORY.md, "Quad only"): the target's
 * draws rasterize only the pixel's 2x2 quad, as the back buffer's do, so a history of an FBO the
 * frame fills with a full-screen mesh (glmark2 terrain's fbo4) no longer draws the whole image in
 * the model. What the clipped draws leave is right at the pixel only: every image attached to
 * the target framebuffer while a clipped draw ran (colour, depth, stencil) is remembered, and a
 * record that may read one of them in the model before the pass ends makes the pass start again
 * with whole draws (pixel_history.c, clip_broken), as a read of the back buffer does:
 *  - a draw the model runs (not an earlier pass left to the driver) that has one attached to the
 *    framebuffer it draws into (other than the target's own: its depth and stencil tests are at
 *    the pixel only), or that samples one: known as it runs, from the model's texture fetches
 *    (gm_pipe_watch.on_texture), so the pass starts again after that draw;
 *  - a blit, copy or read from the target framebuffer; a copy by name (glCopyImageSubData), an
 *    image read-back or a compute dispatch (any image); a query;
 *  - any image reading record of another context (shared objects are not followed).
 * Mipmap generation of a remembered texture does not count: its other levels are then partial
 * too, and they are the same texture, which any read above still finds by name.
 * The pass of an FBO target ends after the target's last write (the plan's), so the passes that
 * later sample the target do not count; only reads between its writes do. */
#include <stdlib.h>

#include "pixel_internal.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "registry/glr_registry.h"
#include "replay/player/player.h"
#include "replay/replay.h"
#include "statemodel/statemodel.h"

static bool clipped(const struct engine *e, uint32_t type, uint32_t name)
{
    for (size_t i = 0; i < e->n_clipped; i++)
        if (e->clipped[i].type == type && e->clipped[i].name == name)
            return true;
    return false;
}

static const struct sm_attachment *attachment(const struct sm_framebuffer *fb, int a)
{
    return a < SM_MAX_COLOR_ATTACH ? &fb->color[a] : a == SM_MAX_COLOR_ATTACH ? &fb->depth : &fb->stencil;
}

int pxh_clip_wrote(struct engine *e, const struct sm_context *sc)
{
    const struct sm_framebuffer *fb = sc ? sm_get_framebuffer(sc, e->t.fbo) : NULL;
    for (int a = 0; fb && a < SM_MAX_COLOR_ATTACH + 2; a++) {
        const struct sm_attachment *at = attachment(fb, a);
        if (!at->type || clipped(e, at->type, at->name))
            continue;
        if (e->n_clipped == e->cap_clipped) {
            size_t cap = e->cap_clipped ? 2 * e->cap_clipped : 8;
            void *q = realloc(e->clipped, cap * sizeof *e->clipped);
            if (!q)
                return -1;
            e->clipped = q;
            e->cap_clipped = cap;
        }
        e->clipped[e->n_clipped].type = at->type;
        e->clipped[e->n_clipped++].name = at->name;
    }
    return 0;
}

bool pxh_clip_fbo_breaks(const struct engine *e, const struct glr_call *c, const struct sm_context *sc,
                         bool left_out)
{
    if (!e->n_clipped || c->cmd >= GLR_CMD_COUNT)
        return false;   /* nothing drawn clipped yet: nothing partial to read */
    uint32_t f = glr_cmds[c->cmd].flags;
    bool draw = glrh_cmd_is_draw(c->cmd) || c->cmd == GLR_CMD_glCallList || c->cmd == GLR_CMD_glCallLists;
    bool image_read = f & (GLR_CF_BLIT_ANY | GLR_CF_COPY_ANY | GLR_CF_READS_IMAGE | GLR_CF_READS_FRAMEBUFFER);
    if (f & GLR_CF_BEGIN_QUERY)
        return true;
    if (c->ctx_id != e->t.ctx_id || !sc)
        return (draw && !left_out) || image_read || (f & GLR_CF_UPLOAD);
    const struct sm_context_state *st = sm_context_state(sc);
    if (image_read) {
        if (f & (GLR_CF_READS_IMAGE))
            return true;   /* an image read-back or a dispatch: any image */
        if (!(f & GLR_CF_READS_FRAMEBUFFER) && !(f & GLR_CF_BLIT_ANY))
            return true;   /* a copy by name (glCopyImageSubData ...) */
        if (st->read_fbo == e->t.fbo)
            return true;
        const struct sm_framebuffer *rf = sm_get_framebuffer(sc, st->read_fbo);
        for (int a = 0; rf && a < SM_MAX_COLOR_ATTACH + 2; a++)
            if (clipped(e, attachment(rf, a)->type, attachment(rf, a)->name))
                return true;
        return false;
    }
    if (!draw || left_out)
        return false;
    /* what the draw samples is learnt while it runs (pxh_clip_on_texture): a unit may keep a
     * texture bound that the program never samples */
    if (st->draw_fbo != e->t.fbo) {
        const struct sm_framebuffer *df = sm_get_framebuffer(sc, st->draw_fbo);
        for (int a = 0; df && a < SM_MAX_COLOR_ATTACH + 2; a++)
            if (clipped(e, attachment(df, a)->type, attachment(df, a)->name))
                return true;
    }
    return false;
}

/* gm_pipe_watch.on_texture: a fetch from texture `name`; shading threads may call it at once. */
void pxh_clip_on_texture(void *user, uint32_t name)
{
    struct engine *e = user;
    if (!name || !e->n_clipped || atomic_load_explicit(&e->clip_read, memory_order_relaxed))
        return;
    if (clipped(e, GL_TEXTURE, name))
        atomic_store_explicit(&e->clip_read, true, memory_order_relaxed);
}
