/* The fixed-function tessellator of the GPU model: domain points and their connectivity for
 * one patch, exactly as llvmpipe computes them. llvmpipe (Mesa's draw module, draw_tess.c)
 * feeds its tessellator (p_tessellator.cpp) with the D3D11 reference tessellator's rules:
 * levels clamped and rounded per spacing, converted to 16.16 fixed point, points placed on
 * each edge and ring by fixed-point arithmetic (the ruler-function split of fractional
 * levels), rings stitched in a fixed order. gm_tessellator.c re-derives those rules in C;
 * the float values of the points and the order of the primitives decide the pixels, so the
 * arithmetic is kept bit for bit (see gpu_model/pipeline/DESIGN.md "Tessellation"). */
#ifndef GM_TESSELLATOR_H
#define GM_TESSELLATOR_H

#include <stdbool.h>

typedef enum { GM_TESS_TRIANGLES, GM_TESS_QUADS, GM_TESS_ISOLINES } gm_tess_domain;
typedef enum { GM_TESS_EQUAL, GM_TESS_FRACTIONAL_EVEN, GM_TESS_FRACTIONAL_ODD } gm_tess_spacing;
/* What the index list holds: triangles (3 indices each), lines (2) or points (1). */
typedef enum { GM_TESS_OUT_TRIANGLES, GM_TESS_OUT_LINES, GM_TESS_OUT_POINTS } gm_tess_prim;

/* Largest counts one patch produces (level 64 on every edge). */
#define GM_TESS_MAX_POINTS (65 * 65)
#define GM_TESS_MAX_INDICES (64 * 64 * 2 * 3)

typedef struct gm_tess_out {
    gm_tess_prim prim;
    int n_points;          /* domain points: (u[i], v[i]); triangles: w = 1 - u - v */
    float u[GM_TESS_MAX_POINTS], v[GM_TESS_MAX_POINTS];
    int n_indices;         /* primitives as indices into the points, in llvmpipe's order */
    int idx[GM_TESS_MAX_INDICES];
} gm_tess_out;

/* Tessellates one patch: outer[0..3] and inner[0..1] are gl_TessLevelOuter/Inner (the
 * domain reads what it needs). cw: GLSL's layout(cw) (else ccw); point_mode: every point once.
 * A patch culled by a level <= 0 or NaN gives no points. */
void gm_tessellate(gm_tess_out *out, gm_tess_domain domain, gm_tess_spacing spacing, bool cw,
                   bool point_mode, const float outer[4], const float inner[2]);

#endif
