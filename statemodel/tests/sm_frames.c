/* Realistic call sequences shared by the tests (as an application would issue them). */
#include <stdint.h>
#include <string.h>
#include "sm_test.h"

static const char vs_src[] = "#version 330 core\nlayout(location=0) in vec3 pos;\n"
                             "void main() { gl_Position = vec4(pos, 1.0); }\n";
static const char fs_src[] = "#version 330 core\nout vec4 color;\nuniform vec4 tint[2];\n"
                             "void main() { color = tint[0] + tint[1]; }\n";

void build_core_frame(struct sm_state *s, uint32_t c)
{
    static const float verts[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
    static const uint16_t idx[6] = { 0, 1, 2, 2, 1, 3 };
    static uint8_t pixels[4 * 4 * 4];
    for (size_t i = 0; i < sizeof pixels; i++)
        pixels[i] = (uint8_t)(i * 7);
    uint32_t vao = 1, bufs[2] = { 1, 2 }, tex = 7, smp = 8, rb = 9, fbo = 1, query = 11;
    uint32_t draw_bufs[1] = { GL_COLOR_ATTACHMENT0 };
    float tint[8] = { 1, 0, 0, 1, 0, 0.5f, 0, 0 };
    float m2[4] = { 1, 2, 3, 4 };   /* row-major (transpose = TRUE) */
    float border[4] = { 0.25f, 0.5f, 0.75f, 1 };

    tcall(s, c, "glGenVertexArrays", "ib", 1, &vao, sizeof vao);
    tcall(s, c, "glBindVertexArray", "u", 1);
    tcall(s, c, "glGenBuffers", "ib", 2, bufs, sizeof bufs);
    tcall(s, c, "glBindBuffer", "uu", GL_ARRAY_BUFFER, 1);
    tcall(s, c, "glBufferData", "upbu", GL_ARRAY_BUFFER, (uint64_t)sizeof verts, verts,
          sizeof verts, GL_STATIC_DRAW);
    tcall(s, c, "glVertexAttribPointer", "uiuuip", 0, 3, GL_FLOAT, 0, 12, (uint64_t)0);
    tcall(s, c, "glEnableVertexAttribArray", "u", 0);
    tcall(s, c, "glVertexAttribPointer", "uiuuip", 1, 2, GL_FLOAT, 0, 0, (uint64_t)8);
    tcall(s, c, "glVertexAttribDivisor", "uu", 1, 1);
    tcall(s, c, "glEnableVertexAttribArray", "u", 1);
    tcall(s, c, "glBindBuffer", "uu", GL_ELEMENT_ARRAY_BUFFER, 2);
    tcall(s, c, "glBufferData", "upbu", GL_ELEMENT_ARRAY_BUFFER, (uint64_t)sizeof idx, idx,
          sizeof idx, GL_STATIC_DRAW);

    tcall(s, c, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)3);
    tcall(s, c, "glShaderSource", "uisb", 3, 1, vs_src, NULL, (size_t)0);
    tcall(s, c, "glCompileShader", "u", 3);
    tcall(s, c, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)4);
    tcall(s, c, "glShaderSource", "uisb", 4, 1, fs_src, NULL, (size_t)0);
    tcall(s, c, "glCompileShader", "u", 4);
    tcall(s, c, "glCreateProgram", "r", (uint64_t)5);
    tcall(s, c, "glAttachShader", "uu", 5, 3);
    tcall(s, c, "glAttachShader", "uu", 5, 4);
    tcall(s, c, "glBindAttribLocation", "uuz", 5, 0, "pos");
    tcall(s, c, "glBindFragDataLocation", "uuz", 5, 0, "color");
    tcall(s, c, "glLinkProgram", "u", 5);
    tcall(s, c, "glGetUniformLocation", "uzr", 5, "tint", (uint64_t)2);
    tcall(s, c, "glGetUniformLocation", "uzr", 5, "missing", (uint64_t)-1);
    tcall(s, c, "glDetachShader", "uu", 5, 3);
    tcall(s, c, "glDeleteShader", "u", 3);
    tcall(s, c, "glUseProgram", "u", 5);
    tcall(s, c, "glUniform4fv", "iib", 2, 2, tint, sizeof tint);
    tcall(s, c, "glUniform1i", "ii", 0, 7);
    tcall(s, c, "glUniformMatrix2fv", "iiub", 4, 1, 1, m2, sizeof m2);
    tcall(s, c, "glUniformBlockBinding", "uuu", 5, 0, 3);
    tcall(s, c, "glBindBufferRange", "uuupp", GL_UNIFORM_BUFFER, 3, 1, (uint64_t)16, (uint64_t)32);

    tcall(s, c, "glGenTextures", "ib", 1, &tex, sizeof tex);
    tcall(s, c, "glActiveTexture", "u", GL_TEXTURE3);
    tcall(s, c, "glBindTexture", "uu", GL_TEXTURE_2D, 7);
    tcall(s, c, "glPixelStorei", "ui", GL_UNPACK_ALIGNMENT, 1);
    tcall(s, c, "glTexImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA,
          GL_UNSIGNED_BYTE, pixels, sizeof pixels);
    tcall(s, c, "glTexParameteri", "uui", GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
          GL_LINEAR_MIPMAP_LINEAR);
    tcall(s, c, "glGenerateMipmap", "u", GL_TEXTURE_2D);
    tcall(s, c, "glGenSamplers", "ib", 1, &smp, sizeof smp);
    tcall(s, c, "glBindSampler", "uu", 3, 8);
    tcall(s, c, "glSamplerParameteri", "uui", 8, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    tcall(s, c, "glSamplerParameterfv", "uub", 8, GL_TEXTURE_BORDER_COLOR, border, sizeof border);

    tcall(s, c, "glGenRenderbuffers", "ib", 1, &rb, sizeof rb);
    tcall(s, c, "glBindRenderbuffer", "uu", GL_RENDERBUFFER, 9);
    tcall(s, c, "glRenderbufferStorage", "uuii", GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 64, 32);
    tcall(s, c, "glGenFramebuffers", "ib", 1, &fbo, sizeof fbo);
    tcall(s, c, "glBindFramebuffer", "uu", GL_FRAMEBUFFER, 1);
    tcall(s, c, "glFramebufferTexture2D", "uuuui", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
          GL_TEXTURE_2D, 7, 0);
    tcall(s, c, "glFramebufferRenderbuffer", "uuuu", GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT,
          GL_RENDERBUFFER, 9);
    tcall(s, c, "glDrawBuffers", "ib", 1, draw_bufs, sizeof draw_bufs);

    tcall(s, c, "glViewport", "iiii", 0, 0, 64, 32);
    tcall(s, c, "glScissor", "iiii", 1, 2, 30, 20);
    tcall(s, c, "glEnable", "u", GL_SCISSOR_TEST);
    tcall(s, c, "glEnable", "u", GL_DEPTH_TEST);
    tcall(s, c, "glDepthFunc", "u", GL_LEQUAL);
    tcall(s, c, "glEnable", "u", GL_BLEND);
    tcall(s, c, "glBlendFuncSeparate", "uuuu", GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
    tcall(s, c, "glBlendFunci", "uuu", 1, GL_ONE, GL_ONE);
    tcall(s, c, "glDisablei", "uu", GL_BLEND, 2);
    tcall(s, c, "glStencilFuncSeparate", "uuiu", GL_BACK, GL_EQUAL, 1, 0xFF);
    tcall(s, c, "glStencilOp", "uuu", GL_KEEP, GL_KEEP, GL_REPLACE);
    tcall(s, c, "glColorMaski", "uuuuu", 2, 1, 0, 1, 0);
    tcall(s, c, "glClearColor", "ffff", 0.1, 0.2, 0.3, 1.0);
    tcall(s, c, "glClearDepth", "d", 0.5);
    tcall(s, c, "glCullFace", "u", GL_FRONT);
    tcall(s, c, "glEnable", "u", GL_CULL_FACE);
    tcall(s, c, "glPolygonOffset", "ff", 1.0, 2.0);
    tcall(s, c, "glLineWidth", "f", 2.0);
    tcall(s, c, "glDisable", "u", GL_DITHER);
    tcall(s, c, "glHint", "uu", GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_NICEST);
    tcall(s, c, "glPrimitiveRestartIndex", "u", 0xFFFF);
    tcall(s, c, "glEnable", "u", GL_PRIMITIVE_RESTART);
    tcall(s, c, "glProvokingVertex", "u", GL_FIRST_VERTEX_CONVENTION);
    tcall(s, c, "glPixelStorei", "ui", GL_PACK_ALIGNMENT, 2);
    tcall(s, c, "glVertexAttrib4f", "uffff", 5, 0.5, 0.25, 0.125, 1.0);
    tcall(s, c, "glGenQueries", "ib", 1, &query, sizeof query);
    tcall(s, c, "glBeginQuery", "uu", GL_SAMPLES_PASSED, 11);
    tcall(s, c, "glEndQuery", "u", GL_SAMPLES_PASSED);
    tcall(s, c, "glFenceSync", "uur", GL_SYNC_GPU_COMMANDS_COMPLETE, 0, (uint64_t)0x7f00deadbeef00ull);
    tcall(s, c, "glDrawElements", "uiup", GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, (uint64_t)0);
}

static const char legacy_vs[] = "attribute vec3 pos;\nattribute vec4 col;\nvarying vec4 v;\n"
                                "void main() { v = col; gl_Position = vec4(pos, 1.0); }\n";

void build_legacy_frame(struct sm_state *s, uint32_t c)
{
    static const float verts[6] = { 0, 0, 1, 1, 0, 1 };
    uint32_t buf = 20;
    tcall(s, c, "glGenBuffersARB", "ib", 1, &buf, sizeof buf);
    tcall(s, c, "glBindBufferARB", "uu", GL_ARRAY_BUFFER, 20);
    tcall(s, c, "glBufferDataARB", "upbu", GL_ARRAY_BUFFER, (uint64_t)sizeof verts, verts,
          sizeof verts, GL_STREAM_DRAW);
    tcall(s, c, "glVertexAttribPointerARB", "uiuuip", 0, 3, GL_FLOAT, 0, 0, (uint64_t)0);
    tcall(s, c, "glBindBufferARB", "uu", GL_ARRAY_BUFFER, 0);
    /* A client-side array: the pointer is an address in the captured process. */
    tcall(s, c, "glVertexAttribPointer", "uiuuip", 1, 4, GL_UNSIGNED_BYTE, 1, 4,
          (uint64_t)0x7fff12340000ull);
    tcall(s, c, "glEnableVertexAttribArray", "u", 0);
    tcall(s, c, "glEnableVertexAttribArrayARB", "u", 1);
    tcall(s, c, "glVertexAttrib4Nub", "uuuuu", 2, 255, 0, 51, 255);
    tcall(s, c, "glVertexAttrib3f", "ufff", 3, 1.0, 2.0, 3.0);
    tcall(s, c, "glVertexPointer", "iuip", 3, GL_FLOAT, 0, (uint64_t)0x1000);
    tcall(s, c, "glEnableClientState", "u", GL_VERTEX_ARRAY);
    tcall(s, c, "glClientActiveTexture", "u", GL_TEXTURE1);
    tcall(s, c, "glTexCoordPointer", "iuip", 2, GL_FLOAT, 8, (uint64_t)0x2000);
    tcall(s, c, "glEnableClientState", "u", GL_TEXTURE_COORD_ARRAY);
    tcall(s, c, "glCreateShaderObjectARB", "ur", GL_VERTEX_SHADER, (uint64_t)30);
    tcall(s, c, "glShaderSourceARB", "uisb", 30, 1, legacy_vs, NULL, (size_t)0);
    tcall(s, c, "glCompileShaderARB", "u", 30);
    tcall(s, c, "glCreateProgramObjectARB", "r", (uint64_t)31);
    tcall(s, c, "glAttachObjectARB", "uu", 31, 30);
    tcall(s, c, "glBindAttribLocationARB", "uuz", 31, 1, "col");
    tcall(s, c, "glLinkProgramARB", "u", 31);
    tcall(s, c, "glUseProgramObjectARB", "u", 31);
    tcall(s, c, "glUniform1fARB", "if", 0, 0.5);
    tcall(s, c, "glEnable", "u", GL_TEXTURE_2D);
    tcall(s, c, "glDrawArrays", "uii", GL_TRIANGLES, 0, 3);
}
