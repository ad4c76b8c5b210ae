/* Unit tests of the exception checks (dbg_exception.c) on a real warp of the GPU model, and of
 * the argument parsers of setExceptionBreakpoints and instruction addresses (dbg_disasm.c).
 *
 * The shader: line 6 divides two per-lane inputs, line 7 adds 1 to the quotient, line 8 indexes
 * an array with a per-lane index. Lanes: 0/0 (NaN), 1/0 (infinity), 4/2 (fine), NaN/1 (a NaN that
 * is carried, not produced), index 5 into float[4]. The checks must name line 6 (and only the lanes
 * that produced the value there), never line 7 (the NaN and infinity only propagate), divzero on
 * line 6 before it runs, and bounds on line 8. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_disasm.h"
#include "debugger/dbg_exception.h"

#include "tests/support/glr_check.h"

static const char *FS =
    "#version 330 core\n"                      /* 1 */
    "in float a; in float b; flat in int k;\n" /* 2 */
    "out vec4 color;\n"                        /* 3 */
    "void main() {\n"                          /* 4 */
    "    float t[4] = float[4](1.0, 2.0, 3.0, 4.0);\n" /* 5 */
    "    float q = a / b;\n"                   /* 6 */
    "    float r = q + 1.0;\n"                 /* 7 */
    "    float s = t[k];\n"                    /* 8 */
    "    color = vec4(r, s, 0.0, 1.0);\n"      /* 9 */
    "}\n";

struct obs {
    struct dbg_exc_state *st;
    struct dbg_observe_info info;
    struct dbg_exc_hit hits[16];
    int n;
};

static int observer(void *ctx, gm_warp *w, const gm_issue *is)
{
    struct obs *o = ctx;
    struct dbg_exc_hit h;
    if (dbg_exc_observe(o->st, &o->info, w, is, &h) && o->n < 16)
        o->hits[o->n++] = h;
    return 0;
}

/* Runs the warp with the filters; returns the hits in *o. */
static void run(gm_program *p, unsigned bits, struct obs *o)
{
    memset(o, 0, sizeof *o);
    o->st = dbg_exc_new(bits);
    o->info.stage = GM_STAGE_FRAGMENT;
    gm_warp *w = gm_warp_create(p, 0);
    CHECK(w != NULL);
    if (!w)
        return;
    gm_warp_set_observer(w, observer, o);
    gm_warp_begin(w, 0xffffffffu, 0);
    uint32_t (*a)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "a", GM_VAR_INPUT));
    uint32_t (*b)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "b", GM_VAR_INPUT));
    uint32_t (*k)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "k", GM_VAR_INPUT));
    CHECK(a && b && k);
    if (a && b && k)
        for (int l = 0; l < GM_LANES; l++) {
            float fa = 4.0f, fb = 2.0f;
            if (l == 0) fa = 0.0f, fb = 0.0f;    /* 0/0: NaN produced */
            if (l == 1) fa = 1.0f, fb = 0.0f;    /* 1/0: infinity produced */
            if (l == 2) fa = NAN, fb = 1.0f;     /* NaN/1: carried */
            memcpy(&a[0][l], &fa, 4);
            memcpy(&b[0][l], &fb, 4);
            k[0][l] = l == 3 ? 5u : 1u;          /* lane 3: t[5] */
        }
    CHECK(gm_warp_run(w, 0) == GM_RUN_DONE);
    gm_warp_destroy(w);
    dbg_exc_free(o->st);
}

static void test_observe(void)
{
    gm_shader_source src[2] = {
        { GM_STAGE_VERTEX, "#version 330 core\nout float a; out float b; flat out int k;\n"
                           "void main() { a = 0.0; b = 1.0; k = 0; gl_Position = vec4(0.0); }\n", NULL },
        { GM_STAGE_FRAGMENT, FS, NULL },
    };
    gm_compile_result r;
    memset(&r, 0, sizeof r);
    CHECK(gm_compile_program(src, 2, &r) == 0 && r.ok);
    gm_program *p = NULL;
    for (int i = 0; i < r.shader_count; i++)
        if (r.shaders[i].stage == GM_STAGE_FRAGMENT) {
            char err[256];
            p = gm_program_create(r.shaders[i].spirv, r.shaders[i].word_count, err, sizeof err);
        }
    gm_compile_result_free(&r);
    CHECK(p != NULL);
    if (!p)
        return;
    struct obs o;

    run(p, DBG_EXC_NAN, &o);
    CHECK(o.n == 1);
    if (o.n == 1) {
        CHECK(!strcmp(o.hits[0].id, "nan"));
        CHECK(o.hits[0].at.line == 6);              /* not 7, where the NaN is only carried */
        CHECK(o.hits[0].lanes == 1u);               /* lane 0 only (lane 2's NaN came in) */
        CHECK(o.hits[0].lane == 0);
        CHECK(strstr(o.hits[0].text, "NaN produced by division at line 6") != NULL);
        CHECK(strstr(o.hits[0].text, "operands 0, 0") != NULL);
    }

    run(p, DBG_EXC_INF, &o);
    CHECK(o.n == 1);
    if (o.n == 1) {
        CHECK(o.hits[0].at.line == 6 && o.hits[0].lanes == 2u);   /* lane 1: 1/0 */
        CHECK(strstr(o.hits[0].text, "infinity produced") != NULL);
    }

    run(p, DBG_EXC_DIV0, &o);
    CHECK(o.n == 1);
    if (o.n == 1) {
        CHECK(o.hits[0].at.line == 6 && o.hits[0].lanes == 3u);   /* lanes 0 and 1 divide by 0 */
        CHECK(strstr(o.hits[0].text, "division by zero") != NULL);
    }

    run(p, DBG_EXC_BOUNDS, &o);
    CHECK(o.n == 1);
    if (o.n == 1) {
        CHECK(o.hits[0].at.line == 8 && o.hits[0].lanes == 8u);   /* lane 3: t[5] */
        CHECK(strstr(o.hits[0].text, "index 5 of a size of 4") != NULL);
    }

    run(p, 0, &o);
    CHECK(o.n == 0);
    gm_program_destroy(p);
}

static void test_parse(void)
{
    char err[200];
    unsigned bits;
    cJSON *args = cJSON_Parse("{\"filters\":[\"nan\",\"bounds\",\"what\"],\"filterOptions\":[{\"filterId\":\"nan\"},{\"filterId\":\"inf\"}]}");
    cJSON *out = cJSON_CreateArray();
    CHECK(dbg_exc_parse(args, &bits, out, err, sizeof err));
    CHECK(bits == (DBG_EXC_NAN | DBG_EXC_BOUNDS | DBG_EXC_INF));
    CHECK(cJSON_GetArraySize(out) == 5);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(out, 0), "verified")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(out, 2), "verified")));   /* unknown */
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(out, 3), "verified")));   /* nan again */
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(out, 4), "verified")));
    cJSON_Delete(args);
    cJSON_Delete(out);
    static const char *bad[] = { "{}", "{\"filters\":\"nan\"}", "{\"filters\":[1]}", "{\"filters\":[],\"filterOptions\":[{}]}",
                                 "{\"filters\":[],\"filterOptions\":{}}" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        args = cJSON_Parse(bad[i]);
        out = cJSON_CreateArray();
        CHECK(!dbg_exc_parse(args, &bits, out, err, sizeof err));
        cJSON_Delete(args);
        cJSON_Delete(out);
    }
    cJSON *f = dbg_exc_filters_json();
    CHECK(cJSON_GetArraySize(f) == 6);
    static const char *ids[] = { "nan", "inf", "divzero", "bounds", "uninit", "texture" };
    for (int i = 0; i < 6 && i < cJSON_GetArraySize(f); i++)
        CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(f, i), "filter")), ids[i]));
    cJSON_Delete(f);
    /* the new filters parse to their bits */
    args = cJSON_Parse("{\"filters\":[\"uninit\",\"texture\"]}");
    out = cJSON_CreateArray();
    CHECK(dbg_exc_parse(args, &bits, out, err, sizeof err) && bits == (DBG_EXC_UNINIT | DBG_EXC_TEXTURE));
    cJSON_Delete(args);
    cJSON_Delete(out);

    uint64_t a;
    CHECK(dbg_disasm_parse_address("0x200000005", &a) && a == dbg_disasm_address(2, 5));
    CHECK(dbg_disasm_parse_address("8589934597", &a) && a == 0x200000005ull);
    static const char *bad_addr[] = { "", "0x", "-1", " 1", "0x1g", "v1.l0.o0", "99999999999999999999999" };
    for (size_t i = 0; i < sizeof bad_addr / sizeof bad_addr[0]; i++)
        CHECK(!dbg_disasm_parse_address(bad_addr[i], &a));
}

int main(void)
{
    test_parse();
    test_observe();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("test_dap_feat_unit: all checks passed\n");
    return failures ? 1 : 0;
}
