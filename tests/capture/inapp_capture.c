/* A program that never swaps (an offscreen tool): EGL surfaceless, GL 3.3 core, brackets its work
 * with the in-application capture API. Usage: inapp_capture OUT.glcap EXPECT
 * EXPECT is "captured" (under the shim: both calls must succeed) or "absent" (without the shim:
 * both must return -1 and the program must work the same). */
#include <stdio.h>
#include <string.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include "glreplay_app.h"

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    bool expect_capture = strcmp(argv[2], "captured") == 0;
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!dpy || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "no EGL surfaceless display\n");
        return 1;
    }
    const EGLint cattr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, cattr);
    if (!ctx || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "no context\n");
        return 1;
    }
    int b = glreplay_app_capture_begin(argv[1]);
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char px[4] = { 0 };
    glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    int e = glreplay_app_capture_end();
    printf("pixel %u %u %u %u\n", px[0], px[1], px[2], px[3]);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    bool ok = expect_capture ? (b == 0 && e == 0) : (b == -1 && e == -1);
    if (!ok)
        fprintf(stderr, "capture API returned begin=%d end=%d (expected %s)\n", b, e, argv[2]);
    return ok ? 0 : 1;
}
