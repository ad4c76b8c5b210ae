/* spirv_sample: a SPIR-V program (GL_ARB_gl_spirv: glShaderBinary + glSpecializeShader) made at
 * start-up and drawn every frame, so that a capture from frame 1 on finds it already linked: the
 * snapshot must carry its modules, entry points and specialization constants (the state model's
 * format version 7) for the replay to restore it on the driver and for the GPU model to run it.
 * The modules are spirv_sample.vert/.frag compiled by glslangValidator -G at build time; the
 * fragment shader's specialization constant 3 (gain) is set to 0.75. Uniforms are set by
 * location (a SPIR-V program has no names). EGL surfaceless pbuffer, GL 4.5 core.
 * Usage: spirv_sample [--frames N] [--size WxH] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../../tests/support/gl_test_util.h"
#include "spirv_sample_vs.h"
#include "spirv_sample_fs.h"

static GLuint spirv_shader(GLenum type, const uint32_t *words, size_t size, GLuint n_spec,
                           const GLuint *ids, const GLuint *values)
{
    GLuint s = glCreateShader(type);
    glShaderBinary(1, &s, GL_SHADER_BINARY_FORMAT_SPIR_V, words, (GLsizei)size);
    glSpecializeShader(s, "main", n_spec, ids, values);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "spirv_sample: specialization failed: %s\n", log);
        exit(1);
    }
    return s;
}

int main(int argc, char **argv)
{
    int frames = 4, w = 96, h = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
                   sscanf(argv[++i], "%dx%d", &w, &h) == 2 && w > 0 && h > 0) {
        } else {
            fprintf(stderr, "usage: spirv_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "spirv_sample", w, h, 0, 4, 5, 1) != 0)
        return 1;
    if (!epoxy_has_gl_extension("GL_ARB_gl_spirv")) {
        fprintf(stderr, "spirv_sample: GL_ARB_gl_spirv not supported\n");
        return 77;
    }
    const GLuint ids[1] = { 3 };
    const float gain = 0.75f;
    GLuint values[1];
    memcpy(values, &gain, 4);
    GLuint vs = spirv_shader(GL_VERTEX_SHADER, spirv_sample_vs, sizeof spirv_sample_vs, 0, NULL, NULL);
    GLuint fs = spirv_shader(GL_FRAGMENT_SHADER, spirv_sample_fs, sizeof spirv_sample_fs, 1, ids, values);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "spirv_sample: link failed\n");
        return 1;
    }
    glDeleteShader(vs);   /* the program keeps them: the snapshot restores from its link copy */
    const float tri[6][2] = { { -0.8f, -0.7f }, { 0.7f, -0.6f }, { 0.0f, 0.8f },
                              { -0.3f, -0.2f }, { 0.3f, -0.2f }, { 0.0f, 0.3f } };
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glViewport(0, 0, w, h);
    glUseProgram(prog);
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.1f, 0.2f + 0.05f * (float)f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform1f(0, 0.3f * (float)f);                          /* angle */
        glUniform4f(1, 1.0f, 0.9f - 0.1f * (float)f, 0.8f, 1.0f);  /* tint */
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glUniform1f(0, -0.5f * (float)f);
        glUniform4f(1, 0.5f, 1.0f, 0.6f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 3, 3);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glt_egl_close(&egl);
    printf("spirv_sample: %d frames\n", frames);
    return 0;
}
