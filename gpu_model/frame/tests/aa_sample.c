/* aa_sample.c - antialiased lines and points (GL_LINE_SMOOTH, GL_POINT_SMOOTH) in a
 * compatibility context, immediate mode, for the GPU model's comparison with llvmpipe
 * (gm_aa.c: the draw module's aaline / aapoint stages).
 *
 * Each frame draws, with blending, into the window (y-flipped in llvmpipe) and into a
 * texture framebuffer: smooth lines of width 1 at every angle, wide ones, lines shorter than a
 * pixel, a line with perspective (different w at its ends), flat-shaded strips, a stippled
 * loop, a triangle in polygon mode GL_LINE; smooth points of many sizes at fractional
 * positions, points through the alpha test, a point in front of a quad with the depth test
 * (the discarded corners must not write depth), a polygon-offset triangle over them,
 * attenuated points (per-vertex size).
 * Built with AA_CORE (aa_core_sample): a 3.3 core context instead, smooth lines of widths 1
 * and 3 through a GLSL program whose alpha is gl_FrontFacing ? 1 : 0.5 (the aa quads are front
 * facing in llvmpipe, on the window and in the texture framebuffer alike).
 * Usage: aa_sample [--frames N] [--size WxH] */
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../tests/support/gl_test_util.h"

#ifndef AA_CORE
static void lines(float t)
{
    glShadeModel(GL_SMOOTH);
    glLineWidth(1.0f);
    glBegin(GL_LINES);   /* a star of unit-width lines, every octant */
    for (int i = 0; i < 16; i++) {
        float a = t + 0.3927f * (float)i;
        glColor4f(1.0f, 0.2f + 0.05f * (float)i, 0.1f, 1.0f);
        glVertex2f(30.3f + 3.0f * cosf(a), 45.6f + 3.0f * sinf(a));
        glColor4f(0.1f, 0.5f, 1.0f, 0.8f);
        glVertex2f(30.3f + 26.0f * cosf(a), 45.6f + 26.0f * sinf(a));
    }
    glEnd();
    float widths[3] = {2.0f, 3.5f, 6.25f};
    for (int i = 0; i < 3; i++) {   /* wide lines */
        glLineWidth(widths[i]);
        glBegin(GL_LINES);
        glColor4f(0.9f, 0.9f, 0.2f, 1.0f);
        glVertex2f(64.2f + 9.0f * (float)i, 10.5f);
        glColor4f(0.2f, 0.9f, 0.9f, 0.6f);
        glVertex2f(70.7f + 9.0f * (float)i + 4.0f * sinf(t), 80.3f);
        glEnd();
    }
    glLineWidth(1.0f);
    glBegin(GL_LINES);   /* shorter than a pixel, and just over one */
    float len[5] = {0.25f, 0.5f, 0.8f, 1.3f, 2.2f};
    for (int i = 0; i < 5; i++) {
        glColor4f(1.0f, 1.0f, 1.0f, 1.0f);
        glVertex2f(100.3f + 5.0f * (float)i, 84.4f);
        glVertex2f(100.3f + 5.0f * (float)i + len[i], 84.4f + 0.3f * len[i]);
    }
    /* perspective: w 1 at one end, 4 at the other (colour interpolated perspective-correct) */
    glColor4f(1.0f, 0.0f, 0.0f, 1.0f);
    glVertex4f(96.0f, 70.0f, 0.0f, 1.0f);
    glColor4f(0.0f, 1.0f, 0.0f, 1.0f);
    glVertex4f(150.0f * 4.0f, (62.0f + 3.0f * cosf(t)) * 4.0f, 0.0f, 4.0f);
    glEnd();
    glShadeModel(GL_FLAT);   /* flat strip: each piece in its provoking vertex's colour */
    glBegin(GL_LINE_STRIP);
    for (int i = 0; i < 6; i++) {
        glColor4f(0.2f * (float)i, 1.0f - 0.15f * (float)i, 0.5f, 1.0f);
        glVertex2f(98.0f + 10.0f * (float)i, 50.0f + ((i & 1) ? 7.5f : 0.0f) + sinf(t + (float)i));
    }
    glEnd();
    glShadeModel(GL_SMOOTH);
    glEnable(GL_LINE_STIPPLE);   /* stippled loop: every run of the pattern its own quad */
    glLineStipple(2, 0x3F1F);
    glBegin(GL_LINE_LOOP);
    for (int i = 0; i < 5; i++) {
        float a = t * 0.5f + 1.2566f * (float)i;
        glColor4f(0.8f, 0.4f + 0.1f * (float)i, 1.0f, 1.0f);
        glVertex2f(128.0f + 14.0f * cosf(a), 30.0f + 14.0f * sinf(a));
    }
    glEnd();
    glDisable(GL_LINE_STIPPLE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);   /* polygon edges through the aaline stage */
    glBegin(GL_TRIANGLES);
    glColor4f(1.0f, 0.6f, 0.0f, 1.0f);
    glVertex2f(62.0f, 5.0f);
    glColor4f(0.0f, 0.6f, 1.0f, 1.0f);
    glVertex2f(92.0f + 2.0f * sinf(t), 12.0f);
    glVertex2f(75.0f, 25.0f);
    glEnd();
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
}

static void points(float t)
{
    float sizes[7] = {1.0f, 1.5f, 2.0f, 2.5f, 3.5f, 6.0f, 10.3f};
    for (int i = 0; i < 7; i++) {
        glPointSize(sizes[i]);
        glBegin(GL_POINTS);
        glColor4f(1.0f, 0.3f + 0.1f * (float)i, 0.2f, 0.9f);
        glVertex2f(6.3f + 8.0f * (float)i + 0.25f * sinf(t), 8.7f);
        glEnd();
    }
    glPointSize(7.0f);   /* alpha test after the coverage */
    glEnable(GL_ALPHA_TEST);
    glAlphaFunc(GL_GREATER, 0.4f);
    glBegin(GL_POINTS);
    glColor4f(0.3f, 1.0f, 0.3f, 1.0f);
    glVertex2f(8.5f, 20.2f);
    glVertex2f(18.8f + 0.5f * cosf(t), 20.5f);
    glEnd();
    glDisable(GL_ALPHA_TEST);
    /* depth: a point in front of a later quad; its discarded corners write no depth */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glPointSize(9.0f);
    glBegin(GL_POINTS);
    glColor4f(1.0f, 1.0f, 0.0f, 1.0f);
    glVertex3f(36.4f, 20.4f, -0.5f);
    glEnd();
    glBegin(GL_QUADS);
    glColor4f(0.0f, 0.0f, 1.0f, 1.0f);
    glVertex3f(29.0f, 13.0f, 0.5f);
    glVertex3f(44.0f, 13.0f, 0.5f);
    glVertex3f(44.0f, 28.0f, 0.5f);
    glVertex3f(29.0f, 28.0f, 0.5f);
    glEnd();
    /* a filled, sloped triangle with polygon offset while point smoothing is on: llvmpipe
     * leaves the offset to the draw module then (applied per vertex) */
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 4.0f);
    glBegin(GL_TRIANGLES);
    glColor4f(1.0f, 0.0f, 1.0f, 1.0f);
    glVertex3f(27.0f, 11.0f, 0.9f);
    glVertex3f(47.0f + sinf(t), 14.0f, 0.1f);
    glVertex3f(38.0f, 31.0f, 0.5f);
    glEnd();
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDisable(GL_DEPTH_TEST);
    /* attenuated: the size comes from the vertex stage, per point */
    const GLfloat atten[3] = {0.2f, 0.8f, 0.0f};
    const GLfloat none[3] = {1.0f, 0.0f, 0.0f};
    glPointSize(8.0f);
    glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, atten);
    glBegin(GL_POINTS);
    for (int i = 0; i < 5; i++) {
        glColor4f(0.5f, 0.5f, 1.0f, 1.0f);
        glVertex3f(52.3f + 7.0f * (float)i, 30.6f, -0.1f - 0.2f * (float)i);
    }
    glEnd();
    glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, none);
}

#endif

#ifdef AA_CORE
static const char *core_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec2 pos; layout(location = 1) in vec4 col;\n"
    "out vec4 c;\n"
    "void main() { gl_Position = vec4(pos / vec2(80.0, 45.0) - 1.0, 0.0, 1.0); c = col; }\n";
static const char *core_fs =
    "#version 330 core\n"
    "in vec4 c; out vec4 o;\n"
    "void main() { o = vec4(c.rgb, gl_FrontFacing ? c.a : 0.5 * c.a); }\n";

/* smooth lines in a core profile: a star of width 1 and one of width 3 */
static void core_scene(float t, GLuint vbo)
{
    float v[2 * 24 * 6];
    int n = 0;
    for (int i = 0; i < 24; i++) {
        float a = t + 0.2618f * (float)i, cx = i < 12 ? 40.3f : 115.6f, cy = 45.4f;
        float r0 = 4.0f, r1 = i < 12 ? 30.0f : 38.0f;
        float *p = &v[n];
        p[0] = cx + r0 * cosf(a); p[1] = cy + r0 * sinf(a);
        p[2] = 1.0f; p[3] = 0.3f + 0.05f * (float)(i % 12); p[4] = 0.2f; p[5] = 1.0f;
        p[6] = cx + r1 * cosf(a); p[7] = cy + r1 * sinf(a);
        p[8] = 0.2f; p[9] = 0.6f; p[10] = 1.0f; p[11] = 0.9f;
        n += 12;
    }
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof(v), v, GL_STREAM_DRAW);
    glClearColor(0.05f, 0.05f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_LINE_SMOOTH);
    glLineWidth(1.0f);
    glDrawArrays(GL_LINES, 0, 24);
    glLineWidth(3.0f);
    glDrawArrays(GL_LINES, 24, 24);
    glDisable(GL_LINE_SMOOTH);
    glDisable(GL_BLEND);
}
#endif

#ifndef AA_CORE
static void scene(float t)
{
    glClearColor(0.05f, 0.05f, 0.1f, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_LINE_SMOOTH);
    lines(t);
    glDisable(GL_LINE_SMOOTH);
    glEnable(GL_POINT_SMOOTH);
    points(t);
    glDisable(GL_POINT_SMOOTH);
    glDisable(GL_BLEND);
}
#endif

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "aa_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: aa_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
#ifdef AA_CORE
    if (glt_egl_open(&egl, "aa_sample", width, height, 24, 3, 3, 1) != 0)
        return 1;
    GLuint prog = glCreateProgram(), vao, vbo;
    glAttachShader(prog, glt_shader("aa_sample", GL_VERTEX_SHADER, core_vs));
    glAttachShader(prog, glt_shader("aa_sample", GL_FRAGMENT_SHADER, core_fs));
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    if (!linked) {
        fprintf(stderr, "aa_sample: link failed\n");
        return 1;
    }
    glUseProgram(prog);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void *)(2 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
#else
    if (glt_egl_open(&egl, "aa_sample", width, height, 24, 0, 0, 0) != 0)
        return 1;
#endif
    /* a texture framebuffer with depth: llvmpipe rasterizes it unflipped */
    GLuint tex, rb, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "aa_sample: incomplete framebuffer\n");
        return 1;
    }
    glViewport(0, 0, width, height);
#ifndef AA_CORE
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glOrtho(0.0, 160.0, 0.0, 90.0, -1.0, 1.0);   /* pixel units on the default 160x90 */
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
#endif
    for (int f = 0; f < frames; f++) {
        float t = 0.37f * (float)f;
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
#ifdef AA_CORE
        core_scene(t + 0.2f, vbo);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        core_scene(t, vbo);
#else
        scene(t + 0.2f);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        scene(t);
#endif
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glFinish();
    GLenum err = glGetError();
    glt_egl_close(&egl);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "aa_sample: GL error 0x%04x\n", err);
        return 1;
    }
    printf("aa_sample: %d frames\n", frames);
    return 0;
}
