/* snap_arb: later frames depend on ARB assembly program state made only in frame 0, so a capture
 * of frame N replays (and models) correctly only if the initial-state snapshot saved it: two
 * program objects (a vertex program with an ADDRESS-relative read of program.local and an
 * environment parameter; a fragment program with a local parameter, CMP and LRP) generated, given
 * their strings and parameters, bound and enabled in frame 0, plus a third program bound once
 * without glGenProgramsARB (found by the snapshot's glIsProgramARB probe) that frame 0 leaves bound
 * to the fragment target before binding the real one. Each frame changes one environment
 * parameter (so frames differ) and draws a quad from a client array.
 *
 * EGL pbuffer (no X), the default (compatibility) desktop GL context.
 *   snap_arb [--frames N]      (default 8); exits 0 when GL raised no error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#define W 96
#define H 64

static const char vp[] =
    "!!ARBvp1.0\n"
    "ATTRIB pos = vertex.position;\n"
    "PARAM table[3] = { program.local[0..2] };\n"
    "PARAM shift = program.env[4];\n"
    "ADDRESS a;\n"
    "TEMP t;\n"
    "ARL a.x, program.local[3].x;\n"
    "ADD t, pos, shift;\n"
    "MOV result.position, t;\n"
    "MAD result.color, pos.xyxy, {0.5, 0.5, 0.25, 0.25}, table[a.x + 1];\n"
    "MOV result.texcoord[0], pos;\n"
    "END\n";

static const char fp[] =
    "!!ARBfp1.0\n"
    "PARAM k = program.local[5];\n"
    "TEMP c, m;\n"
    "CMP c, fragment.texcoord[0].xyxy, k, fragment.color;\n"
    "LRP m, k.w, c, fragment.color;\n"
    "MUL_SAT result.color, m, program.env[1];\n"
    "END\n";

static const char fp_other[] =
    "!!ARBfp1.0\n"
    "MOV result.color, {1, 0, 1, 1};\n"
    "END\n";

int main(int argc, char **argv)
{
    int frames = 8;
    if (argc == 3 && strcmp(argv[1], "--frames") == 0)
        frames = atoi(argv[2]);
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "snap_arb: no EGL surfaceless display\n");
        return 1;
    }
    static const EGLint cfg_attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    /* Exactly 8 bits per channel, as the replayer's pbuffers (EGL lists deeper configs first). */
    EGLConfig cfgs[64], cfg = NULL;
    EGLint n = 0;
    eglChooseConfig(dpy, cfg_attrs, cfgs, 64, &n);
    for (EGLint i = 0; i < n && !cfg; i++) {
        EGLint r = 0, g = 0, b = 0;
        eglGetConfigAttrib(dpy, cfgs[i], EGL_RED_SIZE, &r);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_GREEN_SIZE, &g);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_BLUE_SIZE, &b);
        if (r == 8 && g == 8 && b == 8)
            cfg = cfgs[i];
    }
    static const EGLint pb_attrs[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    EGLContext ctx = cfg ? eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL) : NULL;
    EGLSurface surf = cfg ? eglCreatePbufferSurface(dpy, cfg, pb_attrs) : NULL;
    if (!ctx || !surf || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "snap_arb: no GL context\n");
        return 1;
    }
    if (!epoxy_has_gl_extension("GL_ARB_vertex_program") || !epoxy_has_gl_extension("GL_ARB_fragment_program")) {
        fprintf(stderr, "snap_arb: no GL_ARB_vertex_program / GL_ARB_fragment_program\n");
        return 1;
    }

    /* Frame 0 only: programs, parameters, bindings, enables. */
    GLuint prog[2];
    glGenProgramsARB(2, prog);
    glBindProgramARB(GL_FRAGMENT_PROGRAM_ARB, 40);   /* no glGenProgramsARB: made by the bind */
    glProgramStringARB(GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)strlen(fp_other), fp_other);
    glBindProgramARB(GL_VERTEX_PROGRAM_ARB, prog[0]);
    glProgramStringARB(GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)strlen(vp), vp);
    glProgramLocalParameter4fARB(GL_VERTEX_PROGRAM_ARB, 0, 0.1f, 0.2f, 0.3f, 1.0f);
    glProgramLocalParameter4fARB(GL_VERTEX_PROGRAM_ARB, 1, 0.2f, 0.1f, 0.4f, 1.0f);
    glProgramLocalParameter4fARB(GL_VERTEX_PROGRAM_ARB, 2, 0.5f, 0.3f, 0.1f, 1.0f);
    glProgramLocalParameter4fARB(GL_VERTEX_PROGRAM_ARB, 3, 1.0f, 0.0f, 0.0f, 0.0f);
    glBindProgramARB(GL_FRAGMENT_PROGRAM_ARB, prog[1]);
    glProgramStringARB(GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)strlen(fp), fp);
    const GLfloat k[4] = { 0.9f, 0.2f, 0.1f, 0.6f };
    glProgramLocalParameter4fvARB(GL_FRAGMENT_PROGRAM_ARB, 5, k);
    glProgramEnvParameter4fARB(GL_FRAGMENT_PROGRAM_ARB, 1, 1.0f, 0.8f, 0.9f, 1.0f);
    glEnable(GL_VERTEX_PROGRAM_ARB);
    glEnable(GL_FRAGMENT_PROGRAM_ARB);
    glClearColor(0.1f, 0.1f, 0.2f, 1.0f);
    static const GLfloat quad[8] = { -0.6f, -0.6f, 0.6f, -0.6f, -0.6f, 0.6f, 0.6f, 0.6f };
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, quad);

    for (int f = 0; f < frames; f++) {
        glClear(GL_COLOR_BUFFER_BIT);
        /* the one per-frame change: the quad's offset */
        glProgramEnvParameter4fARB(GL_VERTEX_PROGRAM_ARB, 4, 0.03f * (float)f - 0.1f, 0.02f * (float)f, 0.0f, 0.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        eglSwapBuffers(dpy, surf);
    }
    GLenum err = glGetError();
    if (err != GL_NO_ERROR)
        fprintf(stderr, "snap_arb: GL error 0x%x\n", err);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return err == GL_NO_ERROR ? 0 : 1;
}
