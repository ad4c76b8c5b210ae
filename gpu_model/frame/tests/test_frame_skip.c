/* Draws left out (gmf_set_skip_draws, gmf_skip.c), fed records built by hand (no GL driver): a
 * draw into a framebuffer object with skipping on is counted (draw index) but draws nothing; the
 * texture then takes an image fed as the pixel history feeds the driver's (kind 6, level 0 by
 * name); a draw whose fragment shader stores to a storage block is drawn though skipping is on;
 * kind 8 writes one layer of an array texture, or every layer, and nothing out of range. */
#include "gmf_test_feed.h"
#include "gmf_internal.h"   /* gmf_tex_sync: the texture's images as the model holds them */

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

/* Kind 8 (the pixel history's images of earlier passes): one layer of an array texture, or every
 * layer (layer -1, a plane each); out of range or short: not written. */
static void layer_contents(void)
{
    struct feeder f;
    if (start(&f, 0) != 0)
        return;
    enum { N = 4 * 4 * 4 };
    static uint8_t init[3 * N], one[N], all[3 * N];
    for (int i = 0; i < 3 * N; i += 4) {
        init[i] = 255, init[i + 3] = 255;                 /* every layer red */
        all[i + i / N] = 255, all[i + 3] = 255;           /* layer k: colour k of red, green, blue */
    }
    for (int i = 0; i < N; i += 4)
        one[i + 1] = 255, one[i + 3] = 255;               /* green */
    uint32_t tex = 50;
    struct glr_call *c = call(GLR_CMD_glGenTextures);
    c->args[0] = 1;
    c->blobs[1].data = &tex;
    c->blobs[1].size = 4;
    feed(&f, c);
    c = call(GLR_CMD_glBindTexture);
    c->args[0] = GL_TEXTURE_2D_ARRAY;
    c->args[1] = tex;
    feed(&f, c);
    c = call(GLR_CMD_glTexImage3D);   /* target, level, ifmt, w, h, depth, border, format, type, pixels */
    c->args[0] = GL_TEXTURE_2D_ARRAY;
    c->args[2] = GL_RGBA8;
    c->args[3] = c->args[4] = 4;
    c->args[5] = 3;
    c->args[7] = GL_RGBA;
    c->args[8] = GL_UNSIGNED_BYTE;
    c->blobs[9].data = init;
    c->blobs[9].size = sizeof init;
    feed(&f, c);
    gmf_content ct = { 8, 1, tex, 4, 4, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, one, sizeof one, 0, 1 };
    CHECK(gmf_feed_initial_contents(f.r, &ct, 1) == 1);
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gmf_texture *t = gmf_tex_sync(f.r, sm_context_get(gmf_state(f.r), 1), tex, &ev);
    CHECK(t && t->img.num_levels >= 1 && t->img.level[0].depth == 3);
    if (t && t->img.level[0].depth == 3) {
        const gm_surface *lv = &t->img.level[0];
        for (int l = 0; l < 3; l++) {
            const uint8_t *px = gm_surface_texel(lv, 2, 3, l);
            CHECKF(l == 1 ? px[0] == 0 && px[1] == 255 : px[0] == 255 && px[1] == 0, "layer %d: %d %d", l, px[0],
                   px[1]);
        }
        ct = (gmf_content){ 8, 1, tex, 4, 4, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, all, sizeof all, 0, -1 };
        CHECK(gmf_feed_initial_contents(f.r, &ct, 1) == 1);
        t = gmf_tex_sync(f.r, sm_context_get(gmf_state(f.r), 1), tex, &ev);
        for (int l = 0; t && l < 3; l++) {
            const uint8_t *px = gm_surface_texel(&t->img.level[0], 1, 1, l);
            CHECKF(px[l] == 255 && px[(l + 1) % 3] == 0 && px[(l + 2) % 3] == 0, "layer %d: %d %d %d", l, px[0],
                   px[1], px[2]);
        }
        ct.layer = 3;   /* no such layer */
        CHECK(gmf_feed_initial_contents(f.r, &ct, 1) == 0);
        ct.layer = 0;
        ct.level = 1;   /* no such level */
        CHECK(gmf_feed_initial_contents(f.r, &ct, 1) == 0);
    }
    gmf_destroy(f.r);
}

int main(void)
{
    run(1);
    run(0);
    layer_contents();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
