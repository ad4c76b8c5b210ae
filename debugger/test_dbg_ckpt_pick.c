/* Which checkpoint a new pass may start at (dbg_ckpt_pick) and the counts it starts with, on a
 * store of made-up checkpoints; and the budget's dropping (dbg_ckpts_add). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_ckpt.h"

static int fails;
#define EXPECT(cond, ...)                                         \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "test_dbg_ckpt_pick: FAIL line %d: ", __LINE__); \
            fprintf(stderr, __VA_ARGS__);                         \
            fprintf(stderr, "\n");                                \
            fails++;                                              \
        }                                                         \
    } while (0)

static size_t fake_bytes(const void *m) { return *(const size_t *)m; }
static void fake_free(void *m) { free(m); }

/* A checkpoint before `draw` where line (shader 1, line 10) had `hits` arrivals, `mib` MiB. */
static void add(struct dbg_ckpts *s, int draw, uint64_t hits, uint64_t instructions, size_t mib)
{
    struct dbg_ckpt c = { .record = 100 + 10 * (uint64_t)draw, .draw = draw, .instructions = instructions };
    if (hits)
        dbg_line_hits_add(&c.lines, 1, 10, hits);
    size_t *m = malloc(sizeof *m);
    *m = mib << 20;
    c.model = m;
    dbg_ckpts_add(s, &c);
}

int main(void)
{
    setenv("GLREPLAY_DAP_CHECKPOINT_MIB", "64", 1);
    struct dbg_ckpts *s = dbg_ckpts_new(fake_free, fake_bytes);
    if (!s) {
        fprintf(stderr, "no store\n");
        return 1;
    }
    add(s, 2, 0, 1000, 1);
    add(s, 4, 50, 2000, 1);
    add(s, 6, 120, 3000, 1);
    add(s, 8, 300, 4000, 1);
    struct dbg_bp bp = { .id = 7, .shader = 1, .line = 10, .hit_op = DBG_HIT_EQ, .hit_n = 200 };
    struct dbg_pass_req rq = { .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1 };
    /* == 200: the checkpoint before draw 6 (120 hits) is the last with fewer */
    int k = dbg_ckpt_pick(s, &rq);
    EXPECT(k == 2 && s->c[k].draw == 6, "== 200 picked %d", k);
    EXPECT(dbg_ckpt_id_hits(&s->c[2], &rq, 7) == 120, "count at draw 6");
    bp.hit_n = 120;   /* hit 120 lies before draw 6: the one before */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "== 120 picked draw %d", k >= 0 ? s->c[k].draw : -1);
    bp.hit_op = DBG_HIT_MOD;
    bp.hit_n = 40;    /* % 40 first matches at 40: only draw 2 has fewer */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "%% 40 picked %d", k);
    bp.hit_op = DBG_HIT_ANY;   /* any hit: only where none happened yet */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "any picked %d", k);
    bp.hit_op = DBG_HIT_GT;
    bp.hit_n = 120;   /* > 120 first matches at 121 */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6, "> 120 picked %d", k);
    bp.hit_op = DBG_HIT_LT;
    bp.hit_n = 1;     /* < 1 never matches: the latest */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 8, "< 1 picked %d", k);
    /* a condition: only where its line had no arrivals */
    bp.hit_op = DBG_HIT_EQ;
    bp.hit_n = 1000;
    bp.condition = "x > 1";
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 2, "condition picked %d", k);
    bp.condition = NULL;
    /* a continue after a position: a checkpoint before it whatever the counts */
    bp.hit_n = 10;
    rq.have_after = true;
    rq.after_seq = 3500;
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6, "after 3500 picked %d", k);
    rq.have_after = false;
    /* a replay: up to the key's draw */
    rq.replay = true;
    rq.key.draw = 5;
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "replay to draw 5 picked %d", k);
    rq.replay = false;
    /* one draw only: up to it, counts 0 */
    rq.only_draw = 7;
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 6 && dbg_ckpt_id_hits(&s->c[k], &rq, 7) == 0, "only draw 7 picked %d", k);
    rq.only_draw = -1;
    /* never: exceptions, reverse continue, set values, instruction breakpoints, the limit */
    rq.exceptions = 1;
    EXPECT(dbg_ckpt_pick(s, &rq) < 0, "exceptions");
    rq.exceptions = 0;
    rq.have_before = true;
    EXPECT(dbg_ckpt_pick(s, &rq) < 0, "reverse continue");
    rq.have_before = false;
    bp.pc1 = 5;
    EXPECT(dbg_ckpt_pick(s, &rq) < 0, "instruction breakpoint");
    bp.pc1 = 0;
    bp.hit_op = DBG_HIT_LT;
    bp.hit_n = 1;
    s->limit_record = 100 + 10 * 5;   /* records after draw 5's are not fed */
    k = dbg_ckpt_pick(s, &rq);
    EXPECT(k >= 0 && s->c[k].draw == 4, "limit picked %d", k);
    s->limit_record = UINT64_MAX;

    /* the budget: 64 MiB; 20 MiB checkpoints at draws 10, 11, 12 then 30: the densest goes */
    add(s, 10, 0, 5000, 20);
    add(s, 11, 0, 5100, 20);
    add(s, 30, 0, 9000, 20);
    EXPECT(dbg_ckpts_bytes(s) <= (64u << 20), "over the budget: %zu", dbg_ckpts_bytes(s));
    EXPECT(dbg_ckpts_has(s, 100 + 10 * 30), "the newest was dropped");
    EXPECT(!dbg_ckpts_has(s, 100 + 10 * 11) || !dbg_ckpts_has(s, 100 + 10 * 10), "no dense one dropped");
    /* one over half the budget: dropped at once, and no more are taken */
    add(s, 40, 0, 9500, 40);
    EXPECT(!dbg_ckpts_has(s, 100 + 10 * 40) && s->too_big, "a checkpoint over half the budget was kept");
    dbg_ckpts_free(s);
    setenv("GLREPLAY_DAP_CHECKPOINT_MIB", "0", 1);
    EXPECT(dbg_ckpts_new(fake_free, fake_bytes) == NULL, "budget 0 made a store");
    if (fails)
        return 1;
    printf("test_dbg_ckpt_pick: all checks passed\n");
    return 0;
}
