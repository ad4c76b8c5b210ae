/* The run of compare/: every record fed to the model and the driver in lock step, the comparisons
 * after each event, the events' JSON form, the verdict and the --trace-hash observer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/mcmp_internal.h"
#include "replay/player/crash_guard.h"
#include "replay/replay.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The event's JSON object (appended to "events"); its "compare" list is filled afterwards. */
static cJSON *event_json(struct mcmp_run *r, const gmf_event *ev)
{
    const char *kind = ev->kind == GMF_EV_DRAW ? "draw" : ev->kind == GMF_EV_CLEAR ? "clear"
                       : ev->kind == GMF_EV_DISPATCH ? "dispatch" : "note";
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddNumberToObject(o, "index", (double)ev->draw);
    cJSON_AddNumberToObject(o, "record", (double)ev->record);
    cJSON_AddStringToObject(o, "command", glr_call_name(ev->cmd));
    cJSON_AddNumberToObject(o, "context", ev->ctx_id);
    if (ev->kind == GMF_EV_DRAW) {
        cJSON_AddNumberToObject(o, "draws", ev->draws);   /* > 1: a glCallList(s) record's draws */
        cJSON_AddNumberToObject(o, "program", ev->program);
        cJSON_AddNumberToObject(o, "vs_invocations", (double)ev->stats.vs_invocations);
        cJSON_AddNumberToObject(o, "primitives", (double)ev->stats.primitives);
        cJSON_AddNumberToObject(o, "fs_warps", (double)ev->stats.fs_warps);
        cJSON_AddNumberToObject(o, "fs_lanes", (double)ev->stats.fs_lanes);
        cJSON_AddNumberToObject(o, "fragments_passed", (double)ev->stats.fragments_passed);
        if (r->timing) {
            cJSON_AddNumberToObject(o, "cycles", (double)ev->stats.cycles);
            cJSON_AddNumberToObject(o, "vs_cycles", (double)ev->stats.vs_cycles);
            cJSON_AddNumberToObject(o, "fs_cycles", (double)ev->stats.fs_cycles);
            cJSON_AddNumberToObject(o, "gs_cycles", (double)ev->stats.gs_cycles);
            if (ev->stats.tess_cycles)
                cJSON_AddNumberToObject(o, "tess_cycles", (double)ev->stats.tess_cycles);
            cJSON_AddNumberToObject(o, "instructions", (double)ev->stats.instructions);
        }
    }
    if (ev->kind == GMF_EV_DISPATCH) {
        cJSON_AddNumberToObject(o, "program", ev->program);
        if (r->timing) {
            cJSON_AddNumberToObject(o, "cycles", (double)ev->stats.cycles);
            cJSON_AddNumberToObject(o, "instructions", (double)ev->stats.instructions);
        }
    }
    if (ev->kind != GMF_EV_NONE) {
        cJSON_AddNumberToObject(o, "framebuffer", ev->fbo);
        cJSON_AddBoolToObject(o, "failed", ev->failed);
        cJSON_AddNumberToObject(o, "seconds", ev->seconds);
    }
    cJSON *u = cJSON_AddArrayToObject(o, "unsupported");
    for (int i = 0; i < ev->n_unsupported && i < GMF_MAX_NOTES; i++)
        cJSON_AddItemToArray(u, cJSON_CreateString(ev->unsupported[i]));
    cJSON_AddItemToObject(o, "compare", cJSON_CreateArray());
    cJSON_AddItemToArray(r->events, o);
    return o;
}

int mcmp_run_stream(struct mcmp_run *r, char *err, size_t err_size)
{
    struct glr_stream s;
    struct glr_call c;
    gmf_event *ev = malloc(sizeof *ev);
    if (!ev) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    glr_stream_init(&s, r->cap->stream, r->cap->stream_size);
    int k;
    uint64_t rec = 0;
    double driver_t = 0, frame_model_t = 0;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        uint64_t record = rec++;
        if (r->progress && (record & 255) == 0 && r->hooks.progress)
            r->hooks.progress(r, record, false);
        gmf_status st = gmf_feed(r->m, &c, record, ev);
        if (st == GMF_STOPPED && r->hooks.stopped && r->hooks.stopped()) {
            r->stopped_record = record;
            break;
        }
        frame_model_t += ev->seconds;
        if (r->compare || r->benchmark) {
            double t0 = now_s();
            glrh_crash_guard_arm(record, (int)c.cmd);
            mcmp_driver_feed(r->drv, &c, ev->kind == GMF_EV_DRAW);
            glrh_crash_guard_disarm();
            if (r->benchmark && c.cmd == GLR_PSEUDO_SWAP && r->drv->current)
                r->drv->gl.Finish();
            driver_t += now_s() - t0;
        }
        if (ev->kind == GMF_EV_SWAP) {
            if (r->benchmark) {
                cJSON *f = cJSON_CreateObject();
                cJSON_AddNumberToObject(f, "frame", (double)c.args[0]);
                cJSON_AddNumberToObject(f, "model_seconds", frame_model_t);
                cJSON_AddNumberToObject(f, "driver_seconds", driver_t);
                cJSON_AddItemToArray(r->frames, f);
                frame_model_t = driver_t = 0;
            }
            mcmp_on_swap(r, &c, record);
        } else if (ev->kind != GMF_EV_NONE || ev->n_unsupported) {
            char text[1024] = "";
            cJSON *obj = r->json ? event_json(r, ev) : NULL;
            if (ev->kind != GMF_EV_NONE && (r->compare || r->png_dir) && !r->benchmark) {
                if (r->compare && c.ctx_id)
                    mcmp_make_current(r->drv, c.ctx_id);
                /* A dispatch writes buffers and images, not the render targets (which may
                 * still hold undefined contents before the frame's first clear). */
                if (ev->kind == GMF_EV_DISPATCH) {
                    if (r->compare) {
                        mcmp_compare_buffers(r, c.ctx_id, record,
                                             obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                             sizeof text, false, ev->reads_clock);
                        mcmp_compare_images(r, c.ctx_id, record,
                                            obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                            sizeof text);
                    }
                } else {
                    mcmp_compare_targets(r, c.ctx_id, record,
                                    obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text, sizeof text);
                    if (r->compare && ev->kind == GMF_EV_DRAW)   /* transform feedback output */
                        mcmp_compare_buffers(r, c.ctx_id, record,
                                        obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                        sizeof text, true, false);
                }
            }
            if (!r->json && r->hooks.event)
                r->hooks.event(r, ev, text);
        }
        if (st == GMF_ERROR) {
            snprintf(err, err_size, "the model failed at record %llu (out of memory)", (unsigned long long)record);
            free(ev);
            return -1;
        }
    }
    free(ev);
    if (r->progress && r->hooks.progress)
        r->hooks.progress(r, 0, true);
    if (k < 0) {
        snprintf(err, err_size, "%s: COMMAND_STREAM: %s", r->cap->path, s.err);
        return -1;
    }
    return 0;
}

/* Default framebuffer of each context: the same rule as `glreplay replay` (glrh_plan_surface),
 * so the model, the driver side and the replayer all draw into surfaces of one size. */
gmf_surface_desc *mcmp_plan_surfaces(const struct glrh_capture *cap, int *n)
{
    gmf_surface_desc *s = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *s);
    if (!s)
        return NULL;
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        struct glrh_surface plan;
        glrh_plan_surface(cap, i, &plan);
        s[i].ctx_id = cap->ctxs[i].id;
        s[i].width = (int)plan.w;
        s[i].height = (int)plan.h;
        s[i].alpha = plan.alpha;
    }
    *n = (int)cap->n_ctxs;
    return s;
}


/* Why --compare fails, one phrase per reason (empty: it passes). A comparison passes only when
 * the model ran everything and agreed with both the driver and the capture's references: a draw
 * the model failed or skipped, a feature it does not run, a record the driver side could not
 * replay, a reference image that could not be compared, or nothing compared at all each fail it,
 * whatever the pixels say. */
void mcmp_fail_reasons(struct mcmp_run *r, const gmf_totals *t, int n_unsupported, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
#define REASON(...)                                                              \
    do {                                                                        \
        if (k < n)                                                              \
            k += (size_t)snprintf(out + k, n - k, "%s", k ? "; " : "");         \
        if (k < n)                                                              \
            k += (size_t)snprintf(out + k, n - k, __VA_ARGS__);                 \
    } while (0)
    if (r->failing)
        REASON("%llu of %llu comparisons below %.1f%% (worst: %s, %.4f%%)", (unsigned long long)r->failing,
               (unsigned long long)r->comparisons, 100.0 * MCMP_PASS_FRACTION, r->worst_name, 100.0 * r->worst);
    if (t->draws_failed)
        REASON("%llu of %llu draws failed in the model", (unsigned long long)t->draws_failed,
               (unsigned long long)t->draws);
    if (t->dispatches_failed)
        REASON("%llu of %llu dispatches failed in the model", (unsigned long long)t->dispatches_failed,
               (unsigned long long)t->dispatches);
    if (t->draws_with_unsupported)
        REASON("%llu draws with unsupported features", (unsigned long long)t->draws_with_unsupported);
    if (n_unsupported)
        REASON("%d unsupported feature%s (listed above)", n_unsupported, n_unsupported == 1 ? "" : "s");
    if (r->drv->skipped)
        REASON("the driver replay skipped %llu records (first: %s)", (unsigned long long)r->drv->skipped,
               r->drv->first_skipped);
    if (r->uncompared)
        REASON("%llu reference images not compared (first: %s)", (unsigned long long)r->uncompared,
               r->first_uncompared);
    if (!r->comparisons)
        REASON("nothing was compared (no draw, clear, dispatch or swap reached a target)");
#undef REASON
}

/* --trace-hash: FNV-1a over every issued instruction's identity. */
static void fnv(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        *h ^= (v >> (8 * i)) & 0xff;
        *h *= 1099511628211ull;
    }
}

int mcmp_trace_observer(void *ctx, gm_warp *w, const gmf_issue *is)
{
    struct mcmp_run *r = ctx;
    fnv(&r->trace_hash, is->draw);
    fnv(&r->trace_hash, (uint64_t)is->stage << 32 | (uint32_t)is->pc);
    fnv(&r->trace_hash, is->warp);
    fnv(&r->trace_hash, (uint64_t)(uint32_t)is->line << 32 | is->active);
    if ((r->trace_count++ & 1023) == 0 && is->active) {
        /* A debugger reads lane variables here: read one, lane of the lowest active bit. */
        uint32_t words[64];
        int lane = __builtin_ctz(is->active);
        if (gm_warp_read_var(w, 0, lane, words, 64) >= 0)
            r->trace_reads++;
    }
    return 0;
}
