/* gm_spirv_specialize (GL_ARB_gl_spirv's glSpecializeShader for the model): constants given and
 * left at their defaults, the entry point chosen by name and stage, either byte order, and a
 * clear refusal of every malformed module (the input is the application's binary). */
#include <string.h>

#include "gm_test.h"
#include "gpu_model.h"
#include "spirv/gm_spirv_spec.h"

static const char *fs_src =
    "#version 450\n"
    "layout(location = 0) out vec4 color;\n"
    "layout(constant_id = 3) const float scale = 1.0;\n"
    "layout(constant_id = 4) const bool flip = false;\n"
    "layout(constant_id = 9) const int k = 7;\n"
    "void main() { color = vec4(scale, flip ? 1.0 : 0.0, float(k), 1.0); }\n";

/* Runs the module's fragment shader on one lane; color's four words in out. */
static int run(const uint32_t *w, size_t n, float out[4])
{
    char err[256];
    gm_program *p = gm_program_create(w, n, err, sizeof err);
    CHECKF(p != NULL, "%s", err);
    if (!p)
        return -1;
    gm_warp *wp = gm_warp_create(p, 0);
    int v = gm_program_find_var(p, "color", GM_VAR_OUTPUT);
    CHECK(wp && v >= 0);
    if (wp && v >= 0) {
        gm_warp_begin(wp, 1u, 0);
        CHECK(gm_warp_run(wp, 0) == GM_RUN_DONE);
        uint32_t (*lanes)[GM_LANES] = gm_warp_var_lanes(wp, v);
        for (int c = 0; c < 4; c++)
            memcpy(&out[c], &lanes[c][0], 4);
    }
    gm_warp_destroy(wp);
    gm_program_destroy(p);
    return 0;
}

int main(void)
{
    gm_shader_source src = { GM_STAGE_FRAGMENT, fs_src, "spec.frag" };
    gm_compile_result cr;
    memset(&cr, 0, sizeof cr);
    CHECKF(gm_compile_program(&src, 1, &cr) == 0, "%s", cr.log);
    if (!cr.ok)
        TEST_DONE();
    const uint32_t *mod = cr.shaders[0].spirv;
    size_t words = cr.shaders[0].word_count, n = 0;
    char err[256];
    float c[4];

    /* defaults */
    uint32_t *w = gm_spirv_specialize(mod, words * 4, "main", 4, NULL, NULL, 0, &n, err, sizeof err);
    CHECKF(w != NULL, "%s", err);
    if (w && run(w, n, c) == 0)
        CHECKF(c[0] == 1.0f && c[1] == 0.0f && c[2] == 7.0f, "%g %g %g", c[0], c[1], c[2]);
    free(w);

    /* two of three given; the bool made true by a nonzero value */
    float half = 0.5f;
    uint32_t ids[2] = { 4, 3 }, vals[2] = { 2, 0 };
    memcpy(&vals[1], &half, 4);
    w = gm_spirv_specialize(mod, words * 4, "main", 4, ids, vals, 2, &n, err, sizeof err);
    CHECKF(w != NULL, "%s", err);
    if (w && run(w, n, c) == 0)
        CHECKF(c[0] == 0.5f && c[1] == 1.0f && c[2] == 7.0f, "%g %g %g", c[0], c[1], c[2]);
    free(w);

    /* the other byte order (SPIR-V section 2.3) */
    uint32_t *sw = malloc(words * 4);
    for (size_t i = 0; sw && i < words; i++)
        sw[i] = __builtin_bswap32(mod[i]);
    w = sw ? gm_spirv_specialize(sw, words * 4, "main", 4, ids, vals, 2, &n, err, sizeof err) : NULL;
    CHECKF(w != NULL, "%s", err);
    if (w && run(w, n, c) == 0)
        CHECK(c[0] == 0.5f && c[1] == 1.0f);
    free(w);
    free(sw);

    /* refusals: each with a message, never a module */
    uint32_t bad_id = 5;
    err[0] = 0;
    CHECK(!gm_spirv_specialize(mod, words * 4, "main", 4, &bad_id, vals, 1, &n, err, sizeof err) &&
          strstr(err, "specialization constant id 5"));
    CHECK(!gm_spirv_specialize(mod, words * 4, "other", 4, NULL, NULL, 0, &n, err, sizeof err) &&
          strstr(err, "entry point"));
    CHECK(!gm_spirv_specialize(mod, words * 4, "main", 0, NULL, NULL, 0, &n, err, sizeof err) &&
          strstr(err, "entry point"));   /* a fragment module given to a vertex shader */
    CHECK(!gm_spirv_specialize(mod, words * 4 - 2, "main", 4, NULL, NULL, 0, &n, err, sizeof err));
    CHECK(!gm_spirv_specialize(mod, 16, "main", 4, NULL, NULL, 0, &n, err, sizeof err));
    CHECK(!gm_spirv_specialize(NULL, 0, "main", 4, NULL, NULL, 0, &n, err, sizeof err));
    uint32_t *cp = malloc(words * 4);
    if (cp) {
        memcpy(cp, mod, words * 4);
        cp[0] ^= 1;   /* magic */
        CHECK(!gm_spirv_specialize(cp, words * 4, "main", 4, NULL, NULL, 0, &n, err, sizeof err) &&
              strstr(err, "magic"));
        memcpy(cp, mod, words * 4);
        cp[5] = (0xffffu << 16) | (cp[5] & 0xffffu);   /* first instruction runs past the end */
        CHECK(!gm_spirv_specialize(cp, words * 4, "main", 4, NULL, NULL, 0, &n, err, sizeof err) &&
              strstr(err, "past the end"));
        memcpy(cp, mod, words * 4);
        cp[5] &= 0xffffu;   /* a zero-length instruction */
        CHECK(!gm_spirv_specialize(cp, words * 4, "main", 4, NULL, NULL, 0, &n, err, sizeof err));
        memcpy(cp, mod, words * 4);
        cp[3] = 0;   /* id bound */
        CHECK(!gm_spirv_specialize(cp, words * 4, "main", 4, NULL, NULL, 0, &n, err, sizeof err));
        free(cp);
    }
    gm_compile_result_free(&cr);
    TEST_DONE();
}
