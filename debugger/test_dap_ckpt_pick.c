/* Which checkpoint a new pass may start at (dap_ckpt_pick) and the counts it starts with, on a
 * store of made-up checkpoints; and the budget's dropping (dap_ckpts_add). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dap_ckpt.h"

static int fails;
#define EXPECT(cond, ...)                                         \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "test_dap_ckpt_pick: FAIL line %d: ", __LINE__); \
            fprintf(stderr, __VA_ARGS__);                         \
            fprintf(stderr, "\n");                                \
            fails++;                                              \
        }                                                         \
    } while (0)

static size_t fake_bytes(const void *m) { return *(const size_t *)m; }
static void fake_free(void *m) { free(m); }

/* A checkpoint before `draw` where line (shader 1, line 10) had `hits` arrivals, `mib` MiB. */
static void add(struct dap_ckpts *s, int draw, uint64_t hits, uint64_t instructions, size_t mib)
{
    struct dap_ckpt c = { .record = 100 + 10 * (uint64_t)draw, .draw = draw, .instructions = instructions };
    if (hits)
        dap_line_hits_add(&c.lines, 1, 10, hits);
    size_t *m = malloc(sizeof *m);
    *m = mib << 20;
    c.model = m;
    dap_ckpts_add(s, &c);
}

int main(void)
{
    setenv("GLREPLAY_DAP_CHECKPOINT_MIB", "64", 1);
    struct dap_ckpts *s = dap_ckpts_new(fake_free, fake_bytes);
    if (!s) {
        fprintf(stderr, "no store\n");
        return 1;
    }
    add(s, 2, 0, 1000, 1);
    add(s, 4, 50, 2000, 1);
    add(s, 6, 120, 3000, 1);
    add(s, 8, 300, 4000, 1);
    struct dap_bp bp = { .id = 7, .shader = 1, .line = 10, .hit_op = DAP_HIT_EQ, .hit_n = 200 };
    struct dap_pass_req rq = { .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1 };
    /* == 200: the checkpoint before draw 6 (120 hits) is the last with fewer */
    int k = dap_ckpt_pick(s, &rq);
    EXPECT(k == 2 && s->c[k].draw == 6, "== 200 picked %d", k);
    EXPECT(dap_ckpt_id_hits(&s->c[2], &rq, 7) == 120, "count at draw 6");
    bp.hit_n = 120;   /* hit 120 lies before draw 6: the one before */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "== 120 picked draw %d", k >= 0 ? s->c[k].draw : -1);
    bp.hit_op = DAP_HIT_MOD;
    bp.hit_n = 40;    /* % 40 first matches at 40: only draw 2 has fewer */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "%% 40 picked %d", k);
    bp.hit_op = DAP_HIT_ANY;   /* any hit: only where none happened yet */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "any picked %d", k);
    bp.hit_op = DAP_HIT_GT;
    bp.hit_n = 120;   /* > 120 first matches at 121 */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6, "> 120 picked %d", k);
    bp.hit_op = DAP_HIT_LT;
    bp.hit_n = 1;     /* < 1 never matches: the latest */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 8, "< 1 picked %d", k);
    /* a condition: only where its line had no arrivals */
    bp.hit_op = DAP_HIT_EQ;
    bp.hit_n = 1000;
    bp.condition = "x > 1";
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "condition picked %d", k);
    bp.condition = NULL;
    /* a continue after a position: a checkpoint before it whatever the counts */
    bp.hit_n = 10;
    rq.have_after = true;
    rq.after_seq = 3500;
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6, "after 3500 picked %d", k);
    rq.have_after = false;
    /* a replay: up to the key's draw */
    rq.replay = true;
    rq.key.draw = 5;
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "replay to draw 5 picked %d", k);
    rq.replay = false;
    /* one draw only: up to it, counts 0 */
    rq.only_draw = 7;
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6 && dap_ckpt_id_hits(&s->c[k], &rq, 7) == 0, "only draw 7 picked %d", k);
    rq.only_draw = -1;
    /* never: exceptions, reverse continue, set values, instruction breakpoints, the limit */
    rq.exceptions = 1;
    EXPECT(dap_ckpt_pick(s, &rq) < 0, "exceptions");
    rq.exceptions = 0;
    rq.have_before = true;
    EXPECT(dap_ckpt_pick(s, &rq) < 0, "reverse continue");
    rq.have_before = false;
    bp.pc1 = 5;
    EXPECT(dap_ckpt_pick(s, &rq) < 0, "instruction breakpoint");
    bp.pc1 = 0;
    bp.hit_op = DAP_HIT_LT;
    bp.hit_n = 1;
    s->limit_record = 100 + 10 * 5;   /* records after draw 5's are not fed */
    k = dap_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "limit picked %d", k);
    s->limit_record = UINT64_MAX;

    /* the budget: 64 MiB; 20 MiB checkpoints at draws 10, 11, 12 then 30: the densest goes */
    add(s, 10, 0, 5000, 20);
    add(s, 11, 0, 5100, 20);
    add(s, 30, 0, 9000, 20);
    EXPECT(dap_ckpts_bytes(s) <= (64u << 20), "over the budget: %zu", dap_ckpts_bytes(s));
    EXPECT(dap_ckpts_has(s, 100 + 10 * 30), "the newest was dropped");
    EXPECT(!dap_ckpts_has(s, 100 + 10 * 11) || !dap_ckpts_has(s, 100 + 10 * 10), "no dense one dropped");
    /* one over half the budget: dropped at once, and no more are taken */
    add(s, 40, 0, 9500, 40);
    EXPECT(!dap_ckpts_has(s, 100 + 10 * 40) && s->too_big, "a checkpoint over half the budget was kept");
    dap_ckpts_free(s);
    setenv("GLREPLAY_DAP_CHECKPOINT_MIB", "0", 1);
    EXPECT(dap_ckpts_new(fake_free, fake_bytes) == NULL, "budget 0 made a store");
    if (fails)
        return 1;
    printf("test_dap_ckpt_pick: all checks passed\n");
    return 0;
}
