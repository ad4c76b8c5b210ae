/* Program pipeline objects (GL 4.1, ARB_separate_shader_objects): with no program current, a
 * draw runs the stages of the bound pipeline, each taken from the separable program
 * glUseProgramStages gave it. The model compiles those stages together as one program (the
 * GLSL sources as each program linked them), caches it per pipeline and stage programs, and
 * feeds each stage the uniform values of its own program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

/* The pipeline stages the model runs, in gm_stage order of a draw. */
static const struct { int sm; gm_stage gm; uint32_t type; const char *ext; } stages[GMF_PPO_STAGES] = {
    { SM_ST_VERTEX, GM_STAGE_VERTEX, GL_VERTEX_SHADER, "vert" },
    { SM_ST_TESS_CONTROL, GM_STAGE_TESS_CONTROL, GL_TESS_CONTROL_SHADER, "tesc" },
    { SM_ST_TESS_EVAL, GM_STAGE_TESS_EVALUATION, GL_TESS_EVALUATION_SHADER, "tese" },
    { SM_ST_GEOMETRY, GM_STAGE_GEOMETRY, GL_GEOMETRY_SHADER, "geom" },
    { SM_ST_FRAGMENT, GM_STAGE_FRAGMENT, GL_FRAGMENT_SHADER, "frag" },
};

typedef struct ppo_entry {
    uint32_t share, pipeline;
    uint32_t prog[GMF_PPO_STAGES], link[GMF_PPO_STAGES];
    gmf_prog *p;
} ppo_entry;

struct gmf_ppo_cache {
    ppo_entry *e;
    int n, cap;
};

void gmf_ppo_free(gmf_runner *r)
{
    struct gmf_ppo_cache *pc = r->ppc;
    if (!pc)
        return;
    for (int i = 0; i < pc->n; i++)
        gmf_prog_free(pc->e[i].p);
    free(pc->e);
    free(pc);
    r->ppc = NULL;
}

/* The linked shader of `type` in program sp, or NULL. */
static const struct sm_linked_shader *linked_of(const struct sm_program *sp, uint32_t type)
{
    for (uint32_t i = 0; sp && i < sp->n_linked; i++)
        if (sp->linked[i].type == type)
            return &sp->linked[i];
    return NULL;
}

static gmf_prog *build(gmf_runner *r, const struct sm_context *c, const struct sm_pipeline *pl,
                       gmf_event *ev)
{
    gm_shader_source src[GMF_PPO_STAGES];
    char names[GMF_PPO_STAGES][48];
    int n = 0;
    const struct sm_program *vsp = NULL;
    for (int s = 0; s < GMF_PPO_STAGES; s++) {
        const struct sm_program *sp = pl->stage[stages[s].sm] ? sm_get_program(c, pl->stage[stages[s].sm]) : NULL;
        const struct sm_linked_shader *ls = linked_of(sp, stages[s].type);
        if (!ls)
            continue;   /* GL: a stage the program does not have is empty */
        if (ls->spirv) {
            gmf_note(ev, "program pipeline %u: SPIR-V stages (not modelled in pipelines)", pl->name);
            return NULL;
        }
        if (s == 0)
            vsp = sp;
        snprintf(names[s], sizeof names[s], "program%u.%s", sp->name, stages[s].ext);
        src[n++] = (gm_shader_source){ stages[s].gm, ls->source ? ls->source : "", names[s] };
    }
    if (!vsp) {
        gmf_note(ev, "program pipeline %u has no vertex stage program", pl->name);
        return NULL;
    }
    char label[48];
    snprintf(label, sizeof label, "program pipeline %u", pl->name);
    gmf_prog *p = gmf_prog_from_sources(r, c, vsp, src, n, label);
    if (p) {
        p->ppo = true;
        for (int s = 0; s < GMF_PPO_STAGES; s++)
            p->ppo_prog[s] = pl->stage[stages[s].sm];
    }
    return p;
}

gmf_prog *gmf_ppo_prog(gmf_runner *r, const struct sm_context *c, uint32_t pipeline, gmf_event *ev)
{
    const struct sm_pipeline *pl = sm_get_pipeline(c, pipeline);
    if (!pl) {
        gmf_note(ev, "program pipeline %u unknown", pipeline);
        return NULL;
    }
    if (!r->ppc && !(r->ppc = calloc(1, sizeof *r->ppc)))
        return NULL;
    struct gmf_ppo_cache *pc = r->ppc;
    ppo_entry key = { sm_context_share_id(c), pipeline, { 0 }, { 0 }, NULL };
    for (int s = 0; s < GMF_PPO_STAGES; s++) {
        const struct sm_program *sp = pl->stage[stages[s].sm] ? sm_get_program(c, pl->stage[stages[s].sm]) : NULL;
        key.prog[s] = sp ? sp->name : 0;
        key.link[s] = sp ? sp->link_count : 0;
    }
    ppo_entry *e = NULL;
    for (int i = 0; i < pc->n && !e; i++)
        if (pc->e[i].share == key.share && pc->e[i].pipeline == pipeline)
            e = &pc->e[i];
    if (e && !memcmp(e->prog, key.prog, sizeof key.prog) && !memcmp(e->link, key.link, sizeof key.link))
        return e->p;
    if (e) {   /* stages changed or relinked: build again (the timing model caches by pointer) */
        gm_program *old[] = { e->p ? e->p->vs : NULL, e->p ? e->p->fs : NULL, e->p ? e->p->gs : NULL };
        for (size_t i = 0; r->tm && i < sizeof old / sizeof *old; i++)
            if (old[i])
                gm_timing_forget_program(r->tm, old[i]);
        gmf_prog_free(e->p);
        e->p = NULL;
    } else {
        if (pc->n == pc->cap) {
            int cap = pc->cap ? 2 * pc->cap : 8;
            ppo_entry *ne = realloc(pc->e, (size_t)cap * sizeof *ne);
            if (!ne)
                return NULL;
            pc->e = ne;
            pc->cap = cap;
        }
        e = &pc->e[pc->n++];
    }
    *e = key;
    e->p = build(r, c, pl, ev);
    return e->p;
}

