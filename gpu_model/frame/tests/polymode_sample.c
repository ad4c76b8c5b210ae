/* polymode_sample: polygon modes, quads, quad strips, polygons and edge flags as legacy GL
 * programs draw them, for the GPU model's e2e test (`glreplay model --compare` must agree with
 * llvmpipe). EGL surfaceless with a pbuffer, a compatibility context, GLSL 1.30 with vertex
 * arrays (positions and colours in a buffer, edge flags in a client-memory edge flag array).
 * Each frame, rotating with the frame index:
 *  1. a twisting band of GL_QUADS: front faces filled, back faces as 2-pixel lines;
 *  2. a GL_QUAD_STRIP as legacy (non-sprite) points of size 3, first-vertex convention, flat;
 *  3. a GL_POLYGON as lines with some edges hidden by edge flags;
 *  4. a GL_TRIANGLE_FAN crossing the window's edge: front faces as lines, back faces as
 *     points, then again with front faces culled;
 *  5. the band again through a polygon stipple and as a line-stippled line loop; both patterns
 *     are set once at start-up, so a capture of a later frame needs them from its snapshot.
 * --smooth also enables GL_LINE_SMOOTH for the stippled line loop (gm_aa.c: the draw module's
 * aaline stage after the stipple; its gl_FrontFacing is true).
 * Usage: polymode_sample [--frames N] [--size WxH] [--smooth] */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../tests/support/gl_test_util.h"

#define BAND 12

typedef struct vtx { float pos[4]; float col[4]; } vtx;

static const char *vs_src =
    "#version 130\n"
    "in vec4 pos; in vec4 col;\n"
    "out vec4 c; flat out vec4 fc;\n"
    "void main() { gl_Position = pos; c = col; fc = col; }\n";
static const char *fs_src =
    "#version 130\n"
    "in vec4 c; flat in vec4 fc; uniform int flat_mode;\n"
    "out vec4 o;\n"
    "void main() { o = flat_mode != 0 ? fc : vec4(c.rgb, gl_FrontFacing ? 1.0 : 0.5); }\n";

static GLuint program(void)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, glt_shader("polymode_sample", GL_VERTEX_SHADER, vs_src));
    glAttachShader(p, glt_shader("polymode_sample", GL_FRAGMENT_SHADER, fs_src));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "col");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "polymode_sample: link failed\n");
        exit(1);
    }
    return p;
}

static void set(vtx *v, float x, float y, float z, float r, float g, float b)
{
    v->pos[0] = x; v->pos[1] = y; v->pos[2] = z; v->pos[3] = 1.0f;
    v->col[0] = r; v->col[1] = g; v->col[2] = b; v->col[3] = 1.0f;
}

/* Builds the frame's vertices: band quads, quad strip, polygon, fan. Returns the count. */
static int build(vtx *v, float t, int *first)
{
    int n = 0;
    first[0] = n;   /* band: BAND quads whose far edge twists, so some face backwards */
    for (int i = 0; i < BAND; i++) {
        float x0 = -0.9f + 1.8f * (float)i / BAND, x1 = -0.9f + 1.8f * (float)(i + 1) / BAND;
        float a0 = t + 0.6f * (float)i, a1 = t + 0.6f * (float)(i + 1);
        float y0 = 0.35f + 0.25f * cosf(a0), y1 = 0.35f + 0.25f * cosf(a1);
        float u = (float)i / BAND;
        set(&v[n++], x0, 0.35f, 0.1f, u, 0.2f, 1.0f - u);
        set(&v[n++], x1, 0.35f, 0.1f, u, 0.8f, 0.3f);
        set(&v[n++], x1, y1 + 0.2f * sinf(a1), 0.2f, 1.0f - u, 0.5f, u);
        set(&v[n++], x0, y0 + 0.2f * sinf(a0), 0.2f, 0.3f, u, 0.6f);
    }
    first[1] = n;   /* quad strip along the bottom */
    for (int i = 0; i < 10; i++) {
        float x = -0.85f + 0.17f * (float)i + 0.03f * sinf(t + (float)i);
        set(&v[n++], x, -0.85f, 0.0f, 0.1f * (float)i, 1.0f, 0.2f);
        set(&v[n++], x + 0.02f, -0.55f + 0.05f * cosf(t * 2.0f + (float)i), 0.0f, 1.0f, 0.1f * (float)i, 0.4f);
    }
    first[2] = n;   /* heptagon */
    for (int i = 0; i < 7; i++) {
        float a = t * 0.5f + 6.2831853f * (float)i / 7.0f;
        set(&v[n++], -0.35f + 0.3f * cosf(a), -0.1f + 0.3f * sinf(a), -0.2f,
            0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a), 0.8f);
    }
    first[3] = n;   /* fan around a point near the right edge, spokes leaving the window */
    set(&v[n++], 0.75f, -0.15f, 0.0f, 1.0f, 1.0f, 1.0f);
    for (int i = 0; i <= 8; i++) {
        float a = t + 0.9f * (float)i;
        float r = i % 2 ? 0.6f : 0.35f;
        set(&v[n++], 0.75f + r * cosf(a), -0.15f + r * sinf(a) * 1.4f, 0.3f * sinf(a),
            0.2f + 0.1f * (float)i, 0.9f - 0.1f * (float)i, 0.5f);
    }
    first[4] = n;
    return n;
}

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    bool smooth = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--smooth"))
            smooth = true;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "polymode_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: polymode_sample [--frames N] [--size WxH] [--smooth]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "polymode_sample", width, height, 24, 0, 0, 0) != 0)
        return 1;
    GLuint prog = program(), vbo;
    GLint flat_loc = glGetUniformLocation(prog, "flat_mode");
    glUseProgram(prog);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)offsetof(vtx, col));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    /* start-up state: a checker-and-stripes polygon stipple, a dash-dot line stipple */
    GLubyte pstipple[128];
    for (int r = 0; r < 32; r++)
        for (int b = 0; b < 4; b++)
            pstipple[4 * r + b] = (GLubyte)(r % 8 < 4 ? 0xCC >> (b & 1) : 0x0F << (r & 1));
    glPolygonStipple(pstipple);
    glLineStipple(2, 0x27FF);
    vtx v[4 * BAND + 20 + 7 + 10];
    GLboolean ef[sizeof v / sizeof v[0]];
    int first[5];
    for (int f = 0; f < frames; f++) {
        int nv = build(v, 0.37f * (float)f, first);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(vtx) * (size_t)nv), v, GL_STREAM_DRAW);
        for (int i = 0; i < nv; i++)
            ef[i] = (GLboolean)((i + f) % 3 != 0);
        glViewport(0, 0, width, height);
        glClearColor(0.05f, 0.05f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        glUniform1i(flat_loc, 0);
        glPolygonMode(GL_FRONT, GL_FILL);
        glPolygonMode(GL_BACK, GL_LINE);
        glLineWidth(2.0f);
        glDrawArrays(GL_QUADS, first[0], first[1] - first[0]);

        glUniform1i(flat_loc, 1);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glPolygonMode(GL_FRONT_AND_BACK, GL_POINT);
        glPointSize(3.0f);
        glDrawArrays(GL_QUAD_STRIP, first[1], first[2] - first[1]);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);

        glUniform1i(flat_loc, 0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);   /* the edge flags are in client memory */
        glEdgeFlagPointer(0, ef);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glEnableClientState(GL_EDGE_FLAG_ARRAY);
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glLineWidth(1.0f);
        glDrawArrays(GL_POLYGON, first[2], first[3] - first[2]);
        glDisableClientState(GL_EDGE_FLAG_ARRAY);

        glPolygonMode(GL_FRONT, GL_LINE);
        glPolygonMode(GL_BACK, GL_POINT);
        glPointSize(2.0f);
        glDrawArrays(GL_TRIANGLE_FAN, first[3], first[4] - first[3]);
        glEnable(GL_CULL_FACE);
        glCullFace(GL_FRONT);
        glPolygonMode(GL_BACK, GL_LINE);
        glUniform1i(flat_loc, 1);
        glDrawArrays(GL_TRIANGLE_FAN, first[3], first[4] - first[3]);
        glDisable(GL_CULL_FACE);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);

        glUniform1i(flat_loc, 0);
        glEnable(GL_POLYGON_STIPPLE);
        glDrawArrays(GL_TRIANGLE_FAN, first[2], first[3] - first[2]);
        glDisable(GL_POLYGON_STIPPLE);
        glEnable(GL_LINE_STIPPLE);
        if (smooth)
            glEnable(GL_LINE_SMOOTH);
        glDrawArrays(GL_LINE_LOOP, first[3], first[4] - first[3]);
        glDisable(GL_LINE_SMOOTH);
        glDisable(GL_LINE_STIPPLE);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glFinish();
    GLenum err = glGetError();
    glt_egl_close(&egl);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "polymode_sample: GL error 0x%04x\n", err);
        return 1;
    }
    printf("polymode_sample: %d frames\n", frames);
    return 0;
}
