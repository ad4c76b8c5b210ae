/* Swaps during replay: the back buffer read back and compared with the capture's reference image
 * (--verify) and with the first pass (--loop); PNGs of swaps and draws (--png). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/replayer_internal.h"
#include "replay/player/image_util.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include <xxhash.h>

/* The references of the capture: its images, then the frames it keeps only as a hash
 * (GLREPLAY_CAPTURE_IMAGES). image_used has one flag per reference in this order. */
static unsigned n_refs(const struct replayer *r)
{
    return r->cap->n_images + r->cap->n_hashes;
}

static const struct glrh_image *ref_at(const struct replayer *r, unsigned i)
{
    return i < r->cap->n_images ? &r->cap->images[i] : &r->cap->hashes[i - r->cap->n_images];
}

/* Compares read-back pixels with a reference: pixel by pixel with an image, by XXH3-64 with a hash
 * (d->pixels is then 1 when they differ, and the position unknown). */
static void ref_diff(const struct glrh_image *im, const uint8_t *px, struct glrh_diff *d)
{
    if (im->pixels) {
        glrh_image_diff(px, im->pixels, im->width, im->height, d);
        return;
    }
    memset(d, 0, sizeof *d);
    d->pixels = XXH3_64bits(px, (size_t)im->width * im->height * 4) != im->hash;
}

static const struct glrh_image *reference_for(struct replayer *r, uint32_t frame, uint32_t ctx_id)
{
    for (unsigned i = 0; i < n_refs(r); i++) {
        const struct glrh_image *im = ref_at(r, i);
        if (!r->image_used[i] && !im->fbo && im->frame == frame && im->ctx_id == ctx_id) {
            r->image_used[i] = true;
            return im;
        }
    }
    return NULL;
}

static int png_path(struct replayer *r, char *buf, size_t n, const char *what)
{
    int k = snprintf(buf, n, "%s/%06llu_%s.png", r->opt->png_dir, (unsigned long long)r->record, what);
    return k > 0 && (size_t)k < n ? 0 : -1;
}

static void write_png_or_warn(struct replayer *r, const char *what, const uint8_t *px, unsigned w, unsigned h)
{
    char path[4096], err[4200];
    if (png_path(r, path, sizeof path, what) != 0 || glrh_write_png(path, px, w, h, err, sizeof err) != 0) {
        static bool warned;
        if (!warned)
            fprintf(stderr, "glreplay: warning: %s\n", err);
        warned = true;
    }
}

static void report_diff(struct replayer *r, const char *what, const struct glrh_diff *d)
{
    fprintf(r->out, "  %s: %llu pixels differ; first at (%u, %u) (origin bottom-left): got %u,%u,%u,%u, expected "
                    "%u,%u,%u,%u; max channel delta %u\n",
            what, (unsigned long long)d->pixels, d->first_x, d->first_y, d->got[0], d->got[1], d->got[2], d->got[3],
            d->want[0], d->want[1], d->want[2], d->want[3], d->max_delta);
}

/* A difference from reference `im`: where, for an image; for a hash, that only a hash was kept. */
static void report_ref(struct replayer *r, const struct glrh_image *im, const struct glrh_diff *d)
{
    if (im->pixels)
        report_diff(r, "reference", d);
    else
        fprintf(r->out, "  the capture keeps only a hash of this frame's image (GLREPLAY_CAPTURE_IMAGES): which "
                        "pixels differ is not known\n");
}

static const char *matches(const struct glrh_image *im)
{
    return im->pixels ? "matches the reference" : "matches the reference hash (no image stored)";
}

/* The colour attachments of the framebuffer the program had bound for drawing at this swap. */
static void verify_fbo_images(struct replayer *r, uint32_t frame)
{
    struct rctx *ctx = r->current;
    for (unsigned i = 0; i < n_refs(r); i++) {
        const struct glrh_image *im = ref_at(r, i);
        if (r->image_used[i] || !im->fbo || im->frame != frame || im->ctx_id != ctx->desc->id)
            continue;
        r->image_used[i] = true;
        r->res->frames_checked++;
        uint8_t *px = malloc((size_t)im->width * im->height * 4);
        if (!px || glrh_read_draw_attachment(&r->gl, ctx->desc, im->attachment, im->width, im->height, px) != 0) {
            fprintf(r->out, "pass %u frame %u (context %u): cannot read framebuffer %u attachment 0x%04x\n",
                    r->pass + 1, frame, ctx->desc->id, im->fbo, im->attachment);
            r->res->frames_differing++;
            free(px);
            continue;
        }
        struct glrh_diff d;
        ref_diff(im, px, &d);
        char what[96];
        snprintf(what, sizeof what, "framebuffer %u colour attachment %u", im->fbo, im->attachment - GL_COLOR_ATTACHMENT0);
        if (d.pixels) {
            r->res->frames_differing++;
            fprintf(r->out, "pass %u frame %u (context %u, %s, %ux%u): DIFFERS from the reference\n", r->pass + 1,
                    frame, ctx->desc->id, what, im->width, im->height);
            report_ref(r, im, &d);
        } else if (r->pass == 0) {
            fprintf(r->out, "frame %u (context %u, %s, %ux%u): %s\n", frame, ctx->desc->id, what,
                    im->width, im->height, matches(im));
        }
        free(px);
    }
}

int glrh_on_swap(struct replayer *r, const struct glr_call *c)
{
    uint64_t swap = r->swap_index++;
    if (!c->ctx_id)
        return 0;
    if (!r->readback) {
        /* A swap flushes the context (eglSwapBuffers/glXSwapBuffers imply glFlush): each frame is
         * handed to the driver at its swap, as the program did, rather than frames queueing up
         * until the end of the pass. (The read-back below waits for the frame anyway.) A swap of
         * a context the replay cannot make current is skipped, as before. */
        if (glrh_make_current(r, c->ctx_id) == 0)
            r->gl.Flush();
        else if (r->err_size)
            r->err[0] = 0;
        return 0;
    }
    if (glrh_make_current(r, c->ctx_id) != 0)
        return -1;
    struct rctx *ctx = r->current;
    size_t need = (size_t)ctx->w * ctx->h * 4;
    if (need > r->swap_pixels_size) {
        uint8_t *p = realloc(r->swap_pixels, need);
        if (!p) {
            glrh_seterr(r, "out of memory");
            return -1;
        }
        r->swap_pixels = p;
        r->swap_pixels_size = need;
    }
    uint32_t frame = (uint32_t)c->args[0];
    if (glrh_read_back_buffer(&r->gl, ctx->desc, ctx->w, ctx->h, r->swap_pixels) != 0) {
        fprintf(r->out, "frame %u (context %u): cannot read the back buffer\n", frame, ctx->desc->id);
        r->res->frames_differing++;
        return 0;
    }
    if (r->opt->png_dir && r->pass == 0)
        write_png_or_warn(r, "swap", r->swap_pixels, ctx->w, ctx->h);
    if (r->opt->verify) {
        const struct glrh_image *ref = reference_for(r, frame, ctx->desc->id);
        r->res->frames_checked++;
        if (!ref) {
            fprintf(r->out, "pass %u frame %u (context %u): no reference image in the capture\n", r->pass + 1, frame,
                    ctx->desc->id);
            r->res->frames_unmatched++;
        } else if (ref->width != ctx->w || ref->height != ctx->h) {
            fprintf(r->out, "pass %u frame %u (context %u): reference is %ux%u, the replay surface %ux%u\n",
                    r->pass + 1, frame, ctx->desc->id, ref->width, ref->height, ctx->w, ctx->h);
            r->res->frames_differing++;
        } else {
            struct glrh_diff d;
            ref_diff(ref, r->swap_pixels, &d);
            if (d.pixels) {
                r->res->frames_differing++;
                fprintf(r->out, "pass %u frame %u (context %u, %ux%u): DIFFERS from the reference\n", r->pass + 1,
                        frame, ctx->desc->id, ctx->w, ctx->h);
                report_ref(r, ref, &d);
            } else if (r->pass == 0) {
                fprintf(r->out, "frame %u (context %u, %ux%u): %s\n", frame, ctx->desc->id, ctx->w, ctx->h,
                        matches(ref));
            }
        }
    }
    if (r->opt->verify)
        verify_fbo_images(r, frame);
    /* Every pass must give the images of the first one. */
    if (r->pass == 0) {
        struct pass_image *n = realloc(r->first_pass, (r->n_first_pass + 1) * sizeof *n);
        uint8_t *copy = malloc(need);
        if (!n || !copy) {
            free(copy);
            if (n)
                r->first_pass = n;
            glrh_seterr(r, "out of memory");
            return -1;
        }
        r->first_pass = n;
        memcpy(copy, r->swap_pixels, need);
        r->first_pass[r->n_first_pass++] = (struct pass_image){ copy, ctx->w, ctx->h };
    } else if (swap < r->n_first_pass) {
        const struct pass_image *pi = &r->first_pass[swap];
        struct glrh_diff d = { 0 };
        if (pi->w == ctx->w && pi->h == ctx->h)
            glrh_image_diff(r->swap_pixels, pi->pixels, ctx->w, ctx->h, &d);
        if (pi->w != ctx->w || pi->h != ctx->h || d.pixels) {
            fprintf(r->out, "pass %u frame %u (context %u): differs from pass 1\n", r->pass + 1, frame, ctx->desc->id);
            if (d.pixels)
                report_diff(r, "pass 1", &d);
            r->res->passes_inconsistent++;
        }
    }
    return 0;
}

void glrh_png_after_draw(struct replayer *r, uint32_t cmd)
{
    uint8_t *px;
    unsigned w, h;
    if (glrh_read_draw_buffer(&r->gl, r->current->desc, r->current->w, r->current->h, &px, &w, &h) != 0)
        return; /* not an RGBA8-readable target: nothing to picture */
    write_png_or_warn(r, glr_cmd_name(cmd), px, w, h);
    free(px);
}

void glrh_image_after_draw(struct replayer *r, uint32_t cmd)
{
    uint8_t *px;
    unsigned w, h;
    if (glrh_read_draw_buffer(&r->gl, r->current->desc, r->current->w, r->current->h, &px, &w, &h) != 0)
        return;
    r->opt->on_image(r->opt->on_image_user, r->record, cmd, px, w, h);
    free(px);
}

/* Reference images no swap of the pass matched: the end of a capture without a swap (a program
 * that never swaps, glreplay_capture_end, a context released or destroyed: shim/capture.c keeps
 * them as the context's last state). Compared with the same context's framebuffer after the last
 * record: its back buffer, or the colour attachment of the framebuffer object it has bound for
 * drawing (which must be the captured one). An image the replay cannot read differs. */
void glrh_verify_end_images(struct replayer *r)
{
    for (unsigned i = 0; i < n_refs(r); i++) {
        const struct glrh_image *im = ref_at(r, i);
        if (r->image_used[i])
            continue;
        r->image_used[i] = true;
        r->res->frames_checked++;
        char what[128];
        if (im->fbo)
            snprintf(what, sizeof what, "framebuffer %u colour attachment %u", im->fbo, im->attachment - GL_COLOR_ATTACHMENT0);
        else
            snprintf(what, sizeof what, "back buffer");
        const char *why = NULL;
        uint8_t *px = NULL;
        if (glrh_make_current(r, im->ctx_id) != 0) {
            why = "its context cannot be made current";
        } else if (!(px = malloc((size_t)im->width * im->height * 4))) {
            why = "out of memory";
        } else if (im->fbo) {
            GLint bound = 0;
            r->gl.GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
            uint64_t want = glr_dispatch_lookup(r->disp, im->ctx_id, GLR_OBJ_FRAMEBUFFER, im->fbo);
            if ((uint64_t)(GLuint)bound != want)
                why = "that framebuffer is not bound for drawing at the end of the replay";
            else if (glrh_read_draw_attachment(&r->gl, r->current->desc, im->attachment, im->width, im->height, px) != 0)
                why = "cannot read it";
        } else if (im->width != r->current->w || im->height != r->current->h) {
            why = "the replay surface has another size";
        } else if (glrh_read_back_buffer(&r->gl, r->current->desc, im->width, im->height, px) != 0) {
            why = "cannot read it";
        }
        if (why) {
            fprintf(r->out, "pass %u end of frame %u (context %u, %s): %s\n", r->pass + 1, im->frame, im->ctx_id, what,
                    why);
            r->res->frames_differing++;
            free(px);
            continue;
        }
        struct glrh_diff d;
        ref_diff(im, px, &d);
        if (d.pixels) {
            r->res->frames_differing++;
            fprintf(r->out, "pass %u end of frame %u (context %u, %s, %ux%u): DIFFERS from the reference\n",
                    r->pass + 1, im->frame, im->ctx_id, what, im->width, im->height);
            report_ref(r, im, &d);
        } else if (r->pass == 0) {
            fprintf(r->out, "end of frame %u (context %u, %s, %ux%u): %s\n", im->frame, im->ctx_id,
                    what, im->width, im->height, matches(im));
        }
        free(px);
    }
}
