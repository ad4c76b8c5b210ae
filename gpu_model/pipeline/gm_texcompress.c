/* gm_texcompress.c - decoding of block-compressed texture formats (S3TC/BC1-3, RGTC)
 * into RGBA8.  ETC2 is not decoded yet (returns -1). */
#include "gm_pipeline.h"

#include <string.h>

static void rgb565(uint16_t v, int c[3])
{
    c[0] = ((v >> 11) & 31) * 255 / 31;
    c[1] = ((v >> 5) & 63) * 255 / 63;
    c[2] = (v & 31) * 255 / 31;
}

static void bc1_color(const uint8_t *b, uint8_t out[16][4], bool force4)
{
    uint16_t c0 = (uint16_t)(b[0] | (b[1] << 8)), c1 = (uint16_t)(b[2] | (b[3] << 8));
    int p[4][4];
    rgb565(c0, p[0]); rgb565(c1, p[1]);
    p[0][3] = p[1][3] = 255;
    if (c0 > c1 || force4) {
        for (int k = 0; k < 3; k++) {
            p[2][k] = (2 * p[0][k] + p[1][k]) / 3;
            p[3][k] = (p[0][k] + 2 * p[1][k]) / 3;
        }
        p[2][3] = p[3][3] = 255;
    } else {
        for (int k = 0; k < 3; k++) { p[2][k] = (p[0][k] + p[1][k]) / 2; p[3][k] = 0; }
        p[2][3] = 255;
        p[3][3] = 0;
    }
    uint32_t bits = (uint32_t)b[4] | ((uint32_t)b[5] << 8) | ((uint32_t)b[6] << 16) | ((uint32_t)b[7] << 24);
    for (int i = 0; i < 16; i++) {
        int s = (bits >> (2 * i)) & 3;
        for (int k = 0; k < 4; k++) out[i][k] = (uint8_t)p[s][k];
    }
}

static void rgtc_channel(const uint8_t *b, uint8_t out[16][4], int ch, bool snorm)
{
    int e0 = snorm ? (int8_t)b[0] : b[0], e1 = snorm ? (int8_t)b[1] : b[1];
    int pal[8];
    pal[0] = e0; pal[1] = e1;
    if (e0 > e1) {
        for (int i = 1; i < 7; i++) pal[i + 1] = ((7 - i) * e0 + i * e1) / 7;
    } else {
        for (int i = 1; i < 5; i++) pal[i + 1] = ((5 - i) * e0 + i * e1) / 5;
        pal[6] = snorm ? -127 : 0;
        pal[7] = snorm ? 127 : 255;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 6; i++) bits |= (uint64_t)b[2 + i] << (8 * i);
    for (int i = 0; i < 16; i++) {
        int v = pal[(bits >> (3 * i)) & 7];
        if (snorm && v < -127) v = -127;
        out[i][ch] = (uint8_t)v;
    }
}

int gm_tex_decode_block(gm_format f, const uint8_t *b, uint8_t out[16][4])
{
    memset(out, 0, 16 * 4);
    switch (f) {
    case GM_FMT_BC1_RGB: case GM_FMT_BC1_SRGB:
        bc1_color(b, out, false);
        for (int i = 0; i < 16; i++) out[i][3] = 255;
        return 0;
    case GM_FMT_BC1_RGBA: case GM_FMT_BC1_SRGBA:
        bc1_color(b, out, false);
        return 0;
    case GM_FMT_BC2: case GM_FMT_BC2_SRGB:
        bc1_color(b + 8, out, true);
        for (int i = 0; i < 16; i++) {
            int a = (b[i / 2] >> (4 * (i & 1))) & 15;
            out[i][3] = (uint8_t)(a * 17);
        }
        return 0;
    case GM_FMT_BC3: case GM_FMT_BC3_SRGB: {
        uint8_t tmp[16][4];
        bc1_color(b + 8, out, true);
        rgtc_channel(b, tmp, 0, false);
        for (int i = 0; i < 16; i++) out[i][3] = tmp[i][0];
        return 0;
    }
    case GM_FMT_RGTC1: case GM_FMT_RGTC1_SNORM:
        rgtc_channel(b, out, 0, f == GM_FMT_RGTC1_SNORM);
        for (int i = 0; i < 16; i++) out[i][3] = 255;
        return 0;
    case GM_FMT_RGTC2: case GM_FMT_RGTC2_SNORM:
        rgtc_channel(b, out, 0, f == GM_FMT_RGTC2_SNORM);
        rgtc_channel(b + 8, out, 1, f == GM_FMT_RGTC2_SNORM);
        for (int i = 0; i < 16; i++) out[i][3] = 255;
        return 0;
    default:
        return -1;
    }
}
