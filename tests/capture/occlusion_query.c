/* A program that tests last frame's queries in this frame, as engines doing occlusion culling do:
 * two sets of query objects alternate; each frame draws one quad only if last frame's occlusion
 * query passed (conditional rendering), copies last frame's sample count and primitives-generated
 * count into a query buffer read by a shader as uniform data, then issues this frame's queries
 * (whose results change from frame to frame: the occlusion test quad is hidden behind an occluder
 * on odd frames). A capture that starts mid-run must carry the results the previous frame left.
 * Also, as feedback effects do, each frame's image is read into a pixel pack buffer and shown by
 * the next frame as a texture: a read-back into a buffer is a write the replay must make too.
 * EGL surfaceless pbuffer, GL 4.5 core. Usage: occlusion_query FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 450 core\n"
    "uniform vec4 rect;   /* x0 y0 x1 y1 in NDC */\n"
    "uniform float depth;\n"
    "void main() {\n"
    "    int i = gl_VertexID & 3;\n"
    "    gl_Position = vec4(mix(rect.x, rect.z, float(i & 1)), mix(rect.y, rect.w, float(i >> 1)), depth, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 450 core\n"
    "layout(std140, binding = 0) uniform Counts { uvec4 counts; };\n"
    "uniform int mode;   /* 0: flat colour, 1: colour from last frame's query results, 2: last image */\n"
    "uniform sampler2D last;\n"
    "uniform vec4 color;\n"
    "out vec4 frag;\n"
    "void main() {\n"
    "    if (mode == 0) { frag = color; return; }\n"
    "    if (mode == 2) { frag = texelFetch(last, ivec2(gl_FragCoord.xy) * 3 % ivec2(96, 64), 0); return; }\n"
    "    frag = vec4(float(counts.x % 251u) / 250.0, float((counts.x / 251u) % 251u) / 250.0,\n"
    "                float(counts.y % 251u) / 250.0, 1.0);\n"
    "}\n";

static GLint u_rect, u_depth, u_mode, u_color;

static void quad(float x0, float y0, float x1, float y1, float depth, int mode, float r, float g, float b)
{
    glUniform4f(u_rect, x0, y0, x1, y1);
    glUniform1f(u_depth, depth);
    glUniform1i(u_mode, mode);
    glUniform4f(u_color, r, g, b, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 8;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "occlusion_query", 96, 64, 24, 4, 5, 1) != 0)
        return 1;
    GLuint prog = glt_program("occlusion_query", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    glUseProgram(prog);
    u_rect = glGetUniformLocation(prog, "rect");
    u_depth = glGetUniformLocation(prog, "depth");
    u_mode = glGetUniformLocation(prog, "mode");
    u_color = glGetUniformLocation(prog, "color");
    GLuint vao, counts;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &counts);
    glBindBuffer(GL_QUERY_BUFFER, counts);
    glBufferData(GL_QUERY_BUFFER, 16, NULL, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, counts);
    GLuint occ[2], prims[2], any[2];
    glGenQueries(2, occ);
    glGenQueries(2, prims);
    glGenQueries(2, any);
    glEnable(GL_DEPTH_TEST);
    GLuint pbo, tex;
    glGenBuffers(1, &pbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
    glBufferData(GL_PIXEL_PACK_BUFFER, 96 * 64 * 4, NULL, GL_STREAM_COPY);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 96, 64);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        int cur = f & 1, prev = cur ^ 1;
        glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (f > 0) {
            /* Last frame's results decide what this frame shows. */
            glBeginConditionalRender(occ[prev], GL_QUERY_WAIT);
            quad(-0.95f, 0.3f, -0.55f, 0.9f, 0.2f, 0, 0.1f, 0.9f, 0.2f);
            glEndConditionalRender();
            glBeginConditionalRender(any[prev], GL_QUERY_WAIT);
            quad(-0.45f, 0.3f, -0.05f, 0.9f, 0.2f, 0, 0.9f, 0.8f, 0.1f);
            glEndConditionalRender();
            glGetQueryObjectuiv(occ[prev], GL_QUERY_RESULT, (GLuint *)0);
            glGetQueryObjectuiv(prims[prev], GL_QUERY_RESULT, (GLuint *)4);
            glMemoryBarrier(GL_UNIFORM_BARRIER_BIT | GL_QUERY_BUFFER_BARRIER_BIT);
            quad(0.05f, 0.3f, 0.95f, 0.9f, 0.2f, 1, 0, 0, 0);
            /* Last frame's image, from the pack buffer it was read into. */
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
            glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 96, 64, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
            glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
            quad(0.3f, -0.9f, 0.95f, -0.4f, 0.05f, 2, 0, 0, 0);
        }
        /* This frame's queries: an occluder, then a test quad behind it on odd frames (0 samples)
         * or beside it on even ones (a size that changes with the frame). */
        quad(-0.9f, -0.9f, -0.1f, 0.0f, 0.1f, 0, 0.3f, 0.3f, 0.8f);
        float w = 0.1f + 0.05f * (float)(f % 5);
        glBeginQuery(GL_SAMPLES_PASSED, occ[cur]);
        glBeginQuery(GL_PRIMITIVES_GENERATED, prims[cur]);
        if (f & 1)
            quad(-0.8f, -0.8f, -0.8f + w, -0.2f, 0.5f, 0, 0.8f, 0.2f, 0.2f);
        else
            quad(0.1f, -0.8f, 0.1f + w, -0.2f, 0.5f, 0, 0.8f, 0.2f, 0.2f);
        for (int k = 0; k < f % 3; k++)
            quad(0.9f, -0.9f, 0.95f, -0.85f, 0.5f, 0, 0.5f, 0.5f, 0.5f);
        glEndQuery(GL_PRIMITIVES_GENERATED);
        glEndQuery(GL_SAMPLES_PASSED);
        glBeginQuery(GL_ANY_SAMPLES_PASSED, any[cur]);
        quad(-0.7f, -0.7f, -0.6f, -0.6f, (f & 2) ? 0.5f : 0.0f, 0, 0.2f, 0.8f, 0.8f);
        glEndQuery(GL_ANY_SAMPLES_PASSED);

        glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
        glReadPixels(0, 0, 96, 64, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        unsigned char px[96 * 64 * 4];
        glReadPixels(0, 0, 96, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i++)
            checksum = checksum * 31 + px[i];
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    GLuint last = 0;
    glBindBuffer(GL_QUERY_BUFFER, 0);   /* a result read into client memory now */
    glGetQueryObjectuiv(occ[(frames - 1) & 1], GL_QUERY_RESULT_NO_WAIT, &last);
    printf("occlusion_query: %d frames, checksum %lu, last count %u\n", frames, checksum, last);
    glt_egl_close(&egl);
    return 0;
}
