/* The base format class of a texture internal format, as the fixed-function texture environment
 * combines it (GL 2.1 table 3.22): luminance and red/green count as RGB, luminance-alpha as RGBA;
 * depth and depth-stencil formats are DEPTH (the environment takes their GL_DEPTH_TEXTURE_MODE). Generated from the `format_class` lines of gl_annotations.txt
 * (gen_format_classes.py); the values are gl.xml's. */
#ifndef GLR_FORMAT_CLASS_H
#define GLR_FORMAT_CLASS_H

#include <stdint.h>

enum glr_format_class {
    GLR_FORMAT_CLASS_RGB,
    GLR_FORMAT_CLASS_RGBA,
    GLR_FORMAT_CLASS_ALPHA,
    GLR_FORMAT_CLASS_INTENSITY,
    GLR_FORMAT_CLASS_DEPTH,
};

/* The class of an internal format value; RGB for a value no annotation line classes. */
enum glr_format_class glr_format_class(uint32_t internal_format);

#endif
