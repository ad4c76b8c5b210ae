/* Textures the GPU wrote, fed records built by hand (no GL driver): a 4x4 RGBA8 texture is
 * uploaded red, drawn green through a framebuffer object, then sampled into the window. Binding
 * it again (a texture call that re-checks every texture) must keep the GPU's green; uploading
 * the very same red bytes again (glTexSubImage2D, then glTexImage2D after another GPU write)
 * must bring red back, though the bytes hash as before. A binding alone hashes no texture's bytes
 * again (gmf_runner.tex_data_epoch: OpenArena's render targets were hashed at every draw), and
 * other bytes of the same size uploaded in place of the last ones (which the allocator may put
 * at the same address) are seen. */
#include "gmf_test_feed.h"
#include "gmf_internal.h"   /* tex_hashed_bytes: how many image bytes the texture syncs hashed */

static const char *vs_src =
    "#version 430\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0,\n"
    "                                 gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";
static const char *fs_green =
    "#version 430\n"
    "out vec4 o;\n"
    "void main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n";
static const char *fs_sample =
    "#version 430\n"
    "uniform sampler2D t;\n"
    "out vec4 o;\n"
    "void main() { o = texture(t, vec2(0.5)); }\n";

static uint8_t red[4 * 4 * 4], blue[4 * 4 * 4];
static uint32_t bound = 20;   /* the texture bind_texture() binds */

static void bind_texture(struct feeder *f)
{
    struct glr_call *c = call(GLR_CMD_glBindTexture);
    c->args[0] = GL_TEXTURE_2D;
    c->args[1] = bound;
    feed(f, c);
}

static void upload_bytes(struct feeder *f, bool sub, uint8_t *bytes)
{
    struct glr_call *c = call(sub ? GLR_CMD_glTexSubImage2D : GLR_CMD_glTexImage2D);
    c->args[0] = GL_TEXTURE_2D;
    if (sub) {   /* target, level, x, y, w, h, format, type, pixels */
        c->args[4] = c->args[5] = 4;
        c->args[6] = GL_RGBA;
        c->args[7] = GL_UNSIGNED_BYTE;
        c->blobs[8].data = bytes;
        c->blobs[8].size = sizeof red;
    } else {     /* target, level, internalformat, w, h, border, format, type, pixels */
        c->args[2] = GL_RGBA8;
        c->args[3] = c->args[4] = 4;
        c->args[6] = GL_RGBA;
        c->args[7] = GL_UNSIGNED_BYTE;
        c->blobs[8].data = bytes;
        c->blobs[8].size = sizeof red;
    }
    feed(f, c);
}

static void upload(struct feeder *f, bool sub)
{
    upload_bytes(f, sub, red);
}

static void bind_fbo(struct feeder *f, uint32_t fbo)
{
    struct glr_call *c = call(GLR_CMD_glBindFramebuffer);
    c->args[0] = GL_FRAMEBUFFER;
    c->args[1] = fbo;
    feed(f, c);
    c = call(GLR_CMD_glViewport);
    c->args[2] = c->args[3] = fbo ? 4 : 8;
    feed(f, c);
}

/* glGenTextures of `name`, bound (it becomes `bound`), nearest filtering, red uploaded. */
static void new_texture(struct feeder *f, uint32_t name)
{
    static uint32_t gen_name;
    gen_name = bound = name;
    struct glr_call *c = call(GLR_CMD_glGenTextures);
    c->args[0] = 1;
    c->blobs[1].data = &gen_name;
    c->blobs[1].size = 4;
    feed(f, c);
    bind_texture(f);
    c = call(GLR_CMD_glTexParameteri);
    c->args[0] = GL_TEXTURE_2D;
    c->args[1] = GL_TEXTURE_MIN_FILTER;
    c->args[2] = GL_NEAREST;
    feed(f, c);
    upload(f, false);
}

static void run(int timing)
{
    struct feeder f;
    if (start(&f, timing) != 0)
        return;
    for (size_t i = 0; i < sizeof red; i += 4) {
        red[i] = 255;
        red[i + 3] = 255;
        blue[i + 2] = 255;
        blue[i + 3] = 255;
    }
    shader(&f, 1, GL_VERTEX_SHADER, vs_src);
    shader(&f, 2, GL_FRAGMENT_SHADER, fs_green);
    shader(&f, 3, GL_FRAGMENT_SHADER, fs_sample);
    program(&f, 4, 1, 2);
    program(&f, 5, 1, 3);
    uint32_t fbo = 30;
    new_texture(&f, 20);
    struct glr_call *c;
    c = call(GLR_CMD_glGenFramebuffers);
    c->args[0] = 1;
    c->blobs[1].data = &fbo;
    c->blobs[1].size = 4;
    feed(&f, c);
    bind_fbo(&f, fbo);
    c = call(GLR_CMD_glFramebufferTexture2D);
    c->args[0] = GL_FRAMEBUFFER;
    c->args[1] = GL_COLOR_ATTACHMENT0;
    c->args[2] = GL_TEXTURE_2D;
    c->args[3] = 20;
    feed(&f, c);
    bind_fbo(&f, 0);

    draw_expect(&f, 5, __LINE__, 255, 0, 0);   /* as uploaded */
    bind_fbo(&f, fbo);
    draw(&f, 4, __LINE__);                      /* the GPU writes green */
    bind_fbo(&f, 0);
    uint64_t hashed = f.r->tex_hashed_bytes;
    bind_texture(&f);
    draw_expect(&f, 5, __LINE__, 0, 255, 0);   /* kept over a re-check */
    CHECKF(f.r->tex_hashed_bytes == hashed, "a binding hashed %llu bytes again",
           (unsigned long long)(f.r->tex_hashed_bytes - hashed));
    upload(&f, true);
    draw_expect(&f, 5, __LINE__, 255, 0, 0);   /* same bytes uploaded again */
    bind_fbo(&f, fbo);
    draw(&f, 4, __LINE__);
    bind_fbo(&f, 0);
    draw_expect(&f, 5, __LINE__, 0, 255, 0);
    upload(&f, false);
    draw_expect(&f, 5, __LINE__, 255, 0, 0);
    /* a texture the GPU never wrote (its uploads are not forced to load again): other bytes of
     * the same size, each upload replacing the last */
    new_texture(&f, 21);
    draw_expect(&f, 5, __LINE__, 255, 0, 0);
    for (int k = 0; k < 4; k++) {
        upload_bytes(&f, k != 1, k % 2 ? red : blue);
        bind_texture(&f);
        draw_expect(&f, 5, __LINE__, k % 2 ? 255 : 0, 0, k % 2 ? 0 : 255);
    }
    bound = 20;
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
