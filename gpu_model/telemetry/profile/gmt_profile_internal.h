/* Private state of a profile run, shared by the run (gmt_profile_run.c) and the outputs
 * (gmt_profile_trace.c, gmt_profile_report.c, gmt_profile_plot.c, gmt_profile_json.c). */
#ifndef GMT_PROFILE_INTERNAL_H
#define GMT_PROFILE_INTERNAL_H

#include "gmt_profile.h"
#include "gmt_profile_methods.h"

/* The spine's own time series ("activity"), built from the hooks alone so that every run has
 * counter tracks and a plot, whichever methods are built in. */
enum gmt_act {
    GMT_ACT_INSTRUCTIONS,   /* warp instructions issued */
    GMT_ACT_LANES,          /* active lanes over those */
    GMT_ACT_TEX_REQUESTS,   /* texture unit requests */
    GMT_ACT_TEX_MISSES,     /* texture cache line misses */
    GMT_ACT_MEM_REQUESTS,   /* memory pipe requests */
    GMT_ACT_FRAGMENTS,      /* fragments shaded (live lanes) */
    GMT_ACT_COUNT
};
extern const char *const gmt_act_names[GMT_ACT_COUNT];

/* Buckets of `width` cycles from cycle 0; when more than GMT_MAX_BUCKETS would be needed the
 * width doubles and neighbouring buckets merge (so a frame of any length keeps a bounded series). */
#define GMT_MAX_BUCKETS 1024
struct gmt_activity {
    uint64_t width;
    size_t n;                              /* buckets in use */
    uint64_t v[GMT_ACT_COUNT][GMT_MAX_BUCKETS];
};

/* A swap (frame boundary) on the timeline. */
struct gmt_swap {
    uint32_t ctx_id;
    uint64_t cycle, record;
};

/* Open-addressed table of source lines, keyed by (ctx, program, stage, line). */
struct gmt_line_table {
    gmt_profile_line *v;
    size_t n, cap;          /* entries, slots (power of two) */
};

struct gmt_profile {
    gmt_profile_options opt;
    char name[256];
    /* the run in progress */
    bool in_draw;
    uint64_t draw_start;
    uint32_t cur_ctx, cur_program;
    /* results */
    gmt_profile_slice *slices;
    size_t n_slices, cap_slices;
    struct gmt_swap *swaps;
    size_t n_swaps, cap_swaps;
    struct gmt_line_table lines;
    gmt_profile_line *sorted;   /* lines sorted by instructions (built at the end) */
    struct gmt_activity act;
    uint64_t end_cycle;
    gmf_totals totals;
    double clock_ghz;
    bool oom;
    /* the methods (gmt_profile_methods.c) */
    struct gmt_methods m;
    const char *notes[16];
    int n_notes;
};

void gmt_profile_note(gmt_profile *p, const char *note);
/* The line entry of (ctx, program, stage, line), created if new; NULL when out of memory. */
gmt_profile_line *gmt_profile_line_at(gmt_profile *p, uint32_t ctx, uint32_t program, int stage, int line);
/* Microseconds on the timeline of a model cycle. */
double gmt_profile_us(const gmt_profile *p, uint64_t cycle);

/* "VS", "GS", "FS", "CS", ... (gmt_profile_report.c) */
const char *gmt_profile_stage_name(int stage);

#endif
