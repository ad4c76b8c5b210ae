/* Shared by the capture driver and the benchmark of this folder: loading the parts of a .glcap
 * the frame runner needs (METADATA, COMMAND_STREAM; captures from frame 0 only), a hooks
 * multiplexer (as the profile spine does), and shader sources from the runner's state model. */
#ifndef GMT_CAPTURE_H
#define GMT_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/glcap_file.h"
#include "registry/glr_gl_enums.h"
#include "gmf_frame.h"
#include "statemodel/statemodel.h"

typedef struct mux {
    gmf_hooks h[8];
    int n;
} mux;

static __attribute__((unused)) void m_begin(void *c, const gmf_event *ev, uint64_t cy)
{
    mux *m = c;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].draw_begin)
            m->h[i].draw_begin(m->h[i].ctx, ev, cy);
}
static __attribute__((unused)) void m_end(void *c, const gmf_event *ev, uint64_t cy)
{
    mux *m = c;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].draw_end)
            m->h[i].draw_end(m->h[i].ctx, ev, cy);
}
static __attribute__((unused)) void m_issue(void *c, const gm_timing_issue *ev)
{
    mux *m = c;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].issue)
            m->h[i].issue(m->h[i].ctx, ev);
}
static __attribute__((unused)) void m_cycle(void *c, uint64_t cy, int sm, const gm_timing_slot_sample *s, int n)
{
    mux *m = c;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].cycle)
            m->h[i].cycle(m->h[i].ctx, cy, sm, s, n);
}

__attribute__((unused)) static void mux_hooks(mux *m, gmf_hooks *out)
{
    *out = (gmf_hooks){.ctx = m, .draw_begin = m_begin, .draw_end = m_end, .issue = m_issue,
                       .cycle = m_cycle};
}

__attribute__((unused)) static char *load_section(const char *path, uint16_t type, size_t *size, char *err, size_t n)
{
    glcap_reader *rd = glcap_reader_open(path, NULL, err, n);
    if (!rd)
        return NULL;
    int64_t i = glcap_reader_find(rd, type, 0);
    void *data = NULL;
    if (i < 0 || glcap_reader_load(rd, (uint32_t)i, &data, size) != 0) {
        snprintf(err, n, "%s: %s", path, i < 0 ? "section missing" : glcap_reader_error(rd));
        glcap_reader_close(rd);
        return NULL;
    }
    glcap_reader_close(rd);
    return data;
}

/* Loads METADATA and COMMAND_STREAM of a capture taken from frame 0. 0, or -1 with err. */
__attribute__((unused)) static int load_capture(const char *path, char **meta, char **stream,
                                                size_t *stream_size, char *err, size_t n)
{
    size_t meta_size;
    *meta = load_section(path, GLCAP_SECTION_METADATA, &meta_size, err, n);
    *stream = *meta ? load_section(path, GLCAP_SECTION_COMMAND_STREAM, stream_size, err, n) : NULL;
    if (*stream && strstr(*meta, "\"initial_state\":\"snapshot\"")) {
        snprintf(err, n, "%s: starts from a snapshot; capture from frame 0", path);
        free(*stream);
        *stream = NULL;
    }
    if (!*stream) {
        free(*meta);
        *meta = NULL;
        return -1;
    }
    return 0;
}

__attribute__((unused)) /* Source text of a program stage from the state model at the end of the frame. */
static const char *source_of(void *ctx, uint32_t ctx_id, uint32_t program, gm_stage stage,
                             const char *file)
{
    (void)file;
    const struct sm_context *c = sm_context_get(gmf_state(ctx), ctx_id);
    const struct sm_program *p = c ? sm_get_program(c, program) : NULL;
    uint32_t type = stage == GM_STAGE_VERTEX ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER;
    for (uint32_t i = 0; p && i < p->n_linked; i++)
        if (p->linked[i].type == type)
            return p->linked[i].source;
    return NULL;
}

#endif
