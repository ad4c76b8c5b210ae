/* Program building, see gl_program.h. */
#include "gl_program.h"

#include <stdio.h>
#include <stdlib.h>

#include "sample_util.h"
#include "shader_source.h"

static void print_log(GLuint object, bool is_program)
{
    GLint len = 0;
    if (is_program)
        glGetProgramiv(object, GL_INFO_LOG_LENGTH, &len);
    else
        glGetShaderiv(object, GL_INFO_LOG_LENGTH, &len);
    if (len <= 1)
        return;
    char *log = malloc((size_t)len);
    if (!log)
        return;
    if (is_program)
        glGetProgramInfoLog(object, len, NULL, log);
    else
        glGetShaderInfoLog(object, len, NULL, log);
    fprintf(stderr, "%s\n", log);
    free(log);
}

static GLuint compile(const SampleArgs *args, const GlProgramDesc *d, GLenum stage,
                      const char *file)
{
    char err[4200];
    char *body = shader_source_load(args->shader_dir, d->sample, file, err, sizeof err);
    if (!body)
        sample_fatal("%s: %s (use --shader-dir to point at samples/shaders)", d->sample, err);

    GLuint sh = glCreateShader(stage);
    if (d->single_string) {
        char *joined = shader_source_concat(d->prefix, body);
        if (!joined)
            sample_fatal("%s: out of memory", d->sample);
        const GLchar *src = joined;
        glShaderSource(sh, 1, &src, NULL);
        free(joined);
    } else {
        const GLchar *srcs[2] = {d->prefix, body};
        glShaderSource(sh, 2, srcs, NULL);
    }
    free(body);
    glCompileShader(sh);

    GLint ok = GL_FALSE;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "%s: compiling %s/%s/%s failed (driver line numbers include %d prefix "
                        "lines):\n",
                d->sample, args->shader_dir, d->sample, file,
                shader_source_prefix_lines(d->prefix));
        print_log(sh, false);
        exit(1);
    }
    return sh;
}

GLuint gl_program_build(const SampleArgs *args, const GlProgramDesc *d)
{
    GLuint vs = compile(args, d, GL_VERTEX_SHADER, d->vert_file);
    GLuint fs = compile(args, d, GL_FRAGMENT_SHADER, d->frag_file);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    if (d->attribs)
        for (GLuint i = 0; d->attribs[i]; ++i)
            glBindAttribLocation(prog, i, d->attribs[i]);
    glLinkProgram(prog);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "%s: linking %s + %s failed:\n", d->sample, d->vert_file, d->frag_file);
        print_log(prog, true);
        exit(1);
    }
    /* Shaders stay alive while attached; deleting now frees them with the program. */
    glDetachShader(prog, vs);
    glDetachShader(prog, fs);
    glDeleteShader(vs);
    glDeleteShader(fs);
    return prog;
}

GLint gl_program_uniform(GLuint program, const char *name)
{
    GLint loc = glGetUniformLocation(program, name);
    if (loc < 0)
        sample_fatal("uniform '%s' not found in program %u", name, program);
    return loc;
}
