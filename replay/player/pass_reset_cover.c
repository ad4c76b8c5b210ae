/* Framebuffer contents a frame overwrites completely before anything reads them: render targets
 * that the frame clears whole first (glClear, glClearBuffer*) need not get their saved contents
 * back between passes, which saves copying (and, for textures, re-uploading) them every pass.
 *
 * Per image (a single-image texture or a renderbuffer attached to a framebuffer object, or a
 * default framebuffer's colour or depth/stencil) the walk records which of its attachment points
 * (colour k: bit k, depth: bit 8, stencil: bit 9) whole clears have covered; the first write that
 * is not such a clear, or any read, decides it: covered only when every point it is attached at
 * was covered before. Writes that do not touch an image's points (a depth-only clear of a colour
 * target, draws without depth or stencil test on a depth/stencil image) leave it undecided. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"

#define BIT_DEPTH (1u << 8)
#define BIT_STENCIL (1u << 9)
#define ALL_BITS 0x3FFu

uint64_t pr_cover_key(int kind, const struct sm_context *c, uint32_t name)
{
    uint32_t group = kind == PR_OBJ_DEFAULT_COLOR || kind == PR_OBJ_DEFAULT_DS ? sm_context_id(c) : sm_context_share_id(c);
    return ((uint64_t)kind << 56) | ((uint64_t)group << 32) | name;
}

static struct pr_cover *find(struct glrh_reset *p, uint64_t key, bool create)
{
    for (size_t i = 0; i < p->n_cover; i++)
        if (p->cover[i].key == key)
            return &p->cover[i];
    if (!create)
        return NULL;
    if (p->n_cover == p->cap_cover) {
        size_t nc = p->cap_cover ? p->cap_cover * 2 : 16;
        void *v = realloc(p->cover, nc * sizeof *p->cover);
        if (!v) {
            pr_fail(p, "out of memory");
            return NULL;
        }
        p->cover = v;
        p->cap_cover = nc;
    }
    struct pr_cover *e = &p->cover[p->n_cover++];
    memset(e, 0, sizeof *e);
    e->key = key;
    return e;
}

void pr_cover_touch(struct glrh_reset *p, uint64_t key)
{
    struct pr_cover *e = find(p, key, true);
    if (e && !e->decided)
        e->decided = true;   /* covered stays false */
}

bool pr_cover_needs_contents(const struct glrh_reset *p, uint64_t key)
{
    for (size_t i = 0; i < p->n_cover; i++)
        if (p->cover[i].key == key)
            return p->cover[i].decided && !p->cover[i].covered;
    return false;   /* never written nor read */
}

/* One image touched by a framebuffer write: t = its points this call writes, cov = those it
 * writes whole; points = every point it is attached at. */
static void touch_image(struct glrh_reset *p, uint64_t key, uint32_t points, uint32_t w, uint32_t cov)
{
    struct pr_cover *e = find(p, key, true);
    if (!e || e->decided)
        return;
    /* Points already covered stay covered whatever comes next. */
    uint32_t t = w & points & ~(uint32_t)e->got;
    if (!t)
        return;
    if ((cov & t) == t) {
        e->got |= (uint16_t)t;
        if ((e->got & points) == points) {
            e->decided = true;
            e->covered = true;
        }
    } else {
        e->decided = true;
    }
}

static bool color_mask_full(const struct sm_context_state *st, uint32_t i)
{
    return i < SM_MAX_DRAW_BUFFERS && st->color_mask[i][0] && st->color_mask[i][1] && st->color_mask[i][2] &&
           st->color_mask[i][3];
}

/* The point bit of draw buffer i of framebuffer f (0 when it draws nothing). */
static uint32_t draw_buffer_bit(const struct sm_framebuffer *f, uint32_t fbo, uint32_t i)
{
    if (!f || i >= f->n_draw_buffers) {
        /* No draw buffer list recorded: the default (colour attachment 0 / the back buffer). */
        return i == 0 ? 1u : 0u;
    }
    uint32_t b = f->draw_buffers[i];
    if (b == GL_NONE)
        return 0;
    if (!fbo)
        return 1u;
    if (b >= GL_COLOR_ATTACHMENT0 && b < GL_COLOR_ATTACHMENT0 + SM_MAX_COLOR_ATTACH)
        return 1u << (b - GL_COLOR_ATTACHMENT0);
    return 0;
}

/* Points a call writes (w) and writes whole (cov) on framebuffer fbo. */
static void written_points(const struct sm_context *c, uint32_t fbo, const struct glr_call *call, uint32_t *w,
                           uint32_t *cov)
{
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    uint32_t n_db = f && f->n_draw_buffers ? f->n_draw_buffers : 1;
    bool whole = !st->scissor_test[0] && !sm_is_enabled(c, GL_RASTERIZER_DISCARD, 0);
    bool stencil_full = (st->stencil[0].write_mask & 0xFF) == 0xFF && (st->stencil[1].write_mask & 0xFF) == 0xFF;
    *w = ALL_BITS;
    *cov = 0;
    if (!call)
        return;
    uint32_t cmd = call->cmd;
    if (cmd == GLR_CMD_glClear) {
        uint32_t mask = (uint32_t)call->args[0];
        *w = 0;
        if (mask & GL_COLOR_BUFFER_BIT)
            for (uint32_t i = 0; i < n_db; i++) {
                uint32_t b = draw_buffer_bit(f, fbo, i);
                *w |= b;
                if (whole && color_mask_full(st, i))
                    *cov |= b;
            }
        if (mask & GL_DEPTH_BUFFER_BIT) {
            *w |= BIT_DEPTH;
            if (whole && st->depth_mask)
                *cov |= BIT_DEPTH;
        }
        if (mask & GL_STENCIL_BUFFER_BIT) {
            *w |= BIT_STENCIL;
            if (whole && stencil_full)
                *cov |= BIT_STENCIL;
        }
        return;
    }
    if (cmd == GLR_CMD_glClearBufferfv || cmd == GLR_CMD_glClearBufferiv || cmd == GLR_CMD_glClearBufferuiv ||
        cmd == GLR_CMD_glClearBufferfi) {
        uint32_t buffer = (uint32_t)call->args[0], i = (uint32_t)call->args[1];
        *w = 0;
        if (buffer == GL_COLOR) {
            *w = draw_buffer_bit(f, fbo, i);
            if (whole && color_mask_full(st, i))
                *cov = *w;
        } else {
            if (buffer == GL_DEPTH || buffer == GL_DEPTH_STENCIL) {
                *w |= BIT_DEPTH;
                if (whole && st->depth_mask)
                    *cov |= BIT_DEPTH;
            }
            if (buffer == GL_STENCIL || buffer == GL_DEPTH_STENCIL) {
                *w |= BIT_STENCIL;
                if (whole && stencil_full)
                    *cov |= BIT_STENCIL;
            }
        }
        return;
    }
    if (glrh_cmd_is_draw(cmd)) {
        /* Draws read and write depth only with the depth test on, stencil only with the stencil
         * test on; colour through the draw buffers. */
        *w = 0;
        if (!sm_is_enabled(c, GL_RASTERIZER_DISCARD, 0))
            for (uint32_t i = 0; i < n_db; i++)
                *w |= draw_buffer_bit(f, fbo, i);
        if (sm_is_enabled(c, GL_DEPTH_TEST, 0))
            *w |= BIT_DEPTH;
        if (sm_is_enabled(c, GL_STENCIL_TEST, 0))
            *w |= BIT_STENCIL;
    }
}

struct att_info {
    uint64_t key;
    uint32_t bit;
    int32_t w, h;
    bool single;   /* the object holds one image (so a whole clear covers all of it) */
};

static int attachments(const struct sm_context *c, uint32_t fbo, struct att_info *out)
{
    int n = 0;
    if (!fbo) {
        out[n++] = (struct att_info){ pr_cover_key(PR_OBJ_DEFAULT_COLOR, c, 0), 1u, 0, 0, true };
        out[n++] = (struct att_info){ pr_cover_key(PR_OBJ_DEFAULT_DS, c, 0), BIT_DEPTH | BIT_STENCIL, 0, 0, true };
        return n;
    }
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    if (!f)
        return 0;
    for (int i = 0; i < SM_MAX_COLOR_ATTACH + 2; i++) {
        const struct sm_attachment *a = i < SM_MAX_COLOR_ATTACH ? &f->color[i] : i == SM_MAX_COLOR_ATTACH ? &f->depth : &f->stencil;
        uint32_t bit = i < SM_MAX_COLOR_ATTACH ? 1u << i : i == SM_MAX_COLOR_ATTACH ? BIT_DEPTH : BIT_STENCIL;
        struct att_info e = { 0, bit, -1, -1, false };
        if (a->type == GL_TEXTURE && a->name) {
            const struct sm_texture *t = sm_get_texture(c, a->name);
            e.key = pr_cover_key(PR_OBJ_TEXTURE, c, a->name);
            if (t && a->level >= 0 && a->level < SM_MAX_LEVELS && !a->layered) {
                int face = a->textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && a->textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                         ? (int)(a->textarget - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : 0;
                const struct sm_tex_image *im = &t->image[face][a->level];
                int defined = 0;
                for (int fc = 0; fc < 6; fc++)
                    for (int l = 0; l < SM_MAX_LEVELS; l++)
                        defined += t->image[fc][l].defined;
                e.w = im->width;
                e.h = im->height;
                e.single = im->defined && defined == 1 && im->depth <= 1;
            }
        } else if (a->type == GL_RENDERBUFFER && a->name) {
            const struct sm_renderbuffer *rb = sm_get_renderbuffer(c, a->name);
            e.key = pr_cover_key(PR_OBJ_RENDERBUFFER, c, a->name);
            if (rb) {
                e.w = rb->width;
                e.h = rb->height;
                e.single = true;
            }
        } else {
            continue;
        }
        /* The same object at several points (a depth/stencil image): one entry, both bits. */
        bool merged = false;
        for (int j = 0; j < n && !merged; j++)
            if (out[j].key == e.key) {
                out[j].bit |= bit;
                merged = true;
            }
        if (!merged)
            out[n++] = e;
    }
    return n;
}

void pr_cover_framebuffer_write(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo,
                                const struct glr_call *call)
{
    struct att_info att[SM_MAX_COLOR_ATTACH + 2];
    int n = attachments(c, fbo, att);
    uint32_t w, cov;
    written_points(c, fbo, call, &w, &cov);
    /* A clear covers the framebuffer's area: the intersection of its attachments. */
    bool same_size = true;
    for (int i = 1; i < n; i++)
        same_size = same_size && att[i].w == att[0].w && att[i].h == att[0].h;
    for (int i = 0; i < n; i++)
        touch_image(p, att[i].key, att[i].bit, w, same_size && att[i].single ? cov : 0);
}

void pr_cover_framebuffer_read(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo)
{
    struct att_info att[SM_MAX_COLOR_ATTACH + 2];
    int n = attachments(c, fbo, att);
    for (int i = 0; i < n; i++)
        pr_cover_touch(p, att[i].key);
}

void pr_cover_free(struct glrh_reset *p)
{
    free(p->cover);
    p->cover = NULL;
    p->n_cover = p->cap_cover = 0;
}
