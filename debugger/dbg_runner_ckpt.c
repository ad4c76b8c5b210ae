/* The frame runner's side of per-draw checkpoints (dbg_ckpt.h): taking one before a draw's
 * record while a pass runs, and the model state a pass starting at one installs
 * (gpu_model/frame/gmf_checkpoint.h). */
#include <stdio.h>
#include "gpu_model/frame/gmf_checkpoint.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner_ckpt.h"

static void model_free(void *m)
{
    gmf_checkpoint_free(m);
}

static size_t model_bytes(const void *m)
{
    return gmf_checkpoint_bytes(m);
}

struct dbg_ckpts *dbg_runner_ckpts_new(void)
{
    return dbg_ckpts_new(model_free, model_bytes);
}

void dbg_runner_ckpt_offer(struct dbg_ckpts *s, const struct dbg_capture *cap, int *next_draw, uint64_t record,
                           gmf_runner *r, void *observer_ctx, bool timing, bool profile)
{
    if (!s || !s->engine_take || s->too_big)
        return;
    while (*next_draw < cap->n_draws && cap->draws[*next_draw].record < record)
        (*next_draw)++;
    /* Not before the first draw: a pass from there would run as much of the model as from the
     * frame's start. */
    if (*next_draw == 0 || *next_draw >= cap->n_draws || cap->draws[*next_draw].record != record ||
        dbg_ckpts_has(s, record))
        return;
    if (s->n && s->timing != timing)
        dbg_ckpts_clear(s);
    struct dbg_ckpt c = { .record = record };
    if (!s->engine_take(observer_ctx, &c.instructions, &c.lines))
        return;
    /* Images equal to the latest earlier checkpoint's are shared with it. */
    const gmf_checkpoint *prev = NULL;
    for (int i = 0; i < s->n && s->c[i].record < record; i++)
        prev = s->c[i].model;
    const char *why = NULL;
    c.model = gmf_checkpoint_take(r, prev, &why);
    if (!c.model) {
        if (profile)
            fprintf(stderr, "glreplay: dap-profile no checkpoint at record %llu: %s\n", (unsigned long long)record,
                    why ? why : "?");
        dbg_line_hits_free(&c.lines);
        return;
    }
    gmf_totals t;
    gmf_get_totals(r, &t);
    c.draw = (int)t.draws;
    s->timing = timing;
    dbg_ckpts_add(s, &c);
    if (profile)
        fprintf(stderr, "glreplay: dap-profile checkpoint before draw %d (record %llu): %zu kept, %.1f MiB\n", c.draw,
                (unsigned long long)record, (size_t)s->n, (double)dbg_ckpts_bytes(s) / (1 << 20));
}

int dbg_runner_ckpt_install(gmf_runner *r, const struct dbg_ckpt *c)
{
    return gmf_checkpoint_install(r, c->model);
}
