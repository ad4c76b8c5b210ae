/* Pixel transfer state around read-backs. In compatibility contexts glReadPixels applies the
 * glPixelTransfer scales and biases and GL_MAP_COLOR to colours and GL_DEPTH_SCALE/BIAS to depth
 * (GL 2.1 section 4.3.2). A read-back taken between replayed calls must see the stored pixels, so
 * that state is set to its defaults for the read and put back after it (piglit
 * gl-1.0-drawpixels-color-index draws with GL_MAP_COLOR on: read with it, every pixel went
 * through the default one-entry maps and read 0). */
#include <string.h>
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "replay/player/gl_readback.h"

static const GLenum pnames[GLRH_TRANSFER_VALUES] = {
    GL_RED_SCALE, GL_GREEN_SCALE, GL_BLUE_SCALE, GL_ALPHA_SCALE, GL_DEPTH_SCALE,
    GL_RED_BIAS, GL_GREEN_BIAS, GL_BLUE_BIAS, GL_ALPHA_BIAS, GL_DEPTH_BIAS, GL_MAP_COLOR,
};

static float neutral(int i)
{
    return i < 5 ? 1.0f : 0.0f;   /* scales 1, biases 0, GL_MAP_COLOR false */
}

bool glrh_context_compat(const struct glrh_context *d)
{
    return !d->es && (d->major < 3 || (d->major == 3 && d->minor == 0) || d->profile_mask == 2);
}

void glrh_transfer_save_and_reset(const struct glrh_gl *gl, bool compat, struct glrh_saved_transfer *s)
{
    memset(s, 0, sizeof *s);
    if (!compat || !gl->GetFloatv || !gl->PixelTransferf)
        return;
    for (int i = 0; i < GLRH_TRANSFER_VALUES; i++) {
        gl->GetFloatv(pnames[i], &s->v[i]);
        if (s->v[i] != neutral(i)) {
            s->changed |= 1u << i;
            gl->PixelTransferf(pnames[i], neutral(i));
        }
    }
}

void glrh_transfer_restore(const struct glrh_gl *gl, const struct glrh_saved_transfer *s)
{
    for (int i = 0; i < GLRH_TRANSFER_VALUES; i++)
        if (s->changed & (1u << i))
            gl->PixelTransferf(pnames[i], s->v[i]);
}
