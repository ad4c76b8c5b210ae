/* Unit test: glr_format_class (generated from gl_annotations.txt's format_class lines) gives the
 * fixed-function texture environment's base format class (GL 2.1 table 3.22) of internal formats
 * of every kind: base, sized, vendor, compressed, integer, depth. */
#include <stdio.h>
#include "registry/glr_format_class.h"
#include "registry/glr_gl_enums.h"
#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

int main(void)
{
    static const struct { uint32_t format; enum glr_format_class cls; const char *name; } cases[] = {
        { GL_ALPHA, GLR_FORMAT_CLASS_ALPHA, "GL_ALPHA" },
        { GL_ALPHA8, GLR_FORMAT_CLASS_ALPHA, "GL_ALPHA8" },
        { GL_ALPHA16F_ARB, GLR_FORMAT_CLASS_ALPHA, "GL_ALPHA16F_ARB" },
        { GL_INTENSITY, GLR_FORMAT_CLASS_INTENSITY, "GL_INTENSITY" },
        { GL_INTENSITY16, GLR_FORMAT_CLASS_INTENSITY, "GL_INTENSITY16" },
        { GL_LUMINANCE_ALPHA, GLR_FORMAT_CLASS_RGBA, "GL_LUMINANCE_ALPHA" },
        { GL_LUMINANCE8_ALPHA8, GLR_FORMAT_CLASS_RGBA, "GL_LUMINANCE8_ALPHA8" },
        { GL_RGBA, GLR_FORMAT_CLASS_RGBA, "GL_RGBA" },
        { GL_RGBA8, GLR_FORMAT_CLASS_RGBA, "GL_RGBA8" },
        { GL_RGB5_A1, GLR_FORMAT_CLASS_RGBA, "GL_RGB5_A1" },
        { GL_RGB10_A2, GLR_FORMAT_CLASS_RGBA, "GL_RGB10_A2" },
        { GL_BGRA, GLR_FORMAT_CLASS_RGBA, "GL_BGRA" },
        { GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, GLR_FORMAT_CLASS_RGBA, "GL_COMPRESSED_RGBA_S3TC_DXT3_EXT" },
        { GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, GLR_FORMAT_CLASS_RGBA, "GL_COMPRESSED_RGBA_S3TC_DXT5_EXT" },
        { GL_RGBA32UI, GLR_FORMAT_CLASS_RGBA, "GL_RGBA32UI" },
        { GL_RGB, GLR_FORMAT_CLASS_RGB, "GL_RGB" },
        { GL_RGB8, GLR_FORMAT_CLASS_RGB, "GL_RGB8" },
        { GL_LUMINANCE, GLR_FORMAT_CLASS_RGB, "GL_LUMINANCE" },
        { GL_LUMINANCE16, GLR_FORMAT_CLASS_RGB, "GL_LUMINANCE16" },
        { GL_RED, GLR_FORMAT_CLASS_RGB, "GL_RED" },
        { GL_RG8, GLR_FORMAT_CLASS_RGB, "GL_RG8" },
        { GL_DEPTH_COMPONENT24, GLR_FORMAT_CLASS_DEPTH, "GL_DEPTH_COMPONENT24" },
        { GL_DEPTH_COMPONENT, GLR_FORMAT_CLASS_DEPTH, "GL_DEPTH_COMPONENT" },
        { GL_DEPTH_COMPONENT32F, GLR_FORMAT_CLASS_DEPTH, "GL_DEPTH_COMPONENT32F" },
        { GL_DEPTH24_STENCIL8, GLR_FORMAT_CLASS_DEPTH, "GL_DEPTH24_STENCIL8" },
        { GL_DEPTH32F_STENCIL8, GLR_FORMAT_CLASS_DEPTH, "GL_DEPTH32F_STENCIL8" },
        { GL_STENCIL_INDEX8, GLR_FORMAT_CLASS_RGB, "GL_STENCIL_INDEX8" },
        { GL_COMPRESSED_RGB_S3TC_DXT1_EXT, GLR_FORMAT_CLASS_RGB, "GL_COMPRESSED_RGB_S3TC_DXT1_EXT" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK(glr_format_class(cases[i].format) == cases[i].cls, "%s: class %d, want %d", cases[i].name,
              (int)glr_format_class(cases[i].format), (int)cases[i].cls);
    CHECK(glr_format_class(0xFFFFFFF0u) == GLR_FORMAT_CLASS_RGB, "an unlisted value is RGB");
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("format classes: OK\n");
    return failures ? 1 : 0;
}
