/* Draws left out (gmf_set_skip_draws, gmf_skip.c), fed records built by hand (no GL driver): a
 * draw into a framebuffer object with skipping on is counted (draw index) but draws nothing; the
 * texture then takes an image fed as the pixel history feeds the driver's (kind 6, level 0 by
 * name); a draw whose fragment shader stores to a storage block is drawn though skipping is on. */
#include "gmf_test_feed.h"

static const char *vs_src =
    "#version 430\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0,\n"
    "                                 gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";
static const char *fs_green =
    "#version 430\n"
    "out vec4 o;\n"
    "void main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n";
/* stores to a storage block (never at run time): a side effect, so never left out */
static const char *fs_store =
    "#version 430\n"
    "layout(std430, binding = 0) buffer B { uint n; } b;\n"
    "out vec4 o;\n"
    "void main() { if (gl_FragCoord.x < -1.0) b.n = 1u; o = vec4(0.0, 0.0, 1.0, 1.0); }\n";
static const char *fs_sample =
    "#version 430\n"
    "uniform sampler2D t;\n"
    "out vec4 o;\n"
    "void main() { o = texture(t, vec2(0.5)); }\n";

static uint8_t red[4 * 4 * 4];

static void bind_texture(struct feeder *f)
{
    struct glr_call *c = call(GLR_CMD_glBindTexture);
    c->args[0] = GL_TEXTURE_2D;
    c->args[1] = 20;
    feed(f, c);
}

static void upload(struct feeder *f, bool sub)
{
    struct glr_call *c = call(sub ? GLR_CMD_glTexSubImage2D : GLR_CMD_glTexImage2D);
    c->args[0] = GL_TEXTURE_2D;
    if (sub) {   /* target, level, x, y, w, h, format, type, pixels */
        c->args[4] = c->args[5] = 4;
        c->args[6] = GL_RGBA;
        c->args[7] = GL_UNSIGNED_BYTE;
        c->blobs[8].data = red;
        c->blobs[8].size = sizeof red;
    } else {     /* target, level, internalformat, w, h, border, format, type, pixels */
        c->args[2] = GL_RGBA8;
        c->args[3] = c->args[4] = 4;
        c->args[6] = GL_RGBA;
        c->args[7] = GL_UNSIGNED_BYTE;
        c->blobs[8].data = red;
        c->blobs[8].size = sizeof red;
    }
    feed(f, c);
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

static void run(int timing)
{
    struct feeder f;
    if (start(&f, timing) != 0)
        return;
    for (size_t i = 0; i < sizeof red; i += 4) {
        red[i] = 255;
        red[i + 3] = 255;
    }
    shader(&f, 1, GL_VERTEX_SHADER, vs_src);
    shader(&f, 2, GL_FRAGMENT_SHADER, fs_green);
    shader(&f, 3, GL_FRAGMENT_SHADER, fs_sample);
    shader(&f, 6, GL_FRAGMENT_SHADER, fs_store);
    program(&f, 4, 1, 2);
    program(&f, 5, 1, 3);
    program(&f, 7, 1, 6);
    uint32_t tex = 20, fbo = 30;
    struct glr_call *c = call(GLR_CMD_glGenTextures);
    c->args[0] = 1;
    c->blobs[1].data = &tex;
    c->blobs[1].size = 4;
    feed(&f, c);
    bind_texture(&f);
    c = call(GLR_CMD_glTexParameteri);
    c->args[0] = GL_TEXTURE_2D;
    c->args[1] = GL_TEXTURE_MIN_FILTER;
    c->args[2] = GL_NEAREST;
    feed(&f, c);
    upload(&f, false);
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
    c->args[3] = tex;
    feed(&f, c);

    /* left out: counted as a draw, nothing drawn (the texture stays red) */
    gmf_set_skip_draws(f.r, true);
    draw(&f, 4, __LINE__);
    CHECK(f.ev.skipped && f.ev.draw == 0 && f.ev.stats.fs_lanes == 0);
    gmf_set_skip_draws(f.r, false);
    bind_fbo(&f, 0);
    draw_expect(&f, 5, __LINE__, 255, 0, 0);
    CHECK(!f.ev.skipped && f.ev.draw == 1);

    /* the image the pixel history takes from the driver instead: level 0 by name */
    uint8_t green[4 * 4 * 4];
    for (size_t i = 0; i < sizeof green; i += 4) {
        green[i] = green[i + 2] = 0;
        green[i + 1] = green[i + 3] = 255;
    }
    gmf_content ct = { 6, 1, tex, 4, 4, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, green, sizeof green, 0, 0 };
    CHECK(gmf_feed_initial_contents(f.r, &ct, 1) == 1);
    draw_expect(&f, 5, __LINE__, 0, 255, 0);

    /* a draw with a side effect is drawn though skipping is on */
    uint32_t buf = 40, zero = 0;
    c = call(GLR_CMD_glGenBuffers);
    c->args[0] = 1;
    c->blobs[1].data = &buf;
    c->blobs[1].size = 4;
    feed(&f, c);
    c = call(GLR_CMD_glBindBufferBase);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = 0;
    c->args[2] = buf;
    feed(&f, c);
    c = call(GLR_CMD_glBufferData);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = 4;
    c->blobs[2].data = &zero;
    c->blobs[2].size = 4;
    c->args[3] = GL_DYNAMIC_DRAW;
    feed(&f, c);
    bind_fbo(&f, fbo);
    gmf_set_skip_draws(f.r, true);
    draw(&f, 7, __LINE__);
    CHECK(!f.ev.skipped && f.ev.stats.fs_lanes > 0);
    gmf_set_skip_draws(f.r, false);
    bind_fbo(&f, 0);
    draw_expect(&f, 5, __LINE__, 0, 0, 255);
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
