/* The stops of a session in order, for stepping backwards (DAP stepBack, reverseContinue).
 *
 * The model is deterministic, so going back is going to an earlier position of the same pass.
 * Each stop a step reached is kept (its snapshots stay in the session's store, under its memory
 * budget) with the kind of step that led from the stop before it: a step back shows the previous
 * stop again, and a step forward of the same kind from there shows the next one, without the
 * model (the state is the very same). Anything else runs the model: a step back from the first
 * kept stop (or one whose snapshot the store evicted) runs a pass to the stop that finds the
 * lane's previous statement (dbg_pass_req.back); a step of another kind from a kept stop re-runs
 * to it and steps; a reverse continue runs a pass that finds the last matching hit before the
 * position, then one to it (dap_history_reverse). */
#ifndef GLR_DAP_HISTORY_H
#define GLR_DAP_HISTORY_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "debugger/dbg_engine.h"

struct dap_session;
struct dap_history;
enum dap_pass_kind;

void dap_history_free(struct dap_history *h);

/* A pass of `kind` (a step of `step` when kind is DAP_PASS_STEP) stopped: s->snap, s->others, the
 * key and position are the new stop's, stored under snap_id / other_ids (s->n_others of them;
 * NULL: kept without the other threads). */
void dap_history_stopped(struct dap_session *s, int kind, enum dbg_step step, const struct dbg_pass_res *r,
                         uint64_t snap_id, const uint64_t *other_ids, const char *desc);
/* Forgets every kept stop (restart, end of frame). */
void dap_history_clear(struct dap_session *s);

/* next/stepIn/stepOut of thread 1 from a kept stop whose following stop came from the same kind of
 * step: shows that stop (sends `stopped`) and returns true; false: the model must run. */
bool dap_history_forward(struct dap_session *s, enum dbg_step step);

/* stepBack and reverseContinue (answered; true), or false for any other command. */
bool dap_history_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);

/* The worker of a reverse continue: the first half's pass (req has have_before), then, when it
 * found a hit, a pass to that hit (req is reused). res holds the final answer. */
void dap_history_reverse(struct dbg_runner *r, struct dbg_pass_req *req, struct dbg_pass_res *res);

#endif
