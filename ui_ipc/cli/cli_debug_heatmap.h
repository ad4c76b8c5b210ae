/* The heat-map form of `glreplay debug` (cli_debug_heatmap.c). */
#ifndef GLR_CLI_DEBUG_HEATMAP_H
#define GLR_CLI_DEBUG_HEATMAP_H

#include <stdbool.h>

struct dbg_capture;
struct dbg_runner;
struct dbg_bp;

struct cli_heatmap_opts {
    const char *expr, *out;
    int component, draw;
    bool have_min, have_max, json;
    double min, max;
};

/* Runs the frame once and writes the PNG; returns the exit status (messages printed). */
int cli_debug_heatmap(const struct dbg_capture *c, struct dbg_runner *r, const struct dbg_bp *bp,
                      const struct cli_heatmap_opts *o);

#endif
