/* The fixed-function sources of a capture (dbg_ff_sources.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "gpu_model/frame/gmf_frame.h"
#include "replay/player/player.h"
#include "replay/replay.h"
#include "debugger/snapshot_contents.h"
#include "statemodel/statemodel.h"
#include "registry/glr_call_codec.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_ff_sources.h"
#include "debugger/dbg_capture_shaders.h"

bool dbg_capture_may_run_ff(const struct dbg_capture *c)
{
    for (int d = 0; d < c->n_draws; d++) {
        if (!c->draws[d].program)
            return true;   /* no program (or a display list call: any program) */
        for (int p = 0; p < c->n_programs; p++)
            if (c->programs[p].name == c->draws[d].program && c->programs[p].shader[GM_STAGE_COMPUTE] < 0 &&
                (c->programs[p].shader[GM_STAGE_VERTEX] < 0 || c->programs[p].shader[GM_STAGE_FRAGMENT] < 0))
                return true;
    }
    return false;
}

static char *metadata(const char *path)
{
    char err[256];
    glcap_reader *rd = glcap_reader_open(path, NULL, err, sizeof err);
    if (!rd)
        return NULL;
    char *m = NULL;
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
    void *data;
    size_t size;
    if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &data, &size) == 0) {
        if ((m = malloc(size + 1))) {
            memcpy(m, data, size);
            m[size] = 0;
        }
        free(data);
    }
    glcap_reader_close(rd);
    return m;
}

static void note_draw(struct dbg_capture *c, int draw, uint64_t record, const int shader[2])
{
    struct dbg_ff_draw *n = realloc(c->ff_draws, (size_t)(c->n_ff_draws + 1) * sizeof *n);
    if (!n)
        return;
    c->ff_draws = n;
    c->ff_draws[c->n_ff_draws++] = (struct dbg_ff_draw){ draw, record, { shader[0], shader[1] } };
}

int dbg_capture_add_ff(struct dbg_capture *c)
{
    char err[256] = "";
    char *meta = metadata(c->path);
    gmf_config cfg = { .metadata_json = meta, .timing = GMF_TIMING_OFF };
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    if (!r) {
        free(meta);
        c->ff_error = strdup(err);
        return -1;
    }
    gmf_set_programs_only(r, true);
    int rc = 0;
    /* A capture from a running program: the snapshot's contents hold the display lists compiled
     * before the frame, as the debugger's passes feed them (dbg_runner_frame.c). */
    struct glr_restore *snap = NULL;
    if (meta && strstr(meta, "\"initial_state\":\"snapshot\""))
        snap = glr_restore_load(c->path, err, sizeof err);
    if (gmf_feed_initial_state(r, c->initial) != 0 || gmf_feed_snapshot_contents(r, snap) < 0) {
        c->ff_error = strdup("out of memory");
        rc = -1;
    }
    /* Per entry of the runner's cache: the dbg_shader index of its generated stages (-1: GLSL). */
    int (*entry_shader)[2] = NULL;
    int n_entries = 0;
    struct glr_stream s;
    struct glr_call call;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    while (rc == 0 && glr_stream_next(&s, &call) == 1) {
        gmf_event ev;
        if (gmf_feed(r, &call, s.index - 1, &ev) == GMF_ERROR) {
            c->ff_error = strdup("the model could not run the frame's draws");
            rc = -1;
            break;
        }
        if (ev.kind != GMF_EV_DRAW)
            continue;
        uint32_t draws = ev.draws ? ev.draws : 1;
        for (uint64_t d = ev.draw; d < ev.draw + draws; d++) {
            int e = gmf_ff_of_draw(r, d);
            if (e < 0)
                continue;
            while (n_entries <= e) {   /* new entries: their sources become shaders */
                gmf_ff_source src;
                int (*ne)[2] = realloc(entry_shader, (size_t)(n_entries + 1) * sizeof *ne);
                if (ne)
                    entry_shader = ne;
                if (!ne || !gmf_ff_source_get(r, n_entries, &src)) {
                    c->ff_error = strdup("out of memory");
                    rc = -1;
                    break;
                }
                struct dbg_program prog = { .ctx_id = call.ctx_id, .name = src.program };
                for (int k = 0; k < 6; k++)
                    prog.shader[k] = -1;
                /* a mixed draw's GLSL stages are those of its program (already listed) */
                for (int p = 0; src.program && p < c->n_programs; p++)
                    if (c->programs[p].name == src.program)
                        for (int k = 0; k < 6; k++)
                            if (c->programs[p].shader[k] >= 0)
                                prog.shader[k] = c->programs[p].shader[k];
                for (int st = 0; st < 2; st++) {
                    int stage = st ? GM_STAGE_FRAGMENT : GM_STAGE_VERTEX;
                    entry_shader[n_entries][st] = -1;
                    if (!src.text[st])
                        continue;
                    int before = c->n_shaders;
                    int idx = dbg_capture_add_shader(c, stage, src.text[st], src.program);
                    if (idx < 0)
                        continue;
                    if (c->n_shaders > before) {
                        if (src.program)
                            snprintf(c->shaders[idx].name, sizeof c->shaders[idx].name, "program%u-fixed-function-%d-%s.%s",
                                     src.program, n_entries, st ? "FS" : "VS", st ? "frag" : "vert");
                        else
                            snprintf(c->shaders[idx].name, sizeof c->shaders[idx].name, "fixed-function-%d-%s.%s",
                                     n_entries, st ? "FS" : "VS", st ? "frag" : "vert");
                    }
                    entry_shader[n_entries][st] = idx;
                    prog.shader[stage] = idx;
                }
                dbg_capture_add_program(c, &prog);
                n_entries++;
            }
            if (rc != 0 || e >= n_entries)
                break;
            /* the draw's stages: generated ones, else its program's (mixed draws) */
            int sh[2] = { entry_shader[e][0], entry_shader[e][1] };
            gmf_ff_source src;
            if (gmf_ff_source_get(r, e, &src) && src.program)
                for (int p = 0; p < c->n_programs; p++)
                    if (c->programs[p].name == src.program) {
                        if (sh[0] < 0)
                            sh[0] = c->programs[p].shader[GM_STAGE_VERTEX];
                        if (sh[1] < 0)
                            sh[1] = c->programs[p].shader[GM_STAGE_FRAGMENT];
                    }
            note_draw(c, (int)d, ev.record, sh);
        }
    }
    free(entry_shader);
    gmf_destroy(r);
    glr_restore_free(snap);
    free(meta);
    return rc;
}
