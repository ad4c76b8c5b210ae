/* Building GL programs from the shader files of a sample (libepoxy for GL entry points). */
#ifndef SAMPLES_GL_PROGRAM_H
#define SAMPLES_GL_PROGRAM_H

#include <epoxy/gl.h>
#include <stdbool.h>

#include "sample_args.h"

typedef struct GlProgramDesc {
    const char *sample;          /* folder under the shader dir, e.g. "lit_mesh" */
    const char *vert_file;       /* e.g. "mesh.vert" */
    const char *frag_file;       /* e.g. "mesh.frag" */
    const char *prefix;          /* "#version ...\n#define ...\n", prepended to both files */
    const char *const *attribs;  /* optional NULL-terminated names bound to locations 0, 1, ...
                                    with glBindAttribLocation before linking (GLSL 1.10 style) */
    bool single_string;          /* true: glShaderSource with prefix+file joined in one string
                                    (glmark2 style); false: two strings {prefix, file} */
} GlProgramDesc;

/* Loads, compiles and links; on any failure prints the file name and the driver's info log to
 * stderr and exits with status 1 (a sample cannot do anything useful without its shaders). */
GLuint gl_program_build(const SampleArgs *args, const GlProgramDesc *desc);

/* glGetUniformLocation that exits with a clear message when the uniform is missing
 * (optimized away or misspelled), so shader edits cannot silently break a sample. */
GLint gl_program_uniform(GLuint program, const char *name);

#endif
