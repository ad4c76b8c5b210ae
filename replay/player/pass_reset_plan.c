/* The pass reset plan (see pass_reset.h): one walk of the frame through a copy of the initial
 * state model (pass_reset_walk.c) finds what the frame writes, creates and deletes; then the reset
 * calls are built (pass_reset_objects.c, pass_reset_diff.c) and run between passes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"
#include "replay/restore_matrix_class.h"

/* ---------------------------------------------------------------- the plan */

static bool default_blob_wanted(void *user, enum glr_restore_content what, uint32_t ctx_id, uint32_t name)
{
    struct glrh_reset *p = user;
    const struct sm_context *c = sm_context_get(p->init, ctx_id);
    if (!c)
        return false;
    if (what == GLR_CONTENT_DEFAULT_COLOR)
        return pr_cover_needs_contents(p, pr_cover_key(PR_OBJ_DEFAULT_COLOR, c, 0));
    if (what == GLR_CONTENT_DEFAULT_DEPTH_STENCIL)
        return pr_cover_needs_contents(p, pr_cover_key(PR_OBJ_DEFAULT_DS, c, 0));
    return pr_set_has(&p->rb_written, pr_key(c, name)) &&
           pr_cover_needs_contents(p, pr_cover_key(PR_OBJ_RENDERBUFFER, c, name));
}

/* Queries holding a result from before the frame (kept by the snapshot) whose object the frame
 * begins again or the reset makes anew: their result is made again after the reset. */
static void find_queries_remade(struct glrh_reset *p)
{
    for (size_t ci = 0; ci < sm_context_count(p->init); ci++) {
        const struct sm_context *c = sm_context_at(p->init, ci);
        const struct sm_context *e = sm_context_get(p->end, sm_context_id(c));
        size_t n;
        uint32_t *names = pr_names_of(c, SM_OBJ_QUERY, &n);
        for (size_t j = 0; names && j < n; j++) {
            const struct sm_query *q = sm_get_query(c, names[j]), *qe = e ? sm_get_query(e, names[j]) : NULL;
            if (q && q->has_result && !(qe && qe->has_result) &&
                !pr_set_add(&p->queries_remade, (uint64_t)sm_context_id(c) << 32 | names[j]))
                pr_fail(p, "out of memory");
        }
        free(names);
    }
}

static bool query_wanted(void *user, uint32_t ctx_id, uint32_t name)
{
    struct glrh_reset *p = user;
    return pr_set_has(&p->queries_remade, (uint64_t)ctx_id << 32 | name);
}

static void count_summary(struct glrh_reset *p)
{
    p->sum.buffers_written = (unsigned)p->buf_written.used;
    p->sum.textures_written = (unsigned)p->tex_written.used;
    p->sum.renderbuffers_written = (unsigned)p->rb_written.used;
    p->sum.default_written = (unsigned)(p->default_written.used + p->default_written.has_zero);
    p->sum.reset_calls = p->reset.count;
    p->sum.end_calls = p->end_calls.count;
    for (size_t ci = 0; ci < sm_context_count(p->init); ci++) {
        const struct sm_context *c = sm_context_at(p->init, ci);
        if (sm_context_share_id(c) != sm_context_id(c))
            continue;
        size_t n;
        uint32_t *names = pr_names_of(c, SM_OBJ_BUFFER, &n);
        for (size_t j = 0; names && j < n; j++)
            if (pr_set_has(&p->used_buf, pr_key(c, names[j]))) {
                p->sum.used_buffers++;
                p->sum.used_buffer_bytes += sm_get_buffer(c, names[j])->size;
            }
        free(names);
        names = pr_names_of(c, SM_OBJ_TEXTURE, &n);
        for (size_t j = 0; names && j < n; j++) {
            if (!pr_set_has(&p->used_tex, pr_key(c, names[j])))
                continue;
            const struct sm_texture *t = sm_get_texture(c, names[j]);
            p->sum.used_textures++;
            for (int f = 0; f < 6; f++)
                for (int l = 0; l < SM_MAX_LEVELS; l++) {
                    const struct sm_tex_image *im = &t->image[f][l];
                    if (im->defined)
                        p->sum.used_texture_bytes += im->data ? im->data_size
                            : (uint64_t)im->width * (uint64_t)(im->height ? im->height : 1) *
                              (uint64_t)(im->depth ? im->depth : 1) * 4u;
                }
        }
        free(names);
    }
}

struct glrh_reset *glrh_reset_plan(struct glr_restore *restore, const struct glrh_capture *cap, char *why,
                                   size_t why_size)
{
    struct glrh_reset *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    p->restore = restore;
    p->why = why;
    p->why_size = why_size;
    p->init = glr_restore_state(restore);
    p->end = p->init ? sm_state_clone(p->init) : NULL;
    if (!p->end)
        pr_fail(p, "out of memory");
    else if (pr_walk(p, cap) && pr_created_and_deleted(p) && pr_check_programs(p) && pr_uploads(p)) {
        pr_apply_from(p, 0);
        if (pr_diff_objects(p))
            pr_diff_context(p);
    }
    if (!p->failed)
        find_queries_remade(p);
    if (!p->failed && (p->reset.failed || p->end_calls.failed))
        pr_fail(p, "out of memory");
    if (p->failed) {
        glrh_reset_free(p);
        return NULL;
    }
    count_summary(p);
    /* The model copy is no longer needed. */
    sm_state_free(p->end);
    p->end = NULL;
    return p;
}

void glrh_reset_free(struct glrh_reset *p)
{
    if (!p)
        return;
    sm_state_free(p->end);
    pr_set_free(&p->buf_written);
    pr_set_free(&p->tex_written);
    pr_set_free(&p->rb_written);
    pr_set_free(&p->default_written);
    pr_cover_free(p);
    free(p->syncs_made);
    free(p->syncs_gone);
    pr_set_free(&p->relink);
    pr_set_free(&p->used_buf);
    pr_set_free(&p->used_tex);
    pr_set_free(&p->queries_remade);
    sm_call_list_free(&p->reset);
    sm_call_list_free(&p->end_calls);
    free(p);
}

void glrh_reset_summary(const struct glrh_reset *p, struct glrh_reset_summary *out)
{
    *out = p->sum;
}

static int run_list(const struct sm_call_list *l, struct glr_dispatch *d, glr_make_current_fn make_current,
                    void *user, struct glr_restore_stats *st)
{
    uint32_t cur = 0;
    for (size_t i = 0; i < l->count; i++) {
        const struct glr_call *c = &l->calls[i];
        if (c->ctx_id != cur) {
            if (make_current(user, c->ctx_id) != 0)
                return -1;
            cur = c->ctx_id;
        }
        int k = glr_dispatch_call(d, c);
        /* A modelview loaded back is classified at once, as in the first restore. */
        if (k != GLR_DISPATCH_MISSING && k != GLR_DISPATCH_BAD)
            glr_restore_matrix_loaded(d, c);
        if (st) {
            st->calls++;
            if (k == GLR_DISPATCH_MISSING || k == GLR_DISPATCH_BAD) {
                st->calls_failed++;
                if (!st->first_failed)
                    st->first_failed = glr_cmd_name(c->cmd);
            }
        }
    }
    return 0;
}

void glrh_reset_end_pass(struct glrh_reset *p, struct glr_dispatch *d, glr_make_current_fn make_current, void *user)
{
    run_list(&p->end_calls, d, make_current, user, NULL);
}

int glrh_reset_run(struct glrh_reset *p, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                   struct glr_restore_stats *st)
{
    memset(st, 0, sizeof *st);
    if (run_list(&p->reset, d, make_current, user, st) != 0)
        return -1;
    glr_restore_recopy(p->restore, d, make_current, user, default_blob_wanted, p, st);
    if (p->queries_remade.used || p->queries_remade.has_zero)
        glr_restore_query_results(glr_restore_query_maker(p->restore), p->init, d, make_current, user, query_wanted,
                                  p, st);
    return 0;
}

