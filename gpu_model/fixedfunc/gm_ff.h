/* gpu_model/fixedfunc: GLSL for the fixed-function pipeline, one vertex and one fragment shader
 * per state combination, as Mesa builds its "fixed-function programs" (ffvertex_prog.c,
 * texenvprogram.c) that llvmpipe then runs. The alpha test is not part of them: llvmpipe applies
 * it in its fragment back end for every program, and so does the model (gmf_ffunc.c). The model compiles the text with its own GLSL front
 * end, so a fixed-function draw has a source the debugger shows and steps through.
 *
 * The key holds only what changes the code (which lights, which texgen modes, which combiner
 * sources...); the values (light colours, planes, fog parameters, ...) are uniforms: the GLSL
 * compatibility built-ins (gl_LightSource, gl_FrontLightProduct, gl_Fog, gl_TextureEnvColor,
 * gl_EyePlaneS, gl_ClipPlane, gl_Point, ...) plus a few glr_ff_* uniforms for the values Mesa
 * precomputes on the CPU (gm_ff_uniform_names). Pure C, no GL headers: the caller translates GL
 * state into the key (gpu_model/frame/gmf_ffunc.c). A key must be zero-filled before it is set
 * (it is compared and hashed as bytes). */
#ifndef GM_FF_H
#define GM_FF_H

#include <stddef.h>
#include <stdint.h>

#define GM_FF_LIGHTS 8
#define GM_FF_UNITS 8
#define GM_FF_CLIP_PLANES 8

enum gm_ff_tex { GM_FF_TEX_NONE, GM_FF_TEX_1D, GM_FF_TEX_2D, GM_FF_TEX_3D, GM_FF_TEX_CUBE,
                 GM_FF_TEX_RECT };
/* What a texture's base format gives the classic environments (GL 2.1 table 3.22). */
enum gm_ff_fmt { GM_FF_FMT_RGBA, GM_FF_FMT_RGB, GM_FF_FMT_ALPHA, GM_FF_FMT_INTENSITY };
enum gm_ff_gen { GM_FF_GEN_NONE, GM_FF_GEN_OBJECT, GM_FF_GEN_EYE, GM_FF_GEN_SPHERE,
                 GM_FF_GEN_REFLECTION, GM_FF_GEN_NORMAL };
enum gm_ff_env { GM_FF_ENV_MODULATE, GM_FF_ENV_REPLACE, GM_FF_ENV_DECAL, GM_FF_ENV_BLEND,
                 GM_FF_ENV_ADD, GM_FF_ENV_COMBINE };
enum gm_ff_combine { GM_FF_CB_REPLACE, GM_FF_CB_MODULATE, GM_FF_CB_ADD, GM_FF_CB_ADD_SIGNED,
                     GM_FF_CB_INTERPOLATE, GM_FF_CB_SUBTRACT, GM_FF_CB_DOT3_RGB,
                     GM_FF_CB_DOT3_RGBA,
                     /* GL_ADD / GL_ADD_SIGNED under GL_COMBINE4_NV: a0 a1 + a2 a3 (- 0.5) */
                     GM_FF_CB_ADD_PRODUCTS, GM_FF_CB_ADD_PRODUCTS_SIGNED };
/* Combiner sources: the texture of this unit, of unit k (GL_TEXTUREk: GM_FF_SRC_TEXTURE0 + k),
 * the constant colour, the primary colour, the previous unit's result, zero, one. */
enum gm_ff_src { GM_FF_SRC_TEXTURE, GM_FF_SRC_CONSTANT, GM_FF_SRC_PRIMARY, GM_FF_SRC_PREVIOUS,
                 GM_FF_SRC_ZERO, GM_FF_SRC_ONE, GM_FF_SRC_TEXTURE0 };
enum gm_ff_operand { GM_FF_OP_COLOR, GM_FF_OP_ONE_MINUS_COLOR, GM_FF_OP_ALPHA,
                     GM_FF_OP_ONE_MINUS_ALPHA };
enum gm_ff_fog { GM_FF_FOG_NONE, GM_FF_FOG_LINEAR, GM_FF_FOG_EXP, GM_FF_FOG_EXP2 };
/* NV_fog_distance's eye distance for the fog coordinate (Mesa's FDM_*) */
enum gm_ff_fog_distance { GM_FF_FOGDIST_PLANE_ABS, GM_FF_FOGDIST_PLANE, GM_FF_FOGDIST_RADIAL };
enum gm_ff_pixel { GM_FF_PIXEL_NONE, GM_FF_PIXEL_IMAGE, GM_FF_PIXEL_BITMAP, GM_FF_PIXEL_DEPTH };
/* Colour-material bits: which material values come from the vertex colour. */
enum { GM_FF_CM_EMISSION = 1, GM_FF_CM_AMBIENT = 2, GM_FF_CM_DIFFUSE = 4, GM_FF_CM_SPECULAR = 8 };
/* vertex_material only: the shininess given per vertex (colour material never tracks it) */
enum { GM_FF_VM_SHININESS = 16 };

typedef struct gm_ff_light_key {
    uint8_t enabled;
    uint8_t positional;        /* w != 0 */
    uint8_t spot;              /* cutoff != 180 */
    uint8_t attenuated;        /* attenuation != (1, 0, 0) */
} gm_ff_light_key;

typedef struct gm_ff_unit_key {
    /* vertex stage */
    uint8_t gen_mode[4];       /* enum gm_ff_gen per s, t, r, q (NONE: not enabled) */
    uint8_t texcoord_out;      /* the vertex stage writes gl_TexCoord[unit] */
    /* fragment stage */
    uint8_t target;            /* enum gm_ff_tex (NONE: texturing off on this unit) */
    uint8_t shadow;            /* depth comparison on (a shadow sampler) */
    uint8_t depth;             /* a depth texture: read as luminance (GL_DEPTH_TEXTURE_MODE's
                                  compatibility default; other modes are not modelled) */
    uint8_t format;            /* enum gm_ff_fmt */
    uint8_t coord_replace;     /* point sprite: the coordinate is gl_PointCoord */
    uint8_t env;               /* enum gm_ff_env */
    uint8_t combine_rgb, combine_alpha;
    uint8_t src_rgb[4], src_alpha[4], op_rgb[4], op_alpha[4];   /* [3]: ADD_PRODUCTS only */
    uint8_t scaled;            /* GL_RGB_SCALE or GL_ALPHA_SCALE != 1 */
} gm_ff_unit_key;

typedef struct gm_ff_key {
    /* vertex stage */
    uint8_t lighting;
    uint8_t two_side, local_viewer, normalize, rescale;
    uint8_t shininess_zero;    /* front shininess is 0 (Mesa's key; changes the specular code) */
    uint8_t color_material[2]; /* GM_FF_CM_* bits, front and back */
    /* GM_FF_CM_* and GM_FF_VM_SHININESS bits of the material values given per vertex
     * (glMaterial between the vertices of a glBegin/glEnd: Mesa makes them vertex attributes),
     * read from the attributes ff_vmat_{front,back}_{ambient,diffuse,specular,emission,shininess}
     * (shininess in x) */
    uint8_t vertex_material[2];
    gm_ff_light_key light[GM_FF_LIGHTS];
    uint8_t fog_from_coord;    /* GL_FOG_COORD_SRC is GL_FOG_COORD */
    uint8_t fog_distance;      /* GM_FF_FOGDIST_*: GL_FOG_DISTANCE_MODE_NV */
    uint8_t clip_planes;       /* bit i: GL_CLIP_PLANEi enabled */
    uint8_t point_attenuated;  /* GL_POINT_DISTANCE_ATTENUATION != (1, 0, 0) */
    uint8_t secondary_out;     /* write gl_FrontSecondaryColor (colour sum or a GLSL FS) */
    /* fragment stage */
    uint8_t separate_specular; /* lighting with GL_SEPARATE_SPECULAR_COLOR */
    uint8_t color_sum;         /* GL_COLOR_SUM (without lighting) */
    uint8_t fog;               /* enum gm_ff_fog */
    uint8_t points;            /* the draw is points (coordinate replacement applies) */
    /* the primary / secondary colour does not come from the vertex stage: the uniforms
     * ff_current_color / ff_current_secondary (the current colour, saturated, not
     * interpolated), as Mesa's texenv program reads it when the colour does not vary
     * (texenvprogram.c get_gl_Color, filter_fp_input_mask) */
    uint8_t color_current, secondary_current;
    /* a pixel rectangle (enum gm_ff_pixel): the vertex stage passes window-rectangle corners
     * and the raster values through; the fragment stage reads the image (glDrawPixels) or
     * discards where the bitmap is 0 (glBitmap), as Mesa's st_cb_drawpixels.c / st_cb_bitmap.c
     * variants of the fragment program do; a depth image writes gl_FragDepth and the raster
     * colour, as Mesa's own depth program (no environments, no fog) */
    uint8_t pixel_rect;
    gm_ff_unit_key unit[GM_FF_UNITS];
} gm_ff_key;

/* The generated shaders as malloc'd GLSL text (free it), or NULL when memory runs out. The
 * text is the same for equal keys and names the state it was made for in its comments. */
char *gm_ff_vertex_source(const gm_ff_key *k);
char *gm_ff_fragment_source(const gm_ff_key *k);

/* Values of the glr_ff_* uniforms the generated shaders declare besides the built-ins, as Mesa
 * computes them on the CPU. */
typedef struct gm_ff_values {
    float fog_params[4];        /* -1/(end-start), end/(end-start), density/ln2, density/sqrt(ln2) */
    float normal_scale;         /* 1/|third row of the inverse modelview| */
    float light_pos[GM_FF_LIGHTS][4];   /* directional: normalized direction; else position */
    float light_half[GM_FF_LIGHTS][4];  /* directional, infinite viewer: normalize(dir + z) */
    float spot_dir[GM_FF_LIGHTS][4];    /* normalized direction, w = cos(cutoff) */
    float scene_color[2][4];    /* emission + model ambient x material ambient, diffuse alpha */
    float env_scale[GM_FF_UNITS][2];    /* GL_RGB_SCALE, GL_ALPHA_SCALE */
    float point_size[4];        /* size, min, max (clamped as Mesa does) */
    float clip_plane[GM_FF_CLIP_PLANES][4];   /* user planes in clip space (eye plane times the
                                                 inverse projection), as Mesa/gallium clip */
} gm_ff_values;

/* A stable 64-bit hash of a key (FNV-1a over its bytes). */
uint64_t gm_ff_key_hash(const gm_ff_key *k);

#endif
