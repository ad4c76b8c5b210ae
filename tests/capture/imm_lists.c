/* Immediate mode and display lists drawn through a GLSL 1.10 program (EGL surfaceless,
 * compatibility context): glBegin/glEnd in every primitive type with glColor/glSecondaryColor/
 * glNormal/glTexCoord/glMultiTexCoord/glFogCoord in integer, float and vector forms, glRect*,
 * glArrayElement over buffer-backed arrays, glVertexAttrib as the position; display lists compiled
 * at start-up (a list that calls itself, to GL's nesting limit of 64; lists called through
 * glListBase + glCallLists with several types of the names array) and lists compiled inside each
 * frame (GL_COMPILE: its colour change must not take effect until called; GL_COMPILE_AND_EXECUTE),
 * with state changes inside lists (current colour, a uniform) that later draws outside see.
 * Usage: imm_lists FRAMES. Prints a checksum of read-back pixels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 110\n"
    "uniform vec4 u_shift;\n"
    "varying vec4 v_col;\n"
    "varying vec4 v_extra;\n"
    "void main() {\n"
    "    v_col = gl_Color;\n"
    "    v_extra = vec4(gl_SecondaryColor.rg, gl_MultiTexCoord0.x + gl_MultiTexCoord2.y,\n"
    "                   gl_FogCoord + gl_Normal.z * 0.25);\n"
    "    gl_Position = vec4(gl_Vertex.xy + u_shift.xy, gl_Vertex.z, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "varying vec4 v_extra;\n"
    "void main() { gl_FragColor = vec4(v_col.rgb * 0.75 + v_extra.rgb * 0.25, v_col.a); }\n";

static GLint u_shift;

/* A small shape of primitive `mode` around (x, y), every vertex with its own attribute forms. */
static void shape(GLenum mode, float x, float y, float s, int seed)
{
    glBegin(mode);
    glColor3ub((GLubyte)(40 * seed), 200, (GLubyte)(255 - 30 * seed));
    glSecondaryColor3f(0.5f, 0.1f * (float)seed, 0.0f);
    glNormal3b(0, 0, 127);
    glTexCoord2s(1, 0);
    glMultiTexCoord2f(GL_TEXTURE2, 0.0f, 0.25f);
    glFogCoordf(0.1f * (float)seed);
    glVertex2f(x - s, y - s);
    glColor4f(1.0f, 0.3f, 0.2f, 1.0f);
    glVertex3f(x + s, y - s, 0.0f);
    const GLdouble c3[3] = { 0.2, 0.9, 0.4 };
    glColor3dv(c3);
    glNormal3f(0.0f, 0.0f, -1.0f);
    const GLint v3[3] = { 0, 0, 0 };
    glVertex3iv(v3);   /* the centre, in integers */
    glColor4us(0, 65535, 65535, 65535);
    glVertex2d((double)(x + s), (double)(y + s));
    glColor3b(127, 0, 64);
    const GLfloat v4[4] = { x - s, y + s, 0.0f, 1.0f };
    glVertex4fv(v4);
    glVertexAttrib2f(0, x, y + 1.2f * s);   /* generic attribute 0 is the position too */
    glEnd();
}

static GLuint make_lists(void)
{
    GLuint base = glGenLists(8);
    /* base: a list that calls itself: GL executes it 64 levels deep, then ignores the call */
    glNewList(base, GL_COMPILE);
    glTranslatef(0.0f, 0.0f, 0.0f);
    shape(GL_TRIANGLES, -0.8f, 0.8f, 0.08f, 1);
    glCallList(base);
    glEndList();
    /* base + 1 .. base + 4: glCallLists targets, with state changes that outlive them */
    glNewList(base + 1, GL_COMPILE);
    shape(GL_QUADS, -0.4f, 0.8f, 0.1f, 2);
    glColor3f(0.9f, 0.9f, 0.1f);   /* the current colour after the list */
    glEndList();
    glNewList(base + 2, GL_COMPILE);
    shape(GL_TRIANGLE_FAN, 0.0f, 0.8f, 0.1f, 3);
    glEndList();
    glNewList(base + 3, GL_COMPILE);
    shape(GL_POLYGON, 0.4f, 0.8f, 0.1f, 4);
    glUniform4f(u_shift, 0.02f, -0.03f, 0.0f, 0.0f);   /* a uniform set inside a list */
    glEndList();
    glNewList(base + 4, GL_COMPILE);
    shape(GL_QUAD_STRIP, 0.8f, 0.8f, 0.1f, 5);
    glCallList(base + 2);   /* nested */
    glEndList();
    return base;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "imm_lists", 128, 96, 24, 0, 0, 0) != 0)
        return 1;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("imm_lists", GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, glt_shader("imm_lists", GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    u_shift = glGetUniformLocation(prog, "u_shift");
    glUseProgram(prog);
    GLuint lists = make_lists();
    GLuint frame_list = glGenLists(2);

    /* Buffer-backed arrays for glArrayElement (client memory is not recorded for it). */
    static const float pos[4][2] = { { -0.9f, -0.9f }, { -0.5f, -0.9f }, { -0.5f, -0.5f }, { -0.9f, -0.5f } };
    static const GLubyte col[4][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 0, 255 } };
    GLuint vbo[2];
    glGenBuffers(2, vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
    glVertexPointer(2, GL_FLOAT, 0, (const void *)0);
    glBindBuffer(GL_ARRAY_BUFFER, vbo[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof col, col, GL_STATIC_DRAW);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, (const void *)0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        float t = 0.01f * (float)f;
        glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform4f(u_shift, t, 0.0f, 0.0f, 0.0f);
        shape(GL_TRIANGLES, -0.7f, 0.2f, 0.12f, 1);
        shape(GL_TRIANGLE_STRIP, -0.3f, 0.2f, 0.12f, 2);
        shape(GL_LINE_LOOP, 0.1f, 0.2f, 0.12f, 3);
        shape(GL_POINTS, 0.5f, 0.2f, 0.12f, 4);
        glColor4ub(30, 160, 90, 255);
        glRectf(0.6f + t, -0.2f, 0.9f, 0.0f);
        const GLshort r1[2] = { 0, -1 }, r2[2] = { 1, 0 };
        glColor3f(0.3f, 0.3f, 0.8f);
        glRectsv(r1, r2);   /* the bottom-right quarter: overdrawn by what follows */
        /* glArrayElement over the buffers */
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        glBegin(GL_TRIANGLE_FAN);   /* not GL_QUADS: see check_imm_lists.py */
        for (int i = 0; i < 4; i++)
            glArrayElement(i);
        glEnd();
        glDisableClientState(GL_VERTEX_ARRAY);
        glDisableClientState(GL_COLOR_ARRAY);
        glBegin(GL_TRIANGLES);   /* no colour given: the last element's (yellow) is current */
        glVertex2f(-0.45f, -0.9f);
        glVertex2f(-0.3f, -0.9f);
        glVertex2f(-0.37f, -0.75f);
        glEnd();
        /* lists compiled at start-up */
        glCallList(lists);
        glListBase(lists);
        const GLshort s_names[2] = { 1, 2 };
        glCallLists(2, GL_SHORT, s_names);
        const GLubyte b2[2] = { 0, 3 };   /* GL_2_BYTES: 0 * 256 + 3 */
        glCallLists(1, GL_2_BYTES, b2);
        const GLfloat f_names[1] = { 4.0f };
        glCallLists(1, GL_FLOAT, f_names);
        glListBase(0);
        /* the current colour list base + 1 left, and base + 3's uniform */
        shape(GL_LINES, -0.6f, -0.3f, 0.1f, 6);
        glBegin(GL_TRIANGLES);
        glVertex2f(-0.2f, -0.4f);
        glVertex2f(0.0f, -0.4f);
        glVertex2f(-0.1f, -0.2f);
        glEnd();
        /* lists compiled inside the frame */
        glNewList(frame_list, GL_COMPILE);
        glColor3f(1.0f, 0.0f, 1.0f);
        glBegin(GL_TRIANGLES);
        glVertex2f(0.1f, -0.9f);
        glVertex2f(0.4f, -0.9f);
        glVertex2f(0.25f, -0.6f);
        glEnd();
        glEndList();
        glBegin(GL_TRIANGLES);   /* still the colour from before the compiled list */
        glVertex2f(0.1f, -0.5f);
        glVertex2f(0.4f, -0.5f);
        glVertex2f(0.25f, -0.3f);
        glEnd();
        glNewList(frame_list + 1, GL_COMPILE_AND_EXECUTE);
        glColor3f(0.0f, 1.0f, 0.5f);
        glRecti(0, 0, 0, 0);   /* empty */
        glCallList(frame_list);
        glEndList();
        glCallList(frame_list + 1);
        unsigned char px[128 * 96 * 4];
        glReadPixels(0, 0, 128, 96, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("imm_lists: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
