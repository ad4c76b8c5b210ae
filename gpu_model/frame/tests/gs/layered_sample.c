/* layered_sample: layered rendering and viewport arrays from a geometry shader, for the GPU
 * model's e2e test (`glreplay model --compare` must agree with llvmpipe draw by draw). EGL
 * surfaceless pbuffer, GL 4.3 core, no X server. Each frame:
 *  1. a 2D array texture of LAYERS layers attached with glFramebufferTexture (layered) is
 *     cleared (every layer) and drawn to through a GS with invocations = LAYERS that writes
 *     gl_Layer = gl_InvocationID and gl_ViewportIndex = gl_PrimitiveIDIn % 2 (viewport 1 is
 *     a smaller rectangle with its own scissor), with blending on;
 *  2. the window shows the layers side by side (texelFetch of layer x / SIZE), so comparing
 *     the window compares every layer.
 * Usage: layered_sample [--frames N] [--size WxH] (the window is LAYERS*SIZE x SIZE whatever
 * --size says: accepted for the check script) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../../tests/support/gl_test_util.h"

#define LAYERS 3
#define SIZE 32

static const char *layer_vs =
    "#version 330 core\n"
    "layout(location = 0) in vec4 pos;\n"
    "layout(location = 1) in vec4 col;\n"
    "out vec4 vcol;\n"
    "void main() { gl_Position = pos; vcol = col; }\n";
static const char *layer_gs =
    "#version 410 core\n"
    "layout(triangles, invocations = 3) in;\n"
    "layout(triangle_strip, max_vertices = 3) out;\n"
    "in vec4 vcol[];\n"
    "out vec4 fcol;\n"
    "void main() {\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Layer = gl_InvocationID;\n"
    "    gl_ViewportIndex = gl_PrimitiveIDIn % 2;\n"
    "    float s = 1.0 - 0.3 * float(gl_InvocationID);\n"
    "    gl_Position = gl_in[i].gl_Position * vec4(s, s, 1.0, 1.0);\n"
    "    fcol = vec4(vcol[i].rgb * s, 0.7);\n"
    "    EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";
static const char *layer_fs =
    "#version 330 core\n"
    "in vec4 fcol; out vec4 o;\n"
    "void main() { o = fcol; }\n";

static const char *show_vs =
    "#version 330 core\n"
    "void main() {\n"
    "  vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n"
    "  gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";
static const char *show_fs =
    "#version 330 core\n"
    "uniform sampler2DArray layers;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  o = texelFetch(layers, ivec3(p.x % 32, p.y % 32, p.x / 32), 0);\n"
    "}\n";

static GLuint link(GLuint vs, GLuint gs, GLuint fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    if (gs)
        glAttachShader(p, gs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "layered_sample: link failed: %s\n", log);
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    int frames = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            i++;   /* fixed window size */
        } else {
            fprintf(stderr, "usage: layered_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "layered_sample", LAYERS * SIZE, SIZE, 24, 4, 3, 1) != 0)
        return 1;
    GLuint layered = link(glt_shader("layered_sample", GL_VERTEX_SHADER, layer_vs),
                          glt_shader("layered_sample", GL_GEOMETRY_SHADER, layer_gs),
                          glt_shader("layered_sample", GL_FRAGMENT_SHADER, layer_fs));
    GLuint show = link(glt_shader("layered_sample", GL_VERTEX_SHADER, show_vs), 0,
                       glt_shader("layered_sample", GL_FRAGMENT_SHADER, show_fs));
    GLuint tex, fbo, vao, vbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, SIZE, SIZE, LAYERS, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "layered_sample: layered framebuffer incomplete\n");
        return 1;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 8 * sizeof(float), (void *)(4 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glUseProgram(show);
    glUniform1i(glGetUniformLocation(show, "layers"), 0);
    for (int f = 0; f < frames; f++) {
        float t = 0.1f * (float)f;
        /* triangle 0 -> viewport 0 (whole layer), triangle 1 -> viewport 1 (scissored) */
        const float v[6][8] = {
            { -0.9f + t, -0.8f, 0, 1, 1, 0.2f, 0.1f, 1 },
            { 0.8f, -0.6f + t, 0, 1, 0.1f, 1, 0.2f, 1 },
            { -0.2f, 0.9f, 0, 1, 0.2f, 0.3f, 1, 1 },
            { -1.0f, -1.0f, 0, 1, 1, 1, 0, 1 },
            { 1.0f, -0.7f + t, 0, 1, 0, 1, 1, 1 },
            { 0.1f - t, 1.0f, 0, 1, 1, 0, 1, 1 },
        };
        glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_STREAM_DRAW);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewportIndexedf(0, 0, 0, SIZE, SIZE);
        glViewportIndexedf(1, 6, 4, 20, 24);
        glScissorIndexed(1, 8, 6, 14, 16);
        glEnablei(GL_SCISSOR_TEST, 1);
        glClearColor(0.1f, 0.1f, 0.15f + 0.2f * t, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);   /* every layer (scissor 0 is off) */
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUseProgram(layered);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDisable(GL_BLEND);
        glDisablei(GL_SCISSOR_TEST, 1);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewportIndexedf(0, 0, 0, LAYERS * SIZE, SIZE);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(show);
        glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glt_egl_close(&egl);
    return 0;
}
