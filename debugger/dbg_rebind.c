/* Counts of changed breakpoints at a parked stop (see dbg_rebind.h). */
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_rebind.h"

void dbg_line_hits_add(struct dbg_line_hits *t, int shader, int line, uint64_t n)
{
    if (t->lost || shader < 0 || line <= 0)
        return;
    if (shader >= t->n_rows) {
        int nr = shader + 8;
        struct dbg_line_row *r = realloc(t->rows, (size_t)nr * sizeof *r);
        if (!r) {
            t->lost = true;
            return;
        }
        memset(r + t->n_rows, 0, (size_t)(nr - t->n_rows) * sizeof *r);
        t->rows = r;
        t->n_rows = nr;
    }
    struct dbg_line_row *row = &t->rows[shader];
    if (line >= row->n) {
        int nn = line + 64;
        uint64_t *h = realloc(row->hits, (size_t)nn * sizeof *h);
        if (!h) {
            t->lost = true;
            return;
        }
        memset(h + row->n, 0, (size_t)(nn - row->n) * sizeof *h);
        row->hits = h;
        row->n = nn;
    }
    row->hits[line] += n;
}

uint64_t dbg_line_hits_get(const struct dbg_line_hits *t, int shader, int line)
{
    if (shader < 0 || shader >= t->n_rows || line <= 0 || line >= t->rows[shader].n)
        return 0;
    return t->rows[shader].hits[line];
}

void dbg_line_hits_free(struct dbg_line_hits *t)
{
    for (int i = 0; i < t->n_rows; i++)
        free(t->rows[i].hits);
    free(t->rows);
    memset(t, 0, sizeof *t);
}

bool dbg_rebind_enabled(void)
{
    const char *e = getenv("GLREPLAY_DAP_RESUME_CHANGED");
    return !(e && !strcmp(e, "0"));
}

static bool same_text(const char *a, const char *b)
{
    if (!a || !*a)
        return !b || !*b;
    return b && !strcmp(a, b);
}

static bool same_place(const struct dbg_bp *a, const struct dbg_bp *b)
{
    return a->shader == b->shader && a->line == b->line && a->pc1 == b->pc1 && same_text(a->condition, b->condition) &&
           same_text(a->log_message, b->log_message);
}

/* The entries of id `id` in bps, in order, into out (at most n); their count. */
static int entries_of(const struct dbg_bp *bps, int n, int id, int *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (bps[i].id == id)
            out[k++] = i;
    return k;
}

bool dbg_rebind_counts(const struct dbg_bp *old, int n_old, const int *cnt_ids, const uint64_t *cnt_hits, int n_cnt,
                       const struct dbg_bp *nw, int n_new, const struct dbg_line_hits *lines, const struct dbg_park *park,
                       uint64_t *new_hits, int *old_to_new, struct dbg_rebind_pending *pend, int max_pend, int *n_pend)
{
    *n_pend = 0;
    int *en = malloc(((size_t)n_new + 1) * sizeof *en);
    int *eo = malloc(((size_t)n_old + 1) * sizeof *eo);
    bool *old_used = calloc((size_t)n_old + 1, sizeof *old_used);
    bool ok = en && eo && old_used;
    for (int j = 0; j < n_old; j++)
        old_to_new[j] = -1;
    for (int i = 0; ok && i < n_new; i++) {
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = nw[k].id == nw[i].id;
        if (seen)
            continue;   /* the id's entries were handled with its first one */
        int ne = entries_of(nw, n_new, nw[i].id, en);
        /* An old id with exactly these entries keeps its count. */
        bool kept = false;
        for (int j = 0; j < n_old && !kept; j++) {
            if (old_used[j] || !same_place(&old[j], &nw[en[0]]))
                continue;
            int no = entries_of(old, n_old, old[j].id, eo);
            if (no != ne || eo[0] != j)
                continue;
            bool same = true;
            for (int k = 0; k < ne && same; k++)
                same = same_place(&old[eo[k]], &nw[en[k]]);
            if (!same)
                continue;
            uint64_t h = 0;
            for (int c = 0; c < n_cnt; c++)
                if (cnt_ids[c] == old[j].id)
                    h = cnt_hits[c];
            for (int k = 0; k < ne; k++) {
                old_used[eo[k]] = true;
                old_to_new[eo[k]] = en[k];
                new_hits[en[k]] = h;
            }
            kept = true;
        }
        if (kept)
            continue;
        /* A new id: plain line breakpoints only, counted from the pass's arrivals per line. The
         * parked instruction's arrivals after the stop's lane are counted there already but come
         * after the stop: they become pending hits (one entry on that line at most, else the
         * interleaving of several entries' hits would have to be replayed). */
        uint64_t h = 0;
        int on_park = -1;
        for (int k = 0; k < ne && ok; k++) {
            const struct dbg_bp *b = &nw[en[k]];
            ok = !lines->lost && b->pc1 == 0 && !(b->condition && *b->condition) && !b->log_message && b->line > 0;
            if (ok && b->shader == park->shader && b->line == park->line) {
                ok = on_park < 0;
                on_park = en[k];
            }
            if (ok)
                h += dbg_line_hits_get(lines, b->shader, b->line);
        }
        if (ok && on_park >= 0) {
            int after = __builtin_popcount(park->after);
            ok = h >= (uint64_t)after && *n_pend + after <= max_pend;
            uint64_t c = h - (ok ? (uint64_t)after : 0);   /* the id's count at the stop's lane */
            for (int l = 0; ok && l < 32; l++)
                if ((park->after >> l) & 1)
                    pend[(*n_pend)++] = (struct dbg_rebind_pending){ on_park, l, ++c };
        }
        for (int k = 0; k < ne && ok; k++)
            new_hits[en[k]] = h;
    }
    free(en);
    free(eo);
    free(old_used);
    return ok;
}
