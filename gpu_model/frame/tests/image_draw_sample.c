/* image_draw_sample: image load/store/atomics from draws (vertex and fragment shaders), for the
 * GPU model's e2e test (`glreplay model --compare` must agree with llvmpipe). EGL surfaceless
 * with a pbuffer, GL 4.3 core, no X server. Each frame:
 *  1. a full-screen draw whose fragment shader stores a pattern at its own pixel of an RGBA8
 *     image (imageStore: one writer per texel, so the result does not depend on the order),
 *     counts its fragments with imageAtomicAdd into an R32UI image, and imageLoads a second
 *     RGBA8 image written by the previous frame; its colour output is discarded by a colour mask;
 *  2. glMemoryBarrier, then a draw that samples both images (texelFetch) into the window.
 * Usage: image_draw_sample [--frames N] [--size WxH] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../tests/support/gl_test_util.h"

static const char *quad_vs =
    "#version 430 core\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0,"
    " 0.0, 1.0); }\n";
static const char *write_fs =
    "#version 430 core\n"
    "layout(binding = 0, rgba8) uniform writeonly image2D pattern;\n"
    "layout(binding = 1, r32ui) uniform coherent uimage2D counter;\n"
    "layout(binding = 2, rgba8) uniform readonly image2D previous;\n"
    "uniform float t;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  vec4 prev = imageLoad(previous, p);\n"
    "  vec2 f = fract(gl_FragCoord.xy / vec2(13.0, 7.0) + t);\n"
    "  imageStore(pattern, p, vec4(f, 0.5 * prev.r + 0.25, 1.0));\n"
    "  imageAtomicAdd(counter, ivec2(p.x & 3, 0), uint(1 + (p.y & 1)));\n"
    "  o = vec4(1.0);\n"
    "}\n";
static const char *show_fs =
    "#version 430 core\n"
    "layout(binding = 0) uniform sampler2D pattern;\n"
    "layout(binding = 1) uniform usampler2D counter;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  uint c = texelFetch(counter, ivec2(p.x & 3, 0), 0).r;\n"
    "  o = vec4(texelFetch(pattern, p, 0).rgb * 0.8 + vec3(float(c % 251u) / 250.0) * 0.2, 1.0);\n"
    "}\n";

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

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "image_draw_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: image_draw_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "image_draw_sample", width, height, 0, 4, 3, 1) != 0)
        return 1;
    GLuint write = glt_program("image_draw_sample", GL_VERTEX_SHADER, quad_vs, GL_FRAGMENT_SHADER, write_fs);
    GLuint show = glt_program("image_draw_sample", GL_VERTEX_SHADER, quad_vs, GL_FRAGMENT_SHADER, show_fs);
    GLint t_loc = glGetUniformLocation(write, "t");
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLuint img[2] = { texture(GL_RGBA8, width, height), texture(GL_RGBA8, width, height) };
    GLuint counter = texture(GL_R32UI, 4, 1);
    uint8_t *zero = calloc((size_t)width * (size_t)height, 4);
    if (!zero)
        return 1;
    for (int k = 0; k < 2; k++) {
        glBindTexture(GL_TEXTURE_2D, img[k]);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, zero);
    }
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        GLuint cur = img[f & 1], prev = img[(f + 1) & 1];
        const uint32_t base[4] = { (uint32_t)f, 0, 7, 100 };
        glBindTexture(GL_TEXTURE_2D, counter);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, base);
        glViewport(0, 0, width, height);
        glClearColor(0.0f, 0.1f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(write);
        glUniform1f(t_loc, 0.1f * (float)f);
        glBindImageTexture(0, cur, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glBindImageTexture(1, counter, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
        glBindImageTexture(2, prev, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        glUseProgram(show);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, cur);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, counter);
        glActiveTexture(GL_TEXTURE0);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        unsigned char px[4];
        glReadPixels(width / 2, height / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = checksum * 31 + px[0] + px[1] * 7u + px[2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("image_draw_sample: %d frames, checksum %lu\n", frames, checksum);
    free(zero);
    glt_egl_close(&egl);
    return 0;
}
