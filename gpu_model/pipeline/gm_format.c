/* gm_format.c - pixel format table and texel pack/unpack with llvmpipe's rounding.
 *
 * float -> unorm8: min(x, 1) * 255, round to nearest even (cvtps2dq), saturate to
 * [0, 255], NaN -> 0 (lp_build_conv's SSE path).  unorm -> float: v * (1 / (2^n - 1))
 * as a float multiply (lp_build_unsigned_norm_to_float).  Half floats round to
 * nearest even like F16C. */
#include "gm_pipeline.h"
#include "gm_half.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define U GM_KIND_UNORM
#define S GM_KIND_SNORM
#define F GM_KIND_FLOAT
#define UI GM_KIND_UINT
#define SI GM_KIND_SINT

const gm_format_info gm_format_table[GM_FMT_COUNT] = {
    [GM_FMT_NONE] = {"NONE", 0, 0, U, 0, 0, {0, 0, 0, 0}},
    [GM_FMT_RGBA8] = {"RGBA8", 4, 4, U, 0, 0, {8, 8, 8, 8}},
    [GM_FMT_BGRA8] = {"BGRA8", 4, 4, U, 0, 0, {8, 8, 8, 8}},
    [GM_FMT_RGB8] = {"RGB8", 3, 3, U, 0, 0, {8, 8, 8, 0}},
    [GM_FMT_RG8] = {"RG8", 2, 2, U, 0, 0, {8, 8, 0, 0}},
    [GM_FMT_R8] = {"R8", 1, 1, U, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_SRGB8_A8] = {"SRGB8_ALPHA8", 4, 4, U, 1, 0, {8, 8, 8, 8}},
    [GM_FMT_SRGB8] = {"SRGB8", 3, 3, U, 1, 0, {8, 8, 8, 0}},
    [GM_FMT_RGBA8_SNORM] = {"RGBA8_SNORM", 4, 4, S, 0, 0, {8, 8, 8, 8}},
    [GM_FMT_RGBA16] = {"RGBA16", 8, 4, U, 0, 0, {16, 16, 16, 16}},
    [GM_FMT_R16] = {"R16", 2, 1, U, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_RG16] = {"RG16", 4, 2, U, 0, 0, {16, 16, 0, 0}},
    [GM_FMT_RGBA16F] = {"RGBA16F", 8, 4, F, 0, 0, {16, 16, 16, 16}},
    [GM_FMT_RGB16F] = {"RGB16F", 6, 3, F, 0, 0, {16, 16, 16, 0}},
    [GM_FMT_RG16F] = {"RG16F", 4, 2, F, 0, 0, {16, 16, 0, 0}},
    [GM_FMT_R16F] = {"R16F", 2, 1, F, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_RGBA32F] = {"RGBA32F", 16, 4, F, 0, 0, {32, 32, 32, 32}},
    [GM_FMT_RGB32F] = {"RGB32F", 12, 3, F, 0, 0, {32, 32, 32, 0}},
    [GM_FMT_RG32F] = {"RG32F", 8, 2, F, 0, 0, {32, 32, 0, 0}},
    [GM_FMT_R32F] = {"R32F", 4, 1, F, 0, 0, {32, 0, 0, 0}},
    [GM_FMT_R11G11B10F] = {"R11F_G11F_B10F", 4, 3, F, 0, 0, {11, 11, 10, 0}},
    [GM_FMT_RGB9E5] = {"RGB9_E5", 4, 3, F, 0, 0, {9, 9, 9, 0}},
    [GM_FMT_RGB10A2] = {"RGB10_A2", 4, 4, U, 0, 0, {10, 10, 10, 2}},
    [GM_FMT_RGB565] = {"RGB565", 2, 3, U, 0, 0, {5, 6, 5, 0}},
    [GM_FMT_RGBA4] = {"RGBA4", 2, 4, U, 0, 0, {4, 4, 4, 4}},
    [GM_FMT_RGB5A1] = {"RGB5_A1", 2, 4, U, 0, 0, {5, 5, 5, 1}},
    [GM_FMT_RGBA8UI] = {"RGBA8UI", 4, 4, UI, 0, 0, {8, 8, 8, 8}},
    [GM_FMT_RGBA8I] = {"RGBA8I", 4, 4, SI, 0, 0, {8, 8, 8, 8}},
    [GM_FMT_RGBA16UI] = {"RGBA16UI", 8, 4, UI, 0, 0, {16, 16, 16, 16}},
    [GM_FMT_RGBA16I] = {"RGBA16I", 8, 4, SI, 0, 0, {16, 16, 16, 16}},
    [GM_FMT_RGBA32UI] = {"RGBA32UI", 16, 4, UI, 0, 0, {32, 32, 32, 32}},
    [GM_FMT_RGBA32I] = {"RGBA32I", 16, 4, SI, 0, 0, {32, 32, 32, 32}},
    [GM_FMT_R32UI] = {"R32UI", 4, 1, UI, 0, 0, {32, 0, 0, 0}},
    [GM_FMT_R32I] = {"R32I", 4, 1, SI, 0, 0, {32, 0, 0, 0}},
    [GM_FMT_RG32UI] = {"RG32UI", 8, 2, UI, 0, 0, {32, 32, 0, 0}},
    [GM_FMT_R8UI] = {"R8UI", 1, 1, UI, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_R16UI] = {"R16UI", 2, 1, UI, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_RGB10A2UI] = {"RGB10_A2UI", 4, 4, UI, 0, 0, {10, 10, 10, 2}},
    [GM_FMT_D16] = {"DEPTH16", 2, 1, GM_KIND_DEPTH, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_D24X8] = {"DEPTH24", 4, 1, GM_KIND_DEPTH, 0, 0, {24, 0, 0, 0}},
    [GM_FMT_D24S8] = {"DEPTH24_STENCIL8", 4, 2, GM_KIND_DEPTH_STENCIL, 0, 0, {24, 8, 0, 0}},
    [GM_FMT_D32F] = {"DEPTH32F", 4, 1, GM_KIND_DEPTH, 0, 0, {32, 0, 0, 0}},
    [GM_FMT_D32F_S8] = {"DEPTH32F_STENCIL8", 8, 2, GM_KIND_DEPTH_STENCIL, 0, 0, {32, 8, 0, 0}},
    [GM_FMT_S8] = {"STENCIL8", 1, 1, GM_KIND_STENCIL, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_L8] = {"LUMINANCE8", 1, 1, U, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_A8] = {"ALPHA8", 1, 1, U, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_LA8] = {"LUMINANCE8_ALPHA8", 2, 2, U, 0, 0, {8, 8, 0, 0}},
    [GM_FMT_BC1_RGB] = {"BC1_RGB", 8, 3, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_BC1_RGBA] = {"BC1_RGBA", 8, 4, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_BC2] = {"BC2", 16, 4, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_BC3] = {"BC3", 16, 4, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_BC1_SRGB] = {"BC1_SRGB", 8, 3, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_BC1_SRGBA] = {"BC1_SRGBA", 8, 4, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_BC2_SRGB] = {"BC2_SRGB", 16, 4, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_BC3_SRGB] = {"BC3_SRGB", 16, 4, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_RGTC1] = {"RGTC1", 8, 1, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_RGTC1_SNORM] = {"RGTC1_SNORM", 8, 1, S, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_RGTC2] = {"RGTC2", 16, 2, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_RGTC2_SNORM] = {"RGTC2_SNORM", 16, 2, S, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_ETC2_RGB8] = {"ETC2_RGB8", 8, 3, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_ETC2_SRGB8] = {"ETC2_SRGB8", 8, 3, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_ETC2_RGBA8] = {"ETC2_RGBA8_EAC", 16, 4, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_ETC2_SRGBA8] = {"ETC2_SRGB8_ALPHA8_EAC", 16, 4, U, 1, 4, {0, 0, 0, 0}},
    [GM_FMT_ETC2_RGB8A1] = {"ETC2_RGB8_PUNCHTHROUGH_A1", 8, 4, U, 0, 4, {0, 0, 0, 0}},
    [GM_FMT_L16] = {"LUMINANCE16", 2, 1, U, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_LA16] = {"LUMINANCE16_ALPHA16", 4, 2, U, 0, 0, {16, 16, 0, 0}},
    [GM_FMT_I8] = {"INTENSITY8", 1, 1, U, 0, 0, {8, 0, 0, 0}},
    [GM_FMT_I16] = {"INTENSITY16", 2, 1, U, 0, 0, {16, 0, 0, 0}},
    [GM_FMT_LA4] = {"LUMINANCE4_ALPHA4", 1, 2, U, 0, 0, {4, 4, 0, 0}},
    [GM_FMT_RGBX4] = {"RGB4", 2, 3, U, 0, 0, {4, 4, 4, 0}},
    [GM_FMT_RGB5X1] = {"RGB5", 2, 3, U, 0, 0, {5, 5, 5, 0}},
    [GM_FMT_RGB10X2] = {"RGB10", 4, 3, U, 0, 0, {10, 10, 10, 0}},
    [GM_FMT_RGBX16] = {"RGB16", 8, 3, U, 0, 0, {16, 16, 16, 0}},
    [GM_FMT_R3G3B2] = {"R3_G3_B2", 1, 3, U, 0, 0, {3, 3, 2, 0}},
};


gm_format gm_format_from_gl(uint32_t gl)
{
    switch (gl) {
    case GL_RGBA8: case GL_RGBA: return GM_FMT_RGBA8;
    case GL_BGRA8_EXT: case GL_BGRA: return GM_FMT_BGRA8;
    case GL_RGB8: case GL_RGB: return GM_FMT_RGB8;
    case GL_RG8: case GL_RG: return GM_FMT_RG8;
    case GL_R8: case GL_RED: return GM_FMT_R8;
    case GL_SRGB8_ALPHA8: return GM_FMT_SRGB8_A8;
    case GL_SRGB8: return GM_FMT_SRGB8;
    case GL_RGBA8_SNORM: return GM_FMT_RGBA8_SNORM;
    case GL_RGBA16: return GM_FMT_RGBA16;
    case GL_R16: return GM_FMT_R16;
    case GL_RG16: return GM_FMT_RG16;
    case GL_RGBA16F: return GM_FMT_RGBA16F;
    case GL_RGB16F: return GM_FMT_RGB16F;
    case GL_RG16F: return GM_FMT_RG16F;
    case GL_R16F: return GM_FMT_R16F;
    case GL_RGBA32F: return GM_FMT_RGBA32F;
    case GL_RGB32F: return GM_FMT_RGB32F;
    case GL_RG32F: return GM_FMT_RG32F;
    case GL_R32F: return GM_FMT_R32F;
    case GL_R11F_G11F_B10F: return GM_FMT_R11G11B10F;
    case GL_RGB9_E5: return GM_FMT_RGB9E5;
    case GL_RGB10_A2: return GM_FMT_RGB10A2;
    case GL_RGB565: return GM_FMT_RGB565;
    case GL_RGBA4: return GM_FMT_RGBA4;
    case GL_RGB5_A1: return GM_FMT_RGB5A1;
    case GL_RGBA8UI: return GM_FMT_RGBA8UI;
    case GL_RGBA8I: return GM_FMT_RGBA8I;
    case GL_RGBA16UI: return GM_FMT_RGBA16UI;
    case GL_RGBA16I: return GM_FMT_RGBA16I;
    case GL_RGBA32UI: return GM_FMT_RGBA32UI;
    case GL_RGBA32I: return GM_FMT_RGBA32I;
    case GL_R32UI: return GM_FMT_R32UI;
    case GL_R32I: return GM_FMT_R32I;
    case GL_RG32UI: return GM_FMT_RG32UI;
    case GL_R8UI: return GM_FMT_R8UI;
    case GL_R16UI: return GM_FMT_R16UI;
    case GL_RGB10_A2UI: return GM_FMT_RGB10A2UI;
    case GL_DEPTH_COMPONENT16: return GM_FMT_D16;
    case GL_DEPTH_COMPONENT24: case GL_DEPTH_COMPONENT: return GM_FMT_D24X8;
    case GL_DEPTH24_STENCIL8: case GL_DEPTH_STENCIL: return GM_FMT_D24S8;
    case GL_DEPTH_COMPONENT32F: return GM_FMT_D32F;
    case GL_DEPTH32F_STENCIL8: return GM_FMT_D32F_S8;
    case GL_STENCIL_INDEX8: return GM_FMT_S8;
    case GL_LUMINANCE8: return GM_FMT_L8;
    case GL_ALPHA8: return GM_FMT_A8;
    case GL_LUMINANCE8_ALPHA8: return GM_FMT_LA8;
    case GL_COMPRESSED_RGB_S3TC_DXT1_EXT: return GM_FMT_BC1_RGB;
    case GL_COMPRESSED_RGBA_S3TC_DXT1_EXT: return GM_FMT_BC1_RGBA;
    case GL_COMPRESSED_RGBA_S3TC_DXT3_EXT: return GM_FMT_BC2;
    case GL_COMPRESSED_RGBA_S3TC_DXT5_EXT: return GM_FMT_BC3;
    case GL_COMPRESSED_SRGB_S3TC_DXT1_NV: return GM_FMT_BC1_SRGB;
    case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1_NV: return GM_FMT_BC1_SRGBA;
    case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3_NV: return GM_FMT_BC2_SRGB;
    case GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5_NV: return GM_FMT_BC3_SRGB;
    case GL_COMPRESSED_RED_RGTC1: return GM_FMT_RGTC1;
    case GL_COMPRESSED_SIGNED_RED_RGTC1: return GM_FMT_RGTC1_SNORM;
    case GL_COMPRESSED_RG_RGTC2: return GM_FMT_RGTC2;
    case GL_COMPRESSED_SIGNED_RG_RGTC2: return GM_FMT_RGTC2_SNORM;
    case GL_COMPRESSED_RGB8_ETC2: return GM_FMT_ETC2_RGB8;
    case GL_COMPRESSED_SRGB8_ETC2: return GM_FMT_ETC2_SRGB8;
    case GL_COMPRESSED_RGBA8_ETC2_EAC: return GM_FMT_ETC2_RGBA8;
    case GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC: return GM_FMT_ETC2_SRGBA8;
    case GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2: return GM_FMT_ETC2_RGB8A1;
    /* GL 1.x sized formats: the pipe format Mesa's format table picks first on llvmpipe */
    case GL_ALPHA4: return GM_FMT_A8;                       /* GL_ALPHA4 (A16 is not modelled) */
    case GL_LUMINANCE4: return GM_FMT_L8;
    case GL_LUMINANCE12: case GL_LUMINANCE16: return GM_FMT_L16;
    case GL_LUMINANCE6_ALPHA2: return GM_FMT_LA8;
    case GL_LUMINANCE4_ALPHA4: return GM_FMT_LA4;
    case GL_LUMINANCE12_ALPHA4: case GL_LUMINANCE12_ALPHA12: case GL_LUMINANCE16_ALPHA16: return GM_FMT_LA16;   /* GL_LUMINANCE12_ALPHA4/12, 16_ALPHA16 */
    case GL_INTENSITY: case GL_INTENSITY4: case GL_INTENSITY8: return GM_FMT_I8;
    case GL_INTENSITY12: case GL_INTENSITY16: return GM_FMT_I16;
    case GL_R3_G3_B2: return GM_FMT_R3G3B2;
    case GL_RGB4: return GM_FMT_RGBX4;
    case GL_RGB5: return GM_FMT_RGB5X1;
    case GL_RGB10: return GM_FMT_RGB10X2;
    case GL_RGB12: case GL_RGB16: return GM_FMT_RGBX16;
    case GL_RGBA2: return GM_FMT_RGBA4;
    case GL_RGBA12: return GM_FMT_RGBA16;
    default: return GM_FMT_NONE;
    }
}

bool gm_format_has_alpha(gm_format f)
{
    return gm_format_get(f)->channels == 4 || f == GM_FMT_A8 || f == GM_FMT_LA8 || f == GM_FMT_LA16 ||
           f == GM_FMT_LA4;
}

void gm_format_readback_rgba(gm_format f, float rgba[4])
{
    switch (f) {
    case GM_FMT_L8: case GM_FMT_L16: case GM_FMT_LA8: case GM_FMT_LA16: case GM_FMT_I8:
    case GM_FMT_I16: case GM_FMT_LA4:
        rgba[1] = rgba[2] = 0.0f;
        break;
    default:
        break;
    }
    if (!gm_format_has_alpha(f))
        rgba[3] = 1.0f;
}

/* ---- scalar conversions ---------------------------------------------------------- */

static uint32_t unorm_from_float(float x, int bits)
{
    const float scale = (float)((1u << bits) - 1u);
    if (!(x > 0.0f))          /* negatives and NaN */
        return 0;
    if (x >= 1.0f)
        return (1u << bits) - 1u;
    /* rintf, not lrintf: the same round-to-nearest-even of a value in [0, 2^bits - 1], but
     * gcc inlines it where lrintf is a libm call per channel of every colour write */
    return (uint32_t)rintf(x * scale);
}

uint8_t gm_float_to_unorm8(float f) { return (uint8_t)unorm_from_float(f, 8); }

static float unorm_to_float(uint32_t v, int bits)
{
    /* llvmpipe multiplies by the float constant 1/(2^n-1). */
    const float scale = (float)(1.0 / (double)((1u << bits) - 1u));
    return (float)v * scale;
}

float gm_unorm8_to_float(uint8_t v) { return unorm_to_float(v, 8); }

static int32_t snorm_from_float(float x, int bits)
{
    const float scale = (float)((1 << (bits - 1)) - 1);
    if (x != x)
        return 0;
    if (x > 1.0f) x = 1.0f;
    if (x < -1.0f) x = -1.0f;
    return (int32_t)lrintf(x * scale);
}

static float snorm_to_float(int32_t v, int bits)
{
    const float scale = (float)(1.0 / (double)((1 << (bits - 1)) - 1));
    float r = (float)v * scale;
    return r < -1.0f ? -1.0f : r;
}

float gm_srgb_to_linear(float c)
{
    if (c <= 0.04045f)
        return c / 12.92f;
    return powf((c + 0.055f) / 1.055f, 2.4f);
}

float gm_linear_to_srgb(float c)
{
    if (!(c > 0.0f))
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    if (c < 0.0031308f)
        return c * 12.92f;
    return 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* gm_float_to_half and gm_half_to_float: gm_half.c */

/* Unsigned small floats (R11G11B10F): 5-bit exponent, `mbits` mantissa, no sign. */
static uint32_t float_to_ufloat(float f, int mbits)
{
    if (f != f)
        return (0x1fu << mbits) | 1u;
    if (!(f > 0.0f))
        return 0;
    uint16_t h = gm_float_to_half(f);       /* same exponent range as half */
    if ((h & 0x7c00u) == 0x7c00u)
        return 0x1fu << mbits;
    int drop = 10 - mbits;
    uint32_t v = h >> drop, rem = h & ((1u << drop) - 1u), half = 1u << (drop - 1);
    if (rem > half || (rem == half && (v & 1u)))
        v++;
    return v;
}

static float ufloat_to_float(uint32_t v, int mbits)
{
    return gm_half_to_float((uint16_t)(v << (10 - mbits)));
}

static void rgb9e5_unpack(uint32_t v, float rgb[3])
{
    int e = (int)(v >> 27) - 15 - 9;
    float scale = ldexpf(1.0f, e);
    rgb[0] = (float)(v & 0x1ffu) * scale;
    rgb[1] = (float)((v >> 9) & 0x1ffu) * scale;
    rgb[2] = (float)((v >> 18) & 0x1ffu) * scale;
}

static uint32_t rgb9e5_pack(const float rgb[3])
{
    const float maxv = 65408.0f;
    float c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = rgb[i] != rgb[i] ? 0.0f : rgb[i];
        c[i] = c[i] < 0.0f ? 0.0f : (c[i] > maxv ? maxv : c[i]);
    }
    float m = fmaxf(c[0], fmaxf(c[1], c[2]));
    int exp_shared = (m > 0.0f ? (int)floorf(log2f(m)) : -16) + 1 + 15;
    if (exp_shared < 0) exp_shared = 0;
    double denom = ldexp(1.0, exp_shared - 15 - 9);
    int maxm = (int)floor(m / denom + 0.5);
    if (maxm == 512) { denom *= 2; exp_shared++; }
    uint32_t r = (uint32_t)floor(c[0] / denom + 0.5);
    uint32_t g = (uint32_t)floor(c[1] / denom + 0.5);
    uint32_t b = (uint32_t)floor(c[2] / denom + 0.5);
    return r | (g << 9) | (b << 18) | ((uint32_t)exp_shared << 27);
}

/* ---- texel access ---------------------------------------------------------------- */

static uint32_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void wr16(uint8_t *p, uint32_t v) { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); }
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* Packed formats: channel shifts (r,g,b,a) in a 16/32-bit word. */
static bool packed_layout(gm_format f, int shift[4])
{
    switch (f) {
    case GM_FMT_RGB10A2: case GM_FMT_RGB10A2UI:
        shift[0] = 0; shift[1] = 10; shift[2] = 20; shift[3] = 30; return true;
    case GM_FMT_RGB565:
        shift[0] = 11; shift[1] = 5; shift[2] = 0; shift[3] = 0; return true;
    case GM_FMT_RGBA4:
        shift[0] = 12; shift[1] = 8; shift[2] = 4; shift[3] = 0; return true;
    case GM_FMT_RGB5A1:
        shift[0] = 11; shift[1] = 6; shift[2] = 1; shift[3] = 0; return true;
    case GM_FMT_RGB10X2:
        shift[0] = 0; shift[1] = 10; shift[2] = 20; shift[3] = 30; return true;
    case GM_FMT_RGBX4:
        shift[0] = 12; shift[1] = 8; shift[2] = 4; shift[3] = 0; return true;
    case GM_FMT_RGB5X1:
        shift[0] = 11; shift[1] = 6; shift[2] = 1; shift[3] = 0; return true;
    case GM_FMT_R3G3B2:
        shift[0] = 5; shift[1] = 2; shift[2] = 0; shift[3] = 0; return true;
    default:
        return false;
    }
}

void gm_format_unpack_rgba(gm_format f, const void *texel, float rgba[4])
{
    const gm_format_info *fi = gm_format_get(f);
    const uint8_t *p = texel;
    rgba[0] = rgba[1] = rgba[2] = 0.0f;
    rgba[3] = 1.0f;
    int sh[4];
    switch (f) {
    case GM_FMT_RGBA16F:   /* lightmaps and render targets of OpenArena's GL2 renderer */
        gm_half4_to_float(p, rgba);
        return;
    case GM_FMT_BGRA8:
        rgba[2] = gm_unorm8_to_float(p[0]); rgba[1] = gm_unorm8_to_float(p[1]);
        rgba[0] = gm_unorm8_to_float(p[2]); rgba[3] = gm_unorm8_to_float(p[3]);
        return;
    case GM_FMT_L8:
        rgba[0] = rgba[1] = rgba[2] = gm_unorm8_to_float(p[0]);
        return;
    case GM_FMT_A8:
        rgba[3] = gm_unorm8_to_float(p[0]);
        return;
    case GM_FMT_LA8:
        rgba[0] = rgba[1] = rgba[2] = gm_unorm8_to_float(p[0]);
        rgba[3] = gm_unorm8_to_float(p[1]);
        return;
    case GM_FMT_L16:
        rgba[0] = rgba[1] = rgba[2] = unorm_to_float(rd16(p), 16);
        return;
    case GM_FMT_LA16:
        rgba[0] = rgba[1] = rgba[2] = unorm_to_float(rd16(p), 16);
        rgba[3] = unorm_to_float(rd16(p + 2), 16);
        return;
    case GM_FMT_I8:
        rgba[0] = rgba[1] = rgba[2] = rgba[3] = gm_unorm8_to_float(p[0]);
        return;
    case GM_FMT_LA4:   /* luminance in the low nibble (PIPE_FORMAT_L4A4_UNORM) */
        rgba[0] = rgba[1] = rgba[2] = unorm_to_float(p[0] & 15u, 4);
        rgba[3] = unorm_to_float(p[0] >> 4, 4);
        return;
    case GM_FMT_I16:
        rgba[0] = rgba[1] = rgba[2] = rgba[3] = unorm_to_float(rd16(p), 16);
        return;
    case GM_FMT_R11G11B10F: {
        uint32_t v = rd32(p);
        rgba[0] = ufloat_to_float(v & 0x7ffu, 6);
        rgba[1] = ufloat_to_float((v >> 11) & 0x7ffu, 6);
        rgba[2] = ufloat_to_float(v >> 22, 5);
        return;
    }
    case GM_FMT_RGB9E5:
        rgb9e5_unpack(rd32(p), rgba);
        return;
    case GM_FMT_D16: case GM_FMT_D24X8: case GM_FMT_D24S8: case GM_FMT_D32F:
    case GM_FMT_D32F_S8:
        rgba[0] = gm_format_unpack_depth(f, texel);
        return;
    case GM_FMT_S8:
        rgba[0] = (float)p[0];
        return;
    default:
        break;
    }
    if (packed_layout(f, sh)) {
        uint32_t v = fi->bytes == 1 ? p[0] : fi->bytes == 2 ? rd16(p) : rd32(p);
        for (int c = 0; c < fi->channels; c++) {
            uint32_t bits = fi->bits[c], m = (1u << bits) - 1u;
            uint32_t raw = (v >> sh[c]) & m;
            rgba[c] = fi->kind == GM_KIND_UINT ? u2f(raw) : unorm_to_float(raw, (int)bits);
        }
        return;
    }
    for (int c = 0; c < fi->channels; c++) {
        int bits = fi->bits[c];
        const uint8_t *q = p + c * (bits / 8);
        switch (fi->kind) {
        case GM_KIND_UNORM:
            rgba[c] = unorm_to_float(bits == 8 ? q[0] : rd16(q), bits);
            if (fi->srgb && c < 3)
                rgba[c] = gm_srgb_to_linear(rgba[c]);
            break;
        case GM_KIND_SNORM:
            rgba[c] = snorm_to_float(bits == 8 ? (int8_t)q[0] : (int16_t)rd16(q), bits);
            break;
        case GM_KIND_FLOAT:
            rgba[c] = bits == 16 ? gm_half_to_float((uint16_t)rd16(q)) : u2f(rd32(q));
            break;
        case GM_KIND_UINT:
            rgba[c] = u2f(bits == 8 ? q[0] : bits == 16 ? rd16(q) : rd32(q));
            break;
        case GM_KIND_SINT: {
            int32_t s = bits == 8 ? (int8_t)q[0] : bits == 16 ? (int16_t)rd16(q) : (int32_t)rd32(q);
            rgba[c] = u2f((uint32_t)s);
            break;
        }
        default:
            break;
        }
    }
    if (fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT)
        rgba[3] = fi->channels < 4 ? u2f(1u) : rgba[3];
}

void gm_format_unpack_rgba_i(gm_format f, const void *texel, uint32_t rgba[4])
{
    float t[4];
    gm_format_unpack_rgba(f, texel, t);
    for (int c = 0; c < 4; c++)
        rgba[c] = f2u(t[c]);
}

/* llvmpipe's conversion to half on render target writes drops the low mantissa bits (round
 * toward zero): the value is cut to what a half keeps first (gm_half_cut_rtz), so the
 * nearest-even rounding of gm_format_pack_rgba has nothing left to round. RGBA16F, the
 * targets of OpenArena's GL2 renderer, four channels at once (gm_half.h). */
void gm_format_pack_rgba_rt(gm_format f, const float in[4], void *texel)
{
    if (f == GM_FMT_RGBA16F) {
        gm_float4_to_half_rtz(in, texel);
        return;
    }
    const gm_format_info *fi = gm_format_get(f);
    if (fi->kind != GM_KIND_FLOAT || fi->bits[0] != 16) {
        gm_format_pack_rgba(f, in, texel);
        return;
    }
    float v[4];
    for (int c = 0; c < 4; c++)
        v[c] = gm_half_cut_rtz(in[c]);
    gm_format_pack_rgba(f, v, texel);
}

void gm_format_pack_rgba(gm_format f, const float in[4], void *texel)
{
    const gm_format_info *fi = gm_format_get(f);
    uint8_t *p = texel;
    int sh[4];
    switch (f) {
    case GM_FMT_RGBA8:   /* the generic unorm loop below for RGBA8, unrolled: most colour writes */
        p[0] = (uint8_t)unorm_from_float(in[0], 8); p[1] = (uint8_t)unorm_from_float(in[1], 8);
        p[2] = (uint8_t)unorm_from_float(in[2], 8); p[3] = (uint8_t)unorm_from_float(in[3], 8);
        return;
    case GM_FMT_BGRA8:
        p[0] = gm_float_to_unorm8(in[2]); p[1] = gm_float_to_unorm8(in[1]);
        p[2] = gm_float_to_unorm8(in[0]); p[3] = gm_float_to_unorm8(in[3]);
        return;
    case GM_FMT_A8:
        p[0] = gm_float_to_unorm8(in[3]);
        return;
    case GM_FMT_LA8:   /* luminance from red, alpha from alpha (not green) */
        p[0] = gm_float_to_unorm8(in[0]);
        p[1] = gm_float_to_unorm8(in[3]);
        return;
    case GM_FMT_I8:    /* luminance and intensity keep red */
        p[0] = gm_float_to_unorm8(in[0]);
        return;
    case GM_FMT_LA4:
        p[0] = (uint8_t)(unorm_from_float(in[0], 4) | (unorm_from_float(in[3], 4) << 4));
        return;
    case GM_FMT_L16: case GM_FMT_I16:
        wr16(p, unorm_from_float(in[0], 16));
        return;
    case GM_FMT_LA16:
        wr16(p, unorm_from_float(in[0], 16));
        wr16(p + 2, unorm_from_float(in[3], 16));
        return;
    case GM_FMT_R11G11B10F:
        wr32(p, float_to_ufloat(in[0], 6) | (float_to_ufloat(in[1], 6) << 11) |
                    (float_to_ufloat(in[2], 5) << 22));
        return;
    case GM_FMT_RGB9E5:
        wr32(p, rgb9e5_pack(in));
        return;
    case GM_FMT_D16: case GM_FMT_D24X8: case GM_FMT_D24S8: case GM_FMT_D32F:
    case GM_FMT_D32F_S8:
        gm_format_pack_depth(f, in[0], texel);
        return;
    default:
        break;
    }
    if (packed_layout(f, sh)) {
        uint32_t v = 0;
        for (int c = 0; c < fi->channels; c++) {
            uint32_t bits = fi->bits[c];
            uint32_t raw = fi->kind == GM_KIND_UINT ? f2u(in[c]) & ((1u << bits) - 1u)
                                                    : unorm_from_float(in[c], (int)bits);
            v |= raw << sh[c];
        }
        if (fi->bytes == 1) p[0] = (uint8_t)v; else if (fi->bytes == 2) wr16(p, v); else wr32(p, v);
        return;
    }
    for (int c = 0; c < fi->channels; c++) {
        int bits = fi->bits[c];
        uint8_t *q = p + c * (bits / 8);
        float x = in[c];
        switch (fi->kind) {
        case GM_KIND_UNORM: {
            if (fi->srgb && c < 3)
                x = gm_linear_to_srgb(x);
            uint32_t v = unorm_from_float(x, bits);
            if (bits == 8) q[0] = (uint8_t)v; else wr16(q, v);
            break;
        }
        case GM_KIND_SNORM: {
            int32_t v = snorm_from_float(x, bits);
            if (bits == 8) q[0] = (uint8_t)(int8_t)v; else wr16(q, (uint32_t)v);
            break;
        }
        case GM_KIND_FLOAT:
            if (bits == 16) wr16(q, gm_float_to_half(x)); else wr32(q, f2u(x));
            break;
        case GM_KIND_UINT: case GM_KIND_SINT: {
            uint32_t v = f2u(x);
            if (bits == 8) q[0] = (uint8_t)v; else if (bits == 16) wr16(q, v); else wr32(q, v);
            break;
        }
        default:
            break;
        }
    }
}

void gm_format_pack_rgba_i(gm_format f, const uint32_t in[4], void *texel)
{
    const gm_format_info *fi = gm_format_get(f);
    float t[4];
    uint32_t v[4];
    for (int c = 0; c < 4; c++) {
        v[c] = in[c];
        /* integer render targets keep the low bits (llvmpipe stores truncating) */
        if (fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT) {
            int bits = fi->bits[c];
            if (bits && bits < 32) {
                /* clamp like GL: unsigned saturate / signed saturate */
                if (fi->kind == GM_KIND_UINT) {
                    uint32_t m = (1u << bits) - 1u;
                    v[c] = in[c] > m ? m : in[c];
                } else {
                    int32_t lo = -(1 << (bits - 1)), hi = (1 << (bits - 1)) - 1;
                    int32_t s = (int32_t)in[c];
                    v[c] = (uint32_t)(s < lo ? lo : s > hi ? hi : s);
                }
            }
        }
        t[c] = u2f(v[c]);
    }
    gm_format_pack_rgba(f, t, texel);
}

float gm_format_unpack_depth(gm_format f, const void *texel)
{
    const uint8_t *p = texel;
    switch (f) {
    case GM_FMT_D16: return unorm_to_float(rd16(p), 16);
    case GM_FMT_D24X8: case GM_FMT_D24S8:
        return (float)((double)(rd32(p) & 0xffffffu) / 16777215.0);
    case GM_FMT_D32F: case GM_FMT_D32F_S8: return u2f(rd32(p));
    default: return 0.0f;
    }
}

uint32_t gm_format_depth24(float z)
{
    /* llvmpipe (lp_build_clamped_float_to_unsigned_norm, 24 bits = float mantissa + 1):
     * a float multiply by 2^24 - 1, then rounded to the nearest integer */
    if (!(z > 0.0f)) z = 0.0f;
    if (z > 1.0f) z = 1.0f;
    return (uint32_t)rintf(z * 16777215.0f) & 0xffffffu;
}

void gm_format_pack_depth(gm_format f, float z, void *texel)
{
    uint8_t *p = texel;
    switch (f) {
    case GM_FMT_D16:
        wr16(p, unorm_from_float(z, 16));
        break;
    case GM_FMT_D24X8: case GM_FMT_D24S8: {
        wr32(p, (rd32(p) & 0xff000000u) | gm_format_depth24(z));
        break;
    }
    case GM_FMT_D32F: case GM_FMT_D32F_S8:
        wr32(p, f2u(z));
        break;
    default:
        break;
    }
}

uint8_t gm_format_unpack_stencil(gm_format f, const void *texel)
{
    const uint8_t *p = texel;
    switch (f) {
    case GM_FMT_D24S8: return p[3];
    case GM_FMT_D32F_S8: return p[4];
    case GM_FMT_S8: return p[0];
    default: return 0;
    }
}

void gm_format_pack_stencil(gm_format f, uint8_t s, void *texel)
{
    uint8_t *p = texel;
    switch (f) {
    case GM_FMT_D24S8: p[3] = s; break;
    case GM_FMT_D32F_S8: p[4] = s; break;
    case GM_FMT_S8: p[0] = s; break;
    default: break;
    }
}

int gm_surface_alloc(gm_surface *s, gm_format f, int w, int h, int depth, int samples)
{
    const gm_format_info *fi = gm_format_get(f);
    memset(s, 0, sizeof(*s));
    if (f == GM_FMT_NONE || w <= 0 || h <= 0 || depth <= 0 || samples <= 0 ||
        w > 16384 || h > 16384 || depth > 16384 || samples > 32)
        return -1;
    int bw = w, bh = h;
    if (fi->block) { bw = (w + 3) / 4; bh = (h + 3) / 4; }
    s->format = f;
    s->width = w; s->height = h; s->depth = depth; s->samples = samples;
    s->row_stride = (size_t)bw * fi->bytes * (size_t)samples;
    s->layer_stride = s->row_stride * (size_t)bh;
    if ((uint64_t)s->layer_stride * (uint64_t)depth > GM_SURFACE_MAX_BYTES)
        return -1;
    s->data = calloc((size_t)depth, s->layer_stride);
    return s->data ? 0 : -1;
}

void gm_surface_free(gm_surface *s)
{
    free(s->data);
    s->data = NULL;
}
