/* Helpers of the frame runner's unit tests that feed records built by hand: one context
 * (id 1), calls with their return values, shaders and programs from GLSL source. */
#ifndef GMF_TEST_FEED_H
#define GMF_TEST_FEED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_frame.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/sm_blob.h"
#include "statemodel/statemodel.h"

#include "tests/support/glr_check.h"

struct feeder {
    gmf_runner *r;
    uint64_t rec;
    gmf_event ev;
};

static inline struct glr_call *call(uint32_t cmd)
{
    static struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = 1;
    return &c;
}

static inline void feed(struct feeder *f, struct glr_call *c)
{
    CHECK(gmf_feed(f->r, c, f->rec++, &f->ev) == GMF_OK);
}

static inline void ret(struct glr_call *c, uint64_t v)
{
    c->ret = v;
    c->flags |= GLR_CALL_HAS_RET;
}

static inline void shader(struct feeder *f, uint32_t name, uint32_t type, const char *src)
{
    struct glr_call *c = call(GLR_CMD_glCreateShader);
    c->args[0] = type;
    ret(c, name);
    feed(f, c);
    size_t size;
    uint8_t *blob = sm_strings_encode(&src, 1, &size);
    c = call(GLR_CMD_glShaderSource);
    c->args[0] = name;
    c->args[1] = 1;
    c->blobs[2].data = blob;
    c->blobs[2].size = size;
    feed(f, c);
    free(blob);
    c = call(GLR_CMD_glCompileShader);
    c->args[0] = name;
    feed(f, c);
}

static inline void program(struct feeder *f, uint32_t prog, uint32_t vs, uint32_t fs)
{
    struct glr_call *c = call(GLR_CMD_glCreateProgram);
    ret(c, prog);
    feed(f, c);
    uint32_t sh[2] = { vs, fs };
    for (int i = 0; i < 2; i++) {
        c = call(GLR_CMD_glAttachShader);
        c->args[0] = prog;
        c->args[1] = sh[i];
        feed(f, c);
    }
    c = call(GLR_CMD_glLinkProgram);
    c->args[0] = prog;
    feed(f, c);
}

/* A runner (with or without the timing model) and context 1 with an 8x8 window. */
static inline int start(struct feeder *f, int timing)
{
    gmf_surface_desc sd = { 1, 8, 8, false };
    gmf_config cfg = { .surfaces = &sd, .n_surfaces = 1,
                       .timing = timing ? GMF_TIMING_ON : GMF_TIMING_OFF };
    char err[128];
    *f = (struct feeder){ gmf_create(&cfg, err, sizeof err), 0, { 0 } };
    CHECK(f->r != NULL);
    if (!f->r)
        return -1;
    struct glr_call *c = call(GLR_PSEUDO_CONTEXT_CREATE);
    c->args[0] = 1;
    c->args[1] = 1;
    feed(f, c);
    return 0;
}

/* Draws 3 vertices (a full-screen triangle from gl_VertexID) with `prog`. */
static inline void draw(struct feeder *f, uint32_t prog, int line)
{
    struct glr_call *c = call(GLR_CMD_glUseProgram);
    c->args[0] = prog;
    feed(f, c);
    c = call(GLR_CMD_glDrawArrays);
    c->args[0] = GL_TRIANGLES;
    c->args[2] = 3;
    feed(f, c);
    CHECK(f->ev.kind == GMF_EV_DRAW && !f->ev.failed);
    for (int i = 0; i < f->ev.n_unsupported; i++)
        fprintf(stderr, "line %d note: %s\n", line, f->ev.unsupported[i]);
}

/* draw() into the window, then checks its centre pixel (red, green, blue). */
static inline void draw_expect(struct feeder *f, uint32_t prog, int line, uint8_t r, uint8_t g,
                               uint8_t b)
{
    draw(f, prog, line);
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(gmf_read_default(f->r, 1, &px, &w, &h) == 0 && px && w == 8 && h == 8);
    if (!px)
        return;
    const uint8_t *p = px + 4 * (4 * 8 + 4);
    if (p[0] != r || p[1] != g || p[2] != b) {
        fprintf(stderr, "line %d: pixel %u %u %u, want %u %u %u\n", line, p[0], p[1], p[2], r,
                g, b);
        failures++;
    }
    free(px);
}

#endif
