/* Every class of pointer-or-offset parameter, called with a buffer bound and a non-zero offset (a
 * value that is not an address: reading it as client memory crashes). A recorder that copies
 * "client memory" from these pointers kills the program; natively it runs and exits 0.
 *   vertex arrays: glVertexAttribPointer / IPointer / LPointer, glVertexPointer, glColorPointer
 *   indices: glDrawElements, glDrawRangeElements, glDrawElementsBaseVertex,
 *            glDrawElementsInstancedBaseInstance, glDrawElementsInstancedBaseVertexBaseInstance,
 *            glMultiDrawElements (an array of offsets)
 *   indirect commands: glDrawArraysIndirect, glDrawElementsIndirect, glMultiDrawArraysIndirect
 *   pixel unpack: glTexImage2D, glTexSubImage2D, glCompressedTexImage2D, glCompressedTexSubImage2D,
 *                 glDrawPixels, glBitmap,
 *                 glPolygonStipple
 *   pixel pack: glReadPixels, glGetTexImage; query buffer: glGetQueryObjectuiv
 * and inputs the registry leaves to COMPSIZE or gives no len: glGetUniformIndices, glNamedBufferData.
 * Compatibility context on EGL surfaceless (no X server). Each frame draws the same picture and
 * prints a checksum of what the pack and query buffers received. Usage: offset_pointers FRAMES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

#define PAD 256   /* every datum sits this far into its buffer: offsets are never 0 */
#define OFF(x) ((void *)(uintptr_t)(x))

static const char *vs_src =
    "#version 450 compatibility\n"
    "layout(location = 0) in vec2 pos;\n"
    "layout(location = 1) in ivec2 ic;\n"
    "layout(location = 2) in dvec2 dc;\n"
    "out vec4 col;\n"
    "void main() {\n"
    "  col = vec4(float(ic.x) / 255.0, float(dc.y), float(ic.y) / 255.0, 1.0);\n"
    "  gl_Position = vec4(pos + vec2(0.05 * float(gl_InstanceID), 0.0), 0.0, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 450 compatibility\n"
    "in vec4 col;\n"
    "uniform sampler2D tex;\n"
    "out vec4 frag;\n"
    "void main() { frag = 0.5 * col + 0.5 * texture(tex, vec2(0.3, 0.6)); }\n";

/* A buffer of `bytes` bytes preceded by PAD bytes of zeros, bound to target. */
static GLuint padded_buffer(GLenum target, const void *data, size_t bytes)
{
    GLuint b;
    glGenBuffers(1, &b);
    glBindBuffer(target, b);
    glBufferData(target, (GLsizeiptr)(PAD + bytes), NULL, GL_STATIC_DRAW);
    glBufferSubData(target, PAD, (GLsizeiptr)bytes, data);
    return b;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 4;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "offset_pointers", 64, 64, 0, 0, 0, 0) != 0)
        return 1;
    GLuint prog = glt_program("offset_pointers", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);

    /* 12 triangles in a row, 36 vertices: position (float), colour (int), green (double). */
    float pos[36][2];
    int32_t ic[36][2];
    double dc[36][2];
    for (int t = 0; t < 12; t++)
        for (int k = 0; k < 3; k++) {
            int v = t * 3 + k;
            float x0 = -0.95f + 0.16f * (float)t;
            pos[v][0] = x0 + (k == 1 ? 0.14f : 0.0f);
            pos[v][1] = (t % 2 ? -0.9f : 0.1f) + (k == 2 ? 0.7f : 0.0f);
            ic[v][0] = 20 * t;
            ic[v][1] = 255 - 20 * t;
            dc[v][0] = 0.0;
            dc[v][1] = 0.08 * t;
        }
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    GLuint vb_pos = padded_buffer(GL_ARRAY_BUFFER, pos, sizeof pos);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, OFF(PAD));
    GLuint vb_ic = padded_buffer(GL_ARRAY_BUFFER, ic, sizeof ic);
    glVertexAttribIPointer(1, 2, GL_INT, 0, OFF(PAD));
    GLuint vb_dc = padded_buffer(GL_ARRAY_BUFFER, dc, sizeof dc);
    glVertexAttribLPointer(2, 2, GL_DOUBLE, 0, OFF(PAD));
    for (GLuint i = 0; i < 3; i++)
        glEnableVertexAttribArray(i);

    /* Indices: triangle t is indices 3t..3t+2 (base vertex 0). */
    GLuint idx[36];
    for (int i = 0; i < 36; i++)
        idx[i] = (GLuint)i;
    GLuint ebo = padded_buffer(GL_ELEMENT_ARRAY_BUFFER, idx, sizeof idx);

    /* Indirect commands: DrawArrays {count, instances, first, baseInstance} for triangle 6;
     * DrawElements {count, instances, firstIndex, baseVertex, baseInstance} for triangle 7; two
     * DrawArrays commands for triangles 8 and 9. */
    GLuint cmds[13] = { 3, 1, 18, 0, 3, 1, 21, 0, 0, 3, 1, 24, 0 };
    GLuint cmds_tail[4] = { 3, 1, 27, 0 };
    GLuint ibo = padded_buffer(GL_DRAW_INDIRECT_BUFFER, cmds, sizeof cmds + sizeof cmds_tail);
    glBufferSubData(GL_DRAW_INDIRECT_BUFFER, PAD + sizeof cmds, sizeof cmds_tail, cmds_tail);

    /* Pixel unpack: a 4x4 RGBA8 texture, a sub-image, an ETC2 block, a DrawPixels image, a bitmap,
     * a stipple, all from one unpack buffer. */
    uint8_t texels[4 * 4 * 4], sub[2 * 2 * 4], draw_px[8 * 8 * 4], bits[8], stipple[128];
    for (size_t i = 0; i < sizeof texels; i++)
        texels[i] = (uint8_t)(i * 13);
    memset(sub, 200, sizeof sub);
    for (size_t i = 0; i < sizeof draw_px; i++)
        draw_px[i] = (uint8_t)(255 - i);
    memset(bits, 0xA5, sizeof bits);
    memset(stipple, 0xFF, sizeof stipple);
    const uint8_t etc2[16] = { 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x80, 0x40, 0x20, 0x10, 0, 0, 0, 0 };
    uint8_t unpack[1024] = { 0 };
    memcpy(unpack, texels, sizeof texels);              /* at PAD + 0 */
    memcpy(unpack + 64, sub, sizeof sub);               /* at PAD + 64 */
    memcpy(unpack + 96, etc2, sizeof etc2);             /* at PAD + 96 */
    memcpy(unpack + 128, draw_px, sizeof draw_px);      /* at PAD + 128 */
    memcpy(unpack + 384, bits, sizeof bits);            /* at PAD + 384 */
    memcpy(unpack + 400, stipple, sizeof stipple);      /* at PAD + 400 */
    GLuint pbo_unpack = padded_buffer(GL_PIXEL_UNPACK_BUFFER, unpack, sizeof unpack);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

    GLuint pbo_pack;
    glGenBuffers(1, &pbo_pack);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo_pack);
    glBufferData(GL_PIXEL_PACK_BUFFER, PAD + 4096, NULL, GL_STREAM_READ);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    GLuint qbo, query;
    glGenBuffers(1, &qbo);
    glBindBuffer(GL_QUERY_BUFFER, qbo);
    glBufferData(GL_QUERY_BUFFER, PAD + 16, NULL, GL_STREAM_READ);
    glBindBuffer(GL_QUERY_BUFFER, 0);
    glGenQueries(1, &query);

    GLuint tex, etc_tex;
    glGenTextures(1, &tex);
    glGenTextures(1, &etc_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_unpack);
        glBindTexture(GL_TEXTURE_2D, tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, OFF(PAD));
        glTexSubImage2D(GL_TEXTURE_2D, 0, 1, 1, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, OFF(PAD + 64));
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glBindTexture(GL_TEXTURE_2D, etc_tex);
        glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 0, 16, OFF(PAD + 96));
        glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGBA8_ETC2_EAC, 16, OFF(PAD + 96));
        glBindTexture(GL_TEXTURE_2D, tex);

        glClearColor(0.1f, 0.1f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        /* Fixed-function pieces with the unpack buffer: pixels, a bitmap, a stipple. */
        glUseProgram(0);
        glWindowPos2i(2, 2);
        glDrawPixels(8, 8, GL_RGBA, GL_UNSIGNED_BYTE, OFF(PAD + 128));
        glColor3f(1.0f, 1.0f, 0.0f);
        glWindowPos2i(20, 2);
        glBitmap(8, 8, 0, 0, 0, 0, (const GLubyte *)OFF(PAD + 384));
        glPolygonStipple((const GLubyte *)OFF(PAD + 400));
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);

        /* Legacy arrays from the position buffer (triangle 11 through glVertexPointer). */
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, vb_pos);
        glVertexPointer(2, GL_FLOAT, 0, OFF(PAD + 33 * 8));
        glBindBuffer(GL_ARRAY_BUFFER, vb_ic);
        glColorPointer(3, GL_UNSIGNED_BYTE, 8, OFF(PAD + 33 * 8));
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisableClientState(GL_VERTEX_ARRAY);
        glDisableClientState(GL_COLOR_ARRAY);
        glBindBuffer(GL_ARRAY_BUFFER, 0);

        glUseProgram(prog);
        /* Inputs the registry sizes only by COMPSIZE or not at all: a name array counted by
         * uniformCount, a direct-state-access upload. */
        const GLchar *names[2] = { "tex", "no_such_uniform" };
        GLuint uidx[2];
        glGetUniformIndices(prog, 2, names, uidx);
        checksum = checksum * 31 + uidx[1];
        glNamedBufferData(pbo_pack, PAD + 4096, NULL, GL_STREAM_READ);
        glBindVertexArray(vao);
        glBeginQuery(GL_SAMPLES_PASSED, query);
        glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, OFF(PAD + 0 * 12));
        glDrawRangeElements(GL_TRIANGLES, 3, 5, 3, GL_UNSIGNED_INT, OFF(PAD + 1 * 12));
        glDrawElementsBaseVertex(GL_TRIANGLES, 3, GL_UNSIGNED_INT, OFF(PAD + 0 * 12), 6);
        glDrawElementsInstancedBaseInstance(GL_TRIANGLES, 3, GL_UNSIGNED_INT, OFF(PAD + 3 * 12), 2, 0);
        glDrawElementsInstancedBaseVertexBaseInstance(GL_TRIANGLES, 3, GL_UNSIGNED_INT, OFF(PAD + 0 * 12), 1, 12, 0);
        const GLsizei mcount[2] = { 3, 3 };
        const void *moffs[2] = { OFF(PAD + 10 * 12), OFF(PAD + 10 * 12) };
        glMultiDrawElements(GL_TRIANGLES, mcount, GL_UNSIGNED_INT, moffs, 2);
        glDrawArraysIndirect(GL_TRIANGLES, OFF(PAD));
        glDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, OFF(PAD + 16));
        glMultiDrawArraysIndirect(GL_TRIANGLES, OFF(PAD + 36), 2, 16);
        glEndQuery(GL_SAMPLES_PASSED);

        /* Read-backs into the pack and query buffers at offsets. */
        glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo_pack);
        glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, OFF(PAD));
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, OFF(PAD + 2048));
        glBindBuffer(GL_QUERY_BUFFER, qbo);
        glGetQueryObjectuiv(query, GL_QUERY_RESULT, (GLuint *)OFF(PAD + 8));
        glBindBuffer(GL_QUERY_BUFFER, 0);
        uint8_t got[16 * 16 * 4 + 64];
        glGetBufferSubData(GL_PIXEL_PACK_BUFFER, PAD, 16 * 16 * 4, got);
        glGetBufferSubData(GL_PIXEL_PACK_BUFFER, PAD + 2048, 64, got + 16 * 16 * 4);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        GLuint samples = 0;
        glBindBuffer(GL_COPY_READ_BUFFER, qbo);
        glGetBufferSubData(GL_COPY_READ_BUFFER, PAD + 8, 4, &samples);
        for (size_t i = 0; i < sizeof got; i++)
            checksum = checksum * 31 + got[i];
        checksum = checksum * 31 + samples;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    GLenum err = glGetError();
    printf("offset_pointers: %d frames, checksum %lu, GL error 0x%04x\n", frames, checksum, err);
    (void)vb_dc;
    (void)ibo;
    (void)ebo;
    glt_egl_close(&egl);
    return err == GL_NO_ERROR ? 0 : 1;
}
