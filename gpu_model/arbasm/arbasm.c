/* arbasm: ARB assembly program -> GLSL 1.10 (see arbasm.h). One pass: declarations become
 * GLSL declarations on line 1, each instruction one GLSL statement on its own line, the END line
 * writes the outputs. The instruction semantics are Mesa's (prog_to_nir.c), which llvmpipe runs:
 * RSQ and LOG on |x|, LG2/EX2/POW/RCP on x, LIT's exponent clamped to [-128, 128], SLT/SGE as
 * 0/1, CMP per component on src0 < 0, XPD.w = 1, KIL if any component < 0, TXP divides by w,
 * result.depth is .z, fog options blend result.color.rgb with the fog colour at the end. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arb_internal.h"

#define MAX_SYMS 1024
#define MAX_TEX_UNITS 16

enum sym_kind { S_TEMP, S_ADDRESS, S_ATTRIB, S_PARAM, S_OUTPUT };

/* Output registers: VP result.* and FP result.* (fixed slots). */
enum out_id {
    O_POS, O_COL0, O_COL1, O_BCOL0, O_BCOL1, O_FOG, O_PSIZ, O_TEX0,
    O_FDEPTH = O_TEX0 + 8, O_FCOL0, O_COUNT = O_FCOL0 + 8
};

typedef struct sym {
    char name[64];       /* as written */
    char glsl[80];       /* GLSL identifier (TEMP, ADDRESS, PARAM) */
    enum sym_kind kind;
    char *expr;          /* ATTRIB: the input's vec4 expression */
    int size;            /* PARAM: array size, 0 for a single vector */
    int out;             /* OUTPUT: enum out_id */
} sym;

typedef struct gen {
    arb_parser p;
    sym syms[MAX_SYMS];
    int n_syms;
    arb_sb globals, init;        /* line 1: before main, at the start of main */
    arb_sb *lines;               /* GLSL statements per source line (index 1..n_lines) */
    int n_lines;
    int tex_target[MAX_TEX_UNITS];   /* 0 unused, else a TARGET_* */
    bool out_written[O_COUNT];
    bool position_invariant;
    bool need_rect;
    int end_line;
    char *param_list[ARB_MAX_LIST];   /* PARAM initializers being parsed (parser-owned strings) */
    char ops_buf[4][1024];            /* operand and result expressions of one instruction */
} gen;

enum { TARGET_1D = 1, TARGET_2D, TARGET_3D, TARGET_CUBE, TARGET_RECT, TARGET_SHADOW1D,
       TARGET_SHADOW2D, TARGET_SHADOWRECT };

static const char *const out_glsl[O_COUNT] = {
    [O_POS] = "result_position", [O_COL0] = "result_color", [O_COL1] = "result_color_secondary",
    [O_BCOL0] = "result_color_back", [O_BCOL1] = "result_color_back_secondary",
    [O_FOG] = "result_fogcoord", [O_PSIZ] = "result_pointsize",
    [O_TEX0] = "result_texcoord0", "result_texcoord1", "result_texcoord2", "result_texcoord3",
    "result_texcoord4", "result_texcoord5", "result_texcoord6", "result_texcoord7",
    [O_FDEPTH] = "result_depth",
    [O_FCOL0] = "result_color", "result_color1", "result_color2", "result_color3", "result_color4",
    "result_color5", "result_color6", "result_color7",
};

/* GLSL words a user's name must not take (keywords, and the built-in functions the generated
 * code calls, which a variable of the same name would hide). */
static const char *const reserved[] = {
    "attribute", "const", "uniform", "varying", "break", "continue", "do", "for", "while", "if",
    "else", "in", "out", "inout", "float", "int", "void", "bool", "true", "false", "discard",
    "return", "mat2", "mat3", "mat4", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "bvec2",
    "bvec3", "bvec4", "sampler1D", "sampler2D", "sampler3D", "samplerCube", "sampler1DShadow",
    "sampler2DShadow", "struct", "asm", "class", "union", "enum", "typedef", "template", "this",
    "packed", "goto", "switch", "default", "inline", "noinline", "volatile", "public", "static",
    "extern", "external", "interface", "long", "short", "double", "half", "fixed", "unsigned",
    "input", "output", "hvec2", "hvec3", "hvec4", "dvec2", "dvec3", "dvec4", "fvec2", "fvec3",
    "fvec4", "sampler2DRect", "sampler3DRect", "sampler2DRectShadow", "sizeof", "cast",
    "namespace", "using", "lowp", "mediump", "highp", "precision", "invariant", "centroid",
    "flat", "smooth", "noperspective", "layout", "patch", "sample", "subroutine", "common",
    "partition", "active", "filter", "image1D", "image2D", "resource", "superp", "uint", "buffer",
    "shared", "coherent", "restrict", "readonly", "writeonly", "atomic_uint", "main",
    "abs", "floor", "fract", "dot", "cross", "max", "min", "clamp", "mix", "pow", "exp2", "log2",
    "inversesqrt", "sin", "cos", "any", "lessThan", "greaterThanEqual", "texture1D", "texture2D",
    "texture3D", "textureCube", "texture1DProj", "texture2DProj", "texture3DProj",
    "texture2DRect", "texture2DRectProj", "shadow1D", "shadow2D", "shadow1DProj",
    "shadow2DProj", "shadow2DRect", "shadow2DRectProj", "ftransform", "texture", NULL,
};

static void glsl_name(const char *name, char *out, size_t n)
{
    bool bad = strncmp(name, "gl_", 3) == 0 || strncmp(name, "arb_", 4) == 0 ||
               strncmp(name, "result_", 7) == 0 || strstr(name, "__") || strchr(name, '$');
    for (int i = 0; reserved[i] && !bad; i++)
        bad = !strcmp(reserved[i], name);
    if (bad) {
        /* '$' is legal in ARB names, not in GLSL */
        char clean[64];
        size_t k = 0;
        for (const char *s = name; *s && k + 1 < sizeof clean; s++)
            clean[k++] = *s == '$' ? 'S' : *s;
        clean[k] = 0;
        snprintf(out, n, "arb_u_%s", clean);
    } else {
        snprintf(out, n, "%s", name);
    }
}

static sym *find_sym(gen *g, const char *name)
{
    for (int i = 0; i < g->n_syms; i++)
        if (!strcmp(g->syms[i].name, name))
            return &g->syms[i];
    return NULL;
}

static sym *new_sym(gen *g, const char *name, enum sym_kind k)
{
    arb_parser *p = &g->p;
    if (find_sym(g, name))
        arb_fail(p, "'%s' is declared twice", name);
    if (g->n_syms >= MAX_SYMS)
        arb_fail(p, "too many declarations");
    sym *s = &g->syms[g->n_syms++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    glsl_name(name, s->glsl, sizeof s->glsl);
    s->kind = k;
    return s;
}

static arb_sb *line_sb(gen *g, int line)
{
    if (line < 1 || line > g->n_lines)
        arb_fail(&g->p, "internal: line out of range");
    return &g->lines[line];
}

static const char *ident(gen *g)
{
    arb_parser *p = &g->p;
    if (p->tok.kind != T_ID)
        arb_fail(p, "expected a name at '%s'", p->tok.kind == T_EOF ? "end of program" : p->tok.text);
    static _Thread_local char w[64];
    snprintf(w, sizeof w, "%s", p->tok.text);
    arb_next(p);
    return w;
}

/* ---------------------------------------------------------------- inputs and outputs */

/* vertex.* / fragment.* after the first word: the input's vec4 expression. */
static char *input_binding(gen *g, bool fragment)
{
    arb_parser *p = &g->p;
    arbasm_result *o = p->out;
    char buf[128];
    arb_expect(p, ".");
    const char *w = ident(g);
    if (!fragment && !strcmp(w, "position"))
        arb_fmt(p, buf, sizeof buf, "gl_Vertex");
    else if (!fragment && !strcmp(w, "normal"))
        arb_fmt(p, buf, sizeof buf, "vec4(gl_Normal, 1.0)");
    else if (!strcmp(w, "color")) {
        bool secondary = false;
        if (arb_is(p, ".")) {
            /* .primary / .secondary, or else the operand's swizzle: look ahead one word */
            const char *save = p->pos;
            int save_line = p->line;
            arb_token t = p->tok;
            arb_next(p);
            if (p->tok.kind == T_ID && (!strcmp(p->tok.text, "primary") || !strcmp(p->tok.text, "secondary"))) {
                secondary = !strcmp(p->tok.text, "secondary");
                arb_next(p);
            } else {
                p->pos = save;
                p->line = save_line;
                p->tok = t;
            }
        }
        if (secondary && fragment)
            o->reads_secondary = true;
        arb_fmt(p, buf, sizeof buf, "%s", secondary ? "gl_SecondaryColor" : "gl_Color");
    } else if (!strcmp(w, "fogcoord")) {
        if (fragment)
            o->reads_fogcoord = true;
        arb_fmt(p, buf, sizeof buf, "vec4(%s, 0.0, 0.0, 1.0)", fragment ? "gl_FogFragCoord" : "gl_FogCoord");
    } else if (!strcmp(w, "texcoord")) {
        int n = 0;
        if (arb_is(p, "[")) {
            arb_next(p);
            n = arb_int(p);
            arb_expect(p, "]");
        }
        if (n >= 8)
            arb_fail(p, "texture coordinate set %d out of range", n);
        if (fragment) {
            o->texcoords_read |= 1u << n;
            arb_fmt(p, buf, sizeof buf, "gl_TexCoord[%d]", n);
        } else {
            arb_fmt(p, buf, sizeof buf, "gl_MultiTexCoord%d", n);
        }
    } else if (fragment && !strcmp(w, "position")) {
        /* ARB_fragment_coord_pixel_center_integer: centres at integers, not half-integers */
        arb_fmt(p, buf, sizeof buf, p->pixel_center_integer ? "(gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0))" : "gl_FragCoord");
    } else if (!fragment && !strcmp(w, "attrib")) {
        arb_expect(p, "[");
        int n = arb_int(p);
        arb_expect(p, "]");
        if (n >= 16)
            arb_fail(p, "vertex attribute %d out of range", n);
        if (n == 0)
            arb_fmt(p, buf, sizeof buf, "gl_Vertex");
        else {
            o->attribs_used |= 1u << n;
            arb_fmt(p, buf, sizeof buf, "arb_attrib%d", n);
        }
    } else if (!fragment && (!strcmp(w, "weight") || !strcmp(w, "matrixindex"))) {
        arb_fail(p, "vertex.%s (vertex blending) is not modelled", w);
    } else {
        arb_fail(p, "unknown %s binding '%s'", fragment ? "fragment" : "vertex", w);
    }
    return arb_strdup(p, buf);
}

/* result.* after the first word: the output slot. */
static int output_binding(gen *g)
{
    arb_parser *p = &g->p;
    arbasm_result *o = p->out;
    arb_expect(p, ".");
    const char *w = ident(g);
    if (p->vp) {
        if (!strcmp(w, "position"))
            return O_POS;
        if (!strcmp(w, "fogcoord")) {
            o->writes_fogcoord = true;
            return O_FOG;
        }
        if (!strcmp(w, "pointsize"))
            return O_PSIZ;
        if (!strcmp(w, "texcoord")) {
            int n = 0;
            if (arb_is(p, "[")) {
                arb_next(p);
                n = arb_int(p);
                arb_expect(p, "]");
            }
            if (n >= 8)
                arb_fail(p, "texture coordinate set %d out of range", n);
            o->texcoords_written |= 1u << n;
            return O_TEX0 + n;
        }
        if (!strcmp(w, "color")) {
            bool back = false, secondary = false;
            /* result.color[.front|.back][.primary|.secondary]; a following ".x" is a mask */
            for (int k = 0; k < 2 && arb_is(p, "."); k++) {
                const char *save = p->pos;
                int save_line = p->line;
                arb_token t = p->tok;
                arb_next(p);
                if (p->tok.kind == T_ID && (!strcmp(p->tok.text, "front") || !strcmp(p->tok.text, "back"))) {
                    back = !strcmp(p->tok.text, "back");
                    arb_next(p);
                } else if (p->tok.kind == T_ID &&
                           (!strcmp(p->tok.text, "primary") || !strcmp(p->tok.text, "secondary"))) {
                    secondary = !strcmp(p->tok.text, "secondary");
                    arb_next(p);
                } else {
                    p->pos = save;
                    p->line = save_line;
                    p->tok = t;
                    break;
                }
            }
            if (secondary && !back)
                o->writes_secondary = true;
            return back ? (secondary ? O_BCOL1 : O_BCOL0) : (secondary ? O_COL1 : O_COL0);
        }
        arb_fail(p, "unknown vertex program output 'result.%s'", w);
    }
    if (!strcmp(w, "depth"))
        return O_FDEPTH;
    if (!strcmp(w, "color")) {
        int n = 0;
        if (arb_is(p, "[")) {
            arb_next(p);
            n = arb_int(p);
            arb_expect(p, "]");
            if (n >= 8 || (n > 0 && !p->draw_buffers_option))
                arb_fail(p, "result.color[%d] needs OPTION ARB_draw_buffers (and n < 8)", n);
        }
        return O_FCOL0 + n;
    }
    arb_fail(p, "unknown fragment program output 'result.%s'", w);
}

/* ---------------------------------------------------------------- declarations */

static void declare_param(gen *g)
{
    arb_parser *p = &g->p;
    char name[64];
    snprintf(name, sizeof name, "%s", ident(g));
    bool array = false;
    int declared = -1;
    if (arb_is(p, "[")) {
        array = true;
        arb_next(p);
        if (!arb_is(p, "]"))
            declared = arb_int(p);
        arb_expect(p, "]");
    }
    arb_expect(p, "=");
    char **ex = g->param_list;
    int n = 0;
    if (array) {
        arb_expect(p, "{");
        do {
            n += arb_param_binding(p, ex + n, ARB_MAX_LIST - n, false);
        } while (arb_is(p, ",") && (arb_next(p), true));
        arb_expect(p, "}");
        if (declared >= 0 && declared != n)
            arb_fail(p, "PARAM %s[%d] has %d initializers", name, declared, n);
    } else {
        n = arb_param_binding(p, ex, ARB_MAX_LIST, true);
    }
    sym *s = new_sym(g, name, S_PARAM);
    s->size = array ? n : 0;
    if (array) {
        arb_sb_addf(&g->init, "vec4 %s[%d]; ", s->glsl, n);
        for (int i = 0; i < n; i++)
            arb_sb_addf(&g->init, "%s[%d] = %s; ", s->glsl, i, ex[i]);
    } else {
        arb_sb_addf(&g->init, "vec4 %s = %s; ", s->glsl, ex[0]);
    }
}

static void declaration(gen *g, const char *kw)
{
    arb_parser *p = &g->p;
    if (!strcmp(kw, "TEMP") || !strcmp(kw, "ADDRESS")) {
        bool addr = kw[0] == 'A';
        if (addr && !p->vp)
            arb_fail(p, "ADDRESS in a fragment program");
        do {
            sym *s = new_sym(g, ident(g), addr ? S_ADDRESS : S_TEMP);
            arb_sb_addf(&g->init, addr ? "ivec4 %s = ivec4(0); " : "vec4 %s = vec4(0.0); ", s->glsl);
        } while (arb_is(p, ",") && (arb_next(p), true));
    } else if (!strcmp(kw, "PARAM")) {
        declare_param(g);
    } else if (!strcmp(kw, "ATTRIB")) {
        char name[64];
        snprintf(name, sizeof name, "%s", ident(g));
        arb_expect(p, "=");
        const char *w = ident(g);
        if (strcmp(w, p->vp ? "vertex" : "fragment"))
            arb_fail(p, "expected a %s binding at '%s'", p->vp ? "vertex" : "fragment", w);
        char *e = input_binding(g, !p->vp);
        sym *s = new_sym(g, name, S_ATTRIB);
        s->expr = e;
    } else if (!strcmp(kw, "OUTPUT")) {
        char name[64];
        snprintf(name, sizeof name, "%s", ident(g));
        arb_expect(p, "=");
        if (strcmp(ident(g), "result"))
            arb_fail(p, "expected a result binding");
        int o = output_binding(g);
        sym *s = new_sym(g, name, S_OUTPUT);
        s->out = o;
    } else if (!strcmp(kw, "ALIAS")) {
        char name[64];
        snprintf(name, sizeof name, "%s", ident(g));
        arb_expect(p, "=");
        sym *t = find_sym(g, ident(g));
        if (!t)
            arb_fail(p, "ALIAS of an undeclared name");
        sym copy = *t;
        sym *s = new_sym(g, name, t->kind);
        char nm[64];
        memcpy(nm, s->name, sizeof nm);
        *s = copy;
        memcpy(s->name, nm, sizeof nm);
    }
    arb_expect(p, ";");
}

static void option(gen *g)
{
    arb_parser *p = &g->p;
    const char *w = ident(g);
    arbasm_result *o = p->out;
    if (p->vp && !strcmp(w, "ARB_position_invariant")) {
        g->position_invariant = o->position_invariant = true;
    } else if (!p->vp && !strncmp(w, "ARB_fog_", 8)) {
        if (o->fog_option)
            arb_fail(p, "two fog options");
        o->fog_option = !strcmp(w + 8, "linear") ? ARBASM_FOG_LINEAR : !strcmp(w + 8, "exp") ? ARBASM_FOG_EXP
                        : !strcmp(w + 8, "exp2") ? ARBASM_FOG_EXP2 : ARBASM_FOG_NONE;
        if (!o->fog_option)
            arb_fail(p, "unknown option %s", w);
        o->reads_fogcoord = true;
    } else if (!p->vp && (!strcmp(w, "ARB_precision_hint_fastest") || !strcmp(w, "ARB_precision_hint_nicest"))) {
        /* the model computes in full precision either way, as llvmpipe does */
    } else if (!p->vp && !strcmp(w, "ARB_fragment_program_shadow")) {
        p->shadow_option = true;
    } else if (!p->vp && !strcmp(w, "ARB_fragment_coord_pixel_center_integer")) {
        p->pixel_center_integer = true;
    } else if (!p->vp && (!strcmp(w, "ARB_draw_buffers") || !strcmp(w, "ATI_draw_buffers"))) {
        p->draw_buffers_option = true;
    } else {
        arb_fail(p, "option %s is not supported", w);
    }
    arb_expect(p, ";");
}

/* ---------------------------------------------------------------- operands */

static bool is_swizzle_char(char c, bool fp)
{
    return strchr("xyzw", c) || (fp && strchr("rgba", c));
}

static int comp_index(char c)
{
    switch (c) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    default: return 3;
    }
}

/* Array index: [n] or [A.x (+|-) n]; returns a GLSL index expression clamped to the array
 * (out-of-range relative reads are undefined in ARB; the model must not read outside). */
static void array_index(gen *g, const sym *s, char *out, size_t n)
{
    arb_parser *p = &g->p;
    arb_expect(p, "[");
    if (p->tok.kind == T_NUM) {
        int i = arb_int(p);
        if (i >= s->size)
            arb_fail(p, "index %d past the end of %s[%d]", i, s->name, s->size);
        arb_fmt(p, out, n, "%d", i);
    } else {
        sym *a = find_sym(g, ident(g));
        if (!a || a->kind != S_ADDRESS)
            arb_fail(p, "relative addressing needs an ADDRESS register");
        arb_expect(p, ".");
        if (strcmp(ident(g), "x"))
            arb_fail(p, "address register component must be .x");
        int off = 0;
        if (arb_is(p, "+") || arb_is(p, "-")) {
            bool neg = arb_is(p, "-");
            arb_next(p);
            off = arb_int(p);
            if (neg)
                off = -off;
        }
        arb_fmt(p, out, n, "clamp(%s.x + %d, 0, %d)", a->glsl, off, s->size - 1);
    }
    arb_expect(p, "]");
}

/* A source register (no sign, no swizzle): its vec4 expression. */
static char *src_register(gen *g)
{
    arb_parser *p = &g->p;
    char buf[512];
    if (arb_is(p, "{") || p->tok.kind == T_NUM) {
        char *e[1];
        arb_param_binding(p, e, 1, true);
        return e[0];
    }
    const char *w = ident(g);
    if (!strcmp(w, "vertex") || !strcmp(w, "fragment")) {
        if (strcmp(w, p->vp ? "vertex" : "fragment"))
            arb_fail(p, "%s binding in a %s program", w, p->vp ? "vertex" : "fragment");
        return input_binding(g, !p->vp);
    }
    sym *s = find_sym(g, w);
    if (!s)
        arb_fail(p, "'%s' is not declared", w);
    switch (s->kind) {
    case S_TEMP:
        arb_fmt(p, buf, sizeof buf, "%s", s->glsl);
        break;
    case S_ATTRIB:
        arb_fmt(p, buf, sizeof buf, "%s", s->expr);
        break;
    case S_PARAM:
        if (s->size) {
            char idx[96];
            array_index(g, s, idx, sizeof idx);
            arb_fmt(p, buf, sizeof buf, "%s[%s]", s->glsl, idx);
        } else {
            arb_fmt(p, buf, sizeof buf, "%s", s->glsl);
        }
        break;
    default:
        arb_fail(p, "'%s' cannot be read", w);
    }
    return arb_strdup(p, buf);
}

/* [-] register [.swizzle]: the operand's vec4 expression in out. */
static void src_operand(gen *g, char *out, size_t n)
{
    arb_parser *p = &g->p;
    bool neg = false;
    if (arb_is(p, "-") || arb_is(p, "+")) {
        neg = arb_is(p, "-");
        arb_next(p);
    }
    char *reg;
    if (arb_is(p, "state") || arb_is(p, "program")) {
        char *e[1];
        arb_param_binding(p, e, 1, true);
        reg = e[0];
    } else {
        reg = src_register(g);
    }
    char swz[8] = "";
    if (arb_is(p, ".")) {
        arb_next(p);
        const char *s = p->tok.kind == T_ID ? p->tok.text : "";
        size_t len = strlen(s);
        bool ok = len == 1 || len == 4;
        for (size_t i = 0; ok && i < len; i++)
            ok = is_swizzle_char(s[i], !p->vp);
        if (!ok)
            arb_fail(p, "bad swizzle '%s'", p->tok.text);
        for (size_t i = 0; i < 4; i++)
            swz[i] = "xyzw"[comp_index(s[len == 1 ? 0 : i])];
        swz[4] = 0;
        arb_next(p);
    }
    if (swz[0] && strcmp(swz, "xyzw"))
        arb_fmt(p, out, n, "%s(%s).%s", neg ? "-" : "", reg, swz);
    else
        arb_fmt(p, out, n, neg ? "(-%s)" : "%s", reg);
}

/* SWZ's extended swizzle: four of [-](0|1|x|y|z|w) over the source register. */
static void ext_swizzle(gen *g, char *out, size_t n)
{
    arb_parser *p = &g->p;
    bool neg_all = false;
    if (arb_is(p, "-") || arb_is(p, "+")) {
        neg_all = arb_is(p, "-");
        arb_next(p);
    }
    char *reg = (arb_is(p, "state") || arb_is(p, "program")) ? NULL : src_register(g);
    if (!reg) {
        char *e[1];
        arb_param_binding(p, e, 1, true);
        reg = e[0];
    }
    char comps[4][96];
    for (int i = 0; i < 4; i++) {
        if (!arb_is(p, ","))
            arb_fail(p, "SWZ needs four components");
        arb_next(p);
        bool neg = neg_all;
        if (arb_is(p, "-") || arb_is(p, "+")) {
            if (arb_is(p, "-"))
                neg = !neg;
            arb_next(p);
        }
        if (p->tok.kind == T_NUM && p->tok.is_int && (p->tok.num == 0 || p->tok.num == 1)) {
            arb_fmt(p, comps[i], sizeof comps[i], "%s%s", neg ? "-" : "", p->tok.num == 1 ? "1.0" : "0.0");
        } else if (p->tok.kind == T_ID && strlen(p->tok.text) == 1 && is_swizzle_char(p->tok.text[0], !p->vp)) {
            arb_fmt(p, comps[i], sizeof comps[i], "%s%s.%c", neg ? "-" : "", reg, "xyzw"[comp_index(p->tok.text[0])]);
        } else {
            arb_fail(p, "bad extended swizzle component '%s'", p->tok.text);
        }
        arb_next(p);
    }
    arb_fmt(p, out, n, "vec4(%s, %s, %s, %s)", comps[0], comps[1], comps[2], comps[3]);
}

/* Destination: register [.mask]. *glsl gets the GLSL lvalue base, mask the written components
 * ("" for all), *addr whether it is an ADDRESS register. */
static void dst_operand(gen *g, char *glsl, size_t n, char mask[5], bool *addr)
{
    arb_parser *p = &g->p;
    const char *w = ident(g);
    *addr = false;
    if (!strcmp(w, "result")) {
        int o = output_binding(g);
        if (o == O_POS && g->position_invariant)
            arb_fail(p, "result.position written with ARB_position_invariant");
        g->out_written[o] = true;
        arb_fmt(p, glsl, n, "%s", out_glsl[o]);
    } else {
        sym *s = find_sym(g, w);
        if (!s)
            arb_fail(p, "'%s' is not declared", w);
        if (s->kind == S_OUTPUT) {
            if (s->out == O_POS && g->position_invariant)
                arb_fail(p, "result.position written with ARB_position_invariant");
            g->out_written[s->out] = true;
            arb_fmt(p, glsl, n, "%s", out_glsl[s->out]);
        } else if (s->kind == S_TEMP || s->kind == S_ADDRESS) {
            *addr = s->kind == S_ADDRESS;
            arb_fmt(p, glsl, n, "%s", s->glsl);
        } else {
            arb_fail(p, "'%s' cannot be written", w);
        }
    }
    mask[0] = 0;
    if (arb_is(p, ".")) {
        arb_next(p);
        const char *m = p->tok.kind == T_ID ? p->tok.text : "";
        size_t len = strlen(m);
        int last = -1;
        bool ok = len >= 1 && len <= 4;
        for (size_t i = 0; ok && i < len; i++) {
            ok = is_swizzle_char(m[i], !p->vp) && comp_index(m[i]) > last;
            if (ok) {
                last = comp_index(m[i]);
                mask[i] = "xyzw"[last];
            }
        }
        if (!ok)
            arb_fail(p, "bad write mask '%s'", p->tok.text);
        mask[len] = 0;
        arb_next(p);
        if (!strcmp(mask, "xyzw"))
            mask[0] = 0;
    }
}

/* ---------------------------------------------------------------- instructions */

enum op_kind { K_VEC1, K_VEC2, K_VEC3, K_SCALAR1, K_SCALAR2, K_SWZ, K_ARL, K_KIL, K_TEX };

typedef struct opinfo {
    const char *name;
    enum op_kind kind;
    unsigned char vp, fp;
    const char *fmt;     /* GLSL vec4 expression over %1$s %2$s %3$s (scalars: the .x) */
} opinfo;

static const opinfo ops[] = {
    { "ABS", K_VEC1, 1, 1, "abs(%1$s)" },
    { "ADD", K_VEC2, 1, 1, "(%1$s + %2$s)" },
    { "SUB", K_VEC2, 1, 1, "(%1$s - %2$s)" },
    { "MUL", K_VEC2, 1, 1, "(%1$s * %2$s)" },
    { "MAD", K_VEC3, 1, 1, "(%1$s * %2$s + %3$s)" },
    { "MAX", K_VEC2, 1, 1, "max(%1$s, %2$s)" },
    { "MIN", K_VEC2, 1, 1, "min(%1$s, %2$s)" },
    { "MOV", K_VEC1, 1, 1, "%1$s" },
    { "FLR", K_VEC1, 1, 1, "floor(%1$s)" },
    { "FRC", K_VEC1, 1, 1, "fract(%1$s)" },
    { "DP3", K_VEC2, 1, 1, "vec4(dot((%1$s).xyz, (%2$s).xyz))" },
    { "DP4", K_VEC2, 1, 1, "vec4(dot(%1$s, %2$s))" },
    { "DPH", K_VEC2, 1, 1, "vec4(dot((%1$s).xyz, (%2$s).xyz) + (%2$s).w)" },
    { "DST", K_VEC2, 1, 1, "vec4(1.0, (%1$s).y * (%2$s).y, (%1$s).z, (%2$s).w)" },
    { "SLT", K_VEC2, 1, 1, "vec4(lessThan(%1$s, %2$s))" },
    { "SGE", K_VEC2, 1, 1, "vec4(greaterThanEqual(%1$s, %2$s))" },
    { "XPD", K_VEC2, 1, 1, "vec4(cross((%1$s).xyz, (%2$s).xyz), 1.0)" },
    { "LIT", K_VEC1, 1, 1, "arb_lit(%1$s)" },
    { "EX2", K_SCALAR1, 1, 1, "vec4(exp2(%1$s))" },
    { "LG2", K_SCALAR1, 1, 1, "vec4(log2(%1$s))" },
    { "RCP", K_SCALAR1, 1, 1, "vec4(1.0 / %1$s)" },
    { "RSQ", K_SCALAR1, 1, 1, "vec4(inversesqrt(abs(%1$s)))" },
    { "EXP", K_SCALAR1, 1, 0, "arb_exp(%1$s)" },
    { "LOG", K_SCALAR1, 1, 0, "arb_log(%1$s)" },
    { "POW", K_SCALAR2, 1, 1, "vec4(pow(%1$s, %2$s))" },
    { "SWZ", K_SWZ, 1, 1, "%1$s" },
    { "ARL", K_ARL, 1, 0, "int(floor(%1$s))" },
    { "CMP", K_VEC3, 0, 1, "arb_cmp(%1$s, %2$s, %3$s)" },
    { "LRP", K_VEC3, 0, 1, "mix(%3$s, %2$s, %1$s)" },
    { "COS", K_SCALAR1, 0, 1, "vec4(cos(%1$s))" },
    { "SIN", K_SCALAR1, 0, 1, "vec4(sin(%1$s))" },
    { "SCS", K_SCALAR1, 0, 1, "vec4(cos(%1$s), sin(%1$s), 0.0, 1.0)" },
    { "KIL", K_KIL, 0, 1, "" },
    { "TEX", K_TEX, 0, 1, "" },
    { "TXP", K_TEX, 0, 1, "" },
    { "TXB", K_TEX, 0, 1, "" },
};

static const char *const helpers =
    "vec4 arb_lit(vec4 s) { return vec4(1.0, max(s.x, 0.0), s.x > 0.0 ? "
    "pow(max(s.y, 0.0), clamp(s.w, -128.0, 128.0)) : 0.0, 1.0); } "
    "vec4 arb_exp(float x) { return vec4(exp2(floor(x)), x - floor(x), exp2(x), 1.0); } "
    "vec4 arb_log(float x) { float l = log2(abs(x)); float f = floor(l); "
    "return vec4(f, abs(x) * exp2(-f), l, 1.0); } "
    "vec4 arb_sat(vec4 x) { return vec4(x.x > 0.0 ? min(x.x, 1.0) : 0.0, x.y > 0.0 ? min(x.y, 1.0) : 0.0, "
    "x.z > 0.0 ? min(x.z, 1.0) : 0.0, x.w > 0.0 ? min(x.w, 1.0) : 0.0); } "
    "float arb_vc(float x) { return x < 0.0 ? 0.0 : x >= 0.0 ? min(x, 1.0) : 1.0; } "
    "vec4 arb_vcolor(vec4 x) { return vec4(arb_vc(x.x), arb_vc(x.y), arb_vc(x.z), arb_vc(x.w)); } "
    "vec4 arb_cmp(vec4 a, vec4 b, vec4 c) { return vec4(a.x < 0.0 ? b.x : c.x, a.y < 0.0 ? b.y : c.y, "
    "a.z < 0.0 ? b.z : c.z, a.w < 0.0 ? b.w : c.w); } ";

static int tex_target(gen *g)
{
    arb_parser *p = &g->p;
    if (p->tok.kind == T_NUM && p->tok.is_int) {
        int d = (int)p->tok.num;
        arb_next(p);
        if (!arb_is(p, "D"))
            arb_fail(p, "bad texture target");
        arb_next(p);
        if (d < 1 || d > 3)
            arb_fail(p, "bad texture target %dD", d);
        return d == 1 ? TARGET_1D : d == 2 ? TARGET_2D : TARGET_3D;
    }
    const char *w = ident(g);
    if (!strcmp(w, "CUBE"))
        return TARGET_CUBE;
    if (!strcmp(w, "RECT"))
        return TARGET_RECT;
    if (!strncmp(w, "SHADOW", 6)) {
        if (!p->shadow_option)
            arb_fail(p, "%s needs OPTION ARB_fragment_program_shadow", w);
        if (!strcmp(w + 6, "1D"))
            return TARGET_SHADOW1D;
        if (!strcmp(w + 6, "2D"))
            return TARGET_SHADOW2D;
        if (!strcmp(w + 6, "RECT"))
            return TARGET_SHADOWRECT;
    }
    arb_fail(p, "unknown texture target '%s'", w);
}

static void tex_expr(gen *g, const char *op, const char *c, char *out, size_t n)
{
    arb_parser *p = &g->p;
    arb_expect(p, ",");
    if (strcmp(ident(g), "texture"))
        arb_fail(p, "expected texture[n]");
    int unit = 0;
    if (arb_is(p, "[")) {
        arb_next(p);
        unit = arb_int(p);
        arb_expect(p, "]");
    }
    if (unit >= MAX_TEX_UNITS)
        arb_fail(p, "texture image unit %d out of range", unit);
    arb_expect(p, ",");
    /* "2D" tokenizes as the number 2 then the name D */
    int t = tex_target(g);
    if (g->tex_target[unit] && g->tex_target[unit] != t)
        arb_fail(p, "texture[%d] used with two targets", unit);
    if (!g->tex_target[unit]) {
        static const char *const types[] = { "", "sampler1D", "sampler2D", "sampler3D", "samplerCube",
                                             "sampler2DRect", "sampler1DShadow", "sampler2DShadow",
                                             "sampler2DRectShadow" };
        arb_sb_addf(&g->globals, "uniform %s arb_texture%d; ", types[t], unit);
        g->tex_target[unit] = t;
        p->out->textures_used |= 1u << unit;
        if (t == TARGET_RECT || t == TARGET_SHADOWRECT)
            g->need_rect = true;
    }
    char s[32];
    arb_fmt(p, s, sizeof s, "arb_texture%d", unit);
    bool proj = !strcmp(op, "TXP"), bias = !strcmp(op, "TXB");
    /* TXB's bias is the coordinate's w; TXP divides by w (the cube map has no Proj form). */
    char b[160] = "";
    if (bias)
        arb_fmt(p, b, sizeof b, ", (%s).w", c);
    switch (t) {
    case TARGET_1D:
        arb_fmt(p, out, n, proj ? "texture1DProj(%s, %s%s)" : "texture1D(%s, (%s).x%s)", s, c, b);
        break;
    case TARGET_2D:
        arb_fmt(p, out, n, proj ? "texture2DProj(%s, %s%s)" : "texture2D(%s, (%s).xy%s)", s, c, b);
        break;
    case TARGET_3D:
        arb_fmt(p, out, n, proj ? "texture3DProj(%s, %s%s)" : "texture3D(%s, (%s).xyz%s)", s, c, b);
        break;
    case TARGET_CUBE:
        if (proj)
            arb_fmt(p, out, n, "textureCube(%s, (%s).xyz / (%s).w)", s, c, c);
        else
            arb_fmt(p, out, n, "textureCube(%s, (%s).xyz%s)", s, c, b);
        break;
    case TARGET_RECT:
        if (bias)
            arb_fail(p, "TXB on a rectangle texture");
        arb_fmt(p, out, n, proj ? "texture2DRectProj(%s, %s)" : "texture2DRect(%s, (%s).xy)", s, c);
        break;
    /* Shadow lookups give (r, r, r, 1): GL_DEPTH_TEXTURE_MODE's default, GL_LUMINANCE. */
    case TARGET_SHADOW1D:
        arb_fmt(p, out, n, proj ? "vec4(vec3(shadow1DProj(%s, %s%s).x), 1.0)" : "vec4(vec3(shadow1D(%s, (%s).xyz%s).x), 1.0)", s, c, b);
        break;
    case TARGET_SHADOW2D:
        arb_fmt(p, out, n, proj ? "vec4(vec3(shadow2DProj(%s, %s%s).x), 1.0)" : "vec4(vec3(shadow2D(%s, (%s).xyz%s).x), 1.0)", s, c, b);
        break;
    default:
        if (bias)
            arb_fail(p, "TXB on a rectangle texture");
        arb_fmt(p, out, n, proj ? "vec4(vec3(shadow2DRectProj(%s, %s).x), 1.0)" : "vec4(vec3(shadow2DRect(%s, (%s).xyz).x), 1.0)", s, c);
        break;
    }
}

static void instruction(gen *g, const char *word, int line)
{
    arb_parser *p = &g->p;
    char name[64];
    arb_fmt(p, name, sizeof name, "%s", word);
    bool sat = false;
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, "_SAT")) {
        sat = true;
        name[len - 4] = 0;
    }
    const opinfo *op = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(ops[i].name, name))
            op = &ops[i];
    if (!op || !(p->vp ? op->vp : op->fp))
        arb_fail(p, "unknown instruction '%s'", word);
    if (sat && p->vp)
        arb_fail(p, "_SAT in a vertex program");
    arb_sb *out = line_sb(g, line);
    enum { SRC = sizeof g->ops_buf[0] };
    char *a = g->ops_buf[0], *b = g->ops_buf[1], *c = g->ops_buf[2], *e = g->ops_buf[3];
    b[0] = c[0] = 0;
    if (op->kind == K_KIL) {
        src_operand(g, a, SRC);
        arb_sb_addf(out, "if (any(lessThan(%s, vec4(0.0)))) discard; ", a);
        p->out->instructions++;
        arb_expect(p, ";");
        return;
    }
    char dst[96], mask[5];
    bool addr;
    dst_operand(g, dst, sizeof dst, mask, &addr);
    if (addr != (op->kind == K_ARL))
        arb_fail(p, addr ? "only ARL writes an address register" : "ARL writes an address register");
    arb_expect(p, ",");
    switch (op->kind) {
    case K_SWZ:
        ext_swizzle(g, a, SRC);
        break;
    default:
        src_operand(g, a, SRC);
        if (op->kind == K_VEC2 || op->kind == K_VEC3 || op->kind == K_SCALAR2) {
            arb_expect(p, ",");
            src_operand(g, b, SRC);
        }
        if (op->kind == K_VEC3) {
            arb_expect(p, ",");
            src_operand(g, c, SRC);
        }
        break;
    }
    if (op->kind == K_SCALAR1 || op->kind == K_SCALAR2 || op->kind == K_ARL) {
        /* scalar operands: the first component of the (swizzled) source */
        char t[SRC];
        arb_fmt(p, t, sizeof t, "(%s).x", a);
        arb_fmt(p, a, SRC, "%s", t);
        arb_fmt(p, t, sizeof t, "(%s).x", b);
        if (op->kind == K_SCALAR2)
            arb_fmt(p, b, SRC, "%s", t);
    }
    if (op->kind == K_TEX)
        tex_expr(g, op->name, a, e, SRC);
    else
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        arb_fmt(p, e, SRC, op->fmt, a, b, c);
#pragma GCC diagnostic pop
    if (op->kind == K_ARL) {
        if (mask[0] && strcmp(mask, "x"))
            arb_fail(p, "ARL writes .x only");
        arb_sb_addf(out, "%s.x = %s; ", dst, e);
    } else {
        char v[SRC + 64];
        if (sat)
            arb_fmt(p, v, sizeof v, "arb_sat(%s)", e);   /* Mesa's fsat: NaN gives 0 */
        else
            arb_fmt(p, v, sizeof v, "%s", e);
        if (mask[0])
            arb_sb_addf(out, "%s.%s = (%s).%s; ", dst, mask, v, mask);
        else
            arb_sb_addf(out, "%s = %s; ", dst, v);
    }
    p->out->instructions++;
    arb_expect(p, ";");
}

/* ---------------------------------------------------------------- epilogue and assembly */

static void epilogue(gen *g)
{
    arb_parser *p = &g->p;
    arbasm_result *o = p->out;
    arb_sb *s = line_sb(g, g->end_line);
    if (p->vp) {
        if (g->position_invariant)
            arb_sb_add(s, "gl_Position = ftransform(); ");
        else if (g->out_written[O_POS])
            arb_sb_add(s, "gl_Position = result_position; ");
        static const char *const colors[4] = { "gl_FrontColor", "gl_FrontSecondaryColor", "gl_BackColor",
                                               "gl_BackSecondaryColor" };
        /* GL_CLAMP_VERTEX_COLOR (TRUE unless glClampColor changes it; the model keeps the
         * default): vertex colour outputs are clamped to [0, 1]; llvmpipe's clamp gives 1 for
         * NaN (measured: piglit's infinity_and_nan), unlike _SAT's 0. */
        for (int i = 0; i < 4; i++)
            if (g->out_written[O_COL0 + i])
                arb_sb_addf(s, g->p.opts && g->p.opts->no_color_clamp ? "%s = %s; " : "%s = arb_vcolor(%s); ",
                            colors[i], out_glsl[O_COL0 + i]);
        if (g->out_written[O_FOG])
            arb_sb_add(s, "gl_FogFragCoord = result_fogcoord.x; ");
        /* Used only while GL_VERTEX_PROGRAM_POINT_SIZE_ARB (= GL_PROGRAM_POINT_SIZE) is
         * enabled: the pipeline state applies that enable, as for GLSL programs. */
        if (g->out_written[O_PSIZ])
            arb_sb_add(s, "gl_PointSize = result_pointsize.x; ");
        for (int i = 0; i < 8; i++)
            if (g->out_written[O_TEX0 + i])
                arb_sb_addf(s, "gl_TexCoord[%d] = %s; ", i, out_glsl[O_TEX0 + i]);
    } else {
        if (g->out_written[O_FCOL0] && o->fog_option) {
            /* Mesa appends this to the program (programopt.c): f from the fog coordinate,
             * clamped, then result.color.rgb = mix(fog colour, colour, f). */
            const char *f = o->fog_option == ARBASM_FOG_LINEAR
                ? "clamp(gl_FogFragCoord * -gl_Fog.scale + gl_Fog.end * gl_Fog.scale, 0.0, 1.0)"
                : o->fog_option == ARBASM_FOG_EXP
                ? "clamp(exp2(-(gl_Fog.density * 1.442695041 * gl_FogFragCoord)), 0.0, 1.0)"
                : "clamp(exp2(-((gl_Fog.density * 1.201122409 * gl_FogFragCoord) * "
                  "(gl_Fog.density * 1.201122409 * gl_FogFragCoord))), 0.0, 1.0)";
            arb_sb_addf(s, "result_color.xyz = mix(gl_Fog.color.xyz, result_color.xyz, %s); ", f);
        }
        bool multi = false;
        for (int i = 1; i < 8; i++)
            multi |= g->out_written[O_FCOL0 + i];
        for (int i = 0; i < 8; i++)
            if (g->out_written[O_FCOL0 + i]) {
                if (multi)
                    arb_sb_addf(s, "gl_FragData[%d] = %s; ", i, out_glsl[O_FCOL0 + i]);
                else
                    arb_sb_addf(s, "gl_FragColor = %s; ", out_glsl[O_FCOL0 + i]);
            }
        if (g->out_written[O_FDEPTH])
            arb_sb_add(s, "gl_FragDepth = result_depth.z; ");
    }
    arb_sb_add(s, "}");
}

static int count_lines(const char *s, size_t n)
{
    int lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += s[i] == '\n';
    return lines;
}

static void parse_body(gen *g)
{
    arb_parser *p = &g->p;
    arb_next(p);
    for (;;) {
        if (p->tok.kind == T_EOF)
            arb_fail(p, "missing END");
        if (p->tok.kind != T_ID)
            arb_fail(p, "unexpected '%s'", p->tok.text);
        char w[64];
        snprintf(w, sizeof w, "%s", p->tok.text);
        int line = p->tok.line;
        if (!strcmp(w, "END")) {
            g->end_line = line;
            return;
        }
        arb_next(p);
        if (!strcmp(w, "OPTION"))
            option(g);
        else if (!strcmp(w, "TEMP") || !strcmp(w, "ADDRESS") || !strcmp(w, "PARAM") ||
                 !strcmp(w, "ATTRIB") || !strcmp(w, "OUTPUT") || !strcmp(w, "ALIAS"))
            declaration(g, w);
        else
            instruction(g, w, line);
    }
}

static void free_gen(gen *g)
{
    arb_free_allocs(&g->p);
    free(g->globals.p);
    free(g->init.p);
    for (int i = 0; g->lines && i <= g->n_lines; i++)
        free(g->lines[i].p);
    free(g->lines);
}

int arbasm_translate(const char *text, size_t len, const arbasm_options *opts, arbasm_result *out)
{
    memset(out, 0, sizeof *out);
    if (!text) {
        snprintf(out->error, sizeof out->error, "no program text");
        return -1;
    }
    /* A NUL inside the given length ends the text (the tokenizer never reads past len). */
    size_t n = strnlen(text, len);
    const char *hdr_vp = "!!ARBvp1.0", *hdr_fp = "!!ARBfp1.0";
    size_t hl = strlen(hdr_vp);
    if (n < hl || (strncmp(text, hdr_vp, hl) && strncmp(text, hdr_fp, hl))) {
        snprintf(out->error, sizeof out->error, "line 1: not an ARB program (no !!ARBvp1.0 or !!ARBfp1.0 header)");
        out->error_line = 1;
        return -1;
    }
    gen *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(out->error, sizeof out->error, "out of memory");
        return -1;
    }
    arb_parser *p = &g->p;
    p->src = text;
    p->pos = text + hl;
    p->end = text + n;
    p->line = 1;
    p->out = out;
    p->opts = opts;
    p->vp = text[5] == 'v';
    out->stage = p->vp ? ARBASM_VERTEX : ARBASM_FRAGMENT;
    g->n_lines = count_lines(text, n);
    g->lines = calloc((size_t)g->n_lines + 1, sizeof *g->lines);
    int rc = -1;
    if (!g->lines) {
        snprintf(out->error, sizeof out->error, "out of memory");
    } else if (setjmp(p->fail) == 0) {
        parse_body(g);
        epilogue(g);
        /* Per-stage names: each target has its own env parameters, and GLSL requires a uniform
         * declared in two stages to have one type. */
        const char *pre = p->vp ? "arb_vp" : "arb_fp";
        if (p->max_env)
            arb_sb_addf(&g->globals, "uniform vec4 %s_env[%d]; ", pre, p->max_env);
        if (p->max_local)
            arb_sb_addf(&g->globals, "uniform vec4 %s_local[%d]; ", pre, p->max_local);
        for (int i = 1; i < 16; i++)
            if (out->attribs_used & (1u << i))
                arb_sb_addf(&g->globals, "attribute vec4 arb_attrib%d; ", i);
        out->n_env = p->max_env;
        out->n_local = p->max_local;
        /* Declarations of the outputs the program writes (kept as named registers). */
        arb_sb decl = { 0 };
        for (int i = 0; i < O_COUNT; i++)
            if (g->out_written[i] && !(i == O_FCOL0 && g->out_written[O_COL0]))
                arb_sb_addf(&decl, "vec4 %s = vec4(0.0); ", out_glsl[i]);
        /* Line 1 (or 2 after the rectangle-texture #extension, which needs a line of its own):
         * globals, helpers, main, the registers; then each line's statements. */
        arb_sb all = { 0 };
        int first = 1;
        if (g->need_rect) {
            bool line1_free = g->lines[1].n == 0 && g->n_lines >= 2 && g->end_line >= 2;
            if (!line1_free) {
                free(decl.p);
                free(all.p);
                snprintf(out->error, sizeof out->error,
                         "line 1: a rectangle texture needs the header alone on line 1");
                out->error_line = 1;
                goto done;
            }
            arb_sb_add(&all, "#extension GL_ARB_texture_rectangle : enable\n");
            first = 2;
        }
        for (int l = first; l <= g->n_lines; l++) {
            if (l == first) {
                arb_sb_add(&all, g->globals.p ? g->globals.p : "");
                arb_sb_add(&all, helpers);
                arb_sb_add(&all, "void main() { ");
                arb_sb_add(&all, decl.p ? decl.p : "");
                arb_sb_add(&all, g->init.p ? g->init.p : "");
            }
            if (g->lines[l].p)
                arb_sb_add(&all, g->lines[l].p);
            if (l < g->n_lines)
                arb_sb_add(&all, "\n");
        }
        arb_sb_add(&all, "\n");
        free(decl.p);
        bool oom = all.oom || g->globals.oom || g->init.oom;
        for (int l = 1; l <= g->n_lines; l++)
            oom |= g->lines[l].oom;
        if (oom) {
            free(all.p);
            snprintf(out->error, sizeof out->error, "out of memory");
        } else {
            out->glsl = all.p;
            rc = 0;
        }
    }
done:
    free_gen(g);
    free(g);
    if (rc != 0)
        out->unsupported = strstr(out->error, "not modelled") || strstr(out->error, "not supported");
    return rc;
}

void arbasm_result_free(arbasm_result *r)
{
    if (r) {
        free(r->glsl);
        r->glsl = NULL;
    }
}
