/* Geometry shaders in the frame runner, fed records built by hand (no GL driver): two points
 * through a GS with invocations = 2 that emits a quad per (point, invocation) with a flat id of
 * gl_PrimitiveIDIn * 2 + gl_InvocationID; each quad lands in its own quarter of an 8x8 window with
 * its own colour, with and without the timing model. The frame observer sees the GS's
 * instructions as stage geometry with each lane's input primitive and invocation. A draw mode
 * that does not feed the GS's input primitive is reported, a tessellation program runs. The
 * same scene in GLSL ES 3.20, and in GLSL 1.50 (upgrade pass; one invocation). */
#include "../gmf_test_feed.h"

static const char *vs_src =
    "#version 330 core\n"
    "void main() { gl_Position = vec4(gl_VertexID == 0 ? -0.5 : 0.5, 0.0, 0.0, 1.0); }\n";
static const char *gs_src =
    "#version 400 core\n"
    "layout(points, invocations = 2) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "flat out int id;\n"
    "void main() {\n"
    "  vec2 c = vec2(gl_in[0].gl_Position.x, gl_InvocationID == 0 ? 0.5 : -0.5);\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    gl_Position = vec4(c + 0.4 * vec2(i & 1, i >> 1) * 2.0 - 0.4, 0.0, 1.0);\n"
    "    id = gl_PrimitiveIDIn * 2 + gl_InvocationID;\n"
    "    EmitVertex();\n"
    "  }\n"
    "}\n";
static const char *fs_src =
    "#version 330 core\n"
    "flat in int id; out vec4 o;\n"
    "void main() { o = vec4(float(id + 1) / 4.0, 0.0, 0.0, 1.0); }\n";
/* The same scene in GLSL ES 3.20 (geometry shaders are core there) and in GLSL 1.50 (no
 * invocations: one quad per point, the upgrade pass rewrites the old version). */
static const char *es_vs =
    "#version 320 es\n"
    "void main() { gl_Position = vec4(gl_VertexID == 0 ? -0.5 : 0.5, 0.0, 0.0, 1.0); }\n";
static const char *es_gs =
    "#version 320 es\n"
    "layout(points, invocations = 2) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "flat out highp int id;\n"
    "void main() {\n"
    "  vec2 c = vec2(gl_in[0].gl_Position.x, gl_InvocationID == 0 ? 0.5 : -0.5);\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    gl_Position = vec4(c + 0.4 * vec2(i & 1, i >> 1) * 2.0 - 0.4, 0.0, 1.0);\n"
    "    id = gl_PrimitiveIDIn * 2 + gl_InvocationID;\n"
    "    EmitVertex();\n"
    "  }\n"
    "}\n";
static const char *es_fs =
    "#version 320 es\n"
    "precision highp float;\n"
    "flat in highp int id; out vec4 o;\n"
    "void main() { o = vec4(float(id + 1) / 4.0, 0.0, 0.0, 1.0); }\n";
static const char *v150_vs =
    "#version 150\n"
    "void main() { gl_Position = vec4(gl_VertexID == 0 ? -0.5 : 0.5, 0.0, 0.0, 1.0); }\n";
static const char *v150_gs =
    "#version 150\n"
    "layout(points) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "flat out int id;\n"
    "void main() {\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    gl_Position = vec4(gl_in[0].gl_Position.x + 0.4 * float(i & 1) * 2.0 - 0.4,\n"
    "                       0.9 * float(i >> 1) * 2.0 - 0.9, 0.0, 1.0);\n"
    "    id = gl_PrimitiveIDIn * 2;\n"
    "    EmitVertex();\n"
    "  }\n"
    "}\n";
static const char *v150_fs =
    "#version 150\n"
    "flat in int id;\n"
    "void main() { gl_FragColor = vec4(float(id + 1) / 4.0, 0.0, 0.0, 1.0); }\n";
static const char *tes_src =
    "#version 400 core\n"
    "layout(triangles) in;\n"
    "void main() { gl_Position = gl_in[0].gl_Position; }\n";

struct obs {
    uint64_t gs_issues, other;
    bool lanes_known;
    int32_t max_prim, max_inv;
    /* timing model: GS issues with a cycle and an SM; stage order VS < GS < FS by issue
     * (the GS waits for its vertices, the FS for the GS's primitives); a hash of the
     * issue sequence (determinism) */
    uint64_t gs_scheduled, order_errors, hash;
    int last_stage_rank;
};

static int stage_rank(gm_stage s)
{
    return s == GM_STAGE_VERTEX ? 0 : s == GM_STAGE_GEOMETRY ? 1 : 2;
}

static int observe(void *ctx, gm_warp *w, const gmf_issue *is)
{
    struct obs *o = ctx;
    (void)w;
    if (stage_rank(is->stage) < o->last_stage_rank)
        o->order_errors++;
    o->last_stage_rank = stage_rank(is->stage);
    uint64_t v[6] = { (uint64_t)is->stage, is->warp, (uint64_t)is->pc, is->cycle,
                      (uint64_t)(int64_t)is->sm, is->active };
    for (int k = 0; k < 6; k++)
        o->hash = (o->hash ^ v[k]) * 1099511628211ull;
    if (is->stage != GM_STAGE_GEOMETRY) {
        o->other++;
        return 0;
    }
    o->gs_issues++;
    if (is->cycle > 0 && is->sm >= 0)
        o->gs_scheduled++;
    o->lanes_known = is->lane_x && is->lane_y;
    for (int l = 0; is->lane_x && l < 32; l++)
        if ((is->active >> l) & 1) {
            if (is->lane_x[l] > o->max_prim)
                o->max_prim = is->lane_x[l];
            if (is->lane_y[l] > o->max_inv)
                o->max_inv = is->lane_y[l];
        }
    return 0;
}

static void program3(struct feeder *f, uint32_t prog, const uint32_t sh[3])
{
    struct glr_call *c = call(GLR_CMD_glCreateProgram);
    ret(c, prog);
    feed(f, c);
    for (int i = 0; i < 3; i++) {
        c = call(GLR_CMD_glAttachShader);
        c->args[0] = prog;
        c->args[1] = sh[i];
        feed(f, c);
    }
    c = call(GLR_CMD_glLinkProgram);
    c->args[0] = prog;
    feed(f, c);
}

static bool has_note(const gmf_event *ev, const char *text)
{
    for (int i = 0; i < ev->n_unsupported && i < GMF_MAX_NOTES; i++)
        if (strstr(ev->unsupported[i], text))
            return true;
    return false;
}

static void draw_mode(struct feeder *f, uint32_t prog, uint32_t mode, int count)
{
    struct glr_call *c = call(GLR_CMD_glUseProgram);
    c->args[0] = prog;
    feed(f, c);
    c = call(GLR_CMD_glDrawArrays);
    c->args[0] = mode;
    c->args[2] = (uint64_t)count;
    feed(f, c);
}

/* variant 0: GLSL 4.00 core, 1: ES 3.20, 2: GLSL 1.50 (no invocations) */
static uint64_t run(int timing, int variant)
{
    struct feeder f;
    if (start(&f, timing) != 0)
        return 0;
    struct obs o = { 0, 0, false, -1, -1, 0, 0, 14695981039346656037ull, 0 };
    gmf_set_observer(f.r, observe, &o);
    const char *src[3][3] = { { vs_src, gs_src, fs_src }, { es_vs, es_gs, es_fs },
                              { v150_vs, v150_gs, v150_fs } };
    shader(&f, 1, GL_VERTEX_SHADER, src[variant][0]);
    shader(&f, 2, GL_GEOMETRY_SHADER, src[variant][1]);
    shader(&f, 3, GL_FRAGMENT_SHADER, src[variant][2]);
    shader(&f, 4, GL_TESS_EVALUATION_SHADER, tes_src);
    program3(&f, 10, (const uint32_t[3]){ 1, 2, 3 });
    program3(&f, 11, (const uint32_t[3]){ 1, 4, 3 });

    draw_mode(&f, 10, GL_POINTS, 2);
    CHECK(f.ev.kind == GMF_EV_DRAW && !f.ev.failed && f.ev.n_unsupported == 0);
    for (int i = 0; i < f.ev.n_unsupported && i < GMF_MAX_NOTES; i++)
        fprintf(stderr, "note: %s\n", f.ev.unsupported[i]);
    CHECK(f.ev.stats.vs_invocations == 2);
    CHECK(f.ev.stats.primitives == (variant == 2 ? 4u : 8u));   /* quads of 2 triangles */
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(gmf_read_default(f.r, 1, &px, &w, &h) == 0 && px && w == 8 && h == 8);
    if (px) {
        /* (x, y) bottom-up -> expected red: point 0 left, point 1 right; invocation 0 top */
        const int at[4][3] = { { 1, 6, 64 }, { 1, 1, variant == 2 ? 64 : 128 },
                               { 6, 6, 191 }, { 6, 1, variant == 2 ? 191 : 255 } };
        for (int k = 0; k < 4; k++) {
            const uint8_t *p = px + 4 * (at[k][1] * 8 + at[k][0]);
            if (abs((int)p[0] - at[k][2]) > 1 || p[1] || p[2]) {
                fprintf(stderr, "variant %d timing %d: pixel %d,%d = %u %u %u, want %d 0 0\n",
                        variant, timing,
                        at[k][0], at[k][1], p[0], p[1], p[2], at[k][2]);
                failures++;
            }
        }
        free(px);
    }
    CHECK(o.gs_issues > 0 && o.other > 0 && o.lanes_known);
    CHECK(o.max_prim == 1 && o.max_inv == (variant == 2 ? 0 : 1));
    /* GS warps run under the timing model when it is on (cycles, SMs, their own batch),
     * after the draw's VS warps and before its FS warps */
    CHECK(o.order_errors == 0);
    if (timing)
        CHECK(o.gs_scheduled == o.gs_issues && f.ev.stats.gs_cycles > 0 &&
              f.ev.stats.cycles >= f.ev.stats.gs_cycles);
    else
        CHECK(o.gs_scheduled == 0 && f.ev.stats.gs_cycles == 0);
    uint64_t hash = o.hash;

    /* GL_TRIANGLES into a points GS: GL_INVALID_OPERATION, reported, nothing drawn */
    draw_mode(&f, 10, GL_TRIANGLES, 3);
    CHECK(f.ev.kind == GMF_EV_DRAW && has_note(&f.ev, "does not match"));
    /* a tessellation program (gmf_tess.c) runs its patches; a draw mode other than
     * GL_PATCHES is GL_INVALID_OPERATION: reported, nothing drawn */
    draw_mode(&f, 11, GL_PATCHES, 3);
    CHECK(f.ev.kind == GMF_EV_DRAW && !f.ev.failed && f.ev.n_unsupported == 0);
    draw_mode(&f, 11, GL_TRIANGLES, 3);
    CHECK(f.ev.kind == GMF_EV_DRAW && !f.ev.failed && has_note(&f.ev, "GL_INVALID_OPERATION"));
    gmf_destroy(f.r);
    return hash;
}

int main(void)
{
    for (int variant = 0; variant < 3; variant++) {
        uint64_t a = run(1, variant);
        CHECK(run(1, variant) == a);   /* the same schedule every run */
        run(0, variant);
    }
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
