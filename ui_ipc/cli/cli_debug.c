/* `glreplay debug F.glcap --break FILE_OR_SHADER:LINE [--hit N] [--condition E] [--draw K]
 * [--pixel X,Y] [--json]`: runs the frame in the GPU model to the N-th hit of one breakpoint and
 * prints the shadow snapshot the IDE would see (stack, locals of the focused lane, every lane of
 * the warp, uniforms, built-ins, pipeline state).
 * `glreplay debug F.glcap --pixel X,Y[,EVENT]` without --break: debug this pixel, a stop at the
 * first line of the fragment shader invocation that wrote the pixel (ui_ipc/dap/dap_pixel.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "cli_common.h"
#include "cli_dap.h"
#include "cli_opts.h"
#include "ui_ipc/cli/cli_debug_heatmap.h"
#include "shadow/shadow.h"
#include "debugger/dbg_bind.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_ckpt.h"
#include "ui_ipc/cli/cli_stop.h"
#include "ui_ipc/dap/dap_pixel.h"
#include "debugger/pixel/pixel_pass_feed.h"
#include "debugger/dbg_runner.h"

#define USAGE "usage: glreplay debug F.glcap --break FILE_OR_SHADER:LINE [--hit N] [--condition EXPR] " \
              "[--draw K] [--pixel X,Y] [--no-timing] [--timeout S] [--json] | F.glcap --pixel X,Y[,EVENT] " \
              "[--fragment N] [--target T] [--stage vertex [--corner K]] [--timeout S] [--json] | " \
              "F.glcap --vertex DRAW,INDEX[,INSTANCE] [--timeout S] [--json] | F.glcap --break FS_LINE --heatmap EXPR --out MAP.png " \
              "[--component K] [--draw K] [--min X] [--max X] [--json]"

struct opts {
    const char *path, *brk, *cond, *target;
    uint64_t hit;
    int draw, px, py, fragment;
    long long pevent;
    /* debug this vertex: --vertex DRAW,INDEX[,INSTANCE], or --pixel with --stage vertex */
    long long vdraw, vindex, vinstance;
    bool stage_vertex;
    int corner;
    bool json, no_timing;
    double timeout;
    struct cli_heatmap_opts heat;   /* --heatmap (cli_debug_heatmap.c) */
};

static void help(void)
{
    printf(USAGE "\n\n"
           "Runs the captured frame in the GPU model and stops at the N-th invocation (lane) that reaches\n"
           "the line, in the model's deterministic order; prints the stopped warp's snapshot.\n\n"
           "  --break FILE:LINE     a shader file on disk (binds to every captured shader containing its\n"
           "                        text; lines are the file's) or a captured shader: its id or its name\n"
           "                        from `glreplay debug F --list` (lines are the shader's)\n"
           "  --hit N               stop at the N-th hit (default 1)\n"
           "  --condition EXPR      count only lanes where the GLSL expression is true\n"
           "  --draw K              count only hits in draw K\n"
           "  --pixel X,Y           count only fragments at window pixel X,Y\n"
           "  --pixel X,Y[,EVENT]   without --break: debug this pixel, stop at the first line of the\n"
           "                        fragment shader invocation that wrote it (at event EVENT, a draw of\n"
           "                        `glreplay pixel`'s history; default: the last draw that wrote it)\n"
           "  --fragment N          with that: the N-th fragment of the event at the pixel (default: the\n"
           "                        last one written)\n"
           "  --target T            with that: the image (back, fboN, fboN/colorK; default back)\n"
           "  --stage vertex        with that: debug the vertex instead, stop at the first line of the\n"
           "                        vertex shader invocation of the fragment's primitive's provoking vertex\n"
           "  --corner K            with that: the K-th vertex (0-2) of the primitive instead\n"
           "  --vertex DRAW,INDEX[,INSTANCE]  without --break: debug this vertex, stop at the first line of\n"
           "                        the vertex shader invocation of draw DRAW with gl_VertexID INDEX (the\n"
           "                        index value plus base vertex) and gl_InstanceID INSTANCE (default 0)\n"
           "  --no-timing           run each warp to its end instead of the timing model's interleaved\n"
           "                        order (faster for hits deep in a frame; hit N is then another lane)\n"
           "  --timeout S           stop the run after S seconds (also the first Ctrl-C): exit 1\n"
           "  --json                strict JSON on stdout\n"
           "  --list                list the captured shaders and exit\n"
           "  --heatmap EXPR        with --break on a fragment shader line: run the frame once and write\n"
           "                        EXPR's value at every pixel a fragment reached that line at (the last\n"
           "                        arrival wins) as a PNG heat map to --out (blue..white from the lowest\n"
           "                        to the highest value; magenta NaN; transparent: no fragment)\n"
           "  --out MAP.png         the heat map's file\n"
           "  --component K         with that: which component of a vector value (default 0)\n"
           "  --min X, --max X      with that: the colour range (default: the values seen)\n");
}

static bool parse_num(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* The line for a refused value: "debug: --hit needs a positive number, got 'x'". */
#define GOT_LINE "%v: %o needs %n, got '%a'"

/* The option values (cli_opts.h callbacks); dest is named at each. */
static bool parse_hit(const char *s, void *dest)   /* uint64_t */
{
    long long v;
    if (!parse_num(s, 1, 1ll << 53, &v))
        return false;
    *(uint64_t *)dest = (uint64_t)v;
    return true;
}

static bool parse_int(const char *s, long long lo, long long hi, int *out)
{
    long long v;
    if (!parse_num(s, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

static bool parse_draw(const char *s, void *dest)   /* int */
{
    return parse_int(s, 0, 1 << 30, dest);
}

static bool parse_fragment(const char *s, void *dest)   /* int */
{
    return parse_int(s, 1, 1 << 20, dest);
}

static bool parse_corner(const char *s, void *dest)   /* int */
{
    return parse_int(s, 0, 2, dest);
}

static bool parse_component(const char *s, void *dest)   /* struct cli_heatmap_opts */
{
    return parse_int(s, 0, 15, &((struct cli_heatmap_opts *)dest)->component);
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end || d != d)
        return false;
    *out = d;
    return true;
}

static bool parse_min(const char *s, void *dest)   /* struct cli_heatmap_opts */
{
    struct cli_heatmap_opts *h = dest;
    return (h->have_min = parse_double(s, &h->min));
}

static bool parse_max(const char *s, void *dest)   /* struct cli_heatmap_opts */
{
    struct cli_heatmap_opts *h = dest;
    return (h->have_max = parse_double(s, &h->max));
}

static bool parse_stage(const char *s, void *dest)   /* bool: vertex */
{
    if (strcmp(s, "vertex") && strcmp(s, "fragment"))
        return false;
    *(bool *)dest = !strcmp(s, "vertex");
    return true;
}

/* --vertex DRAW,INDEX[,INSTANCE] (dest: struct opts). */
static bool parse_vertex(const char *val, void *dest)
{
    struct opts *o = dest;
    int nn = 0;
    char tail;
    return !(sscanf(val, "%lld,%lld%n", &o->vdraw, &o->vindex, &nn) != 2 || o->vdraw < 0 || o->vindex < 0 ||
             o->vdraw > (1 << 30) || o->vindex > 2147483647ll ||
             (val[nn] && (sscanf(val + nn, ",%lld%c", &o->vinstance, &tail) != 1 || o->vinstance < 0 ||
                          o->vinstance > 2147483647ll)));
}

/* --pixel X,Y[,EVENT] (dest: struct opts); err: what the value needs (no comma, or an X longer
 * than a number: "X,Y"). */
static bool parse_pixel(const char *val, void *dest, char *err, size_t err_size)
{
    struct opts *o = dest;
    char xs[32], ys[32];
    const char *comma = strchr(val, ',');
    long long x, y;
    snprintf(err, err_size, "X,Y or X,Y,EVENT");
    if (!comma || (size_t)(comma - val) >= sizeof xs) {
        snprintf(err, err_size, "X,Y");
        return false;
    }
    snprintf(xs, sizeof xs, "%.*s", (int)(comma - val), val);
    const char *comma2 = strchr(comma + 1, ',');
    snprintf(ys, sizeof ys, "%.*s", comma2 ? (int)(comma2 - comma - 1) : 31, comma + 1);
    if (!parse_num(xs, 0, 1 << 20, &x) || !parse_num(ys, 0, 1 << 20, &y) ||
        (comma2 && !parse_num(comma2 + 1, 0, 1ll << 53, &o->pevent)))
        return false;
    o->px = (int)x;
    o->py = (int)y;
    return true;
}

static void list_shaders(const struct dbg_capture *c)
{
    for (int i = 0; i < c->n_shaders; i++) {
        const struct dbg_shader *s = &c->shaders[i];
        printf("%3d  %-24s %s of program %u, %d lines%s\n", s->id, s->name, dbg_stage_short(s->stage), s->program,
               s->line_count, s->compile_error ? " (the model cannot compile it)" : "");
    }
    if (c->ff_error)
        printf("the fixed-function sources of the frame's draws are not listed: %s\n", c->ff_error);
}

/* Binds the breakpoint; returns the number of locations (0 after printing why). */
static int bind(const struct dbg_capture *c, const char *spec, struct dbg_bp *bps, int max, int *file_line,
                struct dbg_binding *all, int *n_all)
{
    const char *colon = strrchr(spec, ':');
    long long line;
    if (!colon || colon == spec || !parse_num(colon + 1, 1, 10000000, &line)) {
        cli_error("debug: --break needs FILE_OR_SHADER:LINE, got '%s'", spec);
        return 0;
    }
    char target[4096];
    snprintf(target, sizeof target, "%.*s", (int)(colon - spec), spec);
    *file_line = (int)line;
    struct dbg_binding binds[16];
    int n = 0;
    long long id;
    struct stat st;
    if (stat(target, &st) == 0 && S_ISREG(st.st_mode)) {
        char *text = dbg_read_file(target);
        if (!text) {
            cli_error("debug: cannot read %s", target);
            return 0;
        }
        n = dbg_bind_text(c, text, binds, 16);
        free(text);
        if (!n) {
            cli_error("debug: no shader of the capture contains the text of %s", target);
            return 0;
        }
    } else {
        for (int i = 0; i < c->n_shaders && !n; i++)
            if (!strcmp(c->shaders[i].name, target) ||
                (parse_num(target, 1, c->n_shaders, &id) && id == c->shaders[i].id))
                binds[n++] = (struct dbg_binding){ c->shaders[i].id, 0, c->shaders[i].line_count };
        if (!n) {
            cli_error("debug: unknown shader '%s' (not a file, a shader id or a shader name; see --list)", target);
            return 0;
        }
    }
    if (n > 16)
        n = 16;
    memcpy(all, binds, (size_t)n * sizeof *all);
    *n_all = n;
    struct dbg_binding first_bind = binds[0];
    struct dbg_binding *first = &first_bind;
    int k = 0;
    char msg[300] = "";
    for (int i = 0; i < n && k < max; i++) {
        const struct dbg_shader *s = dbg_capture_shader(c, binds[i].shader);
        int at = dbg_bind_line(s, (int)line + binds[i].offset, binds[i].offset + binds[i].file_lines, msg, sizeof msg);
        if (!at)
            continue;
        if (!k)
            *first = binds[i];
        bps[k++] = (struct dbg_bp){ .id = 1, .shader = s->id, .line = at };
    }
    if (!k) {
        cli_error("debug: %s:%lld: %s", target, line, msg);
        return 0;
    }
    if (bps[0].line - first->offset != (int)line)
        fprintf(stderr, "glreplay: note: line %lld has no code; the breakpoint moved to line %d\n", line,
                bps[0].line - first->offset);
    return k;
}

static const char *source_line(const struct dbg_shader *s, int line, char *buf, size_t n)
{
    const char *p = s->source;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, n, "?");
        return buf;
    }
    const char *e = strchr(p, '\n');
    snprintf(buf, n, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
    return buf;
}

static void print_vars(const sh_snapshot *s, const char *title, int lane, bool (*want)(const sh_var *, const sh_snapshot *))
{
    printf("%s\n", title);
    uint32_t *w = NULL;
    int count = 0;
    for (int i = 0; i < sh_snapshot_var_count(s); i++) {
        const sh_var *v = sh_snapshot_var(s, i);
        if (!want(v, s))
            continue;
        const sh_type *t = sh_snapshot_type(s, v->type);
        uint32_t *nw = realloc(w, (size_t)(t->components + 1) * sizeof *w);
        if (!nw)
            break;
        w = nw;
        sh_var_lane_words(s, v, lane, w);
        char tn[96], val[1024];
        printf("  %-10s %-20s = %s\n", sh_type_glsl(s, v->type, tn, sizeof tn), v->name,
               sh_format_value(s, v->type, w, val, sizeof val));
        count++;
    }
    if (!count)
        printf("  (none)\n");
    free(w);
}

static const char *current_fn(const sh_snapshot *s)
{
    return sh_snapshot_frame_count(s) ? sh_snapshot_frame(s, 0)->function : "main";
}

static bool same_fn(const char *a, const char *b)
{
    size_t la = strcspn(a, "("), lb = strcspn(b, "(");
    return la == lb && !strncmp(a, b, la);
}

static bool want_local(const sh_var *v, const sh_snapshot *s)
{
    return (v->klass == SH_VAR_LOCAL && v->function && same_fn(v->function, current_fn(s))) ||
           v->klass == SH_VAR_GLOBAL || v->klass == SH_VAR_INPUT || v->klass == SH_VAR_OUTPUT;
}

static bool want_uniform(const sh_var *v, const sh_snapshot *s)
{
    (void)s;
    return v->klass == SH_VAR_UNIFORM;
}

static bool want_builtin(const sh_var *v, const sh_snapshot *s)
{
    (void)s;
    return v->klass == SH_VAR_BUILTIN;
}

static void print_text(const struct dbg_capture *c, const sh_snapshot *snap, const struct dbg_pass_res *r,
                       const struct dbg_binding *b, const char *target)
{
    const sh_header *h = sh_snapshot_header(snap);
    const struct dbg_shader *sh = dbg_capture_shader(c, h->shader);
    char text[512];
    int file_line = h->line - b->offset;
    printf("stopped at hit %llu of %s:%d (%s line %d)\n", (unsigned long long)r->hit, target, file_line,
           sh ? sh->name : "?", h->line);
    printf("thread: %s\n", sh_snapshot_title(snap));
    printf("focused lane %d", h->focus_lane);
    if (!h->lane_pos_known)
        printf(" (its pixel/vertex is unknown: the shader does not read gl_FragCoord/gl_VertexID)");
    else if (h->stage == 4)
        printf(" at pixel (%d, %d)", h->lane_x[h->focus_lane], h->lane_y[h->focus_lane]);
    else if (h->stage == 5)
        printf(" invocation %d of the workgroup", h->lane_x[h->focus_lane]);
    else if (h->stage == 3)   /* geometry: input primitive and invocation */
        printf(" primitive %d invocation %d", h->lane_x[h->focus_lane], h->lane_y[h->focus_lane]);
    else if (h->stage == GM_STAGE_TESS_CONTROL)
        printf(" patch %d invocation %d", h->lane_x[h->focus_lane], h->lane_y[h->focus_lane]);
    else if (h->stage == GM_STAGE_TESS_EVALUATION)
        printf(" patch %d domain point %d", h->lane_x[h->focus_lane], h->lane_y[h->focus_lane]);
    else
        printf(" vertex %d instance %d", h->lane_x[h->focus_lane], h->lane_y[h->focus_lane]);
    printf("; active mask 0x%08x, helper 0x%08x\n", h->active, h->helper);
    if (sh)
        printf("%5d | %s\n", h->line, source_line(sh, h->line, text, sizeof text));
    printf("call stack:\n");
    for (int d = 0; d < sh_snapshot_frame_count(snap); d++) {
        const sh_frame *f = sh_snapshot_frame(snap, d);
        printf("  #%d %.*s line %d\n", d, (int)strcspn(f->function, "("), f->function, d ? f->line : h->line);
    }
    print_vars(snap, "locals (focused lane):", h->focus_lane, want_local);
    printf("warp (per lane: line, pixel or vertex):\n");
    for (int l = 0; l < SH_LANES; l++) {
        if (!(((h->alive | h->helper | h->killed) >> l) & 1))
            continue;
        printf("  lane %2d %-9s %-7s line %-4d", l,
               ((h->active >> l) & 1) ? "active" : ((h->killed >> l) & 1) ? "killed" : "inactive",
               ((h->helper >> l) & 1) ? "helper" : "", h->lane_line[l]);
        if (h->lane_pos_known && h->stage == 5)
            printf(" (invocation %d)", h->lane_x[l]);
        else if (h->lane_pos_known)
            printf(" (%d, %d)", h->lane_x[l], h->lane_y[l]);
        printf("\n");
    }
    print_vars(snap, "uniforms:", h->focus_lane, want_uniform);
    print_vars(snap, "built-ins (focused lane):", h->focus_lane, want_builtin);
    if (sh_snapshot_find_var(snap, "gl_HelperInvocation") < 0)   /* fragment snapshots carry it */
        printf("  gl_HelperInvocation = %s\n", ((h->helper >> h->focus_lane) & 1) ? "true" : "false");
    printf("pipeline state at draw %d (event %llu): %zu bytes of JSON (see --json)\n", h->draw,
           (unsigned long long)h->event, strlen(sh_snapshot_pipeline(snap)));
}

/* Engine messages (a condition that does not evaluate, logpoints) go to stderr. */
static void engine_log(void *user, const char *text)
{
    (void)user;
    fprintf(stderr, "glreplay: %s", text);
}

int cli_debug(int argc, char **argv)
{
    struct opts o = { .hit = 1, .draw = -1, .px = -1, .py = -1, .pevent = -1, .vdraw = -1, .corner = -1 };
    bool list = false, help_asked = false;
    const struct cli_opt opts[] = {
        { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "-h", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "--json", .flag = &o.json, .set_to = true },
        { .name = "--list", .flag = &list, .set_to = true },
        { .name = "--no-timing", .flag = &o.no_timing, .set_to = true },
        { .name = "--timeout", .parse = cli_opt_seconds, .dest = &o.timeout, .needs = "a number of seconds",
          .missing = "%v: %o needs %n (%u)" },
        { .name = "--heatmap", .str = &o.heat.expr },
        { .name = "--out", .str = &o.heat.out },
        { .name = "--component", .parse = parse_component, .dest = &o.heat, .needs = "0..15", .refused = GOT_LINE },
        { .name = "--min", .parse = parse_min, .dest = &o.heat, .needs = "a number", .refused = GOT_LINE },
        { .name = "--max", .parse = parse_max, .dest = &o.heat, .needs = "a number", .refused = GOT_LINE },
        { .name = "--break", .str = &o.brk },
        { .name = "--condition", .str = &o.cond },
        { .name = "--hit", .parse = parse_hit, .dest = &o.hit, .needs = "a positive number", .refused = GOT_LINE },
        { .name = "--draw", .parse = parse_draw, .dest = &o.draw, .needs = "a draw index", .refused = GOT_LINE },
        { .name = "--pixel", .parse_msg = parse_pixel, .dest = &o, .refused = "%v: %o needs %e, got '%a'" },
        { .name = "--fragment", .parse = parse_fragment, .dest = &o.fragment, .needs = "a positive number",
          .refused = GOT_LINE },
        { .name = "--target", .str = &o.target },
        { .name = "--vertex", .parse = parse_vertex, .dest = &o, .needs = "DRAW,INDEX or DRAW,INDEX,INSTANCE",
          .refused = GOT_LINE },
        { .name = "--stage", .parse = parse_stage, .dest = &o.stage_vertex, .needs = "vertex or fragment",
          .refused = GOT_LINE },
        { .name = "--corner", .parse = parse_corner, .dest = &o.corner, .needs = "0, 1 or 2", .refused = GOT_LINE },
    };
    const struct cli_verb v = { .verb = "debug", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .missing = "%v: %o needs a value (%u)", .extra = "%v: unexpected argument '%a' (%u)",
                                .path_later = true };
    int prc = cli_parse(&v, argc, argv, &o.path, NULL);
    if (prc == 1)
        help();
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    bool vertex_mode = !o.brk && !list && (o.vdraw >= 0 || (o.px >= 0 && o.stage_vertex));
    bool pixel_mode = !o.brk && !list && o.px >= 0;
    if ((o.stage_vertex || o.corner >= 0) && (o.brk || o.px < 0)) {
        cli_error("debug: --stage vertex and --corner go with --pixel without --break (" USAGE ")");
        return 2;
    }
    if (o.vdraw >= 0 && (o.brk || o.px >= 0)) {
        cli_error("debug: --vertex goes without --break and --pixel (" USAGE ")");
        return 2;
    }
    if (o.corner >= 0 && !o.stage_vertex) {
        cli_error("debug: --corner goes with --stage vertex (" USAGE ")");
        return 2;
    }
    if (!o.path || (!o.brk && !list && !pixel_mode && !vertex_mode)) {
        cli_error("debug: %s (" USAGE ")", !o.path ? "no capture file given" : "--break (or --pixel, or --vertex) is required");
        return 2;
    }
    if ((o.heat.expr || o.heat.out) && (!o.heat.expr || !o.heat.out || !o.brk)) {
        cli_error("debug: --heatmap EXPR needs --break FILE_OR_SHADER:LINE and --out MAP.png (" USAGE ")");
        return 2;
    }
    if (!o.heat.expr && (o.heat.component || o.heat.have_min || o.heat.have_max)) {
        cli_error("debug: --component, --min and --max go with --heatmap (" USAGE ")");
        return 2;
    }
    if (!pixel_mode && (o.pevent >= 0 || o.fragment || o.target)) {
        cli_error("debug: EVENT in --pixel, --fragment and --target go with --pixel without --break (" USAGE ")");
        return 2;
    }
    char err[512];
    struct dbg_capture *c = dbg_capture_open(o.path, err, sizeof err);
    if (!c) {
        cli_error("%s", err);
        return 1;
    }
    if (list) {
        list_shaders(c);
        dbg_capture_close(c);
        return 0;
    }
    struct dbg_bp bps[16];
    struct dbg_binding binds[16], first = { 0, 0, 0 };
    int file_line, n_binds = 0, n;
    char pixel_target[128];
    struct dap_pixel_stop ps;
    /* debug this pixel: the earlier passes from the driver, as the pixel's history took them */
    struct pxh_pass_feed *pfeed = NULL;
    if (vertex_mode) {
        /* debug this vertex (dap_vertex_resolve): a breakpoint at the first line of the draw's
         * vertex shader counted only in the lane of that gl_VertexID and gl_InstanceID */
        cJSON *va = cJSON_CreateObject();
        if (o.vdraw >= 0) {
            cJSON_AddNumberToObject(va, "draw", (double)o.vdraw);
            cJSON_AddNumberToObject(va, "index", (double)o.vindex);
            cJSON_AddNumberToObject(va, "instance", (double)o.vinstance);
        } else {
            cJSON_AddNumberToObject(va, "x", o.px);
            cJSON_AddNumberToObject(va, "y", o.py);
            if (o.pevent >= 0)
                cJSON_AddNumberToObject(va, "event", (double)o.pevent);
            if (o.fragment)
                cJSON_AddNumberToObject(va, "fragment", o.fragment);
            if (o.target)
                cJSON_AddStringToObject(va, "target", o.target);
            if (o.corner >= 0)
                cJSON_AddNumberToObject(va, "corner", o.corner);
        }
        int vrc = dap_vertex_resolve(c, va, &ps, err, sizeof err);
        cJSON_Delete(va);
        if (vrc != 0) {
            cli_error("debug: %s", err);
            dbg_capture_close(c);
            return 1;
        }
        bps[0] = ps.bp;
        n = 1;
        o.draw = ps.draw;
        o.hit = 1;
        int pix_x = o.px, pix_y = o.py;
        o.px = ps.x;
        o.py = ps.y;
        const struct dbg_shader *sh = dbg_capture_shader(c, ps.bp.shader);
        snprintf(pixel_target, sizeof pixel_target, "%s:%d", sh ? sh->name : "?", ps.bp.line);
        o.brk = pixel_target;
        if (!o.json && ps.corner >= 0)
            printf("pixel (%d, %d): event %llu (draw %d), primitive %d of %d vertices; vertex %d of it%s: "
                   "gl_VertexID %d, gl_InstanceID %d, gl_Position (%.6g, %.6g, %.6g, %.6g) at the rasterizer\n",
                   pix_x, pix_y, (unsigned long long)ps.record, ps.draw,
                   ps.primitive, ps.n_vertices, ps.corner, ps.corner == ps.provoking ? " (provoking)" : "", ps.x, ps.y,
                   ps.position[ps.corner][0], ps.position[ps.corner][1], ps.position[ps.corner][2],
                   ps.position[ps.corner][3]);
        else if (!o.json)
            printf("draw %d (event %llu): vertex %d, instance %d\n", ps.draw, (unsigned long long)ps.record, ps.x,
                   ps.y);
    } else if (pixel_mode) {
        struct dap_pixel_req prq = { .x = o.px, .y = o.py, .event = o.pevent, .fragment = o.fragment,
                                     .primitive = -1, .target = o.target, .driver = true, .pass_feed = &pfeed };
        if (dap_pixel_resolve(c, &prq, &ps, err, sizeof err) != 0) {
            cli_error("debug: %s", err);
            pxh_pass_feed_free(pfeed);
            dbg_capture_close(c);
            return 1;
        }
        bps[0] = ps.bp;
        n = 1;
        o.draw = ps.draw;
        o.hit = ps.bp.hit_n;
        const struct dbg_shader *sh = dbg_capture_shader(c, ps.bp.shader);
        snprintf(pixel_target, sizeof pixel_target, "%s:%d", sh ? sh->name : "?", ps.bp.line);
        o.brk = pixel_target;
        if (!o.json)
            printf("pixel (%d, %d): event %llu (draw %d), fragment of primitive %d%s, shader output 0 "
                   "(%.6g, %.6g, %.6g, %.6g): fragment %llu shaded there in the draw\n",
                   o.px, o.py, (unsigned long long)ps.record, ps.draw, ps.primitive,
                   ps.written ? " (written)" : " (rejected after its shader)", ps.output[0], ps.output[1],
                   ps.output[2], ps.output[3], (unsigned long long)ps.bp.hit_n);
    } else {
        n = bind(c, o.brk, bps, 16, &file_line, binds, &n_binds);
        if (!n) {
            dbg_capture_close(c);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            bps[i].hit_op = DBG_HIT_EQ;
            bps[i].hit_n = o.hit;
            bps[i].condition = o.cond;
        }
    }
    struct dbg_runner *r = dbg_runner_create(c, err, sizeof err);
    if (!r) {
        cli_error("%s", err);
        pxh_pass_feed_free(pfeed);
        dbg_capture_close(c);
        return 1;
    }
    /* The pass to the pixel's stop leaves the earlier passes' draws out of the model and takes
     * their images from the driver (the history's feed); it runs again without them when a record
     * needs what they left out. */
    struct dbg_record_hooks hooks = { .before = pxh_pass_feed_before, .after = pxh_pass_feed_after,
                                      .restart = pxh_pass_feed_restart, .ctx = pfeed, .until = ps.record };
    if (pfeed)
        r->hooks = &hooks;
    /* One pass: no spare run for a next one (the one prepared at creation is the pass's). */
    dbg_runner_set_spares(r, false);
    dbg_runner_no_checkpoints(r);
    if (o.no_timing)
        dbg_runner_set_timing(r, false);
    if (o.heat.expr) {
        o.heat.draw = o.draw;
        o.heat.json = o.json;
        dbg_runner_set_abort(r, cli_stop_arm(o.timeout));
        int hrc = cli_debug_heatmap(c, r, &bps[0], &o.heat);
        cli_stop_disarm();
        dbg_runner_destroy(r);
        pxh_pass_feed_free(pfeed);
        dbg_capture_close(c);
        return hrc;
    }
    struct dbg_pass_req req = { .bps = bps, .n_bps = n, .only_draw = o.draw, .only_x = o.px, .only_y = o.py,
                                .only_vertex = vertex_mode, .log = engine_log };
    struct dbg_pass_res res;
    dbg_runner_set_abort(r, cli_stop_arm(o.timeout));
    dbg_engine_run(r, &req, &res);
    const char *stopped_by = cli_stop_reason();
    cli_stop_disarm();
    int rc = 0;
    /* The line offset of the shader that stopped (the file may be bound to several). */
    for (int i = 0; res.snap && i < n_binds; i++)
        if (binds[i].shader == sh_snapshot_header(res.snap)->shader)
            first = binds[i];
    char target[4096];
    snprintf(target, sizeof target, "%.*s", (int)(strrchr(o.brk, ':') - o.brk), o.brk);
    if (stopped_by && (res.status != DBG_PASS_STOPPED || !res.snap)) {
        cli_error("debug: stopped by %s before hit %llu of %s (%llu invocations reached it so far)", stopped_by,
                  (unsigned long long)o.hit, o.brk, (unsigned long long)res.hits_seen);
        rc = 1;
    } else if (res.status == DBG_PASS_ERROR) {
        cli_error("debug: %s", res.message);
        rc = 1;
    } else if (vertex_mode && (res.status != DBG_PASS_STOPPED || !res.snap)) {
        cli_error("debug: vertex %d (instance %d) is not among the vertices draw %d shaded", o.px, o.py, o.draw);
        rc = 1;
    } else if (res.status != DBG_PASS_STOPPED || !res.snap) {
        cli_error("debug: the frame ended before hit %llu of %s (%llu invocations reached it%s)",
                  (unsigned long long)o.hit, o.brk, (unsigned long long)res.hits_seen,
                  o.px >= 0 ? "; --pixel needs a shader that reads gl_FragCoord until the frame runner reports pixels" : "");
        rc = 1;
    } else if (o.json) {
        char *js = sh_snapshot_to_json(res.snap);
        cJSON *root = js ? cJSON_Parse(js) : NULL;
        free(js);
        if (!root) {
            cli_error("out of memory");
            rc = 1;
        } else {
            const sh_header *h = sh_snapshot_header(res.snap);
            cJSON *b = cJSON_CreateObject();
            cJSON_AddStringToObject(b, "source", target);
            cJSON_AddNumberToObject(b, "line", h->line - first.offset);
            cJSON_AddNumberToObject(b, "shaderLine", h->line);
            cJSON_AddNumberToObject(b, "hit", (double)res.hit);
            if (o.cond)
                cJSON_AddStringToObject(b, "condition", o.cond);
            cJSON_AddItemToObject(root, "breakpoint", b);
            /* what the model ran to reach this stop (debug this pixel's cost, docs/PIXEL_HISTORY.md) */
            uint64_t n_rec, n_draws;
            if (dbg_runner_pass_counts(r, &n_rec, &n_draws)) {
                cJSON *m = cJSON_AddObjectToObject(root, "model_run");
                cJSON_AddNumberToObject(m, "records", (double)n_rec);
                cJSON_AddNumberToObject(m, "draws_before_stop", (double)n_draws);
                cJSON_AddStringToObject(m, "earlier_passes", pfeed && !hooks.gave_up ? "driver" : "model");
                cJSON_AddNumberToObject(m, "draws_left_out", pfeed && !hooks.gave_up ? (double)pxh_pass_feed_left_out(pfeed) : 0);
            }
            if (vertex_mode) {
                cJSON *p = cJSON_AddObjectToObject(root, "vertex");
                cJSON_AddNumberToObject(p, "draw", ps.draw);
                cJSON_AddNumberToObject(p, "event", (double)ps.record);
                cJSON_AddNumberToObject(p, "vertex", ps.x);
                cJSON_AddNumberToObject(p, "instance", ps.y);
                if (ps.corner >= 0) {
                    cJSON_AddNumberToObject(p, "primitive", ps.primitive);
                    cJSON_AddNumberToObject(p, "corner", ps.corner);
                    cJSON_AddNumberToObject(p, "provoking", ps.provoking);
                    cJSON *vs = cJSON_AddArrayToObject(p, "vertices");
                    for (int i = 0; i < ps.n_vertices; i++) {
                        cJSON *v = cJSON_CreateObject();
                        cJSON_AddNumberToObject(v, "vertex", ps.vertex_id[i]);
                        cJSON *pos = cJSON_AddArrayToObject(v, "position");
                        for (int k = 0; k < 4; k++)
                            cJSON_AddItemToArray(pos, cJSON_CreateNumber(ps.position[i][k]));
                        cJSON_AddItemToArray(vs, v);
                    }
                }
            } else if (pixel_mode) {
                cJSON *p = cJSON_AddObjectToObject(root, "pixel");
                cJSON_AddNumberToObject(p, "x", o.px);
                cJSON_AddNumberToObject(p, "y", o.py);
                cJSON_AddNumberToObject(p, "event", (double)ps.record);
                cJSON_AddNumberToObject(p, "draw", ps.draw);
                cJSON_AddNumberToObject(p, "primitive", ps.primitive);
                cJSON_AddBoolToObject(p, "written", ps.written);
                cJSON *out = cJSON_AddArrayToObject(p, "output");
                for (int k = 0; k < 4; k++)
                    cJSON_AddItemToArray(out, cJSON_CreateNumber(ps.output[k]));
            }
            /* The GPU context: the other warps resident in the timing model at the stop. */
            cJSON *rw = cJSON_AddArrayToObject(root, "residentWarps");
            for (int i = 0; i < res.n_others; i++)
                cJSON_AddItemToArray(rw, cJSON_CreateString(sh_snapshot_title(res.others[i])));
            char *out = cJSON_PrintUnformatted(root);
            printf("%s\n", out ? out : "{}");
            free(out);
            cJSON_Delete(root);
        }
    } else {
        print_text(c, res.snap, &res, &first, target);
    }
    dbg_pass_res_release(&res);
    dbg_runner_destroy(r);
    pxh_pass_feed_free(pfeed);
    dbg_capture_close(c);
    return rc;
}
