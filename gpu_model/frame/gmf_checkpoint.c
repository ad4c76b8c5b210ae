/* Checkpoints of the frame runner's state (see gmf_checkpoint.h). Images are kept as reference-
 * counted copies; a checkpoint taken after another one of the same pass shares every image that
 * did not change between them (compared byte for byte, which costs what a copy costs but no
 * memory), so a frame that draws into one target keeps one new target image per draw. */
#include <stdlib.h>
#include <string.h>
#include "gmf_internal.h"
#include "gmf_checkpoint.h"

struct ck_blob {
    int refs;
    size_t n;
    unsigned char data[];
};

struct gmf_checkpoint {
    gmf_texture *tex;                        /* level data pointers NULL; contents in tex_lv */
    struct ck_blob *(*tex_lv)[GM_TEX_MAX_LEVELS];
    int n_tex;
    gmf_renderbuffer *rbs;
    struct ck_blob **rb_b;
    int n_rbs;
    gmf_default_fb *fbs;
    struct ck_blob **fb_b;                   /* colour, depth/stencil per framebuffer */
    int n_fbs;
    uint64_t tex_epoch, frame_warps;
    gmf_totals totals;
    char **unsup_names;
    uint64_t *unsup_counts;
    int n_unsup;
    gm_pipe_stats stats, units_sent;
    float line_stipple_counter;
    int last_sm;
    gm_timing *tm;                           /* NULL: the runner runs without the timing model */
    size_t bytes;                            /* without the images (gmf_checkpoint_bytes) */
};

static size_t surf_bytes(const gm_surface *s)
{
    return s->data ? s->layer_stride * (size_t)(s->depth > 0 ? s->depth : 1) : 0;
}

static void blob_unref(struct ck_blob *b)
{
    if (b && --b->refs == 0)
        free(b);
}

/* A blob with s's contents: `same` (an earlier checkpoint's blob of the same object) when the
 * contents are equal, else a new copy (*added grows by its size). *ok false when memory ran out. */
static struct ck_blob *keep(const gm_surface *s, struct ck_blob *same, size_t *added, bool *ok)
{
    size_t n = surf_bytes(s);
    if (!n)
        return NULL;
    if (same && same->n == n && !memcmp(same->data, s->data, n)) {
        same->refs++;
        return same;   /* no new memory */
    }
    struct ck_blob *b = malloc(sizeof *b + n);
    if (!b) {
        *ok = false;
        return NULL;
    }
    b->refs = 1;
    b->n = n;
    memcpy(b->data, s->data, n);
    *added += sizeof *b;
    return b;
}

/* Why the runner's state is not only images and counters (see gmf_checkpoint.h). */
static const char *unkeepable(const gmf_runner *r)
{
    if (r->cur_draw || r->stopped)
        return "inside a draw";
    if (r->queries)
        return "query objects (their results are written into buffers and decide conditional rendering)";
    if (r->xfb)
        return "transform feedback writes buffers";
    if (r->ppc)
        return "program pipeline objects";
    for (int i = 0; i < r->n_progs; i++) {
        const gmf_prog *p = r->progs[i];
        if (p->cs)
            return "compute shaders write buffers";
        for (int s = 0; s < 3; s++)
            for (int b = 0; b < p->n_blocks[s]; b++)
                if (p->blocks[s][b].storage || p->blocks[s][b].atomic)
                    return "shaders write storage or atomic-counter buffers";
    }
    if (r->tm && !gm_timing_drained(r->tm))
        return "warps in flight in the timing model";
    return NULL;
}

void gmf_checkpoint_free(gmf_checkpoint *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_tex; i++)
        for (int l = 0; l < GM_TEX_MAX_LEVELS; l++)
            blob_unref(c->tex_lv[i][l]);
    for (int i = 0; i < c->n_rbs; i++)
        blob_unref(c->rb_b[i]);
    for (int i = 0; i < 2 * c->n_fbs; i++)
        blob_unref(c->fb_b[i]);
    free(c->tex);
    free(c->tex_lv);
    free(c->rbs);
    free(c->rb_b);
    free(c->fbs);
    free(c->fb_b);
    for (int i = 0; i < c->n_unsup; i++)
        free(c->unsup_names[i]);
    free(c->unsup_names);
    free(c->unsup_counts);
    gm_timing_destroy(c->tm);
    free(c);
}

/* Fixed parts, plus each image's share: an image held by k checkpoints counts 1/k in each, so
 * the sum over a store is the memory it holds, whichever of them is dropped first. */
size_t gmf_checkpoint_bytes(const gmf_checkpoint *c)
{
    if (!c)
        return 0;
    size_t b = c->bytes;
    for (int i = 0; i < c->n_tex; i++)
        for (int l = 0; l < GM_TEX_MAX_LEVELS; l++)
            if (c->tex_lv[i][l])
                b += c->tex_lv[i][l]->n / (size_t)c->tex_lv[i][l]->refs;
    for (int i = 0; i < c->n_rbs; i++)
        if (c->rb_b[i])
            b += c->rb_b[i]->n / (size_t)c->rb_b[i]->refs;
    for (int i = 0; i < 2 * c->n_fbs; i++)
        if (c->fb_b[i])
            b += c->fb_b[i]->n / (size_t)c->fb_b[i]->refs;
    return b;
}

gmf_checkpoint *gmf_checkpoint_take(const gmf_runner *r, const gmf_checkpoint *prev, const char **why)
{
    const char *no = unkeepable(r);
    if (no) {
        *why = no;
        return NULL;
    }
    *why = "out of memory";
    gmf_checkpoint *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    bool ok = true;
    size_t added = sizeof *c + ((size_t)r->n_tex * (sizeof *c->tex + sizeof *c->tex_lv)) +
                   (size_t)r->n_rbs * (sizeof *c->rbs + sizeof *c->rb_b) +
                   (size_t)r->n_fbs * (sizeof *c->fbs + 2 * sizeof *c->fb_b);   /* fixed parts */
    c->tex = calloc((size_t)r->n_tex + 1, sizeof *c->tex);
    c->tex_lv = calloc((size_t)r->n_tex + 1, sizeof *c->tex_lv);
    c->rbs = calloc((size_t)r->n_rbs + 1, sizeof *c->rbs);
    c->rb_b = calloc((size_t)r->n_rbs + 1, sizeof *c->rb_b);
    c->fbs = calloc((size_t)r->n_fbs + 1, sizeof *c->fbs);
    c->fb_b = calloc(2 * (size_t)r->n_fbs + 1, sizeof *c->fb_b);
    c->unsup_names = calloc((size_t)r->n_unsup + 1, sizeof *c->unsup_names);
    c->unsup_counts = calloc((size_t)r->n_unsup + 1, sizeof *c->unsup_counts);
    if (!c->tex || !c->tex_lv || !c->rbs || !c->rb_b || !c->fbs || !c->fb_b || !c->unsup_names || !c->unsup_counts) {
        gmf_checkpoint_free(c);
        return NULL;
    }
    for (int i = 0; i < r->n_tex && ok; i++) {
        const gmf_texture *t = r->tex[i];
        int pi = -1;
        for (int k = 0; prev && k < prev->n_tex && pi < 0; k++)
            if (prev->tex[k].share == t->share && prev->tex[k].name == t->name)
                pi = k;
        c->tex[i] = *t;
        for (int l = 0; l < GM_TEX_MAX_LEVELS; l++) {
            c->tex[i].img.level[l].data = NULL;
            c->tex_lv[i][l] = keep(&t->img.level[l], pi >= 0 ? prev->tex_lv[pi][l] : NULL, &added, &ok);
        }
        /* where the state model's data was: not read back (the upload hashes decide) */
        for (int f = 0; f < 6; f++)
            for (int l = 0; l < SM_MAX_LEVELS; l++)
                c->tex[i].src[f][l].data = NULL;
        c->n_tex = i + 1;
    }
    for (int i = 0; i < r->n_rbs && ok; i++) {
        const gmf_renderbuffer *b = r->rbs[i];
        struct ck_blob *same = NULL;
        for (int k = 0; prev && k < prev->n_rbs && !same; k++)
            if (prev->rbs[k].share == b->share && prev->rbs[k].name == b->name)
                same = prev->rb_b[k];
        c->rbs[i] = *b;
        c->rbs[i].surf.data = NULL;
        c->rb_b[i] = keep(&b->surf, same, &added, &ok);
        c->n_rbs = i + 1;
    }
    for (int i = 0; i < r->n_fbs && ok; i++) {
        const gmf_default_fb *d = &r->fbs[i];
        int pi = -1;
        for (int k = 0; prev && k < prev->n_fbs && pi < 0; k++)
            if (prev->fbs[k].ctx_id == d->ctx_id)
                pi = k;
        c->fbs[i] = *d;
        c->fbs[i].color.data = c->fbs[i].ds.data = NULL;
        c->fb_b[2 * i] = keep(&d->color, pi >= 0 ? prev->fb_b[2 * pi] : NULL, &added, &ok);
        c->fb_b[2 * i + 1] = keep(&d->ds, pi >= 0 ? prev->fb_b[2 * pi + 1] : NULL, &added, &ok);
        c->n_fbs = i + 1;
    }
    for (int i = 0; i < r->n_unsup && ok; i++) {
        if (!(c->unsup_names[i] = strdup(r->unsup_names[i])))
            ok = false;
        c->unsup_counts[i] = r->unsup_counts[i];
        c->n_unsup = i + 1;
    }
    if (ok && r->tm) {
        gm_timing_config cfg;
        gm_timing_get_config(r->tm, &cfg);
        char err[128];
        c->tm = gm_timing_create(&cfg, err, sizeof err);
        ok = c->tm && gm_timing_copy_state(c->tm, r->tm) == 0;
        added += gm_timing_state_bytes(r->tm);
    }
    if (!ok) {
        gmf_checkpoint_free(c);
        return NULL;
    }
    c->tex_epoch = r->tex_epoch;
    c->frame_warps = r->frame_warps;
    c->totals = r->totals;
    c->stats = r->pipe.stats;
    c->line_stipple_counter = r->pipe.line_stipple_counter;
    c->units_sent = r->units_sent;
    c->last_sm = r->last_sm;
    c->bytes = added;
    *why = NULL;
    return c;
}

/* A surface with the blob's contents (its own memory: the runner draws into it). */
static bool give(gm_surface *dst, const gm_surface *meta, const struct ck_blob *b)
{
    *dst = *meta;
    dst->data = NULL;
    if (!b)
        return true;
    dst->data = malloc(b->n);
    if (!dst->data)
        return false;
    memcpy(dst->data, b->data, b->n);
    return true;
}

int gmf_checkpoint_install(gmf_runner *r, const gmf_checkpoint *c)
{
    if (!c || (r->tm != NULL) != (c->tm != NULL) || r->cur_draw)
        return -1;
    if (r->tm && gm_timing_copy_state(r->tm, c->tm) != 0)
        return -1;
    gmf_texture **tex = calloc((size_t)c->n_tex + 1, sizeof *tex);
    gmf_renderbuffer **rbs = calloc((size_t)c->n_rbs + 1, sizeof *rbs);
    gmf_default_fb *fbs = calloc((size_t)c->n_fbs + 1, sizeof *fbs);
    char **un = calloc((size_t)c->n_unsup + 1, sizeof *un);
    uint64_t *uc = calloc((size_t)c->n_unsup + 1, sizeof *uc);
    bool ok = tex && rbs && fbs && un && uc;
    for (int i = 0; ok && i < c->n_tex; i++) {
        if (!(tex[i] = calloc(1, sizeof *tex[i]))) {
            ok = false;
            break;
        }
        *tex[i] = c->tex[i];
        for (int l = 0; l < GM_TEX_MAX_LEVELS; l++)
            ok &= give(&tex[i]->img.level[l], &c->tex[i].img.level[l], c->tex_lv[i][l]);
    }
    for (int i = 0; ok && i < c->n_rbs; i++) {
        if (!(rbs[i] = calloc(1, sizeof *rbs[i]))) {
            ok = false;
            break;
        }
        *rbs[i] = c->rbs[i];
        ok &= give(&rbs[i]->surf, &c->rbs[i].surf, c->rb_b[i]);
    }
    for (int i = 0; ok && i < c->n_fbs; i++) {
        fbs[i] = c->fbs[i];
        ok &= give(&fbs[i].color, &c->fbs[i].color, c->fb_b[2 * i]);
        ok &= give(&fbs[i].ds, &c->fbs[i].ds, c->fb_b[2 * i + 1]);
    }
    for (int i = 0; ok && i < c->n_unsup; i++) {
        ok &= (un[i] = strdup(c->unsup_names[i])) != NULL;
        uc[i] = c->unsup_counts[i];
    }
    if (!ok) {
        for (int i = 0; i < c->n_tex && tex; i++)
            if (tex[i]) {
                for (int l = 0; l < GM_TEX_MAX_LEVELS; l++)
                    free(tex[i]->img.level[l].data);
                free(tex[i]);
            }
        for (int i = 0; i < c->n_rbs && rbs; i++)
            if (rbs[i]) {
                free(rbs[i]->surf.data);
                free(rbs[i]);
            }
        for (int i = 0; i < c->n_fbs && fbs; i++) {
            free(fbs[i].color.data);
            free(fbs[i].ds.data);
        }
        for (int i = 0; i < c->n_unsup && un; i++)
            free(un[i]);
        free(tex);
        free(rbs);
        free(fbs);
        free(un);
        free(uc);
        return -1;
    }
    /* Whatever the programs-only prefix made goes; the checkpoint's images come in. */
    gmf_images_free(r);
    r->tex = tex;
    r->n_tex = r->cap_tex = c->n_tex;
    r->rbs = rbs;
    r->n_rbs = r->cap_rbs = c->n_rbs;
    r->fbs = fbs;
    r->n_fbs = c->n_fbs;
    for (int i = 0; i < r->n_unsup; i++)
        free(r->unsup_names[i]);
    free(r->unsup_names);
    free(r->unsup_counts);
    r->unsup_names = un;
    r->unsup_counts = uc;
    r->n_unsup = r->cap_unsup = c->n_unsup;
    r->tex_epoch = c->tex_epoch;
    r->frame_warps = c->frame_warps;
    r->totals = c->totals;
    r->pipe.stats = c->stats;
    r->pipe.line_stipple_counter = c->line_stipple_counter;
    r->units_sent = c->units_sent;
    r->last_sm = c->last_sm;
    return 0;
}
