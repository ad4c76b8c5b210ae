/* The telemetry methods as the profile spine sees them: created from the options, hooked into the
 * frame runner in a fixed order, finished, and asked for their part of each output. This is the
 * only place that knows the methods' own APIs (gmt_counters.h, gmt_pcsamp.h, gmt_edges.h,
 * gmt_tracebuf.h); each is compiled in when meson finds its module (GMT_HAVE_COUNTERS, ...). */
#ifndef GMT_PROFILE_METHODS_H
#define GMT_PROFILE_METHODS_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "gmt_profile.h"

#define GMT_MAX_METHOD_HOOKS 4

/* One counter over time: its rate per cycle over each interval between bank swaps. */
struct gmt_series {
    char name[64];
    bool main;                      /* one of the main counters (plotted) */
    size_t n;
    uint64_t *cycle;
    double *value;
};

struct gmt_methods {
    void *counters, *pcsamp, *edges, *tracebuf;
    struct gmt_series *series;      /* counter time series (built at the end) */
    int n_series;
    int passes;                     /* frame runs needed (2 with trace buffers) */
    int pass;                       /* the run in progress (0-based) */
};

struct gmt_profile;

/* Creates the methods the options ask for. Methods not built in are skipped with a note.
 * 0, or -1 with a message. */
int gmt_methods_create(struct gmt_profile *p, const gm_timing_config *tc, char *err, size_t err_size);
/* Hooks of every enabled method for run `pass`, in the fixed order counters, pcsamp, edges,
 * tracebuf. Returns how many were written to out. */
int gmt_methods_hooks(struct gmt_profile *p, int pass, gmf_hooks *out);
/* Between the passes and at the end: end_cycle of the run just finished. 0 or -1 with a message. */
int gmt_methods_end_pass(struct gmt_profile *p, int pass, uint64_t end_cycle, char *err, size_t err_size);
/* Adds what the methods know per source line (PC samples and their reasons) to the line table. */
void gmt_methods_fold_lines(struct gmt_profile *p);
/* Output parts. */
void gmt_methods_json(const struct gmt_profile *p, cJSON *root);
void gmt_methods_trace(const struct gmt_profile *p, cJSON *events);
void gmt_methods_report(const struct gmt_profile *p, FILE *f);
/* Extra plot series (counters over time): count, and each series' name and points. */
int gmt_methods_series_count(const struct gmt_profile *p);
int gmt_methods_series(const struct gmt_profile *p, int i, const char **name, size_t *n, const uint64_t **cycle,
                       const double **value, bool *main);
/* Extra files: DOT of the edge profiles, the trace buffers (binary, or JSON lines for *.jsonl). */
int gmt_methods_write_dot(const struct gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx);
int gmt_methods_write_annotated(const struct gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx);
int gmt_methods_write_tracebuf(const struct gmt_profile *p, const char *path, char *err, size_t err_size);
void gmt_methods_destroy(struct gmt_profile *p);

#endif
