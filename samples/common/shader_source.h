/* Loading shader text from files next to the samples.
 *
 * The files under samples/shaders/<sample>/ start WITHOUT a #version line: like real programs
 * (glmark2, engines), the sample prepends a prefix in code (`#version ...` plus `#define`s) before
 * glShaderSource. Line N of the file is therefore line N + (prefix lines) of the GL source; the
 * debugger finds that offset itself. Pure C, no GL. */
#ifndef SAMPLES_SHADER_SOURCE_H
#define SAMPLES_SHADER_SOURCE_H

#include <stddef.h>

/* Reads the whole file at path into a NUL-terminated malloc'd buffer; NULL on failure with the
 * reason written to err. Rejects files containing NUL bytes. */
char *shader_source_read_file(const char *path, char *err, size_t errlen);

/* Reads <shader_dir>/<sample>/<file>. */
char *shader_source_load(const char *shader_dir, const char *sample, const char *file, char *err,
                         size_t errlen);

/* Returns malloc'd prefix + body (the glmark2 way: one string), NULL on allocation failure. */
char *shader_source_concat(const char *prefix, const char *body);

/* Number of lines the prefix adds before line 1 of the file (count of '\n' in prefix). */
int shader_source_prefix_lines(const char *prefix);

#endif
