/* Fixed-function (compatibility profile) state of a context: lights, materials, light model,
 * colour material, fog, alpha test, shade model, user clip planes, point parameters and, per
 * legacy texture unit, the texture environment and coordinate generation. Part of
 * struct sm_context_state (member `ff`); included by statemodel/statemodel.h only.
 *
 * Values are stored as GL keeps them: light positions, spot directions, clip planes and eye
 * planes already transformed to eye coordinates by the modelview matrix current at the call
 * (GL 2.1 sections 2.14.1, 2.12, 2.11.4); colours as floats (integer forms mapped to [-1, 1]).
 * Enables (GL_LIGHTING, GL_LIGHTi, GL_FOG, per-unit GL_TEXTURE_2D, GL_TEXTURE_GEN_S, ...) are
 * ordinary caps of the context (sm_is_enabled; per-unit caps are indexed by the unit). */
#ifndef SM_FIXED_STATE_H
#define SM_FIXED_STATE_H

#include <stdbool.h>
#include <stdint.h>

#define SM_MAX_LIGHTS 8
#define SM_FF_UNITS 8   /* legacy texture units with an environment (GL_MAX_TEXTURE_UNITS) */

struct sm_ff_light {
    float ambient[4], diffuse[4], specular[4];
    float position[4];        /* eye coordinates */
    float spot_direction[3];  /* eye coordinates (upper 3x3 of the modelview) */
    float spot_exponent, spot_cutoff;
    float attenuation[3];     /* constant, linear, quadratic */
};

struct sm_ff_material {
    float ambient[4], diffuse[4], specular[4], emission[4];
    float shininess;
    float color_indexes[3];
};

/* Texture environment and coordinate generation of one unit. */
struct sm_ff_unit {
    uint32_t env_mode;        /* GL_MODULATE, GL_REPLACE, GL_DECAL, GL_BLEND, GL_ADD, GL_COMBINE, GL_COMBINE4_NV */
    float env_color[4];
    uint32_t combine_rgb, combine_alpha;
    uint32_t src_rgb[4], src_alpha[4], op_rgb[4], op_alpha[4];   /* [3]: GL_NV_texture_env_combine4 */
    float rgb_scale, alpha_scale;
    float lod_bias;           /* GL_TEXTURE_FILTER_CONTROL */
    bool coord_replace;       /* GL_POINT_SPRITE / GL_COORD_REPLACE */
    uint32_t gen_mode[4];     /* s, t, r, q: GL_OBJECT_LINEAR, GL_EYE_LINEAR, GL_SPHERE_MAP, ... */
    float object_plane[4][4];
    float eye_plane[4][4];    /* eye coordinates (times the inverse modelview at the call) */
};

/* The current raster position (GL 2.1 section 2.13) and what glPixelZoom / glPixelTransfer set
 * for pixel rectangles (sm_apply_rasterpos.c). pos is in window coordinates (z in the depth
 * range, w the clip w); color/secondary/texcoord are the values glRasterPos computed (lighting,
 * texture generation and matrices applied, as Mesa's rastpos.c does). */
struct sm_ff_raster {
    float pos[4];
    bool valid;
    float color[4], secondary[4];
    float texcoord[SM_FF_UNITS][4];
    float distance;                      /* fog coordinate or eye distance */
};

#define SM_PIXEL_MAPS 10
#define SM_PIXEL_MAP_MAX 256   /* GL_MAX_PIXEL_MAP_TABLE on Mesa */

struct sm_fixed_state {
    struct sm_ff_light light[SM_MAX_LIGHTS];
    struct sm_ff_material material[2];   /* [0] front, [1] back */
    float light_model_ambient[4];
    bool local_viewer, two_side;
    uint32_t color_control;              /* GL_SINGLE_COLOR or GL_SEPARATE_SPECULAR_COLOR */
    uint32_t color_material_face, color_material_mode;
    uint32_t fog_mode, fog_coord_src;
    uint32_t fog_distance_mode;   /* GL_FOG_DISTANCE_MODE_NV (Mesa exposes NV_fog_distance) */
    float fog_density, fog_start, fog_end, fog_index, fog_color[4];
    uint32_t alpha_func;
    float alpha_ref;
    uint32_t shade_model;
    uint32_t clamp_vertex_color;         /* glClampColor(GL_CLAMP_VERTEX_COLOR): TRUE, FALSE, FIXED_ONLY */
    float clip_plane[8][4];              /* eye coordinates */
    float point_size_min, point_size_max, point_fade_threshold, point_attenuation[3];
    struct sm_ff_unit unit[SM_FF_UNITS];
    struct sm_ff_raster raster;
    float pixel_zoom[2];                 /* glPixelZoom x, y */
    float pixel_scale[4], pixel_bias[4]; /* GL_RED_SCALE .. GL_ALPHA_BIAS (glPixelTransfer) */
    float depth_scale, depth_bias;       /* GL_DEPTH_SCALE, GL_DEPTH_BIAS */
    int32_t index_shift, index_offset;   /* GL_INDEX_SHIFT, GL_INDEX_OFFSET */
    bool map_color, map_stencil;         /* GL_MAP_COLOR, GL_MAP_STENCIL */
    /* glPixelMap tables, GL_PIXEL_MAP_I_TO_I + k (I_TO_I, S_TO_S, I_TO_R..I_TO_A, R_TO_R..A_TO_A),
     * as Mesa keeps them: floats, colour maps clamped to [0, 1]; default one entry 0 */
    struct sm_pixel_map { uint16_t size; float v[SM_PIXEL_MAP_MAX]; } pixel_map[SM_PIXEL_MAPS];
};

#endif
