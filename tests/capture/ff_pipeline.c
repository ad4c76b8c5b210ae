/* A fixed-function program in a compatibility context (EGL surfaceless) that draws only from
 * client arrays (glVertexPointer, glNormalPointer, glColorPointer, glTexCoordPointer; no
 * glBegin), each draw with a different fixed-function state:
 *   A: a lit, textured wavy grid: a directional light and a positional attenuated spot light,
 *      colour material, separate specular colour, GL_NORMALIZE, texture GL_MODULATE, linear fog;
 *   B: the same grid behind, two-sided lighting with a local viewer seen from the back, flat
 *      shading, sphere-map texture generation on unit 0 and on unit 1 GL_COMBINE (INTERPOLATE of
 *      the texture and the constant colour by the primary alpha, RGB scale 2), EXP2 fog, alpha test;
 *   C: point sprites with distance attenuation clipped by a user clip plane, GL_RESCALE_NORMAL lighting
 *      with GL_EXP fog and a GLSL fragment shader on the fixed vertex stage (a mixed draw) under
 *      the legacy alpha test.
 * All state is set every frame (the model must not need the snapshot's fixed-function calls).
 * Usage: ff_pipeline FRAMES. Prints a checksum of read-back pixels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

#define W 96
#define H 72
#define N 9 /* grid vertices per side */

static float pos[N * N][3], nrm[N * N][3], uv[N * N][2];
static unsigned char col[N * N][4];
static GLushort idx[(N - 1) * (N - 1) * 6];

static const char *fs_src =
    "#version 110\n"
    "void main() { gl_FragColor = vec4(gl_Color.rgb * 0.5 + gl_TexCoord[0].xyz * 0.1 + 0.25, gl_Color.a); }\n";

static void grid(float t)
{
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            int i = y * N + x;
            float u = (float)x / (N - 1), v = (float)y / (N - 1);
            float h = 0.15f * sinf(6.0f * u + 0.7f * t) * cosf(5.0f * v);
            pos[i][0] = -1.0f + 2.0f * u;
            pos[i][1] = -1.0f + 2.0f * v;
            pos[i][2] = h;
            float dx = 0.9f * cosf(6.0f * u + 0.7f * t) * cosf(5.0f * v);
            float dy = -0.75f * sinf(6.0f * u + 0.7f * t) * sinf(5.0f * v);
            /* unnormalized on purpose (GL_NORMALIZE / GL_RESCALE_NORMAL) */
            nrm[i][0] = -1.5f * dx;
            nrm[i][1] = -1.5f * dy;
            nrm[i][2] = 1.5f;
            uv[i][0] = 2.0f * u;
            uv[i][1] = 2.0f * v;
            col[i][0] = (unsigned char)(80 + 170 * u);
            col[i][1] = (unsigned char)(200 - 120 * v);
            col[i][2] = (unsigned char)(60 + 20 * (int)t);
            col[i][3] = (unsigned char)(255 * (0.3f + 0.7f * u));
        }
}

static GLuint checker(int size, unsigned char a0, unsigned char a1)
{
    unsigned char *p = malloc((size_t)size * size * 4);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            unsigned char *q = p + 4 * (y * size + x);
            int on = ((x / 2) ^ (y / 2)) & 1;
            q[0] = on ? 230 : 40;
            q[1] = (unsigned char)(8 * x);
            q[2] = (unsigned char)(8 * y);
            q[3] = on ? a1 : a0;
        }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, p);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    free(p);
    return t;
}

static void lights(float t)
{
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    const float dir[4] = { 0.3f, 0.5f, 1.0f, 0.0f };
    const float white[4] = { 0.9f, 0.9f, 0.8f, 1.0f }, amb[4] = { 0.1f, 0.1f, 0.15f, 1.0f };
    glLightfv(GL_LIGHT0, GL_POSITION, dir);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, white);
    glLightfv(GL_LIGHT0, GL_SPECULAR, white);
    glLightfv(GL_LIGHT0, GL_AMBIENT, amb);
    /* light 1: positional spot, placed under a transform (eye coordinates at the call) */
    glPushMatrix();
    glTranslatef(0.2f * sinf(t), 0.0f, 0.0f);
    glRotatef(10.0f * t, 0.0f, 0.0f, 1.0f);
    /* w 2.5: the fixed-function stage divides the eye position by it, (-0.4, 0.3, 1.2) */
    const float p1[4] = { -1.0f, 0.75f, 3.0f, 2.5f }, sd[3] = { 0.3f, -0.2f, -1.0f };
    const float red[4] = { 1.0f, 0.3f, 0.2f, 1.0f };
    glLightfv(GL_LIGHT1, GL_POSITION, p1);
    glLightfv(GL_LIGHT1, GL_SPOT_DIRECTION, sd);
    glLightf(GL_LIGHT1, GL_SPOT_CUTOFF, 40.0f);
    glLightf(GL_LIGHT1, GL_SPOT_EXPONENT, 8.0f);
    glLightf(GL_LIGHT1, GL_LINEAR_ATTENUATION, 0.4f);
    glLightf(GL_LIGHT1, GL_QUADRATIC_ATTENUATION, 0.2f);
    glLightfv(GL_LIGHT1, GL_DIFFUSE, red);
    glLightfv(GL_LIGHT1, GL_SPECULAR, red);
    glPopMatrix();
    const float spec[4] = { 0.6f, 0.6f, 0.6f, 1.0f }, back[4] = { 0.2f, 0.5f, 0.9f, 1.0f };
    glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, spec);
    glMaterialf(GL_FRONT_AND_BACK, GL_SHININESS, 24.0f);
    glMaterialfv(GL_BACK, GL_DIFFUSE, back);
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "ff_pipeline", W, H, 24, 0, 0, 0) != 0)
        return 1;
    GLuint tex0 = checker(16, 255, 90), tex1 = checker(8, 200, 255);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("ff_pipeline", GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    int ni = 0;
    for (int y = 0; y < N - 1; y++)
        for (int x = 0; x < N - 1; x++) {
            GLushort a = (GLushort)(y * N + x), b = (GLushort)(a + 1), c = (GLushort)(a + N), d = (GLushort)(c + 1);
            GLushort q[6] = { a, b, d, a, d, c };
            memcpy(&idx[ni], q, sizeof q);
            ni += 6;
        }
    glVertexPointer(3, GL_FLOAT, 0, pos);
    glNormalPointer(GL_FLOAT, 0, nrm);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glTexCoordPointer(2, GL_FLOAT, 0, uv);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glEnable(GL_DEPTH_TEST);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        float t = (float)f;
        grid(t);
        glClearColor(0.2f, 0.25f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glFrustum(-0.6, 0.6, -0.45, 0.45, 1.0, 8.0);
        lights(t);
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();
        glTranslatef(0.0f, 0.0f, -2.6f);
        glRotatef(-25.0f + 3.0f * t, 1.0f, 0.0f, 0.0f);

        /* A */
        glShadeModel(GL_SMOOTH);
        glEnable(GL_LIGHTING);
        glEnable(GL_LIGHT0);
        glEnable(GL_LIGHT1);
        glEnable(GL_COLOR_MATERIAL);
        glColorMaterial(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE);
        glLightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SEPARATE_SPECULAR_COLOR);
        glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_FALSE);
        glLightModeli(GL_LIGHT_MODEL_LOCAL_VIEWER, GL_FALSE);
        glEnable(GL_NORMALIZE);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, tex0);
        glEnable(GL_TEXTURE_2D);
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
        glEnable(GL_FOG);
        glFogi(GL_FOG_MODE, GL_LINEAR);
        glFogf(GL_FOG_START, 1.5f);
        glFogf(GL_FOG_END, 4.5f);
        const float fogc[4] = { 0.5f, 0.55f, 0.6f, 1.0f };
        glFogfv(GL_FOG_COLOR, fogc);
        glDrawElements(GL_TRIANGLES, ni, GL_UNSIGNED_SHORT, idx);

        /* B: the grid behind, seen from its back */
        glPushMatrix();
        glTranslatef(0.3f, 0.1f, -1.2f);
        glRotatef(160.0f, 0.0f, 1.0f, 0.0f);
        glShadeModel(GL_FLAT);
        glLightModeli(GL_LIGHT_MODEL_TWO_SIDE, GL_TRUE);
        glLightModeli(GL_LIGHT_MODEL_LOCAL_VIEWER, GL_TRUE);
        glLightModeli(GL_LIGHT_MODEL_COLOR_CONTROL, GL_SINGLE_COLOR);
        glColorMaterial(GL_FRONT, GL_DIFFUSE);
        glTexGeni(GL_S, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
        glTexGeni(GL_T, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP);
        glEnable(GL_TEXTURE_GEN_S);
        glEnable(GL_TEXTURE_GEN_T);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, tex1);
        glEnable(GL_TEXTURE_2D);
        const float envc[4] = { 0.9f, 0.2f, 0.6f, 0.5f };
        glTexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, envc);
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
        glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_INTERPOLATE);
        glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_RGB, GL_TEXTURE);
        glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE1_RGB, GL_CONSTANT);
        glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE2_RGB, GL_PRIMARY_COLOR);
        glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND2_RGB, GL_SRC_ALPHA);
        glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_ALPHA, GL_MODULATE);
        glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE0_ALPHA, GL_PREVIOUS);
        glTexEnvi(GL_TEXTURE_ENV, GL_SOURCE1_ALPHA, GL_TEXTURE);
        glTexEnvf(GL_TEXTURE_ENV, GL_RGB_SCALE, 2.0f);
        glClientActiveTexture(GL_TEXTURE1);
        glTexCoordPointer(2, GL_FLOAT, 0, uv);
        glEnableClientState(GL_TEXTURE_COORD_ARRAY);
        glClientActiveTexture(GL_TEXTURE0);
        glFogi(GL_FOG_MODE, GL_EXP2);
        glFogf(GL_FOG_DENSITY, 0.35f);
        glEnable(GL_ALPHA_TEST);
        glAlphaFunc(GL_GREATER, 0.45f);
        glDrawElements(GL_TRIANGLES, ni, GL_UNSIGNED_SHORT, idx);
        glDisable(GL_ALPHA_TEST);
        glDisable(GL_TEXTURE_2D);
        glActiveTexture(GL_TEXTURE0);
        glDisable(GL_TEXTURE_GEN_S);
        glDisable(GL_TEXTURE_GEN_T);
        glDisable(GL_TEXTURE_2D);
        glPopMatrix();

        /* C: attenuated points, a clip plane, rescaled normals, EXP fog, a GLSL fragment shader */
        glShadeModel(GL_SMOOTH);
        glDisable(GL_NORMALIZE);
        glEnable(GL_RESCALE_NORMAL);
        glDisable(GL_LIGHT1);
        glPushMatrix();
        glScalef(0.8f, 0.8f, 0.8f);
        const double plane[4] = { 1.0, 0.4, 0.0, 0.33 };
        glClipPlane(GL_CLIP_PLANE0, plane);
        glEnable(GL_CLIP_PLANE0);
        const float att[3] = { 0.2f, 0.3f, 0.1f };
        glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, att);
        glPointParameterf(GL_POINT_SIZE_MAX, 9.0f);
        glPointSize(6.0f);
        glFogi(GL_FOG_MODE, GL_EXP);
        /* sprites: wide non-sprite points follow llvmpipe's legacy point rule, not modelled yet */
        glEnable(GL_POINT_SPRITE);
        /* the legacy alpha test applies to a GLSL fragment shader too (compatibility profile) */
        glEnable(GL_ALPHA_TEST);
        glAlphaFunc(GL_GEQUAL, 0.6f);
        glUseProgram(prog);
        glDrawArrays(GL_POINTS, 0, N * N / 2);
        glUseProgram(0);
        glDisable(GL_ALPHA_TEST);
        glDrawArrays(GL_POINTS, N * N / 2, N * N - N * N / 2);
        glDisable(GL_CLIP_PLANE0);
        glDisable(GL_POINT_SPRITE);
        glPopMatrix();
        const float one[3] = { 1.0f, 0.0f, 0.0f };
        glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, one);
        glDisable(GL_RESCALE_NORMAL);
        glDisable(GL_FOG);
        glDisable(GL_LIGHTING);
        glDisable(GL_COLOR_MATERIAL);

        unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("ff_pipeline: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
