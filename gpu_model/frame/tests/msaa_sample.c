/* msaa_sample: 4x multisampled rendering resolved to the window, for the GPU model's e2e test
 * (`glreplay model --compare` must agree with llvmpipe). EGL surfaceless with a pbuffer, GL 3.3
 * core, no X server. Each frame:
 *  1. a 4x FBO (RGBA8 + DEPTH24_STENCIL8 multisample renderbuffers) is cleared;
 *  2. a fan of thin, rotating, depth-tested triangles (many partially covered pixels), then
 *     a translucent triangle with alpha-to-coverage, then one limited by glSampleMaski;
 *  3. the fan is drawn again into a 4x FBO whose colour is a GL_TEXTURE_2D_MULTISAMPLE;
 *  3b. half the fan is redrawn (no depth test) with a `centroid` varying, gl_SampleMaskIn
 *     and gl_SampleMask, the other half with gl_SampleID and a `sample` varying (per-sample shading) and a
 *     sample mask dropping sample 2 (GLSL 4.00: Mesa accepts it in the 3.3 context);
 *  4. glBlitFramebuffer resolves the colour of 1-2 into the window, a second blit copies a
 *     corner scaled (nearest) on top, and a scissored full-screen pass shows one sample of
 *     the texture of 3 (texelFetch on a sampler2DMS); the frame is swapped.
 * Usage: msaa_sample [--frames N] [--size WxH] */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../tests/support/gl_test_util.h"

#define SPOKES 24

static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec4 pos;\n"
    "layout(location = 1) in vec4 col;\n"
    "out vec4 c;\n"
    "void main() { gl_Position = pos; c = col; }\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec4 c; out vec4 o;\n"
    "void main() { o = c; }\n";

/* Centroid interpolation; coverage-dependent colour; sample 0 dropped on partial pixels. */
static const char *centroid_fs =
    "#version 400 core\n"
    "centroid in vec4 c; out vec4 o;\n"
    "void main() {\n"
    "  int m = gl_SampleMaskIn[0];\n"
    "  o = vec4(c.rgb * ((m & 15) == 15 ? 1.0 : 0.5), 1.0);\n"
    "  gl_SampleMask[0] = (m & 15) == 15 ? m : (m & 14);\n"
    "}\n";
/* Per-sample shading through gl_SampleID and a `sample` varying; gl_SampleMaskIn holds the
 * one sample shaded. The plain and `centroid` inputs stay at the pixel centre / centroid in
 * those passes (llvmpipe moves only `sample` inputs when the shader forces per-sample shading). */
static const char *sample_vs =
    "#version 400 core\n"
    "layout(location = 0) in vec4 pos;\n"
    "layout(location = 1) in vec4 col;\n"
    "sample out vec4 c;\n"
    "out vec4 p;\n"
    "centroid out vec4 q;\n"
    "void main() { gl_Position = pos; c = col; p = col.gbra; q = col.brga; }\n";
static const char *sample_fs =
    "#version 400 core\n"
    "sample in vec4 c; in vec4 p; centroid in vec4 q; out vec4 o;\n"
    "void main() {\n"
    "  o = vec4(c.r, 0.5 * (p.g + q.b), float(gl_SampleID) / 3.0, float(gl_SampleMaskIn[0]) / 15.0);\n"
    "  gl_SampleMask[0] = gl_SampleID == 2 ? 0 : gl_SampleMaskIn[0];\n"
    "}\n";

static const char *fetch_vs =
    "#version 330 core\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0,"
    " 0.0, 1.0); }\n";
static const char *fetch_fs =
    "#version 330 core\n"
    "uniform sampler2DMS t; uniform int s; out vec4 o;\n"
    "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), s).bgra; }\n";

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    const char *src[2] = { vs, fs };
    GLenum type[2] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(type[i]);
        glShaderSource(s, 1, &src[i], NULL);
        glCompileShader(s);
        glAttachShader(p, s);
    }
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "msaa_sample: link failed: %s\n", log);
        exit(1);
    }
    return p;
}

typedef struct vtx { float pos[4]; float col[4]; } vtx;

/* Fan spokes (thin triangles) rotated by `a`, with depth varying around the fan, then the
 * alpha-to-coverage triangle and the sample-mask triangle. */
static int build(vtx *v, float a)
{
    int n = 0;
    for (int i = 0; i < SPOKES; i++) {
        float t0 = a + (float)i * 6.2831853f / SPOKES, t1 = t0 + 0.09f;
        float z = (float)((i * 7) % SPOKES) / SPOKES * 1.6f - 0.8f;
        float r = (float)(i % 3) * 0.25f;
        vtx c = { { 0.1f * cosf(a), 0.1f * sinf(a), -z, 1 }, { r, 0.8f, 0.2f, 1 } };
        vtx p0 = { { 0.95f * cosf(t0), 0.95f * sinf(t0), z, 1 }, { 1, r, 0.3f, 1 } };
        vtx p1 = { { 0.95f * cosf(t1), 0.95f * sinf(t1), z, 1 }, { 0.2f, 0.4f, 1, 1 } };
        v[n++] = c; v[n++] = p0; v[n++] = p1;
    }
    vtx a0 = { { -0.9f, -0.8f, -0.9f, 1 }, { 1, 1, 1, 0.2f } };
    vtx a1 = { { 0.7f, -0.6f, -0.9f, 1 }, { 1, 0.5f, 0, 0.6f } };
    vtx a2 = { { -0.2f, 0.9f, -0.9f, 1 }, { 0, 0.5f, 1, 0.95f } };
    v[n++] = a0; v[n++] = a1; v[n++] = a2;
    vtx m0 = { { 0.2f, -0.95f, -0.95f, 1 }, { 1, 0, 1, 1 } };
    vtx m1 = { { 0.95f, 0.1f, -0.95f, 1 }, { 1, 0, 1, 1 } };
    vtx m2 = { { 0.4f, 0.7f, -0.95f, 1 }, { 0, 1, 1, 1 } };
    v[n++] = m0; v[n++] = m1; v[n++] = m2;
    return n;
}

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "msaa_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: msaa_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "msaa_sample", width, height, 24, 3, 3, 1) != 0)
        return 1;
    GLuint rb[2], fbo;
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH24_STENCIL8, width, height);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "msaa_sample: multisample framebuffer incomplete\n");
        return 1;
    }
    GLuint tex, tfbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, width, height, GL_TRUE);
    glGenFramebuffers(1, &tfbo);
    glBindFramebuffer(GL_FRAMEBUFFER, tfbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "msaa_sample: multisample texture framebuffer incomplete\n");
        return 1;
    }
    GLuint fprog = program(fetch_vs, fetch_fs), evao;
    glGenVertexArrays(1, &evao);
    GLuint cprog = program(vs_src, centroid_fs), sprog = program(sample_vs, sample_fs);
    GLuint prog = program(vs_src, fs_src), vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)offsetof(vtx, col));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glUseProgram(prog);
    vtx v[3 * SPOKES + 6];
    for (int f = 0; f < frames; f++) {
        int nv = build(v, 0.17f * (float)f);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(vtx) * (size_t)nv), v, GL_STREAM_DRAW);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, width, height);
        glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
        glEnable(GL_DEPTH_TEST);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3 * SPOKES);
        glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
        glDrawArrays(GL_TRIANGLES, 3 * SPOKES, 3);
        glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
        glEnable(GL_SAMPLE_MASK);
        glSampleMaski(0, 0x6);
        glDrawArrays(GL_TRIANGLES, 3 * SPOKES + 3, 3);
        glDisable(GL_SAMPLE_MASK);
        glDisable(GL_DEPTH_TEST);
        glUseProgram(cprog);
        glDrawArrays(GL_TRIANGLES, 0, 3 * (SPOKES / 2));
        glUseProgram(sprog);
        glDrawArrays(GL_TRIANGLES, 3 * (SPOKES / 2), 3 * (SPOKES - SPOKES / 2));
        glUseProgram(prog);
        glBindFramebuffer(GL_FRAMEBUFFER, tfbo);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3 * SPOKES);
        /* resolve into the window, then a scaled copy of a corner (nearest) */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, width, height, 0, 0, width, height,
                          GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, width / 4, height / 4, width - width / 3, height - height / 3,
                          width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glUseProgram(fprog);
        glBindVertexArray(evao);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
        glUniform1i(glGetUniformLocation(fprog, "t"), 0);
        glUniform1i(glGetUniformLocation(fprog, "s"), f % 4);
        glEnable(GL_SCISSOR_TEST);
        glScissor(0, 0, width / 2, height / 2);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_SCISSOR_TEST);
        glUseProgram(prog);
        glBindVertexArray(vao);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glFinish();
    GLenum err = glGetError();
    glt_egl_close(&egl);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "msaa_sample: GL error 0x%04x\n", err);
        return 1;
    }
    printf("msaa_sample: %d frames\n", frames);
    return 0;
}
