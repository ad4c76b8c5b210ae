/* Internal to replay/ms_samples*.c: the GL state the multisample passes save, neutralise and
 * put back (ms_samples_state.c). */
#ifndef GLR_REPLAY_MS_SAMPLES_INTERNAL_H
#define GLR_REPLAY_MS_SAMPLES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "replay/ms_samples.h"

#define GLR_MS_N_CAPS 24   /* switches saved (plain_caps in ms_samples_state.c) */

struct ms_ctx {
    const struct glr_ms_gl *gl;
    int major, minor;
    bool compat, indexed /* GL 4.1 viewport arrays */, samplers /* GL 3.3 */, stencil_tex /* GL 4.3 */;
    /* saved */
    int program, vao, draw_fb, read_fb, active, pack_buf, unpack_buf;
    int pack[8], unpack[8];
    int tex_ms[2], tex_array[2], sampler[2];
    unsigned char caps[GLR_MS_N_CAPS], blend0, cmask[4], dmask;
    unsigned scissor_bits;
    int max_vp, depth_func, stencil[2][7], sample_mask, polygon[2], clamp_frag;
    int viewport_i[4];
    float viewport_f[4];
    double depth_range[2];
    /* made here */
    unsigned vao_made, fbo[2];
};

void glr_ms_why(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The context's version and profile (desktop GL 3.2+ required); false with why. */
bool glr_ms_version(struct ms_ctx *m, char *why, size_t n);
/* Every GL entry point the passes need; false (why) when the resolver lacks one. */
bool glr_ms_complete(const struct glr_ms_gl *gl, char *why, size_t n);
void glr_ms_save(struct ms_ctx *m);
/* The fixed state every pass starts from (viewport w x h): nothing but the shader decides. */
void glr_ms_neutral(struct ms_ctx *m, int w, int h);
void glr_ms_restore(struct ms_ctx *m);

#endif
