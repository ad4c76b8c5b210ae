/* GPU-side copies, clears, read-backs into a pack buffer, uploads from an unpack buffer and a
 * query result written into a buffer, all shown on screen, so the GPU model must do each of them
 * as llvmpipe does for `glreplay model --compare` to agree (gmf_copies.c, gmf_pixels.c,
 * gmf_queries.c). Each frame renders a scene into an FBO (RGBA8 + R32UI + DEPTH32F), then:
 * glCopyTexSubImage2D / glCopyTexImage2D / glCopyTextureSubImage2D from it, glCopyImageSubData,
 * glClearTexSubImage / glClearTexImage, glReadPixels into a pack buffer in several formats and
 * types (BGRA/UNSIGNED_BYTE, RGBA/FLOAT with row length and skips, RGB/HALF_FLOAT with an odd
 * width, BGRA/UNSIGNED_INT_8_8_8_8_REV, DEPTH_COMPONENT/FLOAT, RED_INTEGER/UNSIGNED_INT),
 * glGetTextureSubImage and glGetTexImage into it, those bytes uploaded into textures from the
 * same buffer as an unpack buffer, glCopyBufferSubData / glClearBufferSubData /
 * glClearNamedBufferSubData into a uniform buffer, glGetQueryBufferObjectuiv into it, and an
 * inverted conditional render; transform feedback (interleaved and separate, paused and resumed,
 * under rasterizer discard, with a primitives-written query) whose buffers are copied into the
 * uniform buffer; a composite pass draws every result into the window.
 * EGL surfaceless pbuffer 128x96, GL 4.5 core; animation depends on the frame index only.
 * Usage: copies_sample FRAMES [no-image-copy] [xfb]
 * no-image-copy leaves glCopyImageSubData out; xfb adds the transform feedback pass. */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../../../tests/support/gl_test_util.h"

static const char *vs_src =
    "#version 450 core\n"
    "uniform vec4 rect;\n"
    "uniform float depth;\n"
    "out vec2 uv;\n"
    "void main() {\n"
    "    int i = gl_VertexID & 3;\n"
    "    uv = vec2(float(i & 1), float(i >> 1));\n"
    "    gl_Position = vec4(mix(rect.xy, rect.zw, uv), depth, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 450 core\n"
    "layout(std140, binding = 0) uniform Data { vec4 colors[6]; uvec4 counts; };\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(binding = 1) uniform usampler2D utex;\n"
    "uniform int mode;   /* 0 flat, 1 texture, 2 uint texture, 3 uniform buffer, 4 red channel */\n"
    "uniform vec4 color;\n"
    "uniform uint tag;\n"
    "in vec2 uv;\n"
    "layout(location = 0) out vec4 frag;\n"
    "layout(location = 1) out uint ufrag;\n"
    "void main() {\n"
    "    ufrag = tag * 1000u + uint(gl_FragCoord.x) * 7u + uint(gl_FragCoord.y);\n"
    "    ivec2 ts = textureSize(tex, 0);\n"
    "    ivec2 p = ivec2(uv * vec2(ts));\n"
    "    if (mode == 0) frag = color;\n"
    "    else if (mode == 1) frag = vec4(texelFetch(tex, p, 0).rgb, 1.0);\n"
    "    else if (mode == 2) { uint v = texelFetch(utex, ivec2(uv * vec2(textureSize(utex, 0))), 0).r;\n"
    "        frag = vec4(float(v % 97u) / 96.0, float((v / 97u) % 89u) / 88.0, float(v / 8633u) / 8.0, 1.0); }\n"
    "    else if (mode == 3) { int k = int(uv.x * 6.0);\n"
    "        frag = uv.y < 0.8 ? vec4(colors[min(k, 5)].rgb, 1.0)\n"
    "                          : vec4(float(counts.x % 256u) / 255.0, float(counts.x / 256u) / 32.0,\n"
    "                                 float(counts.y) / 16.0, 1.0); }\n"
    "    else frag = vec4(texelFetch(tex, p, 0).rrr, 1.0);\n"
    "}\n";

/* Draws what transform feedback captured (uv, gl_Position interleaved) with glDrawTransformFeedback. */
static const char *vs_fed =
    "#version 450 core\n"
    "layout(location = 0) in vec2 a_uv;\n"
    "layout(location = 1) in vec4 a_pos;\n"
    "out vec2 uv;\n"
    "void main() { uv = a_uv; gl_Position = vec4(a_pos.xy * 0.45 + vec2(0.5, 0.55), 0.0, 1.0); }\n";

static GLint u_rect, u_depth, u_mode, u_color, u_tag;

static void quad(float x0, float y0, float x1, float y1, float depth, int mode, float r, float g,
                 float b, unsigned tag)
{
    glUniform4f(u_rect, x0, y0, x1, y1);
    glUniform1f(u_depth, depth);
    glUniform1i(u_mode, mode);
    glUniform4f(u_color, r, g, b, 1.0f);
    glUniform1ui(u_tag, tag);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static GLuint texture(GLenum ifmt, int w, int h)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, ifmt, w, h);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

/* Shows texture t (mode 1/4 on unit 0, mode 2 on unit 1) in grid cell (cx, cy) of 5x4. */
static void show(GLuint t, int mode, int cx, int cy)
{
    glActiveTexture(mode == 2 ? GL_TEXTURE1 : GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t);
    glActiveTexture(GL_TEXTURE0);
    float x0 = -1.0f + 0.4f * (float)cx, y0 = -1.0f + 0.5f * (float)cy;
    quad(x0 + 0.01f, y0 + 0.01f, x0 + 0.39f, y0 + 0.49f, 0.0f, mode, 0, 0, 0, 0);
}

#define S 64   /* scene size */

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 4;
    bool image_copies = true, xfb_pass = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "no-image-copy"))
            image_copies = false;
        else if (!strcmp(argv[i], "xfb"))
            xfb_pass = true;
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "copies_sample", 128, 96, 24, 4, 5, 1) != 0)
        return 1;
    GLuint prog = glt_program("copies_sample", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    glUseProgram(prog);
    u_rect = glGetUniformLocation(prog, "rect");
    u_depth = glGetUniformLocation(prog, "depth");
    u_mode = glGetUniformLocation(prog, "mode");
    u_color = glGetUniformLocation(prog, "color");
    u_tag = glGetUniformLocation(prog, "tag");
    /* The same shaders linked for transform feedback: interleaved (uv, gl_Position) and
     * separate (gl_Position to buffer 0, uv to buffer 1, with a skip). */
    GLuint xprog[2];
    static const char *inter[2] = { "uv", "gl_Position" };
    static const char *sep[2] = { "gl_Position", "uv" };
    for (int i = 0; i < 2; i++) {
        xprog[i] = glCreateProgram();
        glAttachShader(xprog[i], glt_shader("copies_sample", GL_VERTEX_SHADER, vs_src));
        glAttachShader(xprog[i], glt_shader("copies_sample", GL_FRAGMENT_SHADER, fs_src));
        glTransformFeedbackVaryings(xprog[i], 2, i ? sep : inter,
                                    i ? GL_SEPARATE_ATTRIBS : GL_INTERLEAVED_ATTRIBS);
        glLinkProgram(xprog[i]);
    }
    GLuint xfb[4], xq, tfo, fed_vao;
    GLuint fed = glt_program("copies_sample", GL_VERTEX_SHADER, vs_fed, GL_FRAGMENT_SHADER, fs_src);
    glGenTransformFeedbacks(1, &tfo);
    glGenBuffers(4, xfb);
    glGenVertexArrays(1, &fed_vao);
    glBindVertexArray(fed_vao);
    glBindBuffer(GL_ARRAY_BUFFER, xfb[3]);
    glBufferData(GL_ARRAY_BUFFER, 512, NULL, GL_DYNAMIC_COPY);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 24, (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 24, (void *)8);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    for (int i = 0; i < 3; i++) {
        glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, xfb[i]);
        glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 512, NULL, GL_DYNAMIC_COPY);
    }
    glGenQueries(1, &xq);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);

    /* The scene's framebuffer. */
    GLuint scene = texture(GL_RGBA8, S, S), ids = texture(GL_R32UI, S, S),
           zbuf = texture(GL_DEPTH_COMPONENT32F, S, S);
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, scene, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, ids, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, zbuf, 0);
    const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
    glDrawBuffers(2, bufs);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "copies_sample: framebuffer incomplete\n");
        return 1;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    /* Destinations. */
    GLuint copied = texture(GL_RGBA8, S, S);          /* glCopyTexSubImage2D, glCopyTextureSubImage2D */
    GLuint image_copy = texture(GL_RGBA8, 48, 48);    /* glCopyImageSubData + glClearTexSubImage */
    GLuint cleared = texture(GL_R32F, 16, 16);        /* glClearTexImage */
    GLuint swapped = texture(GL_RGBA8, S, S);         /* BGRA read, RGBA upload */
    GLuint floats = texture(GL_RGBA32F, 32, 32);      /* RGBA/FLOAT with row length and skips */
    GLuint halves = texture(GL_RGB16F, 33, 20);       /* RGB/HALF_FLOAT, odd width */
    GLuint rev = texture(GL_RGBA8, S, S);             /* BGRA/UNSIGNED_INT_8_8_8_8_REV */
    GLuint depth = texture(GL_R32F, S, S);            /* DEPTH_COMPONENT/FLOAT */
    GLuint uints = texture(GL_R32UI, S, S);           /* RED_INTEGER/UNSIGNED_INT */
    GLuint got = texture(GL_RGBA8, 32, 32);           /* glGetTextureSubImage */
    GLuint whole = texture(GL_RGBA8, S, S);           /* glGetTexImage */
    GLuint redef = 0;                                 /* glCopyTexImage2D (mutable) */
    glGenTextures(1, &redef);
    glBindTexture(GL_TEXTURE_2D, redef);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);

    GLuint pbo, ubo, q[2];
    glGenBuffers(1, &pbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
    glBufferData(GL_PIXEL_PACK_BUFFER, 1 << 20, NULL, GL_STREAM_COPY);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glGenBuffers(1, &ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo);
    glBufferData(GL_UNIFORM_BUFFER, 112, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo);
    glGenQueries(2, q);

    for (int f = 0; f < frames; f++) {
        float t = (float)f;
        /* The scene. */
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, S, S);
        glEnable(GL_DEPTH_TEST);
        const float bg[4] = { 0.1f, 0.15f + 0.05f * t, 0.2f, 1.0f };
        const GLuint ubg[4] = { 5u + (GLuint)f, 0, 0, 0 };
        glClearBufferfv(GL_COLOR, 0, bg);
        glClearBufferuiv(GL_COLOR, 1, ubg);
        glClear(GL_DEPTH_BUFFER_BIT);
        glBeginQuery(GL_SAMPLES_PASSED, q[0]);
        quad(-0.8f + 0.1f * t, -0.7f, 0.3f + 0.1f * t, 0.5f, 0.3f, 0, 0.9f, 0.3f, 0.1f, 1);
        quad(-0.2f, -0.9f + 0.05f * t, 0.9f, 0.2f, 0.1f + 0.1f * t, 0, 0.2f, 0.7f, 0.9f, 2);
        glEndQuery(GL_SAMPLES_PASSED);
        glBeginQuery(GL_ANY_SAMPLES_PASSED, q[1]);
        quad(-0.1f, -0.1f, 0.0f, 0.0f, 0.9f, 0, 1, 1, 1, 3);   /* hidden behind the others */
        glEndQuery(GL_ANY_SAMPLES_PASSED);
        glBeginConditionalRender(q[1], GL_QUERY_WAIT_INVERTED);   /* drawn: nothing passed */
        quad(-0.9f, 0.6f, -0.5f, 0.9f, 0.0f, 0, 1.0f, 0.9f, 0.2f, 4);
        glEndConditionalRender();
        glBeginConditionalRender(q[0], GL_QUERY_NO_WAIT_INVERTED);   /* discarded */
        quad(0.5f, 0.6f, 0.9f, 0.9f, 0.0f, 0, 1.0f, 0.0f, 1.0f, 5);
        glEndConditionalRender();
        glDisable(GL_DEPTH_TEST);

        /* Copies from the scene (the read framebuffer). */
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glBindTexture(GL_TEXTURE_2D, copied);
        glCopyTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 2 * f, 3, 40, 40);
        glCopyTextureSubImage2D(copied, 0, 40, 40, 0, 0, 20, 24);
        glBindTexture(GL_TEXTURE_2D, redef);
        glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8 + f, 16, 32, 32, 0);
        if (image_copies)
            glCopyImageSubData(scene, GL_TEXTURE_2D, 0, 8, 8, 0, image_copy, GL_TEXTURE_2D, 0, 0, 0, 0, 48, 48, 1);
        const float mark[4] = { 0.9f, 0.1f + 0.2f * t, 0.5f, 1.0f };
        glClearTexSubImage(image_copy, 0, 10 + 3 * f, 10, 0, 12, 8, 1, GL_RGBA, GL_FLOAT, mark);
        /* (data NULL: zeros; the recorder does not keep a glClearTexImage or
         * glClear(Named)BufferSubData value yet, so the replay could not make it) */
        float ramp[16 * 16];
        for (int i = 0; i < 16 * 16; i++)
            ramp[i] = (float)((i * 7 + f * 13) % 64) / 63.0f;
        glBindTexture(GL_TEXTURE_2D, cleared);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 16, 16, GL_RED, GL_FLOAT, ramp);
        if (f & 1)
            glClearTexImage(cleared, 0, GL_RED, GL_FLOAT, NULL);

        /* Read-backs into the pack buffer. */
        glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
        glReadPixels(0, 0, S, S, GL_BGRA, GL_UNSIGNED_BYTE, (void *)0);
        glPixelStorei(GL_PACK_ROW_LENGTH, 40);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 3);
        glPixelStorei(GL_PACK_SKIP_ROWS, 2);
        glReadPixels(16, 8, 32, 32, GL_RGBA, GL_FLOAT, (void *)65536);
        glPixelStorei(GL_PACK_ROW_LENGTH, 0);
        glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_PACK_SKIP_ROWS, 0);
        glReadPixels(5, 30, 33, 20, GL_RGB, GL_HALF_FLOAT, (void *)131072);
        glReadPixels(0, 0, S, S, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, (void *)196608);
        glReadPixels(0, 0, S, S, GL_DEPTH_COMPONENT, GL_FLOAT, (void *)262144);
        glReadBuffer(GL_COLOR_ATTACHMENT1);
        glReadPixels(0, 0, S, S, GL_RED_INTEGER, GL_UNSIGNED_INT, (void *)327680);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glGetTextureSubImage(scene, 0, 20, 12, 0, 32, 32, 1, GL_RGBA, GL_UNSIGNED_BYTE, 4096,
                             (void *)393216);
        glBindTexture(GL_TEXTURE_2D, copied);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, (void *)458752);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT);

        /* ... uploaded from the same buffer as an unpack buffer. */
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
        glBindTexture(GL_TEXTURE_2D, swapped);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, S, S, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 40);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 3);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 2);
        glTextureSubImage2D(floats, 0, 0, 0, 32, 32, GL_RGBA, GL_FLOAT, (void *)65536);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
        glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
        glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
        glTextureSubImage2D(halves, 0, 0, 0, 33, 20, GL_RGB, GL_HALF_FLOAT, (void *)131072);
        glTextureSubImage2D(rev, 0, 0, 0, S, S, GL_BGRA, GL_UNSIGNED_BYTE, (void *)196608);
        glTextureSubImage2D(depth, 0, 0, 0, S, S, GL_RED, GL_FLOAT, (void *)262144);
        glTextureSubImage2D(uints, 0, 0, 0, S, S, GL_RED_INTEGER, GL_UNSIGNED_INT, (void *)327680);
        glTextureSubImage2D(got, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, (void *)393216);
        glTextureSubImage2D(whole, 0, 8, 8, 48, 48, GL_RGBA, GL_UNSIGNED_BYTE, (void *)(458752 + 4 * (8 * S + 8)));
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

        /* The uniform buffer: colours copied from the read-back, cleared ranges, a query result. */
        glBindBuffer(GL_COPY_READ_BUFFER, pbo);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_UNIFORM_BUFFER, 65536 + 16 * (40 * 2 + 3 + 5), 0, 48);
        glBindBuffer(GL_COPY_READ_BUFFER, pbo);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_UNIFORM_BUFFER, 65536 + 16 * (40 * 12 + 3 + 9), 48, 48);
        glClearBufferSubData(GL_UNIFORM_BUFFER, GL_RGBA32F, 48 + 16 * (f % 3), 16, GL_RGBA, GL_FLOAT, NULL);
        glClearNamedBufferSubData(ubo, GL_R32UI, 64 + 16 * (f % 2), 8, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
        glGetQueryBufferObjectuiv(q[0], ubo, GL_QUERY_RESULT, 96);
        glMemoryBarrier(GL_UNIFORM_BARRIER_BIT | GL_QUERY_BUFFER_BARRIER_BIT);

        /* Transform feedback under rasterizer discard: two strips captured (one draw paused in
         * between), then a fan into separate buffers; copied into the uniform buffer. */
        if (xfb_pass) {
            glEnable(GL_RASTERIZER_DISCARD);
            glUseProgram(xprog[0]);
            glUniform4f(glGetUniformLocation(xprog[0], "rect"), -0.5f + 0.1f * t, -0.25f, 0.75f, 0.5f + 0.05f * t);
            glUniform1f(glGetUniformLocation(xprog[0], "depth"), 0.25f);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb[0]);
            glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, xq);
            glBeginTransformFeedback(GL_TRIANGLES);
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
            glPauseTransformFeedback();
            glDrawArrays(GL_TRIANGLES, 0, 3);
            glResumeTransformFeedback();
            glDrawArrays(GL_TRIANGLE_STRIP, 1, 3 + (f & 1));
            glEndTransformFeedback();
            glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
            glUseProgram(xprog[1]);
            glUniform4f(glGetUniformLocation(xprog[1], "rect"), 0.2f, -0.6f - 0.1f * t, 0.9f, 0.1f);
            glUniform1f(glGetUniformLocation(xprog[1], "depth"), -0.5f);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb[1]);
            glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, xfb[2], 16, 256);
            glBeginTransformFeedback(GL_TRIANGLES);
            glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
            glEndTransformFeedback();
            /* into a transform feedback object, drawn back with glDrawTransformFeedback below */
            glUseProgram(xprog[0]);
            glUniform4f(glGetUniformLocation(xprog[0], "rect"), -0.9f, -0.8f + 0.1f * t, 0.6f - 0.1f * t, 0.9f);
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, tfo);
            glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb[3]);
            glBeginTransformFeedback(GL_TRIANGLES);
            glDrawArrays(GL_TRIANGLE_STRIP, 0, 4 + (f & 1));
            glEndTransformFeedback();
            glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
            glDisable(GL_RASTERIZER_DISCARD);
            glUseProgram(prog);
            glBindBuffer(GL_COPY_READ_BUFFER, xfb[0]);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_UNIFORM_BUFFER, 24 * (4 + (f & 3)), 0, 16);
            glBindBuffer(GL_COPY_READ_BUFFER, xfb[1]);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_UNIFORM_BUFFER, 16 * (1 + f % 5), 16, 16);
            glBindBuffer(GL_COPY_READ_BUFFER, xfb[2]);
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_UNIFORM_BUFFER, 16 + 8 * (2 + f % 4), 32, 16);
            glGetQueryBufferObjectuiv(xq, ubo, GL_QUERY_RESULT, 100);
            glMemoryBarrier(GL_UNIFORM_BARRIER_BIT | GL_QUERY_BUFFER_BARRIER_BIT);
        }

        /* The composite. */
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, 128, 96);
        glClearColor(0.05f, 0.05f, 0.05f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        show(scene, 1, 0, 0);
        show(copied, 1, 1, 0);
        show(redef, 1, 2, 0);
        show(image_copy, 1, 3, 0);
        show(cleared, 4, 4, 0);
        show(swapped, 1, 0, 1);
        show(floats, 1, 1, 1);
        show(halves, 1, 2, 1);
        show(rev, 1, 3, 1);
        show(depth, 4, 4, 1);
        show(uints, 2, 0, 2);
        show(got, 1, 1, 2);
        show(whole, 1, 2, 2);
        show(0, 3, 3, 2);
        if (xfb_pass) {
            glUseProgram(fed);
            glUniform1i(glGetUniformLocation(fed, "mode"), 1);
            glBindTexture(GL_TEXTURE_2D, scene);
            glBindVertexArray(fed_vao);
            glDrawTransformFeedback(GL_TRIANGLES, tfo);
            glBindVertexArray(vao);
            glUseProgram(prog);
        }
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glFinish();
    printf("copies_sample: %d frames\n", frames);
    glt_egl_close(&egl);
    return 0;
}
