/* The real runner: the frame runner of gpu_model/frame/ (gmf_frame.h) executes every draw of the
 * capture; its observer is translated into the debugger's (draw, stage, warp, shader id).
 *
 * gmf_issue does not carry the gm_program the warp runs, which the snapshot needs for variable
 * names and types. The program is compiled here a second time from the same linked sources in
 * the same order (the front end is deterministic, so variable indexes match the runner's);
 * values are always read through the runner's warp, so uniforms are the runner's.
 * TODO(frame runner): a gm_program pointer in gmf_issue would remove this second compile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "glcap_file.h"
#include "gpu_model/frame/gmf_frame.h"
#include "replay/headless/headless.h"
#include "statemodel/statemodel.h"
#include "statemodel/registry/glr_call_codec.h"
#include "ui_ipc/dap/dap_capture.h"
#include "ui_ipc/dap/dap_runner.h"

#define GL_FRAGMENT_SHADER 0x8B30
#define GL_VERTEX_SHADER 0x8B31

struct prog_meta {
    uint32_t ctx, name, link_count;
    gm_compile_result cr;
    gm_program *stage_prog[2];   /* VS, FS */
    int shader[2];
};

struct frame_impl {
    const struct dap_capture *cap;
    char *metadata;
    gmf_surface_desc *surfaces;
    int n_surfaces;
    struct prog_meta *progs;
    int n_progs;
    /* per pass */
    gmf_runner *r;
    dap_observe_fn fn;
    void *fn_ctx;
    uint32_t cur_ctx;
    uint64_t cur_record;
};

static struct prog_meta *meta_for(struct frame_impl *f, uint32_t ctx_id, uint32_t name)
{
    const struct sm_context *c = sm_context_get(gmf_state(f->r), ctx_id);
    const struct sm_program *sp = c ? sm_get_program(c, name) : NULL;
    if (!sp)
        return NULL;
    for (int i = 0; i < f->n_progs; i++)
        if (f->progs[i].ctx == ctx_id && f->progs[i].name == name && f->progs[i].link_count == sp->link_count)
            return &f->progs[i];
    struct prog_meta *np = realloc(f->progs, (size_t)(f->n_progs + 1) * sizeof *np);
    if (!np)
        return NULL;
    f->progs = np;
    struct prog_meta *m = &f->progs[f->n_progs++];
    memset(m, 0, sizeof *m);
    m->ctx = ctx_id;
    m->name = name;
    m->link_count = sp->link_count;
    /* Same sources, order and names as gpu_model/frame/gmf_program.c. */
    gm_shader_source src[GM_STAGE_COUNT];
    char names[GM_STAGE_COUNT][48];
    int n = 0;
    for (uint32_t i = 0; i < sp->n_linked && n < GM_STAGE_COUNT; i++) {
        uint32_t t = sp->linked[i].type;
        if (t != GL_VERTEX_SHADER && t != GL_FRAGMENT_SHADER)
            return m;
        gm_stage st = t == GL_VERTEX_SHADER ? GM_STAGE_VERTEX : GM_STAGE_FRAGMENT;
        snprintf(names[n], sizeof names[n], "program%u.%s", sp->name, st == GM_STAGE_VERTEX ? "vert" : "frag");
        const char *text = sp->linked[i].source ? sp->linked[i].source : "";
        src[n] = (gm_shader_source){ st, text, names[n] };
        m->shader[st == GM_STAGE_FRAGMENT] = dap_capture_find_shader(f->cap, st, text);
        n++;
    }
    if (!n || gm_compile_program(src, n, &m->cr) != 0)
        return m;
    char err[256];
    for (int i = 0; i < m->cr.shader_count; i++) {
        gm_compiled_shader *cs = &m->cr.shaders[i];
        if (cs->stage == GM_STAGE_VERTEX || cs->stage == GM_STAGE_FRAGMENT)
            m->stage_prog[cs->stage == GM_STAGE_FRAGMENT] = gm_program_create(cs->spirv, cs->word_count, err, sizeof err);
    }
    return m;
}

static char *state_json(void *ctx)
{
    struct frame_impl *f = ctx;
    return sm_query_json(gmf_state(f->r), f->cur_ctx);
}

static int trampoline(void *ctx, gm_warp *w, const gmf_issue *gi)
{
    struct frame_impl *f = ctx;
    struct prog_meta *m = meta_for(f, f->cur_ctx, gi->program);
    int k = gi->stage == GM_STAGE_FRAGMENT;
    if (!m || !m->stage_prog[k])
        return 0;
    struct dap_observe_info info = {
        .draw = (int)gi->draw, .event = f->cur_record, .stage = gi->stage, .program = gi->program,
        .shader = m->shader[k], .prog = m->stage_prog[k], .warp = gi->warp,
        .lane_x = gi->lane_x, .lane_y = gi->lane_y,
        .state_json = state_json, .state_ctx = f,
    };
    gm_issue is = { .warp_id = (int)gi->warp, .pc = gi->pc, .line = gi->line, .active = gi->active,
                    .call_depth = gi->call_depth };
    f->fn(f->fn_ctx, &info, w, &is);
    return 0;
}

static int frame_run(void *impl, dap_observe_fn fn, void *ctx, char *err, size_t err_size)
{
    struct frame_impl *f = impl;
    gmf_config cfg = { .metadata_json = f->metadata, .surfaces = f->surfaces, .n_surfaces = f->n_surfaces };
    f->r = gmf_create(&cfg, err, err_size);
    if (!f->r)
        return -1;
    f->fn = fn;
    f->fn_ctx = ctx;
    gmf_set_observer(f->r, trampoline, f);
    struct glr_stream s;
    struct glr_call c;
    int rc;
    int status = 0;
    /* A frame captured from a running program (live attach) starts from a snapshot with objects:
     * the runner starts empty, so the state's restore calls go first (they draw nothing, so draw
     * indexes are unchanged). A capture from context creation has no objects and skips this. */
    f->cur_record = 0;
    if (gmf_feed_initial_state(f->r, f->cap->initial) != 0) {
        snprintf(err, err_size, "out of memory restoring the capture's initial state");
        gmf_destroy(f->r);
        f->r = NULL;
        return -1;
    }
    glr_stream_init(&s, f->cap->cap->stream, f->cap->cap->stream_size);
    while ((rc = glr_stream_next(&s, &c)) == 1) {
        f->cur_record = s.index - 1;
        if (c.ctx_id)
            f->cur_ctx = c.ctx_id;
        gmf_event ev;
        if (gmf_feed(f->r, &c, f->cur_record, &ev) == GMF_ERROR) {
            snprintf(err, err_size, "the frame runner failed at record %llu", (unsigned long long)f->cur_record);
            status = -1;
            break;
        }
    }
    if (rc < 0) {
        snprintf(err, err_size, "%s", s.err);
        status = -1;
    }
    gmf_destroy(f->r);
    f->r = NULL;
    /* Programs are per pass: the next pass's state model names the same links. */
    for (int i = 0; i < f->n_progs; i++) {
        for (int k = 0; k < 2; k++)
            if (f->progs[i].stage_prog[k])
                gm_program_destroy(f->progs[i].stage_prog[k]);
        gm_compile_result_free(&f->progs[i].cr);
    }
    free(f->progs);
    f->progs = NULL;
    f->n_progs = 0;
    return status;
}

static void frame_destroy(void *impl)
{
    struct frame_impl *f = impl;
    free(f->metadata);
    free(f->surfaces);
    free(f);
}

/* The window sizes: each context's first MAKE_CURRENT with a surface size. */
static void collect_surfaces(struct frame_impl *f)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, f->cap->cap->stream, f->cap->cap->stream_size);
    while (glr_stream_next(&s, &c) == 1) {
        if (c.cmd != GLR_PSEUDO_MAKE_CURRENT || !c.ctx_id || !c.args[0] || !c.args[1])
            continue;
        bool known = false;
        for (int i = 0; i < f->n_surfaces; i++)
            known |= f->surfaces[i].ctx_id == c.ctx_id;
        if (known)
            continue;
        gmf_surface_desc *n = realloc(f->surfaces, (size_t)(f->n_surfaces + 1) * sizeof *n);
        if (!n)
            return;
        f->surfaces = n;
        f->surfaces[f->n_surfaces++] = (gmf_surface_desc){ c.ctx_id, (int)c.args[0], (int)c.args[1], false };
    }
}

struct dap_runner *dap_runner_frame_create(const struct dap_capture *cap, char *err, size_t err_size);
struct dap_runner *dap_runner_frame_create(const struct dap_capture *cap, char *err, size_t err_size)
{
    struct dap_runner *r = calloc(1, sizeof *r);
    struct frame_impl *f = calloc(1, sizeof *f);
    if (!r || !f) {
        free(r);
        free(f);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    f->cap = cap;
    glcap_reader *rd = glcap_reader_open(cap->path, NULL, err, err_size);
    if (rd) {
        int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
        void *data;
        size_t size;
        if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &data, &size) == 0) {
            f->metadata = malloc(size + 1);
            if (f->metadata) {
                memcpy(f->metadata, data, size);
                f->metadata[size] = 0;
            }
            free(data);
        }
        glcap_reader_close(rd);
    }
    collect_surfaces(f);
    r->name = "frame";
    r->impl = f;
    r->run = frame_run;
    r->destroy = frame_destroy;
    return r;
}
