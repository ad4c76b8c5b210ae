/* The heat-map pass and its image (see dbg_heatmap.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_heatmap.h"

struct dbg_heat {
    char *expr;
    int component;
    int draw;                /* -1: all */
    unsigned w, h;           /* map size (grows with the pixels seen) */
    float *val;              /* w*h, NAN = nan value */
    unsigned char *set;      /* 0: none, 1: value */
    uint64_t fragments, errors;
    char first_error[200];
    bool oom;
    bool too_big;            /* a pixel beyond the largest map (the fragment is not recorded) */
};

struct dbg_heat *dbg_heat_new(const char *expr, int component, int draw)
{
    struct dbg_heat *ht = calloc(1, sizeof *ht);
    if (ht && !(ht->expr = strdup(expr))) {
        free(ht);
        return NULL;
    }
    if (ht) {
        ht->component = component;
        ht->draw = draw;
    }
    return ht;
}

void dbg_heat_free(struct dbg_heat *ht)
{
    if (!ht)
        return;
    free(ht->expr);
    free(ht->val);
    free(ht->set);
    free(ht);
}

/* The n-th component of a value text ("0.5", "vec3(0.1, 0.2, 0.3)", "true", "ivec2(1, -2)"). */
static bool component_of(const char *text, int n, float *out)
{
    if (!strcmp(text, "true") || !strcmp(text, "false")) {
        *out = text[0] == 't' ? 1.0f : 0.0f;
        return n == 0;
    }
    const char *p = strchr(text, '(');
    p = p ? p + 1 : text;
    for (int k = 0;; k++) {
        while (*p == ' ')
            p++;
        char *end;
        float v;
        if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
            v = *p == 't' ? 1.0f : 0.0f;
            end = (char *)p + (*p == 't' ? 4 : 5);
        } else {
            v = strtof(p, &end);   /* also "nan", "inf", "-inf" */
            if (end == p)
                return false;
        }
        if (k == n) {
            *out = v;
            return true;
        }
        p = strchr(end, ',');
        if (!p)
            return false;
        p++;
    }
}

static bool grow(struct dbg_heat *ht, unsigned nw, unsigned nh)
{
    if (nw <= ht->w && nh <= ht->h)
        return true;
    nw = nw > ht->w ? nw : ht->w;
    nh = nh > ht->h ? nh : ht->h;
    /* A frame up to 8192 pixels a side and 40 M pixels (8K UHD): 200 MB at most. */
    if (nw > 8192 || nh > 8192 || (uint64_t)nw * nh > 40000000u) {
        ht->too_big = true;
        return false;
    }
    float *v = calloc((size_t)nw * nh, sizeof *v);
    unsigned char *st = calloc((size_t)nw * nh, 1);
    if (!v || !st) {
        free(v);
        free(st);
        ht->oom = true;
        return false;
    }
    for (unsigned y = 0; y < ht->h; y++)
        for (unsigned x = 0; x < ht->w; x++) {
            v[(size_t)y * nw + x] = ht->val[(size_t)y * ht->w + x];
            st[(size_t)y * nw + x] = ht->set[(size_t)y * ht->w + x];
        }
    free(ht->val);
    free(ht->set);
    ht->val = v;
    ht->set = st;
    ht->w = nw;
    ht->h = nh;
    return true;
}

static void on_hit(void *user, const struct dbg_observe_info *info, const sh_snapshot *snap, int lane)
{
    struct dbg_heat *ht = user;
    if (info->stage != GM_STAGE_FRAGMENT || (ht->draw >= 0 && info->draw != ht->draw) || !snap)
        return;
    const sh_header *h = sh_snapshot_header(snap);
    if (!h->lane_pos_known || h->lane_x[lane] < 0 || h->lane_y[lane] < 0)
        return;
    unsigned x = (unsigned)h->lane_x[lane], y = (unsigned)h->lane_y[lane];
    if (!grow(ht, x + 1, y + 1))
        return;
    char text[512], type[96];
    float v;
    ht->fragments++;
    if (dbg_eval(snap, lane, ht->expr, text, sizeof text, type, sizeof type) != 0 ||
        !component_of(text, ht->component, &v)) {
        if (!ht->errors++)
            snprintf(ht->first_error, sizeof ht->first_error, "%.190s", text);
        return;
    }
    ht->val[(size_t)y * ht->w + x] = v;
    ht->set[(size_t)y * ht->w + x] = 1;
}

/* A blue - cyan - green - yellow - white ramp (perceptually ordered, readable in both themes). */
static void ramp(float t, unsigned char *px)
{
    static const float stops[5][3] = { { 0.05f, 0.05f, 0.45f }, { 0.0f, 0.55f, 0.75f }, { 0.1f, 0.75f, 0.3f },
                                       { 0.95f, 0.85f, 0.1f }, { 1.0f, 1.0f, 1.0f } };
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    float f = t * 4.0f;
    int i = f >= 4.0f ? 3 : (int)f;
    float u = f - (float)i;
    for (int c = 0; c < 3; c++)
        px[c] = (unsigned char)lroundf(255.0f * (stops[i][c] + (stops[i + 1][c] - stops[i][c]) * u));
    px[3] = 255;
}


void dbg_heat_size(struct dbg_heat *ht, unsigned w, unsigned h)
{
    grow(ht, w, h);
}

int dbg_heat_run(struct dbg_heat *ht, struct dbg_runner *r, int shader, int line, char *err, size_t n)
{
    struct dbg_bp bp = { .id = -3, .shader = shader, .line = line, .log_message = "" };
    struct dbg_pass_req rq;
    memset(&rq, 0, sizeof rq);
    rq.bps = &bp;
    rq.n_bps = 1;
    rq.only_draw = ht->draw;
    rq.only_x = rq.only_y = -1;
    rq.on_hit = on_hit;
    rq.on_hit_user = ht;
    struct dbg_pass_res res;
    int rc = dbg_engine_run(r, &rq, &res);
    if (rc != 0)
        snprintf(err, n, "%s", res.message);
    dbg_pass_res_release(&res);
    return rc;
}

bool dbg_heat_value(const struct dbg_heat *ht, unsigned x, unsigned y, float *v)
{
    if (x >= ht->w || y >= ht->h || !ht->set[(size_t)y * ht->w + x])
        return false;
    *v = ht->val[(size_t)y * ht->w + x];
    return true;
}

unsigned char *dbg_heat_image(const struct dbg_heat *ht, const double *min, const double *max,
                              struct dbg_heat_stats *st, char *err, size_t n)
{
    memset(st, 0, sizeof *st);
    st->width = ht->w;
    st->height = ht->h;
    st->fragments = ht->fragments;
    st->errors = ht->errors;
    snprintf(st->first_error, sizeof st->first_error, "%s", ht->first_error);
    if (ht->oom) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    if (ht->too_big && !ht->w) {
        snprintf(err, n, "the frame is larger than 8192x8192 / 40 M pixels");
        return NULL;
    }
    /* The range: given, else the finite values seen. */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < (size_t)ht->w * ht->h; i++) {
        if (!ht->set[i])
            continue;
        st->pixels++;
        float v = ht->val[i];
        if (isnan(v)) {
            st->nans++;
            continue;
        }
        if (isinf(v))
            continue;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (!st->pixels) {
        snprintf(err, n, "no fragment reached that line%s%s%s", ht->errors ? " with a value (" : "",
                 ht->errors ? ht->first_error : "", ht->errors ? ")" : "");
        return NULL;
    }
    if (min)
        lo = *min;
    if (max)
        hi = *max;
    if (!(lo <= hi)) {        /* only NaN/inf seen */
        lo = 0;
        hi = 1;
    }
    st->min = lo;
    st->max = hi;
    unsigned char *px = calloc((size_t)ht->w * ht->h, 4);
    if (!px) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < (size_t)ht->w * ht->h; i++) {
        if (!ht->set[i])
            continue;       /* transparent: no fragment */
        float v = ht->val[i];
        unsigned char *p = px + i * 4;
        if (isnan(v)) {
            p[0] = 255, p[1] = 0, p[2] = 255, p[3] = 255;
        } else if (isinf(v)) {
            p[0] = v > 0 ? 255 : 200, p[1] = v > 0 ? 255 : 0, p[2] = v > 0 ? 255 : 0, p[3] = 255;
        } else {
            ramp(hi > lo ? (float)((v - lo) / (hi - lo)) : 0.5f, p);
        }
    }
    return px;
}
