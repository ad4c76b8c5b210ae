/* Every sample of a multisample image, read and written exactly (RESOURCE_BLOB kinds 5 and 6,
 * docs/GLCAP_FORMAT.md). Shared by the shim's snapshot (reads, on the program's context) and the
 * restore (writes, on the replay's context), so both sides use one layout and one method.
 *
 * Layout: planes of width x height pixels, rows bottom-up, tightly packed as the format's exact
 * client transfer (glr_ms_transfer); plane (layer * samples + sample). Read: the image (a layer)
 * is blitted into a temporary multisample texture of the same format and sample count (samples
 * are copied as they are), then one pass per sample fetches sample s with texelFetch into a layer
 * of a single-sample 2D array texture of the same format (colour as float/int/uint, depth through
 * gl_FragDepth, stencil one pass per bit through stencil texturing), read with glGetTexImage.
 * Write: the planes are uploaded into such an array texture and drawn into the image with one pass
 * per sample selected by glSampleMaski (depth via gl_FragDepth, stencil one pass per bit).
 *
 * GL is reached through a table of function pointers that each side fills from its own resolver
 * (the shim's real driver functions, the replay's dispatcher), so this file needs neither. Every
 * binding, switch, mask and pixel-store value touched is saved and put back. Desktop GL 3.2+ only. */
#ifndef GLR_REPLAY_MS_SAMPLES_H
#define GLR_REPLAY_MS_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(return type, name, parameter list): plain C types (GLenum/GLuint/GLbitfield are unsigned,
 * GLint/GLsizei int, GLboolean unsigned char, GLchar char), so no GL header is needed here. */
#define GLR_MS_GL_FUNCS(X)                                                                          \
    X(void, glGetIntegerv, (unsigned, int *))                                                       \
    X(void, glGetIntegeri_v, (unsigned, unsigned, int *))                                           \
    X(void, glGetBooleani_v, (unsigned, unsigned, unsigned char *))                                 \
    X(void, glGetBooleanv, (unsigned, unsigned char *))                                             \
    X(void, glGetFloati_v, (unsigned, unsigned, float *))                                           \
    X(void, glGetDoublev, (unsigned, double *))                                                     \
    X(void, glGetDoublei_v, (unsigned, unsigned, double *))                                         \
    X(unsigned char, glIsEnabled, (unsigned))                                                       \
    X(unsigned char, glIsEnabledi, (unsigned, unsigned))                                            \
    X(void, glEnable, (unsigned))                                                                   \
    X(void, glDisable, (unsigned))                                                                  \
    X(void, glEnablei, (unsigned, unsigned))                                                        \
    X(void, glDisablei, (unsigned, unsigned))                                                       \
    X(void, glActiveTexture, (unsigned))                                                            \
    X(void, glBindTexture, (unsigned, unsigned))                                                    \
    X(void, glBindSampler, (unsigned, unsigned))                                                    \
    X(void, glGenTextures, (int, unsigned *))                                                       \
    X(void, glDeleteTextures, (int, const unsigned *))                                              \
    X(void, glTexImage3D, (unsigned, int, int, int, int, int, int, unsigned, unsigned, const void *)) \
    X(void, glTexImage2DMultisample, (unsigned, int, unsigned, int, int, unsigned char))            \
    X(void, glTexParameteri, (unsigned, unsigned, int))                                             \
    X(void, glGetTexLevelParameteriv, (unsigned, int, unsigned, int *))                             \
    X(void, glGetTexImage, (unsigned, int, unsigned, unsigned, void *))                             \
    X(void, glPixelStorei, (unsigned, int))                                                         \
    X(void, glBindBuffer, (unsigned, unsigned))                                                     \
    X(void, glGenFramebuffers, (int, unsigned *))                                                   \
    X(void, glDeleteFramebuffers, (int, const unsigned *))                                          \
    X(void, glBindFramebuffer, (unsigned, unsigned))                                                \
    X(void, glFramebufferTexture2D, (unsigned, unsigned, unsigned, unsigned, int))                  \
    X(void, glFramebufferTextureLayer, (unsigned, unsigned, unsigned, int, int))                    \
    X(void, glFramebufferRenderbuffer, (unsigned, unsigned, unsigned, unsigned))                    \
    X(unsigned, glCheckFramebufferStatus, (unsigned))                                               \
    X(void, glBlitFramebuffer, (int, int, int, int, int, int, int, int, unsigned, unsigned))        \
    X(void, glDrawBuffer, (unsigned))                                                               \
    X(void, glReadBuffer, (unsigned))                                                               \
    X(void, glClearBufferiv, (unsigned, int, const int *))                                          \
    X(void, glClearBufferuiv, (unsigned, int, const unsigned *))                                    \
    X(unsigned, glCreateShader, (unsigned))                                                         \
    X(void, glShaderSource, (unsigned, int, const char *const *, const int *))                      \
    X(void, glCompileShader, (unsigned))                                                            \
    X(void, glGetShaderiv, (unsigned, unsigned, int *))                                             \
    X(void, glGetShaderInfoLog, (unsigned, int, int *, char *))                                     \
    X(void, glDeleteShader, (unsigned))                                                             \
    X(unsigned, glCreateProgram, (void))                                                            \
    X(void, glAttachShader, (unsigned, unsigned))                                                   \
    X(void, glLinkProgram, (unsigned))                                                              \
    X(void, glGetProgramiv, (unsigned, unsigned, int *))                                            \
    X(void, glDeleteProgram, (unsigned))                                                            \
    X(void, glUseProgram, (unsigned))                                                               \
    X(int, glGetUniformLocation, (unsigned, const char *))                                          \
    X(void, glUniform1i, (int, int))                                                                \
    X(void, glGenVertexArrays, (int, unsigned *))                                                   \
    X(void, glBindVertexArray, (unsigned))                                                          \
    X(void, glDeleteVertexArrays, (int, const unsigned *))                                          \
    X(void, glDrawArrays, (unsigned, int, int))                                                     \
    X(void, glViewport, (int, int, int, int))                                                       \
    X(void, glViewportIndexedf, (unsigned, float, float, float, float))                             \
    X(void, glDepthRange, (double, double))                                                         \
    X(void, glDepthRangeIndexed, (unsigned, double, double))                                        \
    X(void, glColorMaski, (unsigned, unsigned char, unsigned char, unsigned char, unsigned char))   \
    X(void, glDepthMask, (unsigned char))                                                           \
    X(void, glDepthFunc, (unsigned))                                                                \
    X(void, glStencilMaskSeparate, (unsigned, unsigned))                                            \
    X(void, glStencilFuncSeparate, (unsigned, unsigned, int, unsigned))                             \
    X(void, glStencilOpSeparate, (unsigned, unsigned, unsigned, unsigned))                          \
    X(void, glSampleMaski, (unsigned, unsigned))                                                    \
    X(void, glPolygonMode, (unsigned, unsigned))                                                    \
    X(void, glClampColor, (unsigned, unsigned))

#define GLR_MS_MEMBER(ret, name, params) ret(*name) params;
struct glr_ms_gl {
    GLR_MS_GL_FUNCS(GLR_MS_MEMBER)
};
#undef GLR_MS_MEMBER

/* A multisample image: a renderbuffer (target GL_RENDERBUFFER) or a GL_TEXTURE_2D_MULTISAMPLE(_ARRAY)
 * texture (every layer), by its name on the current context. */
struct glr_ms_image {
    unsigned target, name, internal_format;
    int width, height, layers, samples;
};

/* The client format/type that carries every bit of an internal format (and its bytes per pixel);
 * false for formats this does not handle (then the contents are not kept). */
bool glr_ms_transfer(unsigned internal_format, unsigned *format, unsigned *type, unsigned *bpp);
/* Bytes of an image's contents in the layout above (0 for an unhandled format). */
uint64_t glr_ms_size(const struct glr_ms_image *img);

/* Reads every sample of img into out (glr_ms_size bytes). 0, or -1 with a one-line reason in why.
 * *stencil_kept is false when the format has stencil the context cannot read (no GL 4.3 stencil
 * texturing): those bits are then 0 in out. GL errors the calls raise are left to the caller. */
int glr_ms_read(const struct glr_ms_gl *gl, const struct glr_ms_image *img, void *out, bool *stencil_kept,
                char *why, size_t why_size);
/* Writes data (glr_ms_size bytes, the layout above) into every sample of img. 0 or -1 (why). */
int glr_ms_write(const struct glr_ms_gl *gl, const struct glr_ms_image *img, const void *data, char *why,
                 size_t why_size);

#endif
