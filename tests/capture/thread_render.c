/* A program that renders on a thread other than the one that created its context (as Teeworlds
 * does): the main thread creates an EGL surfaceless compatibility context, makes it current (the
 * context's first make-current), compiles a GLSL 1.10 program and releases the context; a render
 * thread then makes it current and draws every frame from client-memory arrays (gl_Vertex,
 * gl_Color) whose contents change each frame, reads the pixels back and swaps. Captured frames must
 * carry the client arrays and the reference image, which the capture reads through the
 * description of the context current on the calling thread.
 * Usage: thread_render FRAMES. Prints a checksum of read-back pixels. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 80
#define H 60

static const char *vs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "void main() { v_col = gl_Color; gl_Position = vec4(gl_Vertex.xy, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "void main() { gl_FragColor = v_col; }\n";

struct job {
    struct glt_egl egl;
    GLuint prog;
    int frames;
    unsigned long checksum;
    int failed;
};

static void *render(void *arg)
{
    struct job *j = arg;
    if (!eglMakeCurrent(j->egl.dpy, j->egl.surf, j->egl.surf, j->egl.ctx)) {
        fprintf(stderr, "thread_render: eglMakeCurrent on the render thread failed\n");
        j->failed = 1;
        return NULL;
    }
    static float pos[4][2];
    static unsigned char col[4][4];
    glVertexPointer(2, GL_FLOAT, 0, pos);
    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glUseProgram(j->prog);
    for (int f = 0; f < j->frames; f++) {
        float t = 0.05f * (float)f;
        for (int i = 0; i < 4; i++) {
            pos[i][0] = (i & 1 ? 0.7f : -0.8f) + t;
            pos[i][1] = (i & 2 ? 0.8f : -0.7f) - t;
            col[i][0] = (unsigned char)(60 * i + 10 * f);
            col[i][1] = (unsigned char)(200 - 40 * i);
            col[i][2] = (unsigned char)(30 * f);
            col[i][3] = 255;
        }
        glClearColor(0.2f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        static unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            j->checksum = j->checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(j->egl.dpy, j->egl.surf);
    }
    eglMakeCurrent(j->egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

int main(int argc, char **argv)
{
    struct job j = { .frames = argc > 1 ? atoi(argv[1]) : 6 };
    if (glt_egl_open(&j.egl, "thread_render", W, H, 0, 0, 0, 0) != 0)
        return 1;
    j.prog = glt_program("thread_render", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    /* Released here: from now on only the render thread has it current. */
    eglMakeCurrent(j.egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    pthread_t th;
    if (pthread_create(&th, NULL, render, &j) != 0)
        return 1;
    pthread_join(th, NULL);
    if (j.failed)
        return 1;
    printf("thread_render: %d frames, checksum %lu\n", j.frames, j.checksum);
    eglTerminate(j.egl.dpy);
    return 0;
}
