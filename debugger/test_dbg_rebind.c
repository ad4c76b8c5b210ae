/* Unit test of dbg_rebind.c: which breakpoint counts carry over to a changed set at a stop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_rebind.h"

#include "tests/support/glr_check.h"

static struct dbg_bp bp(int id, int shader, int line, const char *cond)
{
    return (struct dbg_bp){ .id = id, .shader = shader, .line = line, .condition = cond };
}

int main(void)
{
    struct dbg_line_hits lines = { 0 };
    dbg_line_hits_add(&lines, 1, 27, 40);
    dbg_line_hits_add(&lines, 1, 27, 10);
    dbg_line_hits_add(&lines, 2, 18, 5);
    dbg_line_hits_add(&lines, 2, 23, 7);
    CHECK(dbg_line_hits_get(&lines, 1, 27) == 50);
    CHECK(dbg_line_hits_get(&lines, 3, 1) == 0 && dbg_line_hits_get(&lines, 1, 5000) == 0);

    struct dbg_bp old[2] = { bp(10, 1, 27, "x > 1.0"), bp(11, 2, 30, NULL) };
    int ids[2] = { 10, 11 };
    uint64_t hits[2] = { 33, 4 };
    struct dbg_park park = { 1, 27, 0xcu };   /* parked at shader 1 line 27, lanes 2 and 3 after the stop */
    uint64_t nh[4];
    int o2n[2];
    struct dbg_rebind_pending pend[64];
    int np;

    /* Kept (same place and condition, new id and hit condition), a new plain one elsewhere, one
     * removed. */
    struct dbg_bp a[2] = { bp(20, 2, 18, NULL), bp(21, 1, 27, "x > 1.0") };
    a[1].hit_op = DBG_HIT_EQ;
    a[1].hit_n = 40;
    CHECK(dbg_rebind_counts(old, 2, ids, hits, 2, a, 2, &lines, &park, nh, o2n, pend, 64, &np));
    CHECK(nh[0] == 5 && nh[1] == 33 && o2n[0] == 1 && o2n[1] == -1 && np == 0);

    /* A new plain breakpoint on the parked line: its count includes the lanes after the stop, which
     * become pending hits 49 and 50. */
    struct dbg_bp b[1] = { bp(30, 1, 27, NULL) };
    CHECK(dbg_rebind_counts(old, 2, ids, hits, 2, b, 1, &lines, &park, nh, o2n, pend, 64, &np));
    CHECK(nh[0] == 50 && np == 2);
    CHECK(pend[0].bp == 0 && pend[0].lane == 2 && pend[0].hits == 49);
    CHECK(pend[1].bp == 0 && pend[1].lane == 3 && pend[1].hits == 50);
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, b, 1, &lines, &park, nh, o2n, pend, 1, &np));   /* no room */

    /* One id over two lines: the sum. */
    struct dbg_bp c[2] = { bp(40, 2, 18, NULL), bp(40, 2, 23, NULL) };
    CHECK(dbg_rebind_counts(old, 2, ids, hits, 2, c, 2, &lines, &park, nh, o2n, pend, 64, &np));
    CHECK(nh[0] == 12 && nh[1] == 12);

    /* Unknown counts: a new condition, a changed condition, an instruction breakpoint, a logpoint. */
    struct dbg_bp d[1] = { bp(50, 2, 18, "y < 0.0") };
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, d, 1, &lines, &park, nh, o2n, pend, 64, &np));
    struct dbg_bp e[1] = { bp(51, 1, 27, "x > 2.0") };
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, e, 1, &lines, &park, nh, o2n, pend, 64, &np));
    struct dbg_bp f[1] = { bp(52, 2, 18, NULL) };
    f[0].pc1 = 9;
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, f, 1, &lines, &park, nh, o2n, pend, 64, &np));
    struct dbg_bp g[1] = { bp(53, 2, 18, NULL) };
    g[0].log_message = "v = {v}";
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, g, 1, &lines, &park, nh, o2n, pend, 64, &np));

    /* An old id split: its remaining entry is not the same set, so it counts as new (plain: known). */
    struct dbg_bp two[2] = { bp(60, 2, 18, NULL), bp(60, 2, 23, NULL) };
    int ids2[1] = { 60 };
    uint64_t hits2[1] = { 99 };
    struct dbg_bp h[1] = { bp(61, 2, 23, NULL) };
    CHECK(dbg_rebind_counts(two, 2, ids2, hits2, 1, h, 1, &lines, &park, nh, o2n, pend, 64, &np));
    CHECK(nh[0] == 7 && o2n[0] == -1 && o2n[1] == -1);

    /* A table that lost counts answers nothing new. */
    lines.lost = true;
    CHECK(!dbg_rebind_counts(old, 2, ids, hits, 2, c, 2, &lines, &park, nh, o2n, pend, 64, &np));
    dbg_line_hits_free(&lines);
    if (!failures)
        printf("dbg_rebind: all checks passed\n");
    return failures ? 1 : 0;
}
