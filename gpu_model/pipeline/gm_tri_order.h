/* gm_tri_order.h - a triangle's quads in llvmpipe's tile and block order (internal). */
#ifndef GM_TRI_ORDER_H
#define GM_TRI_ORDER_H

#include "gm_raster.h"
#include "gm_setup.h"

/* Feeds the covered quads of the triangle with edges e, inside the inclusive pixel region
 * [x0, x1] x [y0, y1] (raster space), to gm_pipe_warp_add_quad in llvmpipe's order. */
void gm_tri_emit_quads(gm_draw_ctx *dc, gm_prim_raster *pr, const gm_tri_edges *e, int x0,
                       int y0, int x1, int y1);

/* 1: every quad through the per-pixel edge tests (tests compare the fast paths with it). */
extern int gm_tri_order_general;

#endif
