/* gm_warp_run_private (the timing model's run-ahead in one executor call) against what it
 * replaces: a loop of gm_warp_step calls that records each pc and active mask and stops
 * before the first pc not marked private. Both drive a warp through a shader with divergent
 * branches, a loop with per-lane trip counts, a function call and discards, with several
 * markings of the private pcs and trace caps; traces, the final status, counters and every
 * register word must be identical. */
#include "gm_rig.h"
#include "exec/gm_exec.h"

#include <stdint.h>
#include <string.h>

static const char *FS =
    "#version 450\n"
    "layout(location = 0) in vec4 v;\n"
    "layout(location = 1) flat in int n;\n"
    "layout(location = 0) out vec4 o;\n"
    "float f(float x) { return x > 0.5 ? x * x : x + 1.0; }\n"
    "void main() {\n"
    "    vec4 a = v;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        if ((i & 1) == 0) a.x += f(a.y); else a.y -= a.z * 0.5;\n"
    "    }\n"
    "    if (a.w < 0.2) discard;\n"
    "    o = a * vec4(2.0, 3.0, 0.5, 1.0) + vec4(f(a.x));\n"
    "}\n";

#define CAP_MAX 4096

typedef struct {
    int32_t pc[CAP_MAX];
    gm_mask mask[CAP_MAX];
    int runs;                /* calls that ran at least one instruction */
    int n;
} trace;

/* The reference: gm_warp_step one instruction at a time (what run_ahead did before). */
static gm_run_status step_private(gm_warp *w, const uint8_t *priv, int cap, int32_t *pc,
                                  gm_mask *mask, int *n_out)
{
    int n = 0;
    gm_run_status st = GM_RUN_PAUSED;
    const int n_pc = gm_warp_program(w)->code_count;
    while (n < cap) {
        int p = gm_warp_pc(w);
        if (p < 0 || p >= n_pc || !priv[p])
            break;
        pc[n] = p;
        mask[n] = gm_warp_active_mask(w);
        n++;
        st = gm_warp_step(w);
        if (st != GM_RUN_PAUSED)
            break;
    }
    *n_out = n;
    return st;
}

/* Runs the warp to its end: private runs (by `use_fast`), and one plain step at each pc
 * that is not private, as the scheduler issues a shared access. Appends to t. */
static gm_run_status drive(gm_warp *w, const uint8_t *priv, int cap, int use_fast, trace *t)
{
    gm_run_status st = GM_RUN_PAUSED;
    for (int guard = 0; guard < CAP_MAX && t->n < CAP_MAX - cap; guard++) {
        int n = 0;
        st = use_fast ? gm_warp_run_private(w, priv, cap, t->pc + t->n, t->mask + t->n, &n)
                      : step_private(w, priv, cap, t->pc + t->n, t->mask + t->n, &n);
        t->n += n;
        t->runs += n > 0;
        if (st != GM_RUN_PAUSED)
            return st;
        if (n == 0) {
            t->pc[t->n] = gm_warp_pc(w);
            t->mask[t->n] = gm_warp_active_mask(w);
            t->n++;
            st = gm_warp_step(w);
            if (st != GM_RUN_PAUSED)
                return st;
        }
    }
    return GM_RUN_ERROR;
}

static void setup(gm_rig *r)
{
    gm_warp_begin(r->w, 0xffffffffu, 0);
    for (int l = 0; l < GM_LANES; l++) {
        rig_setf(r, "v", 0, l, 0.1f * (float)(l % 7));
        rig_setf(r, "v", 1, l, 0.05f * (float)l);
        rig_setf(r, "v", 2, l, 1.0f - 0.03f * (float)l);
        rig_setf(r, "v", 3, l, (float)(l % 5) * 0.1f);
        rig_seti(r, "n", 0, l, l % 6);
    }
}

int main(void)
{
    gm_rig a, b;
    if (rig_init(&a, GM_STAGE_FRAGMENT, FS) != 0 || rig_init(&b, GM_STAGE_FRAGMENT, FS) != 0)
        return 1;
    const int n_pc = a.p->code_count;
    uint8_t *priv = calloc((size_t)n_pc, 1);
    static trace ta, tb;
    const int caps[] = {1, 3, 7, 256};
    for (int pattern = 0; pattern < 4; pattern++) {
        /* 0: every pc private; 1: none; 2 and 3: every second / third pc */
        for (int pc = 0; pc < n_pc; pc++)
            priv[pc] = pattern == 0 ? 1 : pattern == 1 ? 0 : pc % (pattern == 2 ? 2 : 3) != 0;
        for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) {
            memset(&ta, 0, sizeof ta);
            memset(&tb, 0, sizeof tb);
            setup(&a);
            setup(&b);
            gm_run_status sa = drive(a.w, priv, caps[ci], 0, &ta);
            gm_run_status sb = drive(b.w, priv, caps[ci], 1, &tb);
            CHECKF(sa == GM_RUN_DONE, "pattern %d cap %d: reference status %d", pattern, caps[ci], sa);
            CHECKF(sa == sb, "pattern %d cap %d: status %d vs %d", pattern, caps[ci], sa, sb);
            CHECKF(ta.n == tb.n && ta.n > 10, "pattern %d cap %d: %d vs %d instructions", pattern,
                   caps[ci], ta.n, tb.n);
            CHECK(memcmp(ta.pc, tb.pc, sizeof ta.pc) == 0);
            CHECK(memcmp(ta.mask, tb.mask, sizeof ta.mask) == 0);
            CHECK(ta.runs == tb.runs);
            CHECK(gm_warp_issued(a.w) == gm_warp_issued(b.w));
            CHECK(gm_warp_lane_instructions(a.w) == gm_warp_lane_instructions(b.w));
            CHECK(gm_warp_killed_mask(a.w) == gm_warp_killed_mask(b.w));
            CHECK(gm_warp_killed_mask(a.w) != 0); /* the discard was reached */
            CHECK(memcmp(a.w->R, b.w->R, (size_t)a.p->nregs * sizeof(gm_lanes)) == 0);
        }
    }
    free(priv);
    rig_free(&a);
    rig_free(&b);
    TEST_DONE();
}
