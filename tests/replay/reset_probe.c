/* A program whose every frame depends on state the previous frame left behind, for the tests of
 * the reset between replay passes (check_pass_reset.py): a replay pass that does not put back
 * exactly the state and contents a frame started with draws a different image.
 *
 * Each frame k, without setting anything first: draws a textured quad with the program, uniforms,
 * viewport, blend switch and function, texture binding, vertex buffer contents and attribute
 * offset left by frame k-1, over the previous image (no clear); accumulates into a texture through
 * a framebuffer object (no clear) and draws that texture on top. Then it changes all of that for
 * the next frame, makes a buffer it deletes and a texture it never deletes (objects the frame
 * creates), and swaps. Deterministic in k.
 *
 *   reset_probe [--frames N]     (GL 3.3 core through GLFW; needs an X server) */
#include <epoxy/gl.h>
#include "../support/gl_test_util.h"
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 64

static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "uniform float u_offset;\n"
    "out vec2 uv;\n"
    "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos * 0.8 + vec2(u_offset, 0.0), 0.0, 1.0); }\n";
static const char *fs_a =
    "#version 330 core\n"
    "in vec2 uv; uniform vec4 u_color; uniform sampler2D tex; out vec4 o;\n"
    "void main() { o = u_color * 0.5 + texture(tex, uv) * 0.5; }\n";
static const char *fs_b =
    "#version 330 core\n"
    "in vec2 uv; uniform vec4 u_color; uniform sampler2D tex; out vec4 o;\n"
    "void main() { o = vec4(uv, u_color.b, 1.0) * 0.3 + texture(tex, uv.yx) * 0.2; }\n";


static GLuint program(const char *fs)
{
    return glt_program("reset_probe", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs);
}

int main(int argc, char **argv)
{
    int frames = 8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: reset_probe [--frames N]\n");
            return 2;
        }
    }
    if (!glfwInit()) {
        fprintf(stderr, "reset_probe: no display\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    GLFWwindow *win = glfwCreateWindow(W, H, "reset_probe", NULL, NULL);
    if (!win) {
        fprintf(stderr, "reset_probe: cannot create a GL 3.3 core window\n");
        return 1;
    }
    glfwMakeContextCurrent(win);
    glfwSwapInterval(0);

    GLuint prog[2] = { program(fs_a), program(fs_b) };
    for (int i = 0; i < 2; i++) {
        glUseProgram(prog[i]);
        glUniform1i(glGetUniformLocation(prog[i], "tex"), 0);
        glUniform4f(glGetUniformLocation(prog[i], "u_color"), 0.2f, 0.4f, 0.6f, 1.0f);
    }
    float quad[2][12] = { { -1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1 } };
    GLuint vao, vbo, fbo, tex[2];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_DYNAMIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glGenTextures(2, tex);
    uint8_t texels[4 * 4 * 4];
    for (int i = 0; i < 64; i++)
        texels[i] = (uint8_t)(i * 37);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, tex[1]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[1], 0);
    glClearColor(0.1f, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(prog[0]);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glBlendFunc(GL_ONE, GL_ONE);

    for (int k = 0; k < frames; k++) {
        /* 1. Whatever the previous frame left: program, uniforms, viewport, blending, texture,
         * vertex data and attribute offset; over the previous image. */
        glDrawArrays(GL_TRIANGLES, 0, 6);
        /* 2. Accumulate into the texture (no clear), then draw it on top (a frame-made buffer). */
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glBindTexture(GL_TEXTURE_2D, tex[0]);   /* never sample the texture being drawn to */
        glEnable(GL_BLEND);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        GLuint tmp;
        glGenBuffers(1, &tmp);
        glBindBuffer(GL_ARRAY_BUFFER, tmp);
        static const float small[12] = { -1, -1, 0, -1, -1, 0, -1, 0, 0, -1, 0, 0 };
        glBufferData(GL_ARRAY_BUFFER, sizeof small, small, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)0);
        glBindTexture(GL_TEXTURE_2D, tex[1]);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDeleteBuffers(1, &tmp);
        /* 3. State for the next frame. */
        GLuint leak;
        glGenTextures(1, &leak);
        glBindTexture(GL_TEXTURE_2D, leak);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
        glUseProgram(prog[k % 2]);
        glUniform1f(glGetUniformLocation(prog[k % 2], "u_offset"), 0.05f * (float)(k % 5));
        glUniform4f(glGetUniformLocation(prog[k % 2], "u_color"), 0.1f * (float)(k % 7), 0.5f, 0.05f * (float)k, 1.0f);
        glViewport(k % 3, k % 4, W - 2 * (k % 5), H - (k % 6));
        if (k % 2)
            glEnable(GL_BLEND);
        else
            glDisable(GL_BLEND);
        glBlendFunc(k % 3 ? GL_ONE : GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glBindTexture(GL_TEXTURE_2D, tex[k % 2]);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        float shift[12];
        for (int i = 0; i < 12; i++)
            shift[i] = quad[0][i] * (0.5f + 0.05f * (float)(k % 9)) + (i % 2 ? 0.0f : 0.02f * (float)k);
        glBufferSubData(GL_ARRAY_BUFFER, sizeof quad[0], sizeof shift, shift);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (void *)(k % 2 ? sizeof quad[0] : 0));
        glBindTexture(GL_TEXTURE_2D, tex[0]);
        uint8_t texel[4] = { (uint8_t)(k * 40), (uint8_t)(255 - k * 30), 128, 255 };
        glTexSubImage2D(GL_TEXTURE_2D, 0, k % 4, (k / 4) % 4, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel);
        glBindTexture(GL_TEXTURE_2D, tex[(k + 1) % 2]);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }
    glfwDestroyWindow(win);
    glfwTerminate();
    return 0;
}
