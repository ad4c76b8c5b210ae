/* Unit tests of the exact-size trace buffers, without a frame runner: a fragment shader with
 * loops, divergence, a call, buffer loads/stores/atomics and texture sampling is compiled by the
 * front end and its warps run through the timing model (all resident at once, so warps
 * interleave), with the tracebuf hooks called from the model's issue observer exactly as the
 * frame runner calls them. Checks: exact sizes (cursor == size, every record written), record
 * counts against an independent count of issued instructions, merged trace == single-buffer
 * reference, register values against the shader's output, the binary file round trip through
 * the reader and the dump tool, clear errors on corrupt files and on a second pass that is not
 * the first one's frame.
 *
 * argv[1]: the gmt_tracebuf_dump executable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gm_exec.h"
#include "gm_test.h"
#include "gmt_tracebuf.h"

static const char *dump_exe;
static char tmpdir[256];

static const char *shader_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "layout(std430, binding=0) buffer B { float data[]; };\n"
    "layout(std430, binding=1) buffer C { uint counter; };\n"
    "layout(binding=0) uniform sampler2D tex;\n"
    "float shade(float x) {\n"
    "  float acc = x;\n"
    "  if (x > 2.0)\n"
    "    acc = acc * 0.5;\n"
    "  return acc;\n"
    "}\n"
    "void main() {\n"
    "  int i = int(v * 97.0) & 255;\n"
    "  float acc = 0.0;\n"
    "  int n = i & 7;\n"
    "  for (int k = 0; k < n; k++)\n"
    "    acc += data[(i + k) & 255];\n"
    "  if (v > 0.3) {\n"
    "    vec4 c = texture(tex, vec2(v, acc));\n"
    "    acc += c.x;\n"
    "  } else {\n"
    "    data[i + 256] = acc;\n"
    "  }\n"
    "  atomicAdd(counter, 1u);\n"
    "  acc = shade(acc);\n"
    "  o = vec4(acc);\n"
    "}\n";

static float ssbo[512];
static uint32_t counter_buf[4];

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    (void)ctx;
    if (kind != GM_BUFFER_STORAGE)
        return NULL;
    if (binding == 0) {
        *size = sizeof ssbo;
        return ssbo;
    }
    if (binding == 1) {
        *size = sizeof counter_buf;
        return counter_buf;
    }
    return NULL;
}

static void fake_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    (void)ctx;
    for (int l = 0; l < GM_LANES; l++) {
        out->f[0][l] = req->coord.f[0][l] * 0.25f;
        out->f[1][l] = out->f[2][l] = 0.0f;
        out->f[3][l] = 1.0f;
    }
}

/* Independent counts of what the trace must hold, from the issued instructions. */
typedef struct {
    gmf_hooks h;
    const gm_program *p;
    uint64_t block_entries, mem_ops, tex_ops;
} observer;

static int observe(void *ctx, const gm_timing_issue *ev)
{
    observer *o = ctx;
    const gm_program *p = ev->warp->p;
    for (int b = 0; b < p->block_count; b++)
        if (p->blocks[b].first_pc == ev->pc)
            o->block_entries++;
    int op = p->code[ev->pc].op;
    if (op == GM_OP_BUF_LOAD || op == GM_OP_BUF_STORE || op == GM_OP_BUF_ATOMIC)
        o->mem_ops++;
    if (op == GM_OP_TEX || op == GM_OP_IMAGE)
        o->tex_ops++;
    if (o->h.issue)
        o->h.issue(o->h.ctx, ev);
    return 0;
}

#define MAX_WARPS 24

/* One "frame": two draws of the same shader under two GL program names. outs: o.x per warp and
 * lane of the first draw (may be NULL). */
static void run_frame(gmt_tracebuf *t, int pass, gm_program *p, int nwarps, observer *obs,
                      float outs[MAX_WARPS][GM_LANES])
{
    memset(obs, 0, sizeof *obs);
    CHECK(gmt_tracebuf_hooks(t, pass, &obs->h) == 0);
    for (int i = 0; i < 512; i++)
        ssbo[i] = (float)(i % 13) * 0.25f;
    memset(counter_buf, 0, sizeof counter_buf);
    gm_timing_config cfg;
    gm_timing_config_default(&cfg);
    gm_timing *tm = gm_timing_create(&cfg, NULL, 0);
    CHECK(tm != NULL);
    gm_timing_set_issue_observer(tm, observe, obs);
    gm_env env = {NULL, fake_sample, NULL, fake_buffer};
    int vin = gm_program_find_var(p, "v", GM_VAR_INPUT);
    int vout = gm_program_find_var(p, "o", GM_VAR_OUTPUT);
    CHECK(vin >= 0 && vout >= 0);
    for (int draw = 0; draw < 2; draw++) {
        gmf_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = GMF_EV_DRAW;
        ev.draw = (uint64_t)draw;
        ev.program = draw ? 9 : 7;
        obs->h.draw_begin(obs->h.ctx, &ev, gm_timing_cycle(tm));
        int nw = draw ? 3 : nwarps;
        gm_timing_batch_desc d = {GM_STAGE_FRAGMENT, draw, -1, 0, 0, NULL, 0};
        int b = gm_timing_batch_begin(tm, &d);
        gm_warp *w[MAX_WARPS];
        for (int i = 0; i < nw; i++) {
            w[i] = gm_warp_create(p, i);
            uint32_t (*in)[GM_LANES] = gm_warp_var_lanes(w[i], vin);
            for (int l = 0; l < GM_LANES; l++) {
                float f = (float)((i * 32 + l) * 37 % 101) / 97.0f;
                memcpy(&in[0][l], &f, 4);
            }
            /* Some lanes idle, so masks are partial. */
            gm_warp_begin(w[i], i % 3 == 2 ? 0x00ffff0fu : 0xffffffffu, 0);
            CHECK(gm_timing_submit(tm, b, w[i], &env, NULL) == 0);
        }
        gm_timing_batch_close(tm, b);
        CHECK(gm_timing_run(tm) == GM_TIMING_IDLE);
        obs->h.draw_end(obs->h.ctx, &ev, gm_timing_cycle(tm));
        for (int i = 0; i < nw; i++) {
            if (outs && !draw) {
                uint32_t (*o)[GM_LANES] = gm_warp_var_lanes(w[i], vout);
                memcpy(outs[i], o[0], sizeof outs[i]);
            }
            gm_warp_destroy(w[i]);
        }
    }
    gm_timing_destroy(tm);
}

static void test_parse(void)
{
    gmt_tracebuf_config c;
    char err[256];
    memset(&c, 0, sizeof c);
    CHECK(gmt_tracebuf_parse_types("flow,mem,tex,reg:acc,reg:color_1", &c, err, sizeof err) == 0);
    CHECK(c.types == GMT_TB_ALL && c.var_count == 2 && !strcmp(c.vars[1], "color_1"));
    CHECK(gmt_tracebuf_parse_types("all", &c, err, sizeof err) == 0 && c.types == 7 && c.var_count == 0);
    CHECK(gmt_tracebuf_parse_types("bb,tex", &c, err, sizeof err) == 0 && c.types == 5);
    CHECK(gmt_tracebuf_parse_types("flow,bogus", &c, err, sizeof err) != 0 && strstr(err, "bogus"));
    CHECK(gmt_tracebuf_parse_types("reg", &c, err, sizeof err) != 0 && strstr(err, "reg:NAME"));
    CHECK(gmt_tracebuf_parse_types("reg:1x", &c, err, sizeof err) != 0);
    CHECK(gmt_tracebuf_parse_types("flow,,mem", &c, err, sizeof err) != 0);
    CHECK(gmt_tracebuf_parse_types("", &c, err, sizeof err) != 0);
    memset(&c, 0, sizeof c);
    CHECK(gmt_tracebuf_create(&c, err, sizeof err) == NULL && strstr(err, "no record type"));
    c.types = GMT_TB_BIT(GMT_TB_REG);
    CHECK(gmt_tracebuf_create(&c, err, sizeof err) == NULL && strstr(err, "variable"));
}

static int run_cmd(const char *fmt, const char *a, const char *b)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static size_t file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n > 0 ? (size_t)n : 0;
}

/* Copies path to out, keeping `keep` bytes and flipping the byte at `flip` (if >= 0). */
static void damaged_copy(const char *path, const char *out, size_t keep, long flip)
{
    FILE *f = fopen(path, "rb");
    size_t n = file_size(path);
    uint8_t *d = malloc(n ? n : 1);
    CHECK(f && d && fread(d, 1, n, f) == n);
    if (f)
        fclose(f);
    if (flip >= 0 && (size_t)flip < n)
        d[flip] ^= 0x5a;
    FILE *g = fopen(out, "wb");
    CHECK(g != NULL);
    if (g) {
        fwrite(d, 1, keep < n ? keep : n, g);
        fclose(g);
    }
    free(d);
}

static void test_files(const gmt_tracebuf *t)
{
    char bin[512], jsonl[512], bad[512], err[512];
    snprintf(bin, sizeof bin, "%s/trace.gmtb", tmpdir);
    snprintf(jsonl, sizeof jsonl, "%s/trace.jsonl", tmpdir);
    snprintf(bad, sizeof bad, "%s/bad.gmtb", tmpdir);
    CHECKF(gmt_tracebuf_write_binary(t, bin, err, sizeof err) == 0, "%s", err);
    CHECKF(gmt_tracebuf_write_jsonl(t, jsonl, err, sizeof err) == 0, "%s", err);

    /* The reader gives back the merged trace, record for record. */
    gmt_tbr *r = gmt_tbr_open(bin, err, sizeof err);
    CHECKF(r != NULL, "%s", err);
    if (r) {
        size_t i = 0;
        const gmt_tb_key *rec;
        int same = 1;
        while (gmt_tbr_next(r, &rec) == 1) {
            const gmt_tb_key *m = gmt_tracebuf_merged_record(t, i++);
            if (!m || memcmp(m, rec, gmt_tb_record_size((gmt_tb_type)rec->type)) != 0)
                same = 0;
        }
        CHECK(same && i == gmt_tracebuf_merged_count(t));
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
            CHECK(gmt_tbr_count(r, (gmt_tb_type)k) == gmt_tracebuf_record_count(t, (gmt_tb_type)k));
        CHECK(gmt_tbr_program_count(r) == 2 && gmt_tbr_var_count(r) == 1 &&
              !strcmp(gmt_tbr_var_name(r, 0), "acc"));
        gmt_tracebuf_program_info pi;
        CHECK(gmt_tbr_program(r, 1, &pi) == 0 && pi.gl_program == 9 && pi.stage == GM_STAGE_FRAGMENT);
        gmt_tbr_close(r);
    }
    /* JSON lines: a header line and one line per record. */
    FILE *f = fopen(jsonl, "r");
    CHECK(f != NULL);
    if (f) {
        size_t lines = 0;
        int c, flows = 0;
        char buf[16384];
        while (fgets(buf, sizeof buf, f)) {
            lines++;
            flows += strstr(buf, "\"type\":\"flow\"") != NULL;
        }
        (void)c;
        fclose(f);
        CHECKF(lines == gmt_tracebuf_merged_count(t) + 1, "%zu lines", lines);
        CHECK((uint64_t)flows == gmt_tracebuf_record_count(t, GMT_TB_FLOW));
    }
    /* The dump tool reads it; a damaged file is one clear error, never a crash. */
    CHECK(run_cmd("'%s' '%s' > /dev/null", dump_exe, bin) == 0);
    CHECK(run_cmd("'%s' '%s' --jsonl > /dev/null", dump_exe, bin) == 0);
    size_t n = file_size(bin);
    struct {
        size_t keep;
        long flip;
        const char *what;
    } cases[] = {
        {n - 1, -1, "truncated"},
        {40, -1, "truncated"},
        {0, -1, "truncated"},
        {n, 0, "magic"},
        {n, (long)n - 3, "checksum"},
        {n, 70, "checksum"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        damaged_copy(bin, bad, cases[i].keep, cases[i].flip);
        r = gmt_tbr_open(bad, err, sizeof err);
        CHECKF(r == NULL && strstr(err, cases[i].what), "case %zu: %s", i, r ? "opened" : err);
        gmt_tbr_close(r);
    }
    CHECK(run_cmd("'%s' '%s' 2> /dev/null", dump_exe, bad) == 2);
    CHECK(gmt_tbr_open("/nonexistent/x.gmtb", err, sizeof err) == NULL && strstr(err, "cannot open"));
    CHECK(run_cmd("'%s' /nonexistent/x.gmtb%s 2> /dev/null", dump_exe, "") == 2);
    unlink(bin);
    unlink(jsonl);
    unlink(bad);
}

static void test_two_passes(gm_program *p)
{
    gmt_tracebuf_config c;
    char err[256];
    memset(&c, 0, sizeof c);
    CHECK(gmt_tracebuf_parse_types("flow,mem,tex,reg:acc", &c, err, sizeof err) == 0);
    c.reference = true;
    gmt_tracebuf *t = gmt_tracebuf_create(&c, err, sizeof err);
    CHECK(t != NULL);
    if (!t)
        return;
    observer o1, o2;
    gmf_hooks h;
    CHECK(gmt_tracebuf_hooks(t, 2, &h) != 0); /* not sized yet */
    enum { NW = 20 };
    run_frame(t, 1, p, NW, &o1, NULL);
    CHECKF(gmt_tracebuf_size_buffers(t, err, sizeof err) == 0, "%s", err);
    static float outs[MAX_WARPS][GM_LANES];
    run_frame(t, 2, p, NW, &o2, outs);
    CHECKF(gmt_tracebuf_finish(t, err, sizeof err) == 0, "%s", err);

    gmt_tracebuf_stats st;
    gmt_tracebuf_get_stats(t, &st);
    printf("records: flow %llu, mem %llu, tex %llu, reg %llu; %llu bytes; %llu block executions, "
           "%llu warps\n", (unsigned long long)st.records[0], (unsigned long long)st.records[1],
           (unsigned long long)st.records[2], (unsigned long long)st.records[3],
           (unsigned long long)st.total_bytes, (unsigned long long)st.block_executions,
           (unsigned long long)st.warps);
    /* Exact: every cursor ended at its buffer's end. */
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        CHECKF(st.cursor[k] == st.bytes[k], "%s: cursor %llu size %llu", gmt_tb_type_name((gmt_tb_type)k),
               (unsigned long long)st.cursor[k], (unsigned long long)st.bytes[k]);
        CHECK(st.bytes[k] == st.records[k] * gmt_tb_record_size((gmt_tb_type)k));
        CHECKF(st.records[k] > 0, "no %s records", gmt_tb_type_name((gmt_tb_type)k));
    }
    /* Counts agree with what issued (both passes issued the same). */
    CHECK(o1.block_entries == o2.block_entries && o1.mem_ops == o2.mem_ops && o1.tex_ops == o2.tex_ops);
    CHECKF(st.records[GMT_TB_FLOW] == o2.block_entries, "%llu flow, %llu block entries",
           (unsigned long long)st.records[GMT_TB_FLOW], (unsigned long long)o2.block_entries);
    CHECK(st.block_executions == o2.block_entries);
    CHECK(st.records[GMT_TB_MEM] == o2.mem_ops && st.records[GMT_TB_TEX] == o2.tex_ops);
    CHECK(st.programs == 2 && st.vars_found == 1 && st.warps == NW + 3);

    /* Merged trace == single-buffer reference, byte for byte. */
    size_t na = 0, nb = 0;
    uint8_t *a = gmt_tracebuf_serialize_merged(t, &na);
    uint8_t *b = gmt_tracebuf_serialize_reference(t, &nb);
    CHECK(a && b && na == nb && na == st.total_bytes && memcmp(a, b, na) == 0);
    free(a);
    free(b);

    /* Merged order is per warp, in issue order; the last acc write of a warp in the first draw
     * holds the shader's output (o = vec4(acc) after acc = shade(acc)). Flow records of a warp
     * start with the entry block. */
    size_t n = gmt_tracebuf_merged_count(t);
    int checked = 0, bad_values = 0;
    for (size_t i = 0; i < n; i++) {
        const gmt_tb_key *k = gmt_tracebuf_merged_record(t, i);
        const gmt_tb_key *next = i + 1 < n ? gmt_tracebuf_merged_record(t, i + 1) : NULL;
        if (i == 0 || gmt_tracebuf_merged_record(t, i - 1)->warp_seq != k->warp_seq)
            CHECK(k->type == GMT_TB_FLOW && k->seq == 0);
        if (next && next->warp_seq == k->warp_seq)
            CHECK(next->seq == k->seq + 1); /* dense per-warp numbering */
        if (k->warp_seq >= NW || k->type != GMT_TB_REG)
            continue;
        /* Last reg record of this warp? */
        int last = 1;
        for (size_t j = i + 1; j < n && gmt_tracebuf_merged_record(t, j)->warp_seq == k->warp_seq; j++)
            if (gmt_tracebuf_merged_record(t, j)->type == GMT_TB_REG)
                last = 0;
        if (!last)
            continue;
        const gmt_tb_reg *r = (const gmt_tb_reg *)k;
        for (int l = 0; l < GM_LANES; l++)
            if ((r->mask >> l) & 1 && memcmp(&r->value[l], &outs[k->warp_seq][l], 4) != 0)
                bad_values++;
        checked++;
    }
    CHECK(checked == NW && bad_values == 0);
    test_files(t);
    gmt_tracebuf_destroy(t);
}

/* A second pass that is not the first's frame is reported, and never writes out of bounds. */
static void test_mismatch(gm_program *p)
{
    for (int extra = -1; extra <= 1; extra += 2) {
        gmt_tracebuf_config c;
        char err[256];
        memset(&c, 0, sizeof c);
        c.types = GMT_TB_ALL & ~GMT_TB_BIT(GMT_TB_REG);
        gmt_tracebuf *t = gmt_tracebuf_create(&c, err, sizeof err);
        observer o;
        run_frame(t, 1, p, 8, &o, NULL);
        CHECK(gmt_tracebuf_size_buffers(t, err, sizeof err) == 0);
        run_frame(t, 2, p, 8 + extra, &o, NULL);
        err[0] = 0;
        CHECKF(gmt_tracebuf_finish(t, err, sizeof err) != 0 && strstr(err, "not the same frame"),
               "extra %d: %s", extra, err);
        CHECK(gmt_tracebuf_write_binary(t, "/dev/null", err, sizeof err) != 0);
        gmt_tracebuf_destroy(t);
    }
}

int main(int argc, char **argv)
{
    dump_exe = argc > 1 ? argv[1] : "gmt_tracebuf_dump";
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gmt_tracebuf_test_XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_parse();
    gm_shader_source in = {GM_STAGE_FRAGMENT, shader_src, "tracebuf_test.frag"};
    gm_compile_result cr;
    char err[256];
    if (gm_compile_program(&in, 1, &cr) != 0) {
        fprintf(stderr, "compile failed:\n%s\n", cr.log);
        return 1;
    }
    gm_program *p = gm_program_create(cr.shaders[0].spirv, cr.shaders[0].word_count, err, sizeof err);
    if (!p) {
        fprintf(stderr, "decode failed: %s\n", err);
        return 1;
    }
    test_two_passes(p);
    test_mismatch(p);
    gm_program_destroy(p);
    gm_compile_result_free(&cr);
    rmdir(tmpdir);
    TEST_DONE();
}
