/* Texture functions at every stop (issue 14): evaluate samples through the texture units of the warp
 * the model is parked at (dbg_runner.sample_parked), which are the stop's draw's only while a pass
 * is parked in that draw. A kept stop shown again after a step back, a stop whose parked pass a heat
 * map or a profile replaced, or a stop after any other pass has none. Then the request that needs
 * the model waits (with every later message, in order, as while a breakpoint file is read), a pass
 * replays the frame to the stop's position and parks there without changing the view (no stopped
 * event, the same variablesReferences), and the request is answered as if the model had been
 * there all along. Each request asks for one such pass at most: if the model still cannot be
 * parked there, the request gets the sampler's reason.
 * The same park comes first for a continue or reverseContinue from a stop whose position in the
 * frame's order is partial (debug this pixel's own run left the earlier passes' draws out: its
 * instruction count misses theirs): the park's full run counts it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_session_internal.h"

/* Marks a request already retried after a park pass (a member no client request has). */
#define PARKED_MARK "glreplayParkedRetry"

static bool hold_and_park(struct dap_session *s, const cJSON *req);

bool dap_park_retry(struct dap_session *s, const cJSON *req, const struct dap_sample_ctx *sc)
{
    if (!sc->not_parked || sc->snap != s->snap || !s->have_key || !s->stopped || s->running || s->reading ||
        s->parking || s->closing || s->terminated || s->no_park ||
        cJSON_GetObjectItemCaseSensitive(req, PARKED_MARK))
        return false;
    return hold_and_park(s, req);
}

/* Holds req (marked: it is not held twice) first in line and starts the park pass. */
static bool hold_and_park(struct dap_session *s, const cJSON *req)
{
    cJSON *again = cJSON_Duplicate(req, true);
    if (!again)
        return false;
    cJSON_AddTrueToObject(again, PARKED_MARK);
    if (!s->held)
        s->held = cJSON_CreateArray();
    if (!s->held) {
        cJSON_Delete(again);
        return false;
    }
    /* First in line: nothing else is held while no read or park is in progress. */
    cJSON_InsertItemInArray(s->held, 0, again);
    s->parking = true;
    if (dap_start_pass(s, DAP_PASS_PARK, DBG_STEP_NEXT) != 0) {
        s->parking = false;
        cJSON_DeleteItemFromArray(s->held, 0);
        return false;
    }
    return true;
}

bool dap_park_first(struct dap_session *s, const cJSON *req)
{
    if (!s->have_key || !s->stopped || s->running || s->reading || s->parking || s->closing || s->terminated ||
        s->no_park || cJSON_GetObjectItemCaseSensitive(req, PARKED_MARK))
        return false;
    return hold_and_park(s, req);
}

void dap_park_hold(struct dap_session *s, const cJSON *msg)
{
    /* Ending the session cuts the park pass short (its stop is not shown); no later park. */
    const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "command"));
    if (cmd && (!strcmp(cmd, "disconnect") || !strcmp(cmd, "terminate"))) {
        s->no_park = true;
        atomic_store(&s->pause, 1);
    }
}

void dap_park_done(struct dap_session *s, const struct dbg_pass_res *r)
{
    s->parking = false;
    if (r->status == DBG_PASS_STOPPED && s->pos_partial) {
        /* The stop's position in a run of the whole frame (the view stays, dap_pass.c). */
        s->pos_seq = r->seq;
        s->pos_partial = false;
    }
    if (r->status != DBG_PASS_STOPPED && !s->no_park) {
        char line[400];
        snprintf(line, sizeof line, "the GPU model could not go back to this stop to sample textures: %s\n",
                 r->message[0] ? r->message : "the frame ended first");
        dap_output(s, "console", line);
    }
    if (r->status != DBG_PASS_STOPPED && s->pos_partial && !s->no_park) {
        s->pos_partial = false;   /* the held request goes on from the approximate position */
        dap_output(s, "console", "the GPU model could not run the whole frame to this stop: continue and reverse "
                                 "continue count from the draws debug this pixel modelled\n");
    }
    /* The held requests, in the client's order (one of them may start a read or another park). */
    while (!s->reading && !s->parking && !s->closing && s->held && cJSON_GetArraySize(s->held) > 0)
        s->hooks.redispatch(s, cJSON_DetachItemFromArray(s->held, 0));
}
