/* Run-ahead across texture instructions.
 *
 * Plain run-ahead (gm_timing_sched.c, run_ahead) stops before every texture instruction,
 * because the texture cache must see requests in issue order. But what a TEX returns does
 * not depend on when it runs as long as nothing writes the textures it reads during the
 * batch and binding them has no visible side effect (the frame runner decides that per
 * draw and says so with gm_timing_set_tex_run_ahead). Then only the cache lookup has to
 * wait for the issue: while the warp runs ahead the environment wrapper (gm_timing.c)
 * computes each request's lines exactly as it does at issue (tm_tex_lines, same order)
 * and this file stores them per trace entry; at the TEX's issue the scheduler copies them
 * back into the tag set that tex_request reads, so hits, misses, latencies, queue use and
 * memory events are those of executing at issue. A side-effect-free warp then runs from
 * its launch to its end in one executor call.
 *
 * Entries are told apart by the warp's issued-instruction count: the executor counts an
 * instruction before running it (compiled runs, which count after, contain no TEX). */
#include "gm_timing_ahead.h"
#include "gm_exec.h"

#include <stdlib.h>
#include <string.h>

/* One texture entry of the trace: its lines are tags[first .. first + count). */
typedef struct tm_texrec {
    int32_t entry;
    int32_t first, count, overflow;
} tm_texrec;

struct tm_ahead {
    tm_texrec *rec;
    int rec_n, rec_cap, rec_head;  /* rec_head: the next record an issue may use */
    uint64_t *tags;
    int tags_n, tags_cap;
    uint64_t issued0;              /* the warp's issued count when the run began */
    int cur;                       /* entry whose lines t->tags holds; -1 none */
    int failed;                    /* out of memory during this run */
};

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *n = realloc(*p, (size_t)c * size);
    if (!n)
        return -1;
    *p = n;
    *cap = c;
    return 0;
}

/* Stores the lines `cur` holds for entry ah->cur. */
static void flush(struct tm_ahead *ah, const tm_tagset *s)
{
    if (ah->cur < 0)
        return;
    if (grow((void **)&ah->rec, &ah->rec_cap, ah->rec_n + 1, sizeof *ah->rec) != 0 ||
        grow((void **)&ah->tags, &ah->tags_cap, ah->tags_n + s->count, sizeof *ah->tags) != 0) {
        ah->failed = 1;
        ah->cur = -1;
        return;
    }
    ah->rec[ah->rec_n++] = (tm_texrec){ ah->cur, ah->tags_n, s->count, s->overflow };
    memcpy(ah->tags + ah->tags_n, s->tags, (size_t)s->count * sizeof *s->tags);
    ah->tags_n += s->count;
    ah->cur = -1;
}

tm_tagset *tm_ahead_entry_tags(struct tm_ahead *ah, tm_tagset *cur, const gm_warp *w)
{
    const int entry = (int)(w->issued - ah->issued0) - 1;
    if (entry != ah->cur) {
        flush(ah, cur);
        tm_tagset_reset(cur);
        ah->cur = entry;
    }
    return cur;
}

tm_tagset *tm_ahead_tags(gm_timing *t, tm_warp *tw)
{
    return tm_ahead_entry_tags(t->sms[tw->sm].slots[tw->slot].ahead, &t->tags, tw->w);
}

/* Makes room for `need` trace entries in the arrays (they start at TM_TRACE_CAP; *cap 0:
 * not grown yet). */
static int trace_room(int32_t **tr_pc, gm_mask **tr_mask, int *tr_cap, int need)
{
    int cap = *tr_cap ? *tr_cap : TM_TRACE_CAP;
    if (need <= cap)
        return 0;
    int c = cap * 2 < need ? need : cap * 2;
    int32_t *pc = realloc(*tr_pc, (size_t)c * sizeof *pc);
    if (pc)
        *tr_pc = pc;
    gm_mask *m = pc ? realloc(*tr_mask, (size_t)c * sizeof *m) : NULL;
    if (m)
        *tr_mask = m;
    if (!pc || !m)
        return -1;
    *tr_cap = c;
    return 0;
}

struct tm_ahead *tm_ahead_new(void)
{
    return calloc(1, sizeof(struct tm_ahead));
}

gm_run_status tm_ahead_record(struct tm_ahead *ah, tm_tagset *cur, gm_warp *w,
                              const uint8_t *marks, int32_t **tr_pc, gm_mask **tr_mask,
                              int *tr_cap, int *n_out)
{
    ah->rec_n = ah->rec_head = ah->tags_n = 0;
    ah->issued0 = w->issued;
    ah->cur = -1;
    ah->failed = 0;
    gm_run_status st = GM_RUN_PAUSED;
    int n = 0;
    for (;;) {
        int cap = *tr_cap ? *tr_cap : TM_TRACE_CAP;
        int k = 0;
        st = gm_warp_run_private(w, marks, cap - n, *tr_pc + n, *tr_mask + n, &k);
        n += k;
        /* Stopped only by the capacity with more to run: grow and go on. */
        if (st != GM_RUN_PAUSED || n < cap || n >= TM_AHEAD_MAX || w->done || w->pc < 0 ||
            w->pc >= w->p->code_count || !marks[w->pc])
            break;
        if (trace_room(tr_pc, tr_mask, tr_cap, cap * 2 > TM_AHEAD_MAX ? TM_AHEAD_MAX : cap * 2) != 0)
            break;
    }
    flush(ah, cur);
    *n_out = n;
    return st;
}

int tm_ahead_failed(const struct tm_ahead *ah)
{
    return ah->failed;
}

gm_run_status tm_ahead_run(gm_timing *t, tm_warp *tw, int *n_out)
{
    tm_slot *sl = &t->sms[tw->sm].slots[tw->slot];
    *n_out = 0;
    if (!sl->ahead && !(sl->ahead = tm_ahead_new()))
        return GM_RUN_PAUSED;
    t->ahead = tw;
    gm_run_status st = tm_ahead_record(sl->ahead, &t->tags, tw->w, tw->tp->ahead_pc, &sl->tr_pc,
                                       &sl->tr_mask, &sl->tr_cap, n_out);
    tw->tr_pc = sl->tr_pc;
    tw->tr_mask = sl->tr_mask;
    t->ahead = NULL;
    if (sl->ahead->failed) {
        /* The lines of some entry are lost: an exact schedule cannot be kept. */
        tm_set_error(t, "out of memory recording texture requests");
        t->error_pending = 1;
    }
    return st;
}

void tm_ahead_lines(gm_timing *t, tm_warp *tw, tm_tagset *out)
{
    tm_tagset_reset(out);
    struct tm_ahead *ah = t->sms[tw->sm].slots[tw->slot].ahead;
    if (!ah)
        return;
    while (ah->rec_head < ah->rec_n && ah->rec[ah->rec_head].entry < tw->tr_head)
        ah->rec_head++;
    if (ah->rec_head >= ah->rec_n || ah->rec[ah->rec_head].entry != tw->tr_head)
        return; /* no request (no active lane): no lines, as at issue */
    const tm_texrec *r = &ah->rec[ah->rec_head++];
    memcpy(out->tags, ah->tags + r->first, (size_t)r->count * sizeof *out->tags);
    out->count = r->count;
    out->overflow = r->overflow;
}

void tm_ahead_delete(struct tm_ahead *ah)
{
    if (!ah)
        return;
    free(ah->rec);
    free(ah->tags);
    free(ah);
}

void tm_ahead_free(tm_slot *sl)
{
    tm_ahead_delete(sl->ahead);
    sl->ahead = NULL;
}
