/* `glreplay info`: the draws inside the display lists a frame calls (cli_info_lists.h). The lists
 * are the snapshot's (RESOURCE_BLOB kind 4) and those the stream compiles; the walk is the GPU
 * model's (statemodel/sm_lists.c), counting what glrh_cmd_is_draw calls a draw. */
#include <stdio.h>
#include <string.h>
#include "cli_info_lists.h"
#include "replay/replay.h"
#include "replay/restore_reset.h"
#include "statemodel/sm_lists.h"

struct walk {
    struct sm_lists *L;
    const struct glrh_capture *cap;
    struct cli_list_draws *out;
};

static uint32_t share_of(const struct glrh_capture *cap, uint32_t ctx_id)
{
    const struct glrh_context *c = glrh_capture_context(cap, ctx_id);
    return c ? c->share_group : ctx_id;
}

static void exec_call(void *user, const struct glr_call *c)
{
    struct walk *w = user;
    bool bad;
    if (glrh_cmd_is_draw(c->cmd))
        w->out->draws++;
    else if (c->cmd < GLR_CMD_COUNT)
        sm_lists_call(w->L, share_of(w->cap, c->ctx_id), c, exec_call, NULL, w, &bad);
}

static void missing(void *user, uint32_t name)
{
    (void)name;
    ((struct walk *)user)->out->missing++;
}

int cli_info_list_draws(const char *path, const struct glrh_capture *cap, struct cli_list_draws *out, char *err,
                        size_t err_size)
{
    memset(out, 0, sizeof *out);
    struct walk w = { sm_lists_new(), cap, out };
    if (!w.L) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    int rc = 0;
    if (!cap->initial_default && !strcmp(cap->initial_state, "snapshot")) {
        struct glr_restore *snap = glr_restore_load(path, err, err_size);
        if (!snap) {
            sm_lists_free(w.L);
            return -1;
        }
        for (size_t i = 0; i < glr_restore_content_count(snap) && rc == 0; i++) {
            struct glr_restore_saved s;
            if (glr_restore_content_at(snap, i, &s) && s.kind == 4 && s.data &&
                sm_lists_keep(w.L, share_of(cap, s.ctx_id), s.name, s.data, (size_t)s.size) < 0) {
                snprintf(err, err_size, "out of memory");
                rc = -1;
            }
        }
        glr_restore_free(snap);
    }
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    while (rc == 0 && glr_stream_next(&s, &c) == 1) {
        uint32_t share = share_of(cap, c.ctx_id);
        if (sm_lists_compile(w.L, share, &c) || c.cmd >= GLR_CMD_COUNT)
            continue;
        bool bad;
        if (sm_lists_call(w.L, share, &c, exec_call, missing, &w, &bad) &&
            (c.cmd == GLR_CMD_glCallList || c.cmd == GLR_CMD_glCallLists))
            out->calls++;
    }
    sm_lists_free(w.L);
    return rc;
}
