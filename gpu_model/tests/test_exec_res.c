/* Resources through gm_env: texture sampling requests (units, coordinates, projective
 * divide, implicit-LOD derivatives, explicit lod, offsets, shadow compare), uniform
 * blocks with std140 layout, storage buffers with stores and atomics, uniforms set by
 * name/location, and a legacy GLSL 1.10 shader running through the upgrade pass with
 * its original line numbers. */
#include "gm_rig.h"

#include <math.h>

typedef struct {
    int calls;
    gm_sample_request last;
} tex_ctx;

/* Returns (coord.x, coord.y, unit, flags) so the shader's view can be checked. */
static void fake_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    tex_ctx *t = ctx;
    t->calls++;
    t->last = *req;
    for (int l = 0; l < GM_LANES; l++) {
        out->f[0][l] = req->shadow ? req->dref[l] : req->coord.f[0][l];
        out->f[1][l] = req->coord.f[1][l];
        out->f[2][l] = (float)req->unit;
        out->f[3][l] = (float)(req->has_grad * 1 + req->has_lod * 2 + req->has_bias * 4 +
                               req->has_offset * 8);
    }
}

static void test_textures(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) in vec4 p;\nuniform sampler2D t0;\nuniform sampler2D tarr[2];\n"
        "uniform sampler2DShadow sh;\n"
        "layout(location=0) out vec4 o0;\nlayout(location=1) out vec4 o1;\n"
        "layout(location=2) out vec4 o2;\nlayout(location=3) out vec4 o3;\n"
        "layout(location=4) out vec4 o4;\n"
        "void main() {\n"
        "  o0 = texture(t0, p.xy);\n"
        "  o1 = textureProj(tarr[int(p.w) & 1], p.xyz);\n"
        "  o2 = textureLod(t0, p.xy, 2.0);\n"
        "  o3 = textureOffset(t0, p.xy, ivec2(1, -1), 0.5);\n"
        "  o4 = vec4(texture(sh, p.xyz), 0.0, 0.0, 0.0);\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    int u0 = 3, ua[2] = {5, 6}, us = 7;
    CHECK(gm_program_set_uniform_by_name(r.p, "t0", &u0, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "tarr", ua, 2) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "tarr[1]", &ua[1], 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "sh", &us, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "nope", &us, 1) != 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "tarr[2]", &us, 1) != 0);
    tex_ctx tc = {0};
    gm_env env = {&tc, fake_sample, NULL, NULL};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < GM_LANES; l++) {
        rig_setf(&r, "p", 0, l, (float)(l & 1) + (float)(l / 4) * 2.0f);
        rig_setf(&r, "p", 1, l, (float)((l >> 1) & 1) * 3.0f);
        rig_setf(&r, "p", 2, l, 2.0f);
        rig_setf(&r, "p", 3, l, (float)(l & 1));
    }
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    for (int l = 0; l < GM_LANES; l++) {
        float px = (float)(l & 1) + (float)(l / 4) * 2.0f, py = (float)((l >> 1) & 1) * 3.0f;
        CHECK(rig_outf(&r, "o0", 0, l) == px && rig_outf(&r, "o0", 1, l) == py);
        CHECK(rig_outf(&r, "o0", 2, l) == 3.0f);
        CHECK(rig_outf(&r, "o0", 3, l) == 1.0f); /* implicit lod: gradients */
        /* projective: divided by p.z; unit from a per-lane indexed sampler array */
        CHECK(rig_outf(&r, "o1", 0, l) == px / 2.0f && rig_outf(&r, "o1", 1, l) == py / 2.0f);
        CHECK(rig_outf(&r, "o1", 2, l) == (float)ua[l & 1]);
        CHECK(rig_outf(&r, "o2", 3, l) == 2.0f);
        CHECK(rig_outf(&r, "o3", 3, l) == 1.0f + 4.0f + 8.0f);
        CHECK(rig_outf(&r, "o4", 0, l) == 2.0f); /* dref = p.z, one float */
    }
    /* 5 lookups, the array one split by unit: 6 callbacks. */
    CHECK(tc.calls == 6);
    rig_free(&r);

    /* The implicit-LOD derivatives handed to the sampler are quad differences. */
    const char *src2 = "#version 450\nlayout(location=0) in vec2 p;\nuniform sampler2D t;\n"
                       "layout(location=0) out vec4 o;\nvoid main() { o = texture(t, p * 4.0); }\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src2) == 0) {
        tc.calls = 0;
        gm_warp_set_env(r.w, &env);
        for (int l = 0; l < GM_LANES; l++) {
            rig_setf(&r, "p", 0, l, (float)(l & 1) * 0.25f);
            rig_setf(&r, "p", 1, l, (float)((l >> 1) & 1) * 0.5f);
        }
        CHECK(rig_run(&r, 0xffffffffu) == 0);
        CHECK(tc.calls == 1 && tc.last.has_grad && tc.last.coord_count == 2);
        CHECK(tc.last.ddx[0][5] == 1.0f && tc.last.ddy[1][5] == 2.0f && tc.last.ddx[1][5] == 0.0f);
    } else {
        CHECK(0);
    }
    rig_free(&r);
}

static unsigned char ubo[256];
static unsigned char ssbo[256];

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    (void)ctx;
    if (kind == GM_BUFFER_UNIFORM && binding == 2) {
        *size = sizeof ubo;
        return ubo;
    }
    if (kind == GM_BUFFER_STORAGE && binding == 1) {
        *size = sizeof ssbo;
        return ssbo;
    }
    return NULL;
}

static void putf(unsigned char *b, int off, float f) { memcpy(b + off, &f, 4); }

static void test_buffers(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) flat in int k;\n"
        "layout(std140, binding = 2) uniform U { float f; vec3 v; mat3 m; float arr[3]; } u;\n"
        "layout(std430, binding = 1) buffer S { uint counter; uint vals[32]; } s;\n"
        "layout(location=0) out vec4 o;\nlayout(location=1) out vec4 o2;\n"
        "void main() {\n"
        "  o = vec4(u.f, u.v.y, u.m[1].z, u.arr[k % 3]);\n"
        "  o2 = vec4(u.m * u.v, 0.0);\n"
        "  s.vals[k] = uint(k) * 10u;\n"
        "  atomicAdd(s.counter, 1u);\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    CHECK(gm_program_block_count(r.p) == 2);
    for (int b = 0; b < gm_program_block_count(r.p); b++) {
        const gm_block_info *bi = gm_program_block(r.p, b);
        if (strcmp(bi->name, "U") == 0)
            CHECKF(bi->binding == 2 && !bi->is_storage && bi->size == 128, "U: %d %d %zu",
                   bi->binding, bi->is_storage, bi->size);
        else
            CHECKF(strcmp(bi->name, "S") == 0 && bi->binding == 1 && bi->is_storage &&
                       bi->size == 132, "%s: %d %d %zu", bi->name, bi->binding, bi->is_storage,
                   bi->size);
    }
    memset(ubo, 0, sizeof ubo);
    memset(ssbo, 0, sizeof ssbo);
    putf(ubo, 0, 1.5f);                       /* f */
    putf(ubo, 16, 1.0f); putf(ubo, 20, 2.0f); putf(ubo, 24, 3.0f); /* v */
    for (int c = 0; c < 3; c++)               /* m: columns at 32, 48, 64 (stride 16) */
        for (int row = 0; row < 3; row++)
            putf(ubo, 32 + c * 16 + row * 4, (float)(c * 3 + row + 1));
    for (int i = 0; i < 3; i++)               /* arr: stride 16 at 80 */
        putf(ubo, 80 + i * 16, 10.0f + (float)i);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < GM_LANES; l++)
        rig_seti(&r, "k", 0, l, l);
    gm_warp_begin(r.w, 0xffffffffu, 0xf0000000u); /* 4 helper lanes never write */
    CHECK(gm_warp_run(r.w, 0) == GM_RUN_DONE);
    for (int l = 0; l < 28; l++) {
        CHECK(rig_outf(&r, "o", 0, l) == 1.5f && rig_outf(&r, "o", 1, l) == 2.0f);
        CHECK(rig_outf(&r, "o", 2, l) == 6.0f);
        CHECK(rig_outf(&r, "o", 3, l) == 10.0f + (float)(l % 3));
        /* m * v: row r = sum_c m[c][r] * v[c] */
        for (int row = 0; row < 3; row++) {
            float want = 0;
            for (int c = 0; c < 3; c++)
                want += (float)(c * 3 + row + 1) * (float)(c + 1);
            CHECK(rig_outf(&r, "o2", row, l) == want);
        }
        uint32_t val;
        memcpy(&val, ssbo + 4 + l * 4, 4);
        CHECK(val == (uint32_t)l * 10u);
    }
    uint32_t counter, helper_val;
    memcpy(&counter, ssbo, 4);
    memcpy(&helper_val, ssbo + 4 + 30 * 4, 4);
    CHECKF(counter == 28, "counter %u", counter);
    CHECK(helper_val == 0);
    rig_free(&r);
}

static void test_legacy_and_uniforms(void)
{
    gm_rig r;
    const char *src =
        "#version 110\n"                                           /* 1 */
        "uniform sampler2D tex;\n"                                 /* 2 */
        "uniform vec4 tint[2];\n"                                  /* 3 */
        "uniform struct L { vec3 dir; float k; } light;\n"         /* 4 */
        "varying vec2 uv;\n"                                       /* 5 */
        "void main() {\n"                                          /* 6 */
        "  vec4 c = texture2D(tex, uv) * gl_Color;\n"              /* 7 */
        "  gl_FragColor = c * tint[1] + vec4(light.dir, light.k);\n" /* 8 */
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    CHECK(r.cr.shaders[0].upgrade.upgraded);
    int unit = 4;
    float tint[8] = {9, 9, 9, 9, 2, 2, 2, 2}, dir[3] = {0.5f, 0.25f, 0.125f}, k = 7;
    CHECK(gm_program_set_uniform_by_name(r.p, "tex", &unit, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "tint", tint, 2) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "light.dir", dir, 1) == 0);
    int kl = gm_program_find_uniform(r.p, "light.k");
    CHECK(kl >= 0);
    if (kl >= 0)
        CHECK(gm_program_set_uniform_by_location(r.p, gm_program_uniform(r.p, kl)->location, &k, 1) == 0);
    tex_ctx tc = {0};
    gm_env env = {&tc, fake_sample, NULL, NULL};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < GM_LANES; l++) {
        rig_setf(&r, "uv", 0, l, (float)l);
        rig_setf(&r, "uv", 1, l, 1.0f);
        for (int c = 0; c < 4; c++)
            rig_setf(&r, "glr_FrontColor", c, l, 0.5f);
    }
    gm_warp_begin(r.w, 0xffffffffu, 0);
    CHECK(gm_warp_run(r.w, 0) == GM_RUN_DONE);
    for (int l = 0; l < GM_LANES; l++) {
        CHECK(feq(rig_outf(&r, "glr_FragColor", 0, l), (float)l * 0.5f * 2.0f + 0.5f, 1e-6f));
        CHECK(feq(rig_outf(&r, "glr_FragColor", 2, l), 4.0f * 0.5f * 2.0f + 0.125f, 1e-6f));
        CHECK(feq(rig_outf(&r, "glr_FragColor", 3, l), 1.0f * 0.5f * 2.0f + 7.0f, 1e-6f));
    }
    /* Statements keep their original lines. */
    CHECK(gm_program_line_has_code(r.p, 7) && gm_program_line_has_code(r.p, 8));
    CHECK(!gm_program_line_has_code(r.p, 9));
    rig_free(&r);
}

/* A linked VS+FS pair: matching varying locations, gl_Position through gm_program_find_builtin,
 * gl_VertexID as an input, a legacy VS with ftransform(). */
static void test_vertex_stage(void)
{
    gm_shader_source src[2] = {
        {GM_STAGE_VERTEX,
         "#version 120\nattribute vec3 pos;\nvarying vec3 col;\nuniform float s;\nvoid main() {\n"
         "  col = pos * s;\n  gl_Position = gl_ModelViewProjectionMatrix * vec4(pos, 1.0);\n}\n", "v"},
        {GM_STAGE_FRAGMENT, "#version 120\nvarying vec3 col;\nvoid main() { gl_FragColor = vec4(col, 1.0); }\n",
         "f"},
    };
    gm_compile_result cr;
    if (gm_compile_program(src, 2, &cr) != 0) {
        CHECKF(0, "%s", cr.log);
        return;
    }
    char err[256];
    gm_program *vs = gm_program_create(cr.shaders[0].spirv, cr.shaders[0].word_count, err, sizeof err);
    gm_program *fs = gm_program_create(cr.shaders[1].spirv, cr.shaders[1].word_count, err, sizeof err);
    CHECKF(vs && fs, "%s", err);
    if (vs && fs) {
        CHECK(gm_program_stage(vs) == GM_STAGE_VERTEX && gm_program_stage(fs) == GM_STAGE_FRAGMENT);
        int vo = gm_program_find_var(vs, "col", GM_VAR_OUTPUT), fi = gm_program_find_var(fs, "col", GM_VAR_INPUT);
        CHECK(vo >= 0 && fi >= 0);
        if (vo >= 0 && fi >= 0)
            CHECK(gm_program_var(vs, vo)->location == gm_program_var(fs, fi)->location);
        float mvp[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 1, 1, 1}, sc = 0.5f;
        CHECK(gm_program_set_uniform_by_name(vs, "glr_ModelViewProjectionMatrix", mvp, 1) == 0);
        CHECK(gm_program_set_uniform_by_name(vs, "s", &sc, 1) == 0);
        gm_warp *w = gm_warp_create(vs, 1);
        uint32_t (*pos)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(vs, "pos", GM_VAR_INPUT));
        CHECK(pos != NULL);
        for (int l = 0; l < GM_LANES && pos; l++)
            for (int c = 0; c < 3; c++) {
                float f = (float)(l + c);
                memcpy(&pos[c][l], &f, 4);
            }
        gm_warp_begin(w, 0xffffffffu, 0);
        CHECK(gm_warp_run(w, 0) == GM_RUN_DONE);
        int var, off;
        CHECK(gm_program_find_builtin(vs, 0 /* Position */, &var, &off) == 0);
        uint32_t (*gp)[GM_LANES] = gm_warp_var_lanes(w, var);
        uint32_t (*col)[GM_LANES] = gm_warp_var_lanes(w, vo);
        for (int l = 0; l < GM_LANES && gp && col; l++) {
            float x, y, cz;
            memcpy(&x, &gp[off + 0][l], 4);
            memcpy(&y, &gp[off + 1][l], 4);
            memcpy(&cz, &col[2][l], 4);
            CHECK(x == 2.0f * (float)l + 1.0f && y == 3.0f * (float)(l + 1) + 1.0f);
            CHECK(cz == (float)(l + 2) * 0.5f);
        }
        gm_warp_destroy(w);
    }
    gm_program_destroy(vs);
    gm_program_destroy(fs);
    gm_compile_result_free(&cr);
}

int main(void)
{
    test_vertex_stage();
    test_textures();
    test_buffers();
    test_legacy_and_uniforms();
    TEST_DONE();
}
