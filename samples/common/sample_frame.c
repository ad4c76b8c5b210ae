/* See sample_frame.h. */
#include "sample_frame.h"

#include <epoxy/gl.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pam_writer.h"
#include "sample_util.h"

static atomic_int gl_error_total;

#ifndef NDEBUG
static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    default: return "unknown GL error";
    }
}
#endif

int sample_gl_check(const char *name, const char *where)
{
#ifdef NDEBUG
    (void)name;
    (void)where;
    return 0;
#else
    int n = 0;
    GLenum e;
    /* Bounded: a lost context can report errors forever. */
    while (n < 16 && (e = glGetError()) != GL_NO_ERROR) {
        fprintf(stderr, "%s: GL error %s (0x%04x) at %s\n", name, gl_error_name(e), e, where);
        ++n;
    }
    atomic_fetch_add(&gl_error_total, n);
    return n;
#endif
}

static void dump_back_buffer(const SampleArgs *args, const char *name, int frame, int w, int h)
{
    if (sample_mkdir_p(args->dump_dir) != 0)
        sample_fatal("%s: cannot create dump dir %s: %s", name, args->dump_dir, strerror(errno));
    uint8_t *pixels = malloc((size_t)w * h * 4);
    if (!pixels)
        sample_fatal("%s: out of memory for a %dx%d dump", name, w, h);
    /* Read what is about to be presented: the back buffer of the default framebuffer. */
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    sample_gl_check(name, "frame dump glReadPixels");

    char path[4200];
    snprintf(path, sizeof path, "%s/frame_%04d.pam", args->dump_dir, frame);
    bool ok = pam_write_rgba(path, w, h, pixels, true);
    free(pixels);
    if (!ok)
        sample_fatal("%s: frame %d dump failed", name, frame);
}

void sample_frame_end(const SampleArgs *args, const char *name, int frame, int fb_width,
                      int fb_height)
{
    char where[64];
    snprintf(where, sizeof where, "end of frame %d", frame);
    sample_gl_check(name, where);
    if (sample_args_wants_dump(args, frame))
        dump_back_buffer(args, name, frame, fb_width, fb_height);
}

int sample_finish(const char *name, int frames_done)
{
    printf("%s: %d frames\n", name, frames_done);
    fflush(stdout);
    int errors = atomic_load(&gl_error_total);
    if (errors > 0) {
        fprintf(stderr, "%s: %d GL error(s) during the run\n", name, errors);
        return 1;
    }
    return 0;
}
