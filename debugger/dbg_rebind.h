/* Resuming a parked pass after the breakpoints changed (dbg_engine.c).
 *
 * A pass parked at a stop knows, for the breakpoints it was asked for, how many hits each had up
 * to the stop. A continue whose breakpoints differ used to run a new pass from the frame's first
 * draw only to count the new breakpoints' hits up to the same place. Every pass also counts the
 * arrivals at every source line of every shader (the hit rule of dbg_engine.c applied to all
 * lines, not only to breakpoint lines): a new plain line breakpoint's count at the stop is then
 * known, and the parked pass can go on with the new breakpoints, reaching exactly the stop a new
 * pass would (same counts, same deterministic model). Breakpoints whose count cannot be known
 * (a new condition, logpoint or instruction breakpoint) still make a new pass. */
#ifndef GLR_DAP_REBIND_H
#define GLR_DAP_REBIND_H

#include <stdbool.h>
#include <stdint.h>
#include "debugger/dbg_engine.h"

/* Arrivals per (shader id, line), grown on demand; `lost` after an allocation failed (then
 * nothing may be read from it). */
struct dbg_line_hits {
    struct dbg_line_row { uint64_t *hits; int n; } *rows;
    int n_rows;
    bool lost;
};

void dbg_line_hits_add(struct dbg_line_hits *t, int shader, int line, uint64_t n);
uint64_t dbg_line_hits_get(const struct dbg_line_hits *t, int shader, int line);
void dbg_line_hits_free(struct dbg_line_hits *t);

/* GLREPLAY_DAP_RESUME_CHANGED=0 turns the rebinding off (every changed set of breakpoints runs a
 * new pass, as before): for comparisons and benchmarks. */
bool dbg_rebind_enabled(void);

/* Where the model is parked: the instruction's shader and line, and `after`, its lanes above the
 * stop's lane that arrived at the line (hits a new pass would count after the stop). */
struct dbg_park {
    int shader, line;
    uint32_t after;
};

/* A hit of a new breakpoint at the parked instruction after the stop (see dbg_engine.c's
 * pending stops): index in the request, lane, the id's count with it. */
struct dbg_rebind_pending {
    int bp, lane;
    uint64_t hits;
};

/* The pass's breakpoints `old` (n_old) with their counts per id (cnt_ids/cnt_hits, n_cnt) and the
 * request's `nw` (n_new). On success (true): new_hits[i] is the count of nw[i]'s id at the stop
 * (entries of one id share it), old_to_new[j] the index in nw of old entry j (-1 when its id is
 * gone), and pend[0..*n_pend) (room for max_pend) the new breakpoints' hits at the parked
 * instruction after the stop. An id keeps its count when its entries are exactly an old id's
 * (locations, conditions, logpoints, in order); otherwise each of its entries must be a plain
 * line breakpoint, at most one of them on the parked line, and its count is the sum of `lines`
 * over them (the parked instruction's lanes after the stop included, as the kept ids' counts
 * include them; pend carries the counts at those lanes). */
bool dbg_rebind_counts(const struct dbg_bp *old, int n_old, const int *cnt_ids, const uint64_t *cnt_hits, int n_cnt,
                       const struct dbg_bp *nw, int n_new, const struct dbg_line_hits *lines, const struct dbg_park *park,
                       uint64_t *new_hits, int *old_to_new, struct dbg_rebind_pending *pend, int max_pend, int *n_pend);

#endif
