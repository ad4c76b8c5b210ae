/* A program that keeps drawing into multisampled buffers without ever clearing them after frame 0:
 * a 4x framebuffer of renderbuffers (RGBA8 colour blended over what is there, RGBA16F colour, and
 * depth24/stencil8 whose depth and stencil tests decide what later frames may cover) and a 4x
 * R32UI multisample texture written through gl_SampleMask (each frame reaches some samples of each
 * pixel only). Each frame resolves/reads them into the window: the RGBA8 colour by a resolving
 * blit, the float one through a resolved texture, the integer texture sample by sample. So a
 * capture of a later frame replays right only if every sample of every buffer is restored.
 * EGL surfaceless, GL 4.5 core. Usage: msaa_contents FRAMES; prints a checksum of the last frame. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 32
#define H 32

static const char *scene_vs =
    "#version 400 core\n"
    "uniform float t;\n"
    "uniform int frame;\n"
    "void main() {\n"
    "    float a = t + float(gl_VertexID) * 2.0944;\n"
    "    float r = 0.95 - 0.1 * float(frame % 3);\n"
    "    gl_Position = vec4(r * cos(a), r * sin(a), 0.6 * sin(a * 1.7 + t), 1.0);\n"
    "}\n";
/* Colour buffer 0 is blended (alpha 0.55); buffer 1 holds floats no 8-bit buffer could. */
static const char *scene_fs =
    "#version 400 core\n"
    "uniform float t;\n"
    "layout(location = 0) out vec4 c0;\n"
    "layout(location = 1) out vec4 c1;\n"
    "void main() {\n"
    "    c0 = vec4(fract(t * 0.37), fract(gl_FragCoord.x / 13.0), fract(gl_FragCoord.y / 7.0 + t), 0.55);\n"
    "    c1 = vec4(gl_FragCoord.x * 37.125 + t, gl_FragCoord.y * -11.5, t * 1000.0, 1.0 / 3.0);\n"
    "}\n";
/* The integer texture: some samples of each pixel per frame, chosen by gl_SampleMask. */
static const char *uint_fs =
    "#version 400 core\n"
    "uniform int frame;\n"
    "out uint o;\n"
    "void main() {\n"
    "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "    gl_SampleMask[0] = (p.x * 3 + p.y + frame * 5) & 15;\n"
    "    o = uint(frame + 1) * 100000u + uint(p.x) * 100u + uint(p.y);\n"
    "}\n";
/* The window: mode 0 shows the resolved float texture, mode 1 the four samples of the integer one. */
static const char *show_vs =
    "#version 400 core\n"
    "void main() {\n"
    "    gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1), 0.0, 1.0);\n"
    "}\n";
static const char *show_fs =
    "#version 400 core\n"
    "uniform sampler2D resolved;\n"
    "uniform usampler2DMS samples;\n"
    "uniform int mode;\n"
    "uniform ivec2 origin;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "    ivec2 p = ivec2(gl_FragCoord.xy) - origin;\n"
    "    if (mode == 0) {\n"
    "        vec4 v = texelFetch(resolved, p, 0);\n"
    "        o = vec4(fract(v.x / 97.0), fract(-v.y / 13.0), fract(v.z / 7.0), v.w * 3.0 - 0.5);\n"
    "    } else {\n"
    "        uvec4 s = uvec4(texelFetch(samples, p, 0).r, texelFetch(samples, p, 1).r, texelFetch(samples, p, 2).r,\n"
    "                        texelFetch(samples, p, 3).r);\n"
    "        o = vec4((s % 251u) ^ (s / 100000u * 37u & 255u)) / 255.0;\n"
    "    }\n"
    "}\n";

/* State the program leaves at each swap, unusual on purpose: the snapshot (taken at a frame start)
 * draws with its own state and must put all of this back. */
static void leave_odd_state(void)
{
    glEnable(GL_SCISSOR_TEST);
    glScissor(3, 4, 5, 6);
    glDepthMask(GL_FALSE);
    glStencilMask(0x3C);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
    glEnable(GL_SAMPLE_MASK);
    glSampleMaski(0, 0x5);
    glDisable(GL_MULTISAMPLE);
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
    glDepthRange(0.25, 0.75);
    glEnable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glEnablei(GL_BLEND, 0);
    glDepthFunc(GL_GEQUAL);
    glStencilFunc(GL_NOTEQUAL, 9, 0x77);
    glActiveTexture(GL_TEXTURE3);
}

static void drawing_state(void)
{
    glDisable(GL_SCISSOR_TEST);
    glDepthMask(GL_TRUE);
    glStencilMask(0xFF);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisable(GL_SAMPLE_MASK);
    glEnable(GL_MULTISAMPLE);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glDepthRange(0.0, 1.0);
    glDisable(GL_CULL_FACE);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDisablei(GL_BLEND, 0);
    glActiveTexture(GL_TEXTURE0);
}

#define N_STATE 40
/* The state queried at both ends of a swap. */
static void get_state(GLint *v)
{
    static const GLenum ints[] = { GL_CURRENT_PROGRAM, GL_VERTEX_ARRAY_BINDING, GL_DRAW_FRAMEBUFFER_BINDING,
                                   GL_READ_FRAMEBUFFER_BINDING, GL_ACTIVE_TEXTURE, GL_DEPTH_FUNC, GL_STENCIL_FUNC,
                                   GL_STENCIL_REF, GL_STENCIL_VALUE_MASK, GL_STENCIL_WRITEMASK, GL_PACK_ALIGNMENT,
                                   GL_UNPACK_ROW_LENGTH, GL_RENDERBUFFER_BINDING, GL_POLYGON_MODE,
                                   GL_TEXTURE_BINDING_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_ARRAY };
    static const GLenum caps[] = { GL_SCISSOR_TEST, GL_SAMPLE_MASK, GL_MULTISAMPLE, GL_CULL_FACE, GL_DEPTH_TEST,
                                   GL_STENCIL_TEST, GL_BLEND, GL_FRAMEBUFFER_SRGB };
    int k = 0;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        glGetIntegerv(ints[i], &v[k++]);
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        v[k++] = glIsEnabled(caps[i]);
    glGetIntegerv(GL_SCISSOR_BOX, &v[k]);
    k += 4;
    glGetIntegeri_v(GL_SAMPLE_MASK_VALUE, 0, &v[k++]);
    GLboolean cm[4], dm;
    glGetBooleanv(GL_COLOR_WRITEMASK, cm);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &dm);
    v[k++] = cm[0] | cm[1] << 1 | cm[2] << 2 | cm[3] << 3 | dm << 4;
    GLfloat dr[2];
    glGetFloatv(GL_DEPTH_RANGE, dr);
    v[k++] = (GLint)(dr[0] * 1000.0f);
    v[k++] = (GLint)(dr[1] * 1000.0f);
    glGetIntegerv(GL_VIEWPORT, &v[k]);
    k += 4;
    while (k < N_STATE)
        v[k++] = 0;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "msaa_contents", 3 * W, H, 0, 4, 5, 1) != 0)
        return 1;
    GLuint scene = glt_program("msaa_contents", GL_VERTEX_SHADER, scene_vs, GL_FRAGMENT_SHADER, scene_fs);
    GLuint uintp = glt_program("msaa_contents", GL_VERTEX_SHADER, scene_vs, GL_FRAGMENT_SHADER, uint_fs);
    GLuint show = glt_program("msaa_contents", GL_VERTEX_SHADER, show_vs, GL_FRAGMENT_SHADER, show_fs);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);

    /* The 4x framebuffer of renderbuffers. */
    GLuint rb[3], fbo_rb, fbo_tex, fbo_resolve, ms_tex, resolved;
    const GLenum rb_fmt[3] = { GL_RGBA8, GL_RGBA16F, GL_DEPTH24_STENCIL8 };
    glGenRenderbuffers(3, rb);
    for (int i = 0; i < 3; i++) {
        glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, rb_fmt[i], W, H);
    }
    glGenFramebuffers(1, &fbo_rb);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, rb[1]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[2]);
    const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
    glDrawBuffers(2, bufs);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return 1;
    /* The 4x integer texture. */
    glGenTextures(1, &ms_tex);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms_tex);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_R32UI, W, H, GL_TRUE);
    glGenFramebuffers(1, &fbo_tex);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_tex);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, ms_tex, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return 1;
    /* The float colour's resolve target. */
    glGenTextures(1, &resolved);
    glBindTexture(GL_TEXTURE_2D, resolved);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, W, H, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo_resolve);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_resolve);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, resolved, 0);

    glUseProgram(show);
    glUniform1i(glGetUniformLocation(show, "resolved"), 0);
    glUniform1i(glGetUniformLocation(show, "samples"), 1);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms_tex);
    glActiveTexture(GL_TEXTURE0);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

    unsigned long checksum = 0;
    unsigned state_changes = 0, errors = 0;
    GLint before[N_STATE], after[N_STATE];
    for (int f = 0; f < frames; f++) {
        if (f > 0) {
            get_state(after);
            for (int i = 0; i < N_STATE; i++)
                if (after[i] != before[i])
                    fprintf(stderr, "msaa_contents: frame %d: state %d changed across the swap: %d -> %d\n", f, i,
                            before[i], after[i]), state_changes++;
            if (glGetError() != GL_NO_ERROR)
                errors++;
            drawing_state();
        }
        float t = 0.9f * (float)f + 0.3f;
        glViewport(0, 0, W, H);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo_rb);
        if (f == 0) {
            const GLfloat c0[4] = { 0.1f, 0.2f, 0.3f, 1.0f }, c1[4] = { -1.0f, 2.5f, 0.0f, 0.0f };
            glClearBufferfv(GL_COLOR, 0, c0);
            glClearBufferfv(GL_COLOR, 1, c1);
            glClearBufferfi(GL_DEPTH_STENCIL, 0, 1.0f, 0);
        }
        /* Depth LESS and a stencil that counts coverage (at most 2 layers): both need history. */
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glEnable(GL_STENCIL_TEST);
        glStencilFunc(GL_GREATER, 2, 0xFF);
        glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
        glEnablei(GL_BLEND, 0);
        glUseProgram(scene);
        glUniform1f(glGetUniformLocation(scene, "t"), t);
        glUniform1i(glGetUniformLocation(scene, "frame"), f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisablei(GL_BLEND, 0);
        glDisable(GL_STENCIL_TEST);
        glDisable(GL_DEPTH_TEST);

        glBindFramebuffer(GL_FRAMEBUFFER, fbo_tex);
        if (f == 0) {
            const GLuint z[4] = { 0, 0, 0, 0 };
            glClearBufferuiv(GL_COLOR, 0, z);
        }
        glUseProgram(uintp);
        glUniform1f(glGetUniformLocation(uintp, "t"), t * 1.3f + 1.0f);
        glUniform1i(glGetUniformLocation(uintp, "frame"), f);
        glDrawArrays(GL_TRIANGLES, 0, 3);

        /* To the window: RGBA8 resolved by a blit, the float colour through its resolved texture,
         * the integer samples one by one. */
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_rb);
        glReadBuffer(GL_COLOR_ATTACHMENT0);
        glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glReadBuffer(GL_COLOR_ATTACHMENT1);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_resolve);
        glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glUseProgram(show);
        glBindTexture(GL_TEXTURE_2D, resolved);
        for (int mode = 0; mode < 2; mode++) {
            glViewport(W * (mode + 1), 0, W, H);
            glUniform1i(glGetUniformLocation(show, "mode"), mode);
            glUniform2i(glGetUniformLocation(show, "origin"), W * (mode + 1), 0);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        if (f == frames - 1) {
            static unsigned char px[3 * W * H * 4];
            glReadPixels(0, 0, 3 * W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
            for (size_t i = 0; i < sizeof px; i++)
                checksum = checksum * 31 + px[i];
        }
        leave_odd_state();
        get_state(before);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("msaa_contents: %d frames, checksum %lu, %u state changes and %u errors across swaps, error 0x%x\n",
           frames, checksum, state_changes, errors, glGetError());
    glt_egl_close(&egl);
    return 0;
}
