/* Unit test of the fixed-function GLSL generator: the sources of representative state keys
 * (no state, lighting with every light kind and colour material, two-sided separate specular,
 * texgen of every mode, clip planes, point attenuation, every environment and combiner
 * function, fog modes) compile and link in the model's own front end, equal keys give equal
 * text, and the text names the state it implements. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gm_ff.h"
#include "gpu_model.h"

#include "../../../tests/support/glr_check.h"   /* built without the top include dir */

/* Compiles both stages of k; returns whether they compile, link and decode. */
static bool builds(const gm_ff_key *k, const char *what)
{
    char *vs = gm_ff_vertex_source(k), *fs = gm_ff_fragment_source(k);
    bool ok = vs && fs;
    if (ok) {
        gm_shader_source src[2] = { { GM_STAGE_VERTEX, vs, "ff.vert" }, { GM_STAGE_FRAGMENT, fs, "ff.frag" } };
        gm_compile_result cr;
        ok = gm_compile_program(src, 2, &cr) == 0;
        if (!ok)
            fprintf(stderr, "%s: %s\n--- vs\n%s\n--- fs\n%s\n", what, cr.log, vs, fs);
        for (int i = 0; ok && i < cr.shader_count; i++) {
            char err[256];
            gm_program *p = gm_program_create(cr.shaders[i].spirv, cr.shaders[i].word_count, err, sizeof err);
            if (!p) {
                fprintf(stderr, "%s: decode: %s\n", what, err);
                ok = false;
            }
            gm_program_destroy(p);
        }
        gm_compile_result_free(&cr);
    }
    free(vs);
    free(fs);
    return ok;
}

int main(void)
{
    char *fa;
    gm_ff_key k;
    memset(&k, 0, sizeof k);
    CHECK(builds(&k, "empty"));

    /* lighting: directional, positional attenuated, spot; colour material; local viewer */
    k.lighting = 1;
    k.light[0] = (gm_ff_light_key){ 1, 0, 0, 0 };
    k.light[1] = (gm_ff_light_key){ 1, 1, 0, 1 };
    k.light[5] = (gm_ff_light_key){ 1, 1, 1, 1 };
    k.color_material[0] = GM_FF_CM_AMBIENT | GM_FF_CM_DIFFUSE;
    k.normalize = 1;
    CHECK(builds(&k, "lighting"));
    k.local_viewer = 1;
    k.two_side = 1;
    k.separate_specular = 1;
    k.color_material[1] = GM_FF_CM_SPECULAR;
    k.normalize = 0;
    k.rescale = 1;
    CHECK(builds(&k, "two-sided separate specular"));
    k.shininess_zero = 1;
    CHECK(builds(&k, "shininess zero"));
    char *vs = gm_ff_vertex_source(&k);
    CHECK(vs && strstr(vs, "// light 5: positional, spot, attenuated") && strstr(vs, "(gl_LightSource[0].diffuse * gl_Color)") &&
          strstr(vs, "gl_FrontLightProduct[1].specular"));
    free(vs);

    /* per-vertex materials: attributes instead of the material built-ins */
    k.shininess_zero = 0;
    k.vertex_material[0] = GM_FF_CM_EMISSION | GM_FF_CM_SPECULAR;
    k.vertex_material[1] = GM_FF_CM_DIFFUSE;
    k.color_material[1] = 0;
    CHECK(builds(&k, "per-vertex materials"));
    vs = gm_ff_vertex_source(&k);
    CHECK(vs && strstr(vs, "attribute vec4 ff_vmat_front_emission;") &&
          strstr(vs, "(gl_LightSource[1].specular * ff_vmat_front_specular)") &&
          strstr(vs, "(gl_LightSource[0].diffuse * ff_vmat_back_diffuse)") && !strstr(vs, "ff_vmat_back_ambient"));
    free(vs);
    /* shininess per vertex: the specular exponent from the attribute's x */
    k.vertex_material[0] |= GM_FF_VM_SHININESS;
    CHECK(builds(&k, "per-vertex shininess"));
    vs = gm_ff_vertex_source(&k);
    CHECK(vs && strstr(vs, "attribute vec4 ff_vmat_front_shininess;") &&
          strstr(vs, "dots.w = ff_vmat_front_shininess.x;") && strstr(vs, "dots.z = -gl_BackMaterial.shininess;"));
    free(vs);
    k.vertex_material[0] &= (uint8_t)~GM_FF_VM_SHININESS;

    /* pixel rectangles: pass-through vertex stage, the image or bitmap in the fragment stage */
    memset(&k, 0, sizeof k);
    k.unit[0] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_2D };
    k.fog = GM_FF_FOG_LINEAR;
    for (int pk = GM_FF_PIXEL_IMAGE; pk <= GM_FF_PIXEL_BITMAP; pk++) {
        k.pixel_rect = (uint8_t)pk;
        CHECK(builds(&k, pk == GM_FF_PIXEL_IMAGE ? "glDrawPixels" : "glBitmap"));
        char *pv = gm_ff_vertex_source(&k), *pf = gm_ff_fragment_source(&k);
        CHECK(pv && pf && strstr(pv, "gl_Position = gl_Vertex;") && strstr(pf, "uniform sampler2D ff_pixels;") &&
              (pk == GM_FF_PIXEL_IMAGE ? strstr(pf, "vec4 primary = pixel;") != NULL : strstr(pf, "discard;") != NULL));
        free(pv);
        free(pf);
    }

    k.pixel_rect = GM_FF_PIXEL_DEPTH;
    CHECK(builds(&k, "depth image"));
    fa = gm_ff_fragment_source(&k);
    CHECK(fa && strstr(fa, "gl_FragDepth = texture2D(ff_pixels") && !strstr(fa, "fog"));
    free(fa);

    /* texgen, texture matrices, clip planes, point attenuation, fog coordinate */
    memset(&k, 0, sizeof k);
    k.unit[0] = (gm_ff_unit_key){ .gen_mode = { GM_FF_GEN_SPHERE, GM_FF_GEN_SPHERE, 0, 0 },
                                  .texcoord_out = 1, .target = GM_FF_TEX_2D };
    k.unit[1] = (gm_ff_unit_key){ .gen_mode = { GM_FF_GEN_OBJECT, GM_FF_GEN_EYE, GM_FF_GEN_REFLECTION,
                                                GM_FF_GEN_NORMAL }, .texcoord_out = 1, .target = GM_FF_TEX_CUBE };
    k.unit[2] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_3D, .env = GM_FF_ENV_DECAL };
    k.unit[3] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_1D, .env = GM_FF_ENV_BLEND,
                                  .format = GM_FF_FMT_INTENSITY };
    k.unit[4] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_RECT, .env = GM_FF_ENV_ADD,
                                  .format = GM_FF_FMT_ALPHA };
    k.unit[5] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_2D, .shadow = 1,
                                  .env = GM_FF_ENV_REPLACE, .format = GM_FF_FMT_RGB };
    k.clip_planes = 0x05;
    k.point_attenuated = 1;
    k.fog_from_coord = 1;
    k.fog = GM_FF_FOG_EXP2;
    k.color_sum = 1;
    k.secondary_out = 1;
    CHECK(builds(&k, "texgen, clip, points, fog"));

    /* every combiner function with crossbar sources and every operand */
    for (int mode = GM_FF_CB_REPLACE; mode <= GM_FF_CB_DOT3_RGBA; mode++) {
        memset(&k, 0, sizeof k);
        for (int u = 0; u < 2; u++)
            k.unit[u] = (gm_ff_unit_key){ .texcoord_out = 1, .target = GM_FF_TEX_2D, .env = GM_FF_ENV_COMBINE,
                                          .combine_rgb = (uint8_t)mode,
                                          .combine_alpha = (uint8_t)(mode >= GM_FF_CB_DOT3_RGB ? GM_FF_CB_ADD : mode),
                                          .src_rgb = { GM_FF_SRC_TEXTURE, GM_FF_SRC_TEXTURE0 + 1, GM_FF_SRC_CONSTANT },
                                          .op_rgb = { GM_FF_OP_COLOR, GM_FF_OP_ONE_MINUS_COLOR, GM_FF_OP_ALPHA },
                                          .src_alpha = { GM_FF_SRC_PRIMARY, GM_FF_SRC_PREVIOUS, GM_FF_SRC_ONE },
                                          .op_alpha = { GM_FF_OP_ALPHA, GM_FF_OP_ONE_MINUS_ALPHA, GM_FF_OP_ALPHA },
                                          .scaled = (uint8_t)(mode & 1) };
        k.fog = (uint8_t)(GM_FF_FOG_LINEAR + mode % 3);
        char what[32];
        snprintf(what, sizeof what, "combine %d", mode);
        CHECK(builds(&k, what));
    }
    /* equal keys, equal text and hash */
    gm_ff_key a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.fog = b.fog = GM_FF_FOG_LINEAR;
    fa = gm_ff_fragment_source(&a);
    char *fb = gm_ff_fragment_source(&b);
    CHECK(fa && fb && !strcmp(fa, fb) && strstr(fa, "// fog: GL_LINEAR"));
    CHECK(gm_ff_key_hash(&a) == gm_ff_key_hash(&b));
    b.fog = GM_FF_FOG_EXP;
    CHECK(gm_ff_key_hash(&a) != gm_ff_key_hash(&b));
    free(fa);
    free(fb);
    if (failures)
        fprintf(stderr, "gm_ff_generate: %d check(s) failed\n", failures);
    else
        printf("gm_ff_generate: all checks passed\n");
    return failures != 0;
}
