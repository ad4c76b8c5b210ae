/* Queries, conditional rendering and GPU-side copies in the frame runner, fed records built by
 * hand (no GL driver; gmf_queries.c, gmf_copies.c, gmf_pixels.c): a full-screen triangle on the
 * 8x8 window passes 64 samples and generates 1 primitive; results land in a query buffer as
 * 32- and 64-bit values; a draw under a false condition does nothing and the inverted mode draws;
 * a read-back into a pack buffer in RGBA and BGRA, an upload from it as an unpack buffer with row
 * length and skips, glGetTexImage of that texture, buffer clears and copies give the bytes GL
 * would. With and without the timing model. */
#include "../gmf_test_feed.h"

static const char *vs_src =
    "#version 430\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0,\n"
    "                                 gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 430\n"
    "uniform vec4 color;\n"
    "out vec4 o;\n"
    "void main() { o = color; }\n";

static void u32s(struct feeder *f, uint32_t cmd, uint32_t a0, uint32_t a1, uint32_t a2)
{
    struct glr_call *c = call(cmd);
    c->args[0] = a0;
    c->args[1] = a1;
    c->args[2] = a2;
    feed(f, c);
}

static void buffer(struct feeder *f, uint32_t name, uint32_t target, uint64_t size)
{
    struct glr_call *c = call(GLR_CMD_glGenBuffers);
    c->args[0] = 1;
    c->blobs[1].data = &name;
    c->blobs[1].size = 4;
    feed(f, c);
    u32s(f, GLR_CMD_glBindBuffer, target, name, 0);
    c = call(GLR_CMD_glBufferData);
    c->args[0] = target;
    c->args[1] = size;
    c->args[3] = GL_STATIC_DRAW;
    feed(f, c);
}

static const uint8_t *bytes(struct feeder *f, uint32_t name)
{
    const struct sm_context *c = sm_context_get(gmf_state(f->r), 1);
    const struct sm_buffer *b = c ? sm_get_buffer(c, name) : NULL;
    CHECK(b && b->data_known && b->data);
    static const uint8_t zero[4096];
    return b && b->data ? b->data : zero;
}

static void color(struct feeder *f, float r, float g, float b)
{
    /* the program asked for "color" at location 0 */
    struct glr_call *c = call(GLR_CMD_glGetUniformLocation);
    c->args[0] = 3;
    c->blobs[1].data = "color";
    c->blobs[1].size = 6;
    ret(c, 0);
    feed(f, c);
    c = call(GLR_CMD_glUniform4f);
    c->args[0] = 0;
    float v[4] = { r, g, b, 1.0f };
    for (int i = 0; i < 4; i++)
        memcpy(&c->args[1 + i], &v[i], 4);
    feed(f, c);
}

static void pixel_is(struct feeder *f, int line, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(gmf_read_default(f->r, 1, &px, &w, &h) == 0 && px);
    if (!px)
        return;
    const uint8_t *p = px + 4 * (4 * 8 + 4);
    if (p[0] != r || p[1] != g || p[2] != b) {
        fprintf(stderr, "line %d: pixel %u %u %u, want %u %u %u\n", line, p[0], p[1], p[2], r, g, b);
        failures++;
    }
    free(px);
}

static void run(int timing)
{
    struct feeder f;
    if (start(&f, timing) != 0)
        return;
    struct glr_call *c;
    shader(&f, 1, GL_VERTEX_SHADER, vs_src);
    shader(&f, 2, GL_FRAGMENT_SHADER, fs_src);
    program(&f, 3, 1, 2);
    u32s(&f, GLR_CMD_glUseProgram, 3, 0, 0);

    /* queries: 64 samples, 1 primitive; an empty one: 0 */
    uint32_t q[3] = { 7, 8, 9 };
    c = call(GLR_CMD_glGenQueries);
    c->args[0] = 3;
    c->blobs[1].data = q;
    c->blobs[1].size = sizeof q;
    feed(&f, c);
    color(&f, 1, 0, 0);
    u32s(&f, GLR_CMD_glBeginQuery, GL_SAMPLES_PASSED, 7, 0);
    u32s(&f, GLR_CMD_glBeginQuery, GL_PRIMITIVES_GENERATED, 8, 0);
    draw(&f, 3, __LINE__);
    u32s(&f, GLR_CMD_glEndQuery, GL_PRIMITIVES_GENERATED, 0, 0);
    u32s(&f, GLR_CMD_glEndQuery, GL_SAMPLES_PASSED, 0, 0);
    u32s(&f, GLR_CMD_glBeginQuery, GL_ANY_SAMPLES_PASSED, 9, 0);
    u32s(&f, GLR_CMD_glEndQuery, GL_ANY_SAMPLES_PASSED, 0, 0);
    buffer(&f, 20, GL_QUERY_BUFFER, 32);
    u32s(&f, GLR_CMD_glGetQueryObjectuiv, 7, GL_QUERY_RESULT, 0);   /* offset 0 */
    c = call(GLR_CMD_glGetQueryBufferObjectui64v);
    c->args[0] = 8;
    c->args[1] = 20;
    c->args[2] = GL_QUERY_RESULT;
    c->args[3] = 8;
    feed(&f, c);
    u32s(&f, GLR_CMD_glGetQueryObjectiv, 9, GL_QUERY_RESULT_AVAILABLE, 16);
    const uint8_t *qb = bytes(&f, 20);
    uint32_t samples, avail;
    uint64_t prims;
    memcpy(&samples, qb, 4);
    memcpy(&prims, qb + 8, 8);
    memcpy(&avail, qb + 16, 4);
    CHECK(samples == 64);
    CHECK(prims == 1);
    CHECK(avail == 1);

    /* conditional rendering on the empty query: skipped, then drawn inverted */
    color(&f, 0, 1, 0);
    u32s(&f, GLR_CMD_glBeginConditionalRender, 9, GL_QUERY_WAIT, 0);
    c = call(GLR_CMD_glDrawArrays);
    c->args[0] = GL_TRIANGLES;
    c->args[2] = 3;
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DRAW);
    u32s(&f, GLR_CMD_glEndConditionalRender, 0, 0, 0);
    pixel_is(&f, __LINE__, 255, 0, 0);
    u32s(&f, GLR_CMD_glBeginConditionalRender, 9, GL_QUERY_NO_WAIT_INVERTED, 0);
    draw(&f, 3, __LINE__);
    u32s(&f, GLR_CMD_glEndConditionalRender, 0, 0, 0);
    pixel_is(&f, __LINE__, 0, 255, 0);
    /* on the 64-sample query: drawn */
    color(&f, 0.2f, 0.4f, 0.6f);
    u32s(&f, GLR_CMD_glBeginConditionalRender, 7, GL_QUERY_BY_REGION_WAIT, 0);
    draw(&f, 3, __LINE__);
    u32s(&f, GLR_CMD_glEndConditionalRender, 0, 0, 0);
    pixel_is(&f, __LINE__, 51, 102, 153);

    /* read-backs into a pack buffer: RGBA at 0, BGRA at 256 */
    buffer(&f, 21, GL_PIXEL_PACK_BUFFER, 1024);
    c = call(GLR_CMD_glReadPixels);
    c->args[0] = 2; c->args[1] = 3; c->args[2] = 4; c->args[3] = 2;
    c->args[4] = GL_RGBA; c->args[5] = GL_UNSIGNED_BYTE; c->args[6] = 0;
    feed(&f, c);
    c = call(GLR_CMD_glReadPixels);
    c->args[0] = 2; c->args[1] = 3; c->args[2] = 4; c->args[3] = 2;
    c->args[4] = GL_BGRA; c->args[5] = GL_UNSIGNED_BYTE; c->args[6] = 256;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 0);
    const uint8_t *pb = bytes(&f, 21);
    CHECK(pb[0] == 51 && pb[1] == 102 && pb[2] == 153 && pb[3] == 255);
    CHECK(pb[28] == 51 && pb[31] == 255);
    CHECK(pb[256] == 153 && pb[257] == 102 && pb[258] == 51);
    /* an unsupported type is reported on the call */
    c = call(GLR_CMD_glReadPixels);
    c->args[2] = 1; c->args[3] = 1;
    c->args[4] = GL_RGBA; c->args[5] = GL_UNSIGNED_INT_5_9_9_9_REV; c->args[6] = 512;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 1);

    /* upload from it as an unpack buffer (row length 4, skip 1 pixel: pixels 1..2 of each row)
     * into a 2x2 texture, then glGetTexImage of it into the pack buffer at 512 */
    u32s(&f, GLR_CMD_glBindBuffer, GL_PIXEL_UNPACK_BUFFER, 21, 0);
    c = call(GLR_CMD_glGenTextures);
    c->args[0] = 1;
    uint32_t tex = 30;
    c->blobs[1].data = &tex;
    c->blobs[1].size = 4;
    feed(&f, c);
    u32s(&f, GLR_CMD_glBindTexture, GL_TEXTURE_2D, 30, 0);
    c = call(GLR_CMD_glTexStorage2D);
    c->args[0] = GL_TEXTURE_2D; c->args[1] = 1; c->args[2] = GL_RGBA8; c->args[3] = 2; c->args[4] = 2;
    feed(&f, c);
    u32s(&f, GLR_CMD_glPixelStorei, GL_UNPACK_ROW_LENGTH, 4, 0);
    u32s(&f, GLR_CMD_glPixelStorei, GL_UNPACK_SKIP_PIXELS, 1, 0);
    c = call(GLR_CMD_glTexSubImage2D);
    c->args[0] = GL_TEXTURE_2D; c->args[2] = 0; c->args[3] = 0; c->args[4] = 2; c->args[5] = 2;
    c->args[6] = GL_BGRA; c->args[7] = GL_UNSIGNED_BYTE; c->args[8] = 256;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 0);
    c = call(GLR_CMD_glGetTexImage);
    c->args[0] = GL_TEXTURE_2D; c->args[2] = GL_RGBA; c->args[3] = GL_FLOAT; c->args[4] = 512;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 0);
    pb = bytes(&f, 21);
    float fv[4];
    memcpy(fv, pb + 512 + 16 * 3, 16);
    CHECK(fv[0] > 0.1999f && fv[0] < 0.2001f && fv[1] > 0.3999f && fv[1] < 0.4001f);
    CHECK(fv[2] > 0.5999f && fv[2] < 0.6001f && fv[3] == 1.0f);
    /* a partial upload from client memory (the state model keeps no whole image of it) */
    u32s(&f, GLR_CMD_glBindBuffer, GL_PIXEL_UNPACK_BUFFER, 0, 0);
    u32s(&f, GLR_CMD_glPixelStorei, GL_UNPACK_ROW_LENGTH, 0, 0);
    u32s(&f, GLR_CMD_glPixelStorei, GL_UNPACK_SKIP_PIXELS, 0, 0);
    const uint8_t texel[4] = { 10, 20, 30, 40 };
    c = call(GLR_CMD_glTexSubImage2D);
    c->args[0] = GL_TEXTURE_2D; c->args[2] = 1; c->args[3] = 0; c->args[4] = 1; c->args[5] = 1;
    c->args[6] = GL_RGBA; c->args[7] = GL_UNSIGNED_BYTE; c->args[8] = 0x1000;
    c->blobs[8].data = texel;
    c->blobs[8].size = 4;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 0);
    c = call(GLR_CMD_glGetTexImage);
    c->args[0] = GL_TEXTURE_2D; c->args[2] = GL_RGBA; c->args[3] = GL_UNSIGNED_BYTE; c->args[4] = 768;
    feed(&f, c);
    pb = bytes(&f, 21);
    CHECK(pb[768] == 51 && pb[769] == 102 && pb[770] == 153);
    CHECK(pb[772] == 10 && pb[773] == 20 && pb[774] == 30 && pb[775] == 40);

    /* buffer clears and copies */
    buffer(&f, 22, GL_COPY_WRITE_BUFFER, 64);
    c = call(GLR_CMD_glClearNamedBufferSubData);
    float one = 1.5f;
    c->args[0] = 22; c->args[1] = GL_R32F; c->args[2] = 8; c->args[3] = 16;
    c->args[4] = GL_RED; c->args[5] = GL_FLOAT; c->args[6] = 1;
    c->blobs[6].data = &one;
    c->blobs[6].size = 4;
    feed(&f, c);
    u32s(&f, GLR_CMD_glBindBuffer, GL_COPY_READ_BUFFER, 21, 0);
    c = call(GLR_CMD_glCopyBufferSubData);
    c->args[0] = GL_COPY_READ_BUFFER; c->args[1] = GL_COPY_WRITE_BUFFER;
    c->args[2] = 256; c->args[3] = 32; c->args[4] = 4;
    feed(&f, c);
    CHECK(f.ev.n_unsupported == 0);
    const uint8_t *cb = bytes(&f, 22);
    float fl[6];
    memcpy(fl, cb, sizeof fl);
    CHECK(fl[0] == 0.0f && fl[1] == 0.0f && fl[2] == 1.5f && fl[5] == 1.5f);
    CHECK(cb[24] == 0 && cb[32] == 153 && cb[34] == 51);
    gmf_destroy(f.r);
}

int main(void)
{
    run(1);
    run(0);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
