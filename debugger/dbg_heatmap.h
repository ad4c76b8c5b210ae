/* A fragment-shader value over the whole frame (issue 15 §6): one pass of the model with a
 * never-stopping logpoint at a fragment shader line; each fragment's arrival there evaluates the
 * expression on its lane and stores the value at its pixel (the last arrival wins, so later draws
 * cover earlier ones). Used by glreplay/heatmap (dap_warp_eval.c) and `glreplay debug --heatmap`. */
#ifndef GLR_DAP_HEATMAP_H
#define GLR_DAP_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "debugger/dbg_runner.h"

struct dbg_heat;

struct dbg_heat_stats {
    unsigned width, height;
    double min, max;            /* the colour range (given, else the finite values seen) */
    uint64_t fragments;         /* arrivals at the line */
    uint64_t pixels, nans, errors;
    char first_error[200];      /* the evaluator's message for the first fragment without a value */
};

/* expr: a GLSL expression; component: which of its components (0..15); draw: only that draw
 * (-1: all). NULL when out of memory. */
struct dbg_heat *dbg_heat_new(const char *expr, int component, int draw);
void dbg_heat_free(struct dbg_heat *ht);
/* The frame's size when known (a capture's reference image); the map grows with the pixels seen. */
void dbg_heat_size(struct dbg_heat *ht, unsigned w, unsigned h);
/* Runs the frame once at (shader id, line with code). 0, or -1 with a message. */
int dbg_heat_run(struct dbg_heat *ht, struct dbg_runner *r, int shader, int line, char *err, size_t n);
/* The heat map as RGBA8, rows bottom-up (window y = 0 first), malloc'd; min/max NULL: the finite
 * range seen. Colours: blue - cyan - green - yellow - white from min to max, magenta NaN, red -inf,
 * white +inf, transparent where no fragment reached the line. NULL with a message when no
 * fragment had a value, the frame was too large or memory ran out. */
unsigned char *dbg_heat_image(const struct dbg_heat *ht, const double *min, const double *max,
                              struct dbg_heat_stats *st, char *err, size_t n);
/* The value at a pixel: false when no fragment reached it; NaN is a value. */
bool dbg_heat_value(const struct dbg_heat *ht, unsigned x, unsigned y, float *v);

#endif
