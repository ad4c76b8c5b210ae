/* The client format and type that read back (glGetTexImage, glReadPixels) and upload again every
 * bit of an internal format (statemodel.h, sm_exact_transfer): one table for the shim's snapshot
 * of texture images and the pixel history's images of earlier passes read from the driver. */
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

bool sm_exact_transfer(uint32_t ifmt, uint32_t *format, uint32_t *type, unsigned *bpp)
{
    static const struct { uint32_t ifmt, format, type; unsigned bpp; } t[] = {
        { GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4 }, { GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE, 4 },
        { GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 4 }, { GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, 3 },
        { GL_RGB, GL_RGB, GL_UNSIGNED_BYTE, 3 }, { GL_SRGB8, GL_RGB, GL_UNSIGNED_BYTE, 3 },
        { GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2 }, { GL_RG, GL_RG, GL_UNSIGNED_BYTE, 2 },
        { GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1 }, { GL_RED, GL_RED, GL_UNSIGNED_BYTE, 1 },
        { GL_LUMINANCE, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 }, { GL_LUMINANCE8, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 },
        { GL_ALPHA, GL_ALPHA, GL_UNSIGNED_BYTE, 1 }, { GL_ALPHA8, GL_ALPHA, GL_UNSIGNED_BYTE, 1 },
        { GL_LUMINANCE_ALPHA, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
        { GL_LUMINANCE8_ALPHA8, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
        { GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4 },
        { GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8 },
        { GL_RGBA16F, GL_RGBA, GL_FLOAT, 16 }, { GL_RGBA32F, GL_RGBA, GL_FLOAT, 16 },
        { GL_RGB16F, GL_RGB, GL_FLOAT, 12 }, { GL_RGB32F, GL_RGB, GL_FLOAT, 12 },
        { GL_R11F_G11F_B10F, GL_RGB, GL_FLOAT, 12 }, { GL_RG16F, GL_RG, GL_FLOAT, 8 },
        { GL_RG32F, GL_RG, GL_FLOAT, 8 }, { GL_R16F, GL_RED, GL_FLOAT, 4 }, { GL_R32F, GL_RED, GL_FLOAT, 4 },
        { GL_R8I, GL_RED_INTEGER, GL_INT, 4 }, { GL_R16I, GL_RED_INTEGER, GL_INT, 4 },
        { GL_R32I, GL_RED_INTEGER, GL_INT, 4 }, { GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4 },
        { GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4 }, { GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4 },
        { GL_RG8I, GL_RG_INTEGER, GL_INT, 8 }, { GL_RG16I, GL_RG_INTEGER, GL_INT, 8 },
        { GL_RG32I, GL_RG_INTEGER, GL_INT, 8 }, { GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 8 },
        { GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 8 }, { GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 8 },
        { GL_RGBA8I, GL_RGBA_INTEGER, GL_INT, 16 }, { GL_RGBA16I, GL_RGBA_INTEGER, GL_INT, 16 },
        { GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, 16 }, { GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16 },
        { GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16 }, { GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16 },
        { GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 2 },
        { GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 4 },
        { GL_DEPTH_COMPONENT32, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 4 },
        { GL_DEPTH_COMPONENT, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 4 },
        { GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 4 },
        { GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4 },
        { GL_DEPTH_STENCIL, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4 },
        { GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, 8 },
        /* GL 1.0's component counts and the sized legacy formats old programs still ask for
         * (Chromium B.S.U. uses 3 and 4, Armagetron GL_RGB5): at most 8 bits per component read
         * back as bytes, more as shorts; either uploads again to the same values. */
        { 1, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 }, { 2, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
        { 3, GL_RGB, GL_UNSIGNED_BYTE, 3 }, { 4, GL_RGBA, GL_UNSIGNED_BYTE, 4 },
        { GL_R3_G3_B2, GL_RGB, GL_UNSIGNED_BYTE, 3 }, { GL_RGB4, GL_RGB, GL_UNSIGNED_BYTE, 3 },
        { GL_RGB5, GL_RGB, GL_UNSIGNED_BYTE, 3 }, { GL_RGB565, GL_RGB, GL_UNSIGNED_BYTE, 3 },
        { GL_RGBA2, GL_RGBA, GL_UNSIGNED_BYTE, 4 }, { GL_RGBA4, GL_RGBA, GL_UNSIGNED_BYTE, 4 },
        { GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_BYTE, 4 },
        { GL_RGB10, GL_RGB, GL_UNSIGNED_SHORT, 6 }, { GL_RGB12, GL_RGB, GL_UNSIGNED_SHORT, 6 },
        { GL_RGB16, GL_RGB, GL_UNSIGNED_SHORT, 6 }, { GL_RGBA12, GL_RGBA, GL_UNSIGNED_SHORT, 8 },
        { GL_ALPHA4, GL_ALPHA, GL_UNSIGNED_BYTE, 1 }, { GL_ALPHA12, GL_ALPHA, GL_UNSIGNED_SHORT, 2 },
        { GL_ALPHA16, GL_ALPHA, GL_UNSIGNED_SHORT, 2 },
        { GL_LUMINANCE4, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 }, { GL_LUMINANCE12, GL_LUMINANCE, GL_UNSIGNED_SHORT, 2 },
        { GL_LUMINANCE16, GL_LUMINANCE, GL_UNSIGNED_SHORT, 2 },
        { GL_LUMINANCE4_ALPHA4, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
        { GL_LUMINANCE6_ALPHA2, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 2 },
        { GL_LUMINANCE12_ALPHA4, GL_LUMINANCE_ALPHA, GL_UNSIGNED_SHORT, 4 },
        { GL_LUMINANCE12_ALPHA12, GL_LUMINANCE_ALPHA, GL_UNSIGNED_SHORT, 4 },
        { GL_LUMINANCE16_ALPHA16, GL_LUMINANCE_ALPHA, GL_UNSIGNED_SHORT, 4 },
        { GL_INTENSITY, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 }, { GL_INTENSITY4, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 },
        { GL_INTENSITY8, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1 }, { GL_INTENSITY12, GL_LUMINANCE, GL_UNSIGNED_SHORT, 2 },
        { GL_INTENSITY16, GL_LUMINANCE, GL_UNSIGNED_SHORT, 2 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].ifmt == ifmt) {
            *format = t[i].format;
            *type = t[i].type;
            *bpp = t[i].bpp;
            return true;
        }
    return false;
}
