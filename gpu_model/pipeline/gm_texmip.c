/* glGenerateMipmap as llvmpipe runs it.
 *
 * Mesa's state tracker generates each level with a blit of the level above (util_gen_mipmap),
 * and llvmpipe's blit draws a rectangle over the whole destination level that samples the
 * source level with a bilinear filter at each destination pixel centre (u_blitter, normalized
 * coordinates 0..1 across the source). When a source side is even, every destination texel
 * is the byte-lerped average of a 2x2 block; when it is odd (15 -> 7, 5 -> 2, 3 -> 1), the
 * sample point falls between texel centres at other fractions, so a plain 2x2 box filter
 * gives other values. Sampling through the model's texture unit (its llvmpipe AoS filter:
 * 8.8 fixed-point coordinates, byte lerps) gives the blit's texels for both cases. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <string.h>

/* One 2D layer (z) of src seen as a one-level 2D texture. */
static void layer_image(const gm_surface *src, int z, gm_tex_image *img)
{
    memset(img, 0, sizeof(*img));
    img->target = GM_TEX_2D;
    img->format = src->format;
    img->num_levels = 1;
    img->level[0] = *src;
    img->level[0].depth = 1;
    img->level[0].data = src->data + (size_t)z * src->layer_stride;
    img->max_level = 1000;
    for (int k = 0; k < 4; k++) img->swizzle[k] = (uint8_t)k;
}

void gm_tex_blit_downsample(const gm_surface *src, int src_z, gm_surface *dst, int dst_z)
{
    gm_tex_image img;
    layer_image(src, src_z, &img);
    gm_tex_sampler smp;
    gm_tex_sampler_default(&smp);
    smp.wrap_s = smp.wrap_t = smp.wrap_r = GL_CLAMP_TO_EDGE;
    smp.min_filter = smp.mag_filter = GL_LINEAR;
    for (int y = 0; y < dst->height; y++) {
        /* the rectangle's texture coordinate at the pixel centre, interpolated in float */
        float t = ((float)y + 0.5f) / (float)dst->height;
        for (int x = 0; x < dst->width; x++) {
            float s = ((float)x + 0.5f) / (float)dst->width;
            float coord[4] = {s, t, 0.0f, 0.0f}, rgba[4];
            gm_tex_sample_lod(&img, &smp, coord, 0.0f, 0.0f, false, NULL, rgba);
            gm_format_pack_rgba_rt(dst->format, rgba, gm_surface_texel(dst, x, y, dst_z));
        }
    }
}
