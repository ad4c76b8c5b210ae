/* Current values of the legacy vertex attributes (sm_current.h): the command families, found in the
 * registry tables at first use, decoded by their parameter types; the state model's handlers set
 * sm_context_state.legacy_current from them. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_current.h"

struct ifam {
    uint8_t kind;       /* enum sm_imm_kind */
    int8_t slot;        /* legacy slot (glMultiTexCoord: TEXCOORD0, the target adds the unit) */
    uint8_t n;          /* components per value */
    char src;           /* 'b','s','i','f','d','B'(ub, boolean),'S'(us),'I'(ui) */
    bool vec, target, norm;
};
static struct ifam fams[GLR_CMD_COUNT];
static pthread_once_t fams_once = PTHREAD_ONCE_INIT;

/* The component type of a registry C type ("GLfloat", "const GLshort *"), 0 if none of ours. */
static char type_char(const char *ctype)
{
    static const struct { const char *t; char c; } types[] = {
        { "GLbyte", 'b' }, { "GLshort", 's' }, { "GLint", 'i' }, { "GLfloat", 'f' },
        { "GLdouble", 'd' }, { "GLubyte", 'B' }, { "GLushort", 'S' }, { "GLuint", 'I' },
        { "GLboolean", 'B' }, { "GLhalfNV", 'h' },
    };
    char base[64];
    size_t k = 0;
    const char *p = ctype;
    if (!strncmp(p, "const ", 6))
        p += 6;
    while (*p && *p != ' ' && *p != '*' && k + 1 < sizeof base)
        base[k++] = *p++;
    base[k] = 0;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (!strcmp(base, types[i].t))
            return types[i].c;
    return 0;
}

static void classify(uint32_t cmd)
{
    static const struct { const char *prefix; uint8_t kind; int8_t slot; bool target, norm; } families[] = {
        { "glMultiTexCoord", SM_IMM_ATTRIB, SM_LA_TEXCOORD0, true, false },
        { "glSecondaryColor", SM_IMM_ATTRIB, SM_LA_SECONDARY_COLOR, false, true },
        { "glTexCoord", SM_IMM_ATTRIB, SM_LA_TEXCOORD0, false, false },
        { "glFogCoord", SM_IMM_ATTRIB, SM_LA_FOG_COORD, false, false },
        { "glEdgeFlag", SM_IMM_ATTRIB, SM_LA_EDGE_FLAG, false, false },
        { "glNormal", SM_IMM_ATTRIB, SM_LA_NORMAL, false, true },
        { "glColor", SM_IMM_ATTRIB, SM_LA_COLOR, false, true },
        { "glIndex", SM_IMM_ATTRIB, SM_LA_INDEX, false, false },
        { "glVertex", SM_IMM_VERTEX, SM_LA_VERTEX, false, false },
        { "glRect", SM_IMM_RECT, -1, false, false },
        { "glRasterPos", SM_IMM_RASTER_POS, -1, false, false },
        { "glWindowPos", SM_IMM_WINDOW_POS, -1, false, false },
    };
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    if (ci->api != GLR_API_GL)
        return;
    for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
        size_t pl = strlen(families[f].prefix);
        if (strncmp(glr_str(ci->name), families[f].prefix, pl) != 0)
            continue;
        /* The rest of the name: an optional component count, then lowercase type letters and
         * 'v' only (glColorMask, glColorPointer, glVertexAttrib4f, glColor3fVertex3fSUN and
         * suffixed vendor forms stop here). */
        const char *s = glr_str(ci->name) + pl;
        int digit = 0;
        if (*s >= '1' && *s <= '4')
            digit = *s++ - '0';
        /* GL_NV_half_float's forms end in hNV / hvNV (glFogCoordhNV: piglit
         * ext_fog_coord-modes-half-float) */
        char rest[8];
        size_t rl = strlen(s);
        if (rl >= 3 && rl < sizeof rest && !strcmp(s + rl - 2, "NV") && s[0] == 'h') {
            memcpy(rest, s, rl - 2);
            rest[rl - 2] = 0;
            s = rest;
        }
        for (const char *q = s; *q; q++)
            if (*q < 'a' || *q > 'z')
                return;
        bool vec = *s && s[strlen(s) - 1] == 'v';
        struct ifam fam = { families[f].kind, families[f].slot, 0, 0, vec, families[f].target,
                            families[f].norm };
        int first = fam.target ? 1 : 0;
        if (ci->nparams <= first)
            return;
        if (fam.target && glr_cmd_params(ci)[0].is_pointer)
            return;
        char src = type_char(glr_str(glr_cmd_params(ci)[first].ctype));
        if (!src)
            return;
        if (vec) {
            const struct glr_param_info *p = &glr_cmd_params(ci)[first];
            if (!p->is_pointer)
                return;
            int len = p->len ? atoi(glr_str(p->len)) : 0;
            if (len < 1)
                len = digit;
            if (len < 1 || len > 4)
                return;
            /* glRectv: two pointers of two components each */
            if (fam.kind == SM_IMM_RECT && (ci->nparams != 2 || len != 2))
                return;
            if (fam.kind != SM_IMM_RECT && ci->nparams != first + 1)
                return;
            fam.n = (uint8_t)len;
        } else {
            int n = ci->nparams - first;
            if (n < 1 || n > 4)
                return;
            for (int i = first; i < ci->nparams; i++)
                if (glr_cmd_params(ci)[i].is_pointer || type_char(glr_str(glr_cmd_params(ci)[i].ctype)) != src)
                    return;
            if (fam.kind == SM_IMM_RECT && n != 4)
                return;
            fam.n = (uint8_t)n;
        }
        fam.src = src;
        fams[cmd] = fam;
        return;
    }
}

static void init_fams(void)
{
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++)
        classify(i);
}

enum sm_imm_kind sm_imm_kind_of(uint32_t cmd)
{
    pthread_once(&fams_once, init_fams);
    return cmd < GLR_CMD_COUNT ? (enum sm_imm_kind)fams[cmd].kind : SM_IMM_NONE;
}

/* Integer-to-float conversion of colours and normals as Mesa does it (its BYTE_TO_FLOAT family:
 * the GL 2.x rule, -128 maps below -1). */
static double norm_value(char src, int64_t i)
{
    switch (src) {
    case 'b': return (2.0 * (double)i + 1.0) / 255.0;
    case 's': return (2.0 * (double)i + 1.0) / 65535.0;
    case 'i': return (2.0 * (double)i + 1.0) / 4294967295.0;
    case 'B': return (double)i / 255.0;
    case 'S': return (double)i / 65535.0;
    default: return (double)i / 4294967295.0;
    }
}

static size_t src_size(char src)
{
    return src == 'b' || src == 'B' ? 1 : src == 's' || src == 'S' || src == 'h' ? 2 : src == 'd' ? 8 : 4;
}

/* An IEEE half (GLhalfNV) as a float, subnormals, infinities and NaNs included. */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Component k of a scalar argument (stored by kind: floats as bits, integers extended). */
static double scalar_comp(const struct ifam *f, const struct glr_call *c, int arg, bool *is_int, int64_t *iv)
{
    *is_int = f->src != 'f' && f->src != 'd' && f->src != 'h';
    if (f->src == 'h')
        return half_value((uint16_t)c->args[arg]);
    if (f->src == 'f')
        return glr_arg_f32(c, arg);
    if (f->src == 'd')
        return glr_arg_f64(c, arg);
    uint64_t v = c->args[arg];
    switch (f->src) {
    case 'b': *iv = (int8_t)v; break;
    case 's': *iv = (int16_t)v; break;
    case 'i': *iv = (int32_t)v; break;
    case 'B': *iv = (uint8_t)v; break;
    case 'S': *iv = (uint16_t)v; break;
    default: *iv = (uint32_t)v; break;
    }
    return (double)*iv;
}

static double memory_comp(char src, const uint8_t *p, bool *is_int, int64_t *iv)
{
    *is_int = src != 'f' && src != 'd' && src != 'h';
    switch (src) {
    case 'h': { uint16_t x; memcpy(&x, p, 2); return half_value(x); }
    case 'b': { int8_t x; memcpy(&x, p, 1); *iv = x; break; }
    case 'B': *iv = *p; break;
    case 's': { int16_t x; memcpy(&x, p, 2); *iv = x; break; }
    case 'S': { uint16_t x; memcpy(&x, p, 2); *iv = x; break; }
    case 'i': { int32_t x; memcpy(&x, p, 4); *iv = x; break; }
    case 'I': { uint32_t x; memcpy(&x, p, 4); *iv = x; break; }
    case 'f': { float x; memcpy(&x, p, 4); return x; }
    default: { double x; memcpy(&x, p, 8); return x; }
    }
    return (double)*iv;
}

bool sm_imm_decode_as(const struct glr_call *call, uint32_t cmd, struct sm_imm_value *out)
{
    memset(out, 0, sizeof *out);
    if (!call || call->cmd >= GLR_CMD_COUNT || cmd >= GLR_CMD_COUNT)
        return false;
    pthread_once(&fams_once, init_fams);
    if (!fams[cmd].kind)
        return false;
    const struct ifam *f = &fams[cmd];
    float v[4] = { 0, 0, 0, 1 };   /* glRect*v: v1 = (x1, y1) then v2 = (x2, y2) */
    int first = f->target ? 1 : 0;
    int groups = f->kind == SM_IMM_RECT && f->vec ? 2 : 1;
    for (int g = 0; g < groups; g++) {
        const uint8_t *mem = NULL;
        if (f->vec) {
            const struct glr_blob *b = &call->blobs[first + g];
            if (!b->data || b->size < src_size(f->src) * f->n)
                return false;
            mem = b->data;
        }
        for (int k = 0; k < f->n; k++) {
            bool is_int;
            int64_t iv = 0;
            double d = mem ? memory_comp(f->src, mem + src_size(f->src) * (size_t)k, &is_int, &iv)
                           : scalar_comp(f, call, first + k, &is_int, &iv);
            if (is_int && f->norm)
                d = norm_value(f->src, iv);
            if (f->slot == SM_LA_EDGE_FLAG)
                d = iv != 0 || d != 0.0 ? 1.0 : 0.0;
            v[g * f->n + k] = (float)d;
        }
    }
    out->kind = (enum sm_imm_kind)f->kind;
    out->slot = f->slot;
    if (f->target) {
        uint32_t unit = (uint32_t)call->args[0] - GL_TEXTURE0;
        out->slot = unit < SM_MAX_LEGACY_TEXCOORD ? SM_LA_TEXCOORD0 + (int)unit : -1;
    }
    memcpy(out->v, v, sizeof out->v);
    return true;
}

bool sm_imm_decode_applied(const struct sm_ap *a, struct sm_imm_value *out)
{
    /* a->cmd is the call's canonical command (sm_apply): the form sm_imm_decode falls back to */
    return sm_imm_decode_as(a->call, sm_imm_kind_of(a->call->cmd) != SM_IMM_NONE ? a->call->cmd : a->cmd, out);
}

/* glColor*, glNormal*, ...: the current value of the slot. */
static void h_current(struct sm_ap *a)
{
    struct sm_imm_value iv;
    if (!sm_imm_decode_applied(a, &iv)) {
        ap_error(a, "attribute values missing from the recorded call");
        return;
    }
    if (iv.slot < 0 || iv.slot >= SM_LA_COUNT) {
        ap_error(a, "texture unit beyond the model's legacy texture coordinate sets");
        return;
    }
    memcpy(a->c->st.legacy_current[iv.slot], iv.v, sizeof iv.v);
    /* while GL_COLOR_MATERIAL is on, the tracked material follows the current colour */
    if (iv.slot == SM_LA_COLOR && sm_is_enabled(a->c, GL_COLOR_MATERIAL, 0))
        sm_fixed_color_material_update(&a->c->st);
}

/* glVertex*, glRect*, glBegin, glEnd, glArrayElement: no state of their own (the GPU model
 * assembles the vertices; GL leaves current values after glArrayElement as they were set by the
 * arrays' commands, which the model does not track). */
static void h_no_state(struct sm_ap *a)
{
    (void)a;
}

void sm_register_current(sm_apply_fn *tab)
{
    pthread_once(&fams_once, init_fams);
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++) {
        if (fams[i].kind == SM_IMM_ATTRIB)
            tab[i] = h_current;
        else if (fams[i].kind == SM_IMM_VERTEX || fams[i].kind == SM_IMM_RECT)
            tab[i] = h_no_state;
    }
    tab[GLR_CMD_glBegin] = h_no_state;
    tab[GLR_CMD_glEnd] = h_no_state;
    tab[GLR_CMD_glArrayElement] = h_no_state;
}
