/* SVG plot of the main counters over the frame: one panel per series (the activity series, then
 * the methods' series), sharing a time axis in model cycles, with the draws shaded behind. The
 * SVG is written by hand (a few element kinds), so no plotting library is needed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_profile_internal.h"

#define W 900.0
#define LEFT 240.0
#define RIGHT 20.0
#define PANEL_H 70.0
#define GAP 18.0
#define TOP 40.0

struct buf {
    char *s;
    size_t n, cap;
    bool failed;
};

static void out(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct buf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->failed = true;
            return;
        }
        if ((size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->failed = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
}

/* Escapes text for an SVG text node. */
static void out_text(struct buf *b, const char *t)
{
    for (; *t; t++) {
        if (*t == '<')
            out(b, "&lt;");
        else if (*t == '>')
            out(b, "&gt;");
        else if (*t == '&')
            out(b, "&amp;");
        else
            out(b, "%c", *t);
    }
}

static void panel(struct buf *b, double y0, double span, const char *name, size_t n, const uint64_t *cyc,
                  const double *val, const char *colour)
{
    double max = 0;
    for (size_t i = 0; i < n; i++)
        if (val[i] > max)
            max = val[i];
    out(b, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#999'/>\n", LEFT, y0,
        W - LEFT - RIGHT, PANEL_H);
    out(b, "<text x='%.1f' y='%.1f' font-size='12' text-anchor='end'>", LEFT - 6, y0 + PANEL_H / 2);
    out_text(b, name);
    out(b, "</text>\n<text x='%.1f' y='%.1f' font-size='10' text-anchor='end' fill='#666'>max %.4g</text>\n", LEFT - 6,
        y0 + PANEL_H / 2 + 14, max);
    if (!n || span <= 0)
        return;
    /* A step line: each point holds its value until the next one. */
    out(b, "<polyline fill='none' stroke='%s' stroke-width='1.2' points='", colour);
    double pw = W - LEFT - RIGHT;
    for (size_t i = 0; i < n; i++) {
        double x = LEFT + pw * (double)cyc[i] / span;
        double y = y0 + PANEL_H - (max > 0 ? PANEL_H * val[i] / max : 0);
        double xn = LEFT + pw * (double)(i + 1 < n ? cyc[i + 1] : (uint64_t)span) / span;
        if (xn > LEFT + pw)
            xn = LEFT + pw;
        out(b, "%.1f,%.1f %.1f,%.1f ", x, y, xn, y);
    }
    out(b, "'/>\n");
}

char *gmt_profile_svg(const gmt_profile *p)
{
    static const char *const colours[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                           "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
    /* The methods' main counters (the others are in the trace and the JSON). */
    int extra[16], n_extra = 0;
    for (int i = 0; i < gmt_methods_series_count(p) && n_extra < 16; i++) {
        const char *name;
        size_t n;
        const uint64_t *c;
        const double *v;
        bool main = false;
        if (gmt_methods_series(p, i, &name, &n, &c, &v, &main) == 0 && main)
            extra[n_extra++] = i;
    }
    int panels = GMT_ACT_COUNT + n_extra;
    double h = TOP + panels * (PANEL_H + GAP) + 40;
    double span = (double)(p->end_cycle ? p->end_cycle : 1);
    const struct gmt_activity *a = &p->act;
    struct buf b = { 0 };
    out(&b, "<?xml version='1.0' encoding='UTF-8'?>\n");
    out(&b, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' font-family='sans-serif'>\n", W, h);
    out(&b, "<rect width='100%%' height='100%%' fill='white'/>\n<text x='%.1f' y='22' font-size='14'>", LEFT);
    out_text(&b, p->name);
    out(&b, ": GPU model activity over the frame (%llu cycles; buckets of %llu cycles)</text>\n",
        (unsigned long long)p->end_cycle, (unsigned long long)a->width);
    /* Draws shaded over the whole height. */
    double pw = W - LEFT - RIGHT, bottom = TOP + panels * (PANEL_H + GAP) - GAP;
    for (size_t i = 0; i < p->n_slices; i++) {
        const gmt_profile_slice *s = &p->slices[i];
        if (s->clear || s->end_cycle <= s->start_cycle)
            continue;
        out(&b, "<rect x='%.1f' y='%.1f' width='%.2f' height='%.1f' fill='%s' opacity='0.35'><title>%s %llu, "
                "program %u: %llu cycles</title></rect>\n",
            LEFT + pw * (double)s->start_cycle / span, TOP, pw * (double)(s->end_cycle - s->start_cycle) / span,
            bottom - TOP, s->dispatch ? "#e0f0f0" : (s->index & 1) ? "#e8e8f8" : "#f0f0e0",
            s->dispatch ? "dispatch" : "draw", (unsigned long long)s->index, s->program,
            (unsigned long long)(s->end_cycle - s->start_cycle));
    }
    uint64_t *cyc = malloc((a->n + 1) * sizeof *cyc);
    double *val = malloc((a->n + 1) * sizeof *val);
    if (!cyc || !val) {
        free(cyc);
        free(val);
        free(b.s);
        return NULL;
    }
    for (int s = 0; s < GMT_ACT_COUNT; s++) {
        for (size_t i = 0; i < a->n; i++) {
            cyc[i] = i * a->width;
            val[i] = (double)a->v[s][i];
        }
        panel(&b, TOP + s * (PANEL_H + GAP), span, gmt_act_names[s], a->n, cyc, val, colours[s % 10]);
    }
    free(cyc);
    free(val);
    for (int i = 0; i < n_extra; i++) {
        const char *name;
        size_t n;
        const uint64_t *c;
        const double *v;
        bool main;
        double y0 = TOP + (GMT_ACT_COUNT + i) * (PANEL_H + GAP);
        if (gmt_methods_series(p, extra[i], &name, &n, &c, &v, &main) == 0)
            panel(&b, y0, span, name, n, c, v, colours[(GMT_ACT_COUNT + i) % 10]);
    }
    out(&b, "<text x='%.1f' y='%.1f' font-size='11'>0</text>\n", LEFT, bottom + 16);
    out(&b, "<text x='%.1f' y='%.1f' font-size='11' text-anchor='end'>%llu cycles</text>\n", W - RIGHT, bottom + 16,
        (unsigned long long)p->end_cycle);
    out(&b, "</svg>\n");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
