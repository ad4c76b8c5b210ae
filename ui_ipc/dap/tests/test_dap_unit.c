/* Unit tests of the DAP pieces that need no capture: framing (incremental, malformed, oversized),
 * hit conditions, the GLSL expression evaluator over a hand-built snapshot, breakpoint source
 * files (FIFOs, devices, size cap) and the live attach's first-request check. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "shadow/shadow.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_eval_tex.h"
#include "ui_ipc/dap/dap.h"
#include "debugger/dbg_bind.h"
#include "ui_ipc/dap/dap_wire.h"

#include "tests/support/glr_check.h"

static void test_wire(void)
{
    cJSON *m;
    size_t used;
    char err[200];
    const char *ok = "Content-Length: 13\r\n\r\n{\"seq\":1}    Content-Length: 2\r\n\r\n{}";
    CHECK(dap_wire_parse(ok, strlen(ok), 1000, &m, &used, err, sizeof err) == DAP_WIRE_MESSAGE);
    CHECK(used == 35 && cJSON_GetObjectItem(m, "seq")->valueint == 1);
    cJSON_Delete(m);
    CHECK(dap_wire_parse(ok + used, strlen(ok) - used, 1000, &m, &used, err, sizeof err) == DAP_WIRE_MESSAGE);
    cJSON_Delete(m);
    /* every prefix of a message is incomplete, never an error */
    const char *one = "Content-Length: 9\r\nX-Other: 1\r\n\r\n{\"a\":[1]}";
    for (size_t n = 0; n < strlen(one); n++)
        CHECK(dap_wire_parse(one, n, 1000, &m, &used, err, sizeof err) == DAP_WIRE_NEED_MORE);
    CHECK(dap_wire_parse(one, strlen(one), 1000, &m, &used, err, sizeof err) == DAP_WIRE_MESSAGE);
    cJSON_Delete(m);
    const char *bad_json = "Content-Length: 5\r\n\r\n{\"a\":Content-Length: 2\r\n\r\n{}";
    CHECK(dap_wire_parse(bad_json, strlen(bad_json), 1000, &m, &used, err, sizeof err) == DAP_WIRE_BAD_JSON);
    CHECK(used == 26 && m == NULL);
    const char *array = "Content-Length: 2\r\n\r\n[]";
    CHECK(dap_wire_parse(array, strlen(array), 1000, &m, &used, err, sizeof err) == DAP_WIRE_BAD_JSON);
    const char *big = "Content-Length: 100000000\r\n\r\n{";
    CHECK(dap_wire_parse(big, strlen(big), 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    CHECK(strstr(err, "limit") != NULL);
    const char *huge_digits = "Content-Length: 99999999999999999999999999\r\n\r\n";
    CHECK(dap_wire_parse(huge_digits, strlen(huge_digits), 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    const char *nolen = "Foo: 1\r\n\r\n{}";
    CHECK(dap_wire_parse(nolen, strlen(nolen), 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    const char *neg = "Content-Length: -5\r\n\r\n{}";
    CHECK(dap_wire_parse(neg, strlen(neg), 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    const char *garbage = "\x01\x02\x03garbage";
    CHECK(dap_wire_parse(garbage, strlen(garbage), 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    char longhdr[3000];
    memset(longhdr, 'a', sizeof longhdr);
    CHECK(dap_wire_parse(longhdr, sizeof longhdr, 1000, &m, &used, err, sizeof err) == DAP_WIRE_FATAL);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "x", "é");
    size_t len;
    char *f = dap_wire_frame(o, &len);
    CHECK(f && !strncmp(f, "Content-Length: 10\r\n\r\n", 22) && len == 32);
    free(f);
    cJSON_Delete(o);
}

static void test_hit_conditions(void)
{
    enum dbg_hit_op op;
    uint64_t n;
    CHECK(dbg_parse_hit_condition("100", &op, &n) && op == DBG_HIT_EQ && n == 100);
    CHECK(dbg_parse_hit_condition(" >= 7 ", &op, &n) && op == DBG_HIT_GE && n == 7);
    CHECK(dbg_parse_hit_condition("==3", &op, &n) && op == DBG_HIT_EQ && n == 3);
    CHECK(dbg_parse_hit_condition("% 4", &op, &n) && op == DBG_HIT_MOD && n == 4);
    CHECK(dbg_parse_hit_condition("> 2", &op, &n) && op == DBG_HIT_GT && n == 2);
    CHECK(dbg_parse_hit_condition("<= 5", &op, &n) && op == DBG_HIT_LE && n == 5);
    CHECK(dbg_parse_hit_condition("<5", &op, &n) && op == DBG_HIT_LT && n == 5);
    CHECK(dbg_parse_hit_condition("= 9", &op, &n) && op == DBG_HIT_EQ && n == 9);
    CHECK(!dbg_parse_hit_condition("=< 5", &op, &n));
    CHECK(dbg_parse_hit_condition("", &op, &n) && op == DBG_HIT_ANY);
    CHECK(!dbg_parse_hit_condition("abc", &op, &n));
    CHECK(!dbg_parse_hit_condition("% 0", &op, &n));
    CHECK(!dbg_parse_hit_condition("5x", &op, &n));
    CHECK(!dbg_parse_hit_condition("<> 5", &op, &n));
}

static uint32_t fb(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static sh_snapshot *snapshot(void)
{
    sh_builder *b = sh_builder_new();
    int tf = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .rows = 1, .columns = 1, .element = -1, .components = 1 });
    int ti = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .scalar = SH_SCALAR_INT, .rows = 1, .columns = 1, .element = -1, .components = 1 });
    int tv3 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 3, .columns = 1, .element = tf, .components = 3 });
    int tv2 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 2, .columns = 1, .element = tf, .components = 2 });
    int tm2 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_MATRIX, .rows = 2, .columns = 2, .element = tv2, .components = 4 });
    int ta = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_ARRAY, .length = 2, .element = tv3, .components = 6 });
    int ts = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_STRUCT, .name = "L", .element = -1, .components = 4 });
    sh_builder_add_member(b, ts, "pos", tv3, 0);
    sh_builder_add_member(b, ts, "on", ti, 3);
    uint32_t v[3 * 32];
    for (int l = 0; l < 32; l++) {
        v[l] = fb((float)l);
        v[32 + l] = fb(2.0f);
        v[64 + l] = fb(-1.0f);
    }
    sh_builder_add_var(b, &(sh_var){ .name = "p", .function = "main(", .klass = SH_VAR_LOCAL, .type = tv3, .builtin = -1, .lanes = 32, .words = v });
    uint32_t i32[32];
    for (int l = 0; l < 32; l++)
        i32[l] = (uint32_t)(l * 3);
    sh_builder_add_var(b, &(sh_var){ .name = "k", .function = "main(", .klass = SH_VAR_LOCAL, .type = ti, .builtin = -1, .lanes = 32, .words = i32 });
    uint32_t arr[6] = { fb(1), fb(2), fb(3), fb(4), fb(5), fb(6) };
    sh_builder_add_var(b, &(sh_var){ .name = "u_pos", .klass = SH_VAR_UNIFORM, .type = ta, .builtin = -1, .lanes = 1, .words = arr });
    uint32_t m[4] = { fb(1), fb(2), fb(3), fb(4) }; /* columns (1,2), (3,4) */
    sh_builder_add_var(b, &(sh_var){ .name = "u_m", .klass = SH_VAR_UNIFORM, .type = tm2, .builtin = -1, .lanes = 1, .words = m });
    uint32_t st[4] = { fb(7), fb(8), fb(9), 1 };
    sh_builder_add_var(b, &(sh_var){ .name = "u_l", .klass = SH_VAR_UNIFORM, .type = ts, .builtin = -1, .lanes = 1, .words = st });
    sh_builder_push_frame(b, "main(", 10);
    char err[100];
    return sh_builder_finish(b, err, sizeof err);
}

static void eval_is(const sh_snapshot *s, int lane, const char *expr, const char *want)
{
    char text[256], type[64];
    int rc = dbg_eval(s, lane, expr, text, sizeof text, type, sizeof type);
    if (rc != 0 || strcmp(text, want) != 0) {
        fprintf(stderr, "eval '%s' (lane %d): got '%s' (rc %d), want '%s'\n", expr, lane, text, rc, want);
        failures++;
    }
}

static void eval_fails(const sh_snapshot *s, const char *expr, const char *msg_part)
{
    char text[256];
    if (dbg_eval(s, 0, expr, text, sizeof text, NULL, 0) == 0 || !strstr(text, msg_part)) {
        fprintf(stderr, "eval '%s' should fail with '%s', got '%s'\n", expr, msg_part, text);
        failures++;
    }
}

static void test_eval(void)
{
    sh_snapshot *s = snapshot();
    CHECK(s != NULL);
    if (!s)
        return;
    eval_is(s, 5, "p", "vec3(5, 2, -1)");
    eval_is(s, 5, "p.x + 1", "6");
    eval_is(s, 5, "p.zyx", "vec3(-1, 2, 5)");
    eval_is(s, 7, "p[0] * 2.0", "14");
    eval_is(s, 4, "k", "12");
    eval_is(s, 4, "k / 5", "2");
    eval_is(s, 4, "k % 5", "2");
    eval_is(s, 4, "-k + 2 * 3", "-6");
    eval_is(s, 0, "u_pos[1].y", "5");
    eval_is(s, 0, "u_pos", "[vec3(1, 2, 3), vec3(4, 5, 6)]");
    eval_is(s, 0, "u_l.pos.z + float(u_l.on)", "10");
    eval_is(s, 0, "u_m * vec2(1.0, 1.0)", "vec2(4, 6)");
    eval_is(s, 0, "u_m[1]", "vec2(3, 4)");
    eval_is(s, 0, "dot(vec3(1.0), u_pos[0])", "6");
    eval_is(s, 0, "length(vec2(3.0, 4.0))", "5");
    eval_is(s, 3, "k > 5 && p.x < 4.0", "true");
    eval_is(s, 3, "k == 9 ? 1 : 2", "1");
    eval_is(s, 3, "!(k != 9) || false", "true");
    eval_is(s, 3, "(p + vec3(1)).y", "3");
    eval_fails(s, "nope", "unknown variable");
    eval_fails(s, "u_pos[5]", "out of range");
    eval_fails(s, "p.q", "swizzle");
    eval_fails(s, "k / 0", "division by zero");
    eval_fails(s, "1 +", "unexpected end");
    eval_fails(s, "(1", "missing ')'");
    eval_fails(s, "p + vec2(1.0)", "components");
    eval_fails(s, "u_l + 1", "array or struct");
    eval_fails(s, "1 2", "after the expression");
    char err[100];
    CHECK(dbg_eval_bool(s, 10, "k == 30", err, sizeof err) == 1);
    CHECK(dbg_eval_bool(s, 11, "k == 30", err, sizeof err) == 0);
    CHECK(dbg_eval_bool(s, 11, "p", err, sizeof err) == -1);
    char msg[200];
    dbg_eval_message(s, 2, "k={k} p.x={p.x} {{literal}} bad={zz}", msg, sizeof msg);
    CHECK(strcmp(msg, "k=6 p.x=2 {literal} bad=<unknown variable 'zz'>") == 0);
    /* deep nesting and long input do not crash */
    char deep[4000];
    memset(deep, '(', 2000);
    deep[2000] = 0;
    char text[64];
    (void)dbg_eval(s, 0, deep, text, sizeof text, NULL, 0);
    sh_snapshot_unref(s);
}

/* ---- derivatives and texture functions (issue 14) on a fragment snapshot ---- */

static gm_sample_request last_req;
static int sample_calls;

/* A texture unit that answers the coordinates it was given (x2) and remembers the request. */
static int fake_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out, char *err, size_t err_size)
{
    (void)ctx;
    (void)err;
    (void)err_size;
    last_req = *req;
    sample_calls++;
    for (int l = 0; l < 32; l++)
        if ((req->mask >> l) & 1) {
            if (req->op == GM_TEX_QUERY_SIZE) {
                out->i[0][l] = 64 >> (int)req->lod[l];
                out->i[1][l] = 32 >> (int)req->lod[l];
            } else {
                for (int c = 0; c < 2; c++)
                    out->f[c][l] = req->op == GM_TEX_FETCH ? (float)req->coord.i[c][l] : req->coord.f[c][l] * 2.0f;
            }
        }
    return 0;
}

static sh_snapshot *fragment_snapshot(void)
{
    sh_builder *b = sh_builder_new();
    int tf = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .rows = 1, .columns = 1, .element = -1, .components = 1 });
    int tv2 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 2, .columns = 1, .element = tf, .components = 2 });
    int tsam = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_OPAQUE, .rows = 1, .columns = 1, .element = -1,
                                                  .components = 1, .name = "sampler2D" });
    int tsh = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_OPAQUE, .rows = 1, .columns = 1, .element = -1,
                                                 .components = 1, .name = "sampler2DShadow" });
    /* q = l*l (not linear: each row and column of a quad has its own difference); uv per lane. */
    uint32_t q[32], uv[64];
    for (int l = 0; l < 32; l++) {
        q[l] = fb((float)(l * l));
        uv[l] = fb(0.25f * (float)l);
        uv[32 + l] = fb(0.5f * (float)(l & 3));
    }
    sh_builder_add_var(b, &(sh_var){ .name = "q", .function = "main(", .klass = SH_VAR_LOCAL, .type = tf, .builtin = -1, .lanes = 32, .words = q });
    sh_builder_add_var(b, &(sh_var){ .name = "uv", .klass = SH_VAR_INPUT, .type = tv2, .builtin = -1, .lanes = 32, .words = uv });
    uint32_t unit = 3, unit2 = 5;
    sh_builder_add_var(b, &(sh_var){ .name = "tex", .klass = SH_VAR_UNIFORM, .type = tsam, .builtin = -1, .lanes = 1, .words = &unit });
    sh_builder_add_var(b, &(sh_var){ .name = "shadow", .klass = SH_VAR_UNIFORM, .type = tsh, .builtin = -1, .lanes = 1, .words = &unit2 });
    sh_builder_push_frame(b, "main(", 3);
    sh_builder_set_header(b, &(sh_header){ .stage = 4, .active = 0xffffffffu, .alive = 0xffffffffu });
    char err[100];
    return sh_builder_finish(b, err, sizeof err);
}

static void env_is(const sh_snapshot *s, int lane, const char *expr, const char *want)
{
    char text[256], type[64];
    struct dbg_eval_env env = { fake_sample, NULL };
    int rc = dbg_eval_frame_env(s, lane, NULL, expr, &env, text, sizeof text, type, sizeof type);
    if (rc != 0 || strcmp(text, want) != 0) {
        fprintf(stderr, "eval '%s' (lane %d): got '%s' (rc %d), want '%s'\n", expr, lane, text, rc, want);
        failures++;
    }
}

static void test_eval_quad(void)
{
    sh_snapshot *s = fragment_snapshot();
    CHECK(s != NULL);
    if (!s)
        return;
    /* Quad 1 is lanes 4..7 = q 16, 25, 36, 49: rows (16,25) (36,49), columns (16,36) (25,49). */
    env_is(s, 4, "dFdx(q)", "9");
    env_is(s, 5, "dFdx(q)", "9");
    env_is(s, 6, "dFdx(q)", "13");
    env_is(s, 4, "dFdy(q)", "20");
    env_is(s, 7, "dFdy(q)", "24");
    env_is(s, 7, "fwidth(q)", "37");
    env_is(s, 6, "dFdxFine(-q)", "-13");
    env_is(s, 4, "dFdx(q * 2.0 + 1.0)", "18");
    env_is(s, 4, "dFdx(dFdy(q))", "4");
    env_is(s, 4, "dFdx(vec2(q, 1.0))", "vec2(9, 0)");
    /* texture(): the unit from the sampler, this lane's coordinates, the coarse quad derivatives. */
    sample_calls = 0;
    env_is(s, 6, "texture(tex, uv)", "vec4(3, 2, 0, 1)");
    CHECK(sample_calls == 1 && last_req.unit == 3 && last_req.mask == 1u << 6 && last_req.op == GM_TEX_SAMPLE);
    CHECK(last_req.has_grad && !last_req.has_lod && last_req.ddx[0][6] == 0.25f && last_req.ddy[0][6] == 0.5f &&
          last_req.ddx[1][6] == 0.5f && last_req.ddy[1][6] == 1.0f);
    env_is(s, 6, "textureLod(tex, uv, 2.5).xy", "vec2(3, 2)");
    CHECK(last_req.has_lod && !last_req.has_grad && last_req.lod[6] == 2.5f);
    env_is(s, 6, "texture(tex, uv, 1.0).x", "3");
    CHECK(last_req.has_bias && last_req.bias[6] == 1.0f && last_req.has_grad);
    env_is(s, 1, "textureOffset(tex, uv, ivec2(-1, 2)).x", "0.5");
    CHECK(last_req.has_offset && last_req.offset[0][1] == -1 && last_req.offset[1][1] == 2);
    env_is(s, 1, "texelFetch(tex, ivec2(7, 9), 1)", "vec4(7, 9, 0, 1)");
    CHECK(last_req.op == GM_TEX_FETCH && last_req.has_lod && last_req.lod[1] == 1.0f);
    env_is(s, 1, "textureSize(tex, 1)", "ivec2(32, 16)");
    CHECK(last_req.op == GM_TEX_QUERY_SIZE);
    env_is(s, 2, "texture(shadow, vec3(uv, 0.75))", "1");   /* one float: the compare result */
    CHECK(last_req.shadow && last_req.dref[2] == 0.75f);
    env_is(s, 6, "texture2D(tex, uv).y", "2");
    char text[256];
    struct dbg_eval_env env = { fake_sample, NULL };
    CHECK(dbg_eval_frame_env(s, 0, NULL, "texture(q, uv)", &env, text, sizeof text, NULL, 0) != 0 &&
          strstr(text, "needs a sampler"));
    CHECK(dbg_eval_frame_env(s, 0, NULL, "texture(tex, q)", &env, text, sizeof text, NULL, 0) != 0 &&
          strstr(text, "needs 2 components"));
    CHECK(dbg_eval_frame_env(s, 0, NULL, "texture(shadow, uv)", &env, text, sizeof text, NULL, 0) != 0 &&
          strstr(text, "needs 3 components"));
    CHECK(dbg_eval_frame_env(s, 0, NULL, "textureLod(tex, uv)", &env, text, sizeof text, NULL, 0) != 0 &&
          strstr(text, "arguments"));
    /* Without an environment (conditions of a snapshot copy) texture functions say so. */
    CHECK(dbg_eval(s, 0, "texture(tex, uv)", text, sizeof text, NULL, 0) != 0 && strstr(text, "GPU model"));
    CHECK(dbg_eval(s, 0, "dFdx()", text, sizeof text, NULL, 0) != 0 && strstr(text, "one argument"));
    sh_snapshot_unref(s);
    /* Derivatives need a fragment stop. */
    sh_snapshot *vs = snapshot();
    if (vs) {
        CHECK(dbg_eval(vs, 0, "dFdx(k)", text, sizeof text, NULL, 0) != 0 && strstr(text, "fragment"));
        sh_snapshot_unref(vs);
    }
    /* Sampler names both ways. */
    struct dbg_sampler_kind k;
    char name[40];
    CHECK(dbg_sampler_glsl_name(1, 1, 1, 0, 0, name, sizeof name) && !strcmp(name, "sampler2DArrayShadow"));
    CHECK(dbg_sampler_kind_parse(name, &k) && k.dim == GM_DIM_2D && k.arrayed && k.shadow && k.coords == 3 &&
          k.size_comps == 3);
    CHECK(dbg_sampler_glsl_name(3, 0, 0, 0, 2, name, sizeof name) && !strcmp(name, "usamplerCube"));
    CHECK(dbg_sampler_kind_parse(name, &k) && k.dim == GM_DIM_CUBE && k.result == GM_TEX_RESULT_UINT &&
          k.coords == 3 && k.size_comps == 2);
    CHECK(dbg_sampler_glsl_name(4, 0, 0, 0, 1, name, sizeof name) && !strcmp(name, "isampler2DRect"));
    CHECK(dbg_sampler_kind_parse(name, &k) && k.dim == GM_DIM_RECT && k.result == GM_TEX_RESULT_INT);
    CHECK(dbg_sampler_kind_parse("sampler2DMSArray", &k) && k.ms && k.arrayed);
    CHECK(!dbg_sampler_kind_parse("sampler", &k) && !dbg_sampler_kind_parse("image2D", &k) &&
          !dbg_sampler_kind_parse("sampler2DFoo", &k));
    CHECK(!dbg_sampler_glsl_name(9, 0, 0, 0, 0, name, sizeof name));
}

/* A client names the breakpoint file: a FIFO with no writer or /dev/zero must answer at once with
 * a reason (they used to block the server's I/O thread), a file over the cap or with NUL bytes is
 * refused, a shader file is read whole. */
static void test_read_source(void)
{
    char dir[] = "/tmp/dap-unit-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char fifo[64], big[64], nul[64], ok[64], why[200];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(big, sizeof big, "%s/big", dir);
    snprintf(nul, sizeof nul, "%s/nul", dir);
    snprintf(ok, sizeof ok, "%s/ok.frag", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    time_t t0 = time(NULL);
    CHECK(dbg_read_source(fifo, why, sizeof why) == NULL && strstr(why, "not a regular file"));
    CHECK(dbg_read_source("/dev/zero", why, sizeof why) == NULL && strstr(why, "not a regular file"));
    CHECK(dbg_read_source(dir, why, sizeof why) == NULL && strstr(why, "not a regular file"));
    CHECK(time(NULL) - t0 < 3);
    CHECK(dbg_read_source("/nonexistent/x.frag", why, sizeof why) == NULL && strstr(why, "cannot open"));
    int fd = open(big, O_WRONLY | O_CREAT, 0600);
    CHECK(fd >= 0 && ftruncate(fd, DBG_SOURCE_MAX + 1) == 0);
    close(fd);
    CHECK(dbg_read_source(big, why, sizeof why) == NULL && strstr(why, "larger than"));
    FILE *f = fopen(nul, "wb");
    fwrite("void main() {}\0x", 1, 16, f);
    fclose(f);
    CHECK(dbg_read_source(nul, why, sizeof why) == NULL && strstr(why, "NUL"));
    f = fopen(ok, "wb");
    fputs("#version 330\nvoid main() {}\n", f);
    fclose(f);
    char *text = dbg_read_source(ok, why, sizeof why);
    CHECK(text && !strcmp(text, "#version 330\nvoid main() {}\n"));
    free(text);
    unlink(fifo);
    unlink(big);
    unlink(nul);
    unlink(ok);
    rmdir(dir);
}

/* The live attach starts a session only on a complete initialize request. */
static void test_first_command(void)
{
    char cmd[64];
    const char *init = "Content-Length: 49\r\n\r\n{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\"}";
    glr_dap_first_command(init, strlen(init), cmd, sizeof cmd);
    CHECK(!strcmp(cmd, "initialize"));
    glr_dap_first_command(init, strlen(init) - 1, cmd, sizeof cmd);   /* the body is incomplete */
    CHECK(!strcmp(cmd, ""));
    glr_dap_first_command("Content-Length: 120\r\n", 21, cmd, sizeof cmd);
    CHECK(!strcmp(cmd, ""));
    const char *ev = "Content-Length: 47\r\n\r\n{\"seq\":1,\"type\":\"event\",\"command\":\"initialize\"}";
    glr_dap_first_command(ev, strlen(ev), cmd, sizeof cmd);   /* a complete frame, not a request */
    CHECK(!strcmp(cmd, ""));
}

/* The grammar-only check of breakpoint conditions: names, types and calls are not judged
 * (there is no snapshot), grammar errors are, with the evaluator's own messages. */
static void test_eval_syntax(void)
{
    char err[160];
    static const char *good[] = { "x > 0.5", "a.b[3].c + f(x, y) ? 1 : 2", "!(u && v) || w[i + 1].xyz == vec3(1.0)",
                                  "unknown_fn(1, 2, 3) * no_such_var", "1 / 0", "-m[1][2] >= 1e-3" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        err[0] = 0;
        CHECK(dbg_eval_syntax(good[i], err, sizeof err) == 0);
        CHECK(err[0] == 0);
    }
    static const struct { const char *expr, *msg; } bad[] = {
        { "x >", "unexpected end of expression" }, { "(x", "missing ')'" }, { "x y", "unexpected 'y'" },
        { "f(1, 2", "missing ')' after the arguments of f" }, { "a[1", "missing ']'" }, { "a.", "member name expected" },
        { "c ? 1", "missing ':'" }, { "", "unexpected end of expression" }, { "x $ 1", "unexpected '$" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK(dbg_eval_syntax(bad[i].expr, err, sizeof err) == -1);
        if (!strstr(err, bad[i].msg))
            fprintf(stderr, "syntax '%s': got '%s'\n", bad[i].expr, err);
        CHECK(strstr(err, bad[i].msg) != NULL);
    }
}

int main(void)
{
    test_eval_syntax();
    test_read_source();
    test_first_command();
    test_wire();
    test_hit_conditions();
    test_eval();
    test_eval_quad();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("dap unit: all checks passed\n");
    return failures ? 1 : 0;
}
