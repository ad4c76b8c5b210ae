/* A GL 2.1-style program in a compatibility context (EGL surfaceless, desktop GL, no version asked):
 * fixed-function client arrays in client memory (glVertexPointer, glColorPointer, glTexCoordPointer
 * on two client texture units, glNormalPointer, glSecondaryColorPointer, glFogCoordPointer,
 * glInterleavedArrays), drawn both through a GLSL 1.10 program reading gl_Vertex, gl_Color and
 * gl_MultiTexCoord0/1 and through the fixed-function pipeline. The array contents change every
 * frame and between two draws of a frame (same pointers), so only data recorded at each draw
 * replays right. With the argument `lists`, display lists compiled at start-up (one of them
 * GL_COMPILE_AND_EXECUTE, one nesting another, one at a glListBase offset, one drawing from
 * client-memory arrays that change after it was compiled) are called every frame.
 * Usage: legacy_arrays FRAMES [lists]. Prints a checksum of read-back pixels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "varying vec2 v_uv;\n"
    "void main() {\n"
    "    v_col = gl_Color;\n"
    "    v_uv = gl_MultiTexCoord0.xy + gl_MultiTexCoord1.xy;\n"
    "    gl_Position = vec4(gl_Vertex.xyz, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "varying vec2 v_uv;\n"
    "void main() { gl_FragColor = vec4(v_col.rgb * (0.5 + 0.5 * fract(v_uv.x * 3.0)), v_col.a); }\n";


#define GRID 6 /* vertices per side of the shader-drawn grid */

struct vtx {
    float pos[3];
    unsigned char col[4];
};

static void fill_grid(struct vtx *v, float t)
{
    for (int y = 0; y < GRID; y++)
        for (int x = 0; x < GRID; x++) {
            struct vtx *p = &v[y * GRID + x];
            p->pos[0] = -0.9f + 1.0f * (float)x / (GRID - 1) + 0.05f * t;
            p->pos[1] = -0.9f + 1.2f * (float)y / (GRID - 1);
            p->pos[2] = 0.0f;
            p->col[0] = (unsigned char)(40 * x + 20 * (int)t);
            p->col[1] = (unsigned char)(40 * y);
            p->col[2] = (unsigned char)(200 - 30 * x);
            p->col[3] = 255;
        }
}

/* Client memory a list's draw reads when it is compiled (overwritten afterwards: only the copy GL
 * made at compile time may be drawn). */
static float list_pos[3][2] = { { -0.95f, 0.55f }, { -0.55f, 0.55f }, { -0.75f, 0.95f } };
static unsigned char list_col[3][4] = { { 255, 0, 255, 255 }, { 0, 255, 255, 255 }, { 255, 255, 255, 255 } };

static GLuint make_lists(void)
{
    GLuint base = glGenLists(4);
    /* base: a fixed-function triangle in immediate mode */
    glNewList(base, GL_COMPILE);
    glBegin(GL_TRIANGLES);
    glColor3f(1.0f, 0.2f, 0.2f);
    glVertex2f(0.3f, 0.3f);
    glColor3f(0.2f, 1.0f, 0.2f);
    glVertex2f(0.9f, 0.3f);
    glColor3f(0.2f, 0.2f, 1.0f);
    glVertex2f(0.6f, 0.9f);
    glEnd();
    glEndList();
    /* base + 1: state and a nested call, compiled and executed at once */
    glNewList(base + 1, GL_COMPILE_AND_EXECUTE);
    glPushMatrix();
    glTranslatef(-0.05f, -0.05f, 0.0f);
    glCallList(base);
    glPopMatrix();
    glEndList();
    /* base + 2: called through glListBase + glCallLists */
    glNewList(base + 2, GL_COMPILE);
    glBegin(GL_QUADS);
    glColor4ub(250, 250, 40, 255);
    glVertex2f(0.3f, -0.9f);
    glVertex2f(0.8f, -0.9f);
    glVertex2f(0.8f, -0.5f);
    glVertex2f(0.3f, -0.5f);
    glEnd();
    glEndList();
    /* base + 3: a draw from client-memory arrays (vertex and colour only; made before main sets up
     * its own arrays) */
    glVertexPointer(2, GL_FLOAT, 0, list_pos);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, list_col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glNewList(base + 3, GL_COMPILE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glEndList();
    glDisableClientState(GL_VERTEX_ARRAY);
    glDisableClientState(GL_COLOR_ARRAY);
    memset(list_pos, 0, sizeof list_pos);
    memset(list_col, 0, sizeof list_col);
    return base;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 8;
    int use_lists = argc > 2 && strcmp(argv[2], "lists") == 0;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "legacy_arrays", 96, 64, 24, 0, 0, 0) != 0)
        return 1;

    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("legacy_arrays", GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, glt_shader("legacy_arrays", GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);

    static struct vtx grid[GRID * GRID];
    static float uv0[GRID * GRID][2], uv1[GRID * GRID][2];
    /* The quads of the grid's upper rows only: the index range starts above vertex 0. */
    static GLushort idx[(GRID - 1) * (GRID - 3) * 6];
    int ni = 0;
    for (int y = 2; y < GRID - 1; y++)
        for (int x = 0; x < GRID - 1; x++) {
            GLushort a = (GLushort)(y * GRID + x), b = (GLushort)(a + 1), c = (GLushort)(a + GRID),
                     d = (GLushort)(c + 1);
            GLushort q[6] = { a, b, d, a, d, c };
            memcpy(&idx[ni], q, sizeof q);
            ni += 6;
        }
    /* Fixed-function strip: interleaved colour + normal + position, and separate secondary colour
     * and fog coordinate arrays. */
    static float ff[8][10];
    static unsigned char sec[8][3];
    static float fogc[8];

    GLuint lists = use_lists ? make_lists() : 0;
    glVertexPointer(3, GL_FLOAT, sizeof(struct vtx), grid[0].pos);
    glColorPointer(4, GL_UNSIGNED_BYTE, sizeof(struct vtx), grid[0].col);
    glClientActiveTexture(GL_TEXTURE1);
    glTexCoordPointer(2, GL_FLOAT, 0, uv1);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glClientActiveTexture(GL_TEXTURE0);
    glTexCoordPointer(2, GL_FLOAT, 0, uv0);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glOrtho(-1, 1, -1, 1, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        float t = (float)f;
        glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        /* Shader program over the legacy arrays (state set up before any capture). */
        glUseProgram(prog);
        fill_grid(grid, t);
        for (int i = 0; i < GRID * GRID; i++) {
            uv0[i][0] = 0.1f * (float)(i % GRID) + 0.05f * t;
            uv0[i][1] = 0.0f;
            uv1[i][0] = 0.02f * (float)(i / GRID);
            uv1[i][1] = 0.0f;
        }
        glDrawElements(GL_TRIANGLES, ni, GL_UNSIGNED_SHORT, idx);
        /* Same pointers, new contents: moved down, a second draw of the lower rows. */
        for (int i = 0; i < GRID * GRID; i++)
            grid[i].pos[1] -= 0.3f;
        glDrawArrays(GL_TRIANGLE_STRIP, 2 * GRID, 2 * GRID);
        glUseProgram(0);

        /* Fixed function: glInterleavedArrays replaces the vertex/colour/normal pointers. */
        for (int i = 0; i < 8; i++) {
            float *v = ff[i];
            v[0] = 0.2f + 0.1f * (float)i;     /* C4F */
            v[1] = 0.9f - 0.1f * (float)i;
            v[2] = 0.3f + 0.05f * t;
            v[3] = 1.0f;
            v[4] = 0.0f; v[5] = 0.0f; v[6] = 1.0f; /* N3F */
            v[7] = -0.9f + 0.25f * (float)(i / 2); /* V3F */
            v[8] = 0.55f + 0.3f * (float)(i % 2) + 0.01f * t;
            v[9] = 0.0f;
            sec[i][0] = (unsigned char)(20 * i);
            sec[i][1] = 0;
            sec[i][2] = (unsigned char)(10 * f);
            fogc[i] = 0.1f * (float)i;
        }
        glPushClientAttrib(GL_CLIENT_VERTEX_ARRAY_BIT);
        glInterleavedArrays(GL_C4F_N3F_V3F, 0, ff);
        glSecondaryColorPointer(3, GL_UNSIGNED_BYTE, 0, sec);
        glEnableClientState(GL_SECONDARY_COLOR_ARRAY);
        glFogCoordPointer(GL_FLOAT, 0, fogc);
        glEnableClientState(GL_FOG_COORD_ARRAY);
        glEnable(GL_COLOR_SUM);
        glEnable(GL_FOG);
        glFogi(GL_FOG_COORD_SRC, GL_FOG_COORD);
        glFogi(GL_FOG_MODE, GL_LINEAR);
        glFogf(GL_FOG_START, 0.0f);
        glFogf(GL_FOG_END, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 1, 7);
        glDisable(GL_FOG);
        glDisable(GL_COLOR_SUM);
        glPopClientAttrib();

        if (use_lists) {
            glCallList(lists + 1);
            glCallList(lists + 3);
            glListBase(lists);
            const GLubyte which[1] = { 2 };
            glCallLists(1, GL_UNSIGNED_BYTE, which);
            glListBase(0);
        }
        unsigned char px[96 * 64 * 4];
        glReadPixels(0, 0, 96, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("legacy_arrays: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
