/* Shared pieces of the idle_cost benchmark (idle_cost.c: context, PLT loops, main;
 * idle_cost_paired.c: in-process comparison of the interposed and the real entry points). */
#ifndef IDLE_COST_H
#define IDLE_COST_H

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

/* Calls per timed slice: 9,999 cheap calls take well under a millisecond, much less than the
 * 4 ms a busy machine's scheduler gives another process when it preempts this one (measured:
 * 100k-call slices came out in steps of +40 ns/call on a loaded 2-core machine).
 * A multiple of 3 so the mixed loop makes exactly this many. */
#define SLICE_CALLS 9999L

/* The GL objects the loops use: a program with a vec4 uniform, two textures, two VAOs. */
struct scene {
    GLint loc;
    GLuint tex[2];
    GLuint vao[2];
};

double idle_cost_now_ns(void);

/* Times the PLT-bound entry points (whatever an interposer made of them) against the real
 * library's own definitions, in alternating slices of one process, and prints one
 * "idle_cost_paired" line per call. Returns 0, or -1 after printing why it cannot. */
int idle_cost_paired(const struct scene *s, long n, int reps);

#endif
