/* arbasm: program parameter bindings (ARB_vertex_program section 2.14.3.1 and
 * ARB_fragment_program section 3.11.3.1): constants, program.env / program.local and the GL state
 * bindings, each as vec4 GLSL expressions over the compatibility built-in uniforms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arb_internal.h"

static char *dupf(arb_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static char *dupf(arb_parser *p, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    return arb_strdup(p, tmp);
}

/* A GLSL float literal for v (GLSL 1.10 has no infinity literal: a product that overflows). */
static void fmt_float(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "(0.0/0.0)");
    else if (isinf(v) || fabs(v) > 3.4028234663852886e38)
        snprintf(buf, n, "(%s1.0e30*1.0e30)", v < 0 ? "-" : "");
    else {
        snprintf(buf, n, "%.9g", v);
        if (!strpbrk(buf, ".eE"))
            strncat(buf, ".0", n - strlen(buf) - 1);
    }
}

/* [+-] number */
static double signed_number(arb_parser *p)
{
    double sign = 1.0;
    if (arb_is(p, "-") || arb_is(p, "+")) {
        sign = arb_is(p, "-") ? -1.0 : 1.0;
        arb_next(p);
    }
    if (p->tok.kind != T_NUM)
        arb_fail(p, "expected a number at '%s'", p->tok.text);
    double v = sign * p->tok.num;
    arb_next(p);
    return v;
}

/* { a [, b [, c [, d]]] }: missing y, z are 0, missing w is 1; a scalar replicates. */
static char *constant(arb_parser *p, bool braces)
{
    double v[4] = { 0, 0, 0, 1 };
    int n = 0;
    if (braces) {
        arb_expect(p, "{");
        do {
            if (n == 4)
                arb_fail(p, "more than four components in a constant");
            v[n++] = signed_number(p);
        } while (arb_is(p, ",") && (arb_next(p), true));
        arb_expect(p, "}");
    } else {
        v[0] = signed_number(p);
        v[1] = v[2] = v[3] = v[0];
        n = 4;
    }
    char f[4][48];
    for (int i = 0; i < 4; i++)
        fmt_float(v[i], f[i], sizeof f[i]);
    return dupf(p, "vec4(%s, %s, %s, %s)", f[0], f[1], f[2], f[3]);
}

/* [a] or [a..b] after program.env / program.local / matrix rows; *last = a when no range. */
static void index_range(arb_parser *p, int *first, int *last, int limit)
{
    arb_expect(p, "[");
    *first = *last = arb_int(p);
    if (arb_is(p, "..")) {
        arb_next(p);
        *last = arb_int(p);
    }
    arb_expect(p, "]");
    if (*last < *first || *last >= limit)
        arb_fail(p, "index range [%d..%d] invalid (limit %d)", *first, *last, limit);
}

static int optional_index(arb_parser *p, int limit)
{
    if (!arb_is(p, "["))
        return 0;
    arb_next(p);
    int v = arb_int(p);
    arb_expect(p, "]");
    if (v >= limit)
        arb_fail(p, "index %d out of range (limit %d)", v, limit);
    return v;
}

static const char *word(arb_parser *p)
{
    if (p->tok.kind != T_ID)
        arb_fail(p, "expected a name at '%s'", p->tok.text);
    static _Thread_local char w[64];
    snprintf(w, sizeof w, "%s", p->tok.text);
    arb_next(p);
    return w;
}

static bool dot_word(arb_parser *p, const char *w)
{
    /* Looks ahead ".w" without consuming anything else. */
    if (!arb_is(p, "."))
        return false;
    const char *save_pos = p->pos;
    int save_line = p->line;
    arb_token save = p->tok;
    arb_next(p);
    if (p->tok.kind == T_ID && !strcmp(p->tok.text, w)) {
        arb_next(p);
        return true;
    }
    p->pos = save_pos;
    p->line = save_line;
    p->tok = save;
    return false;
}

/* state.matrix.<name>[.<modifier>][.row[a..b]] */
static int matrix_binding(arb_parser *p, char **ex, int max, bool single)
{
    arb_expect(p, ".");
    const char *w = word(p);
    char base[64], idx[16] = "";
    if (!strcmp(w, "modelview")) {
        if (optional_index(p, 32) != 0)
            arb_fail(p, "state.matrix.modelview[n] with n > 0 (vertex blending) is not modelled");
        strcpy(base, "gl_ModelViewMatrix");
    } else if (!strcmp(w, "projection")) {
        strcpy(base, "gl_ProjectionMatrix");
    } else if (!strcmp(w, "mvp")) {
        strcpy(base, "gl_ModelViewProjectionMatrix");
    } else if (!strcmp(w, "texture")) {
        strcpy(base, "gl_TextureMatrix");
        snprintf(idx, sizeof idx, "[%d]", optional_index(p, 8));
    } else if (!strcmp(w, "palette") || !strcmp(w, "program")) {
        arb_fail(p, "state.matrix.%s is not modelled", w);
    } else {
        arb_fail(p, "unknown matrix '%s'", w);
    }
    /* Row k of M is column k of M's transpose; GLSL matrices index columns. */
    const char *suffix = "Transpose";
    int first = 0, last = 3;
    for (;;) {
        if (dot_word(p, "inverse"))
            suffix = "InverseTranspose";
        else if (dot_word(p, "transpose"))
            suffix = "";
        else if (dot_word(p, "invtrans"))
            suffix = "Inverse";
        else if (dot_word(p, "row")) {
            index_range(p, &first, &last, 4);
            break;
        } else
            break;
    }
    if (single && last != first)
        arb_fail(p, "a whole matrix where one vector is expected");
    int n = 0;
    for (int r = first; r <= last; r++) {
        if (n >= max)
            arb_fail(p, "too many parameters");
        ex[n++] = dupf(p, "%s%s%s[%d]", base, suffix, idx, r);
    }
    return n;
}

static char *material_binding(arb_parser *p)
{
    const char *face = "Front";
    if (dot_word(p, "front"))
        face = "Front";
    else if (dot_word(p, "back"))
        face = "Back";
    arb_expect(p, ".");
    const char *w = word(p);
    if (!strcmp(w, "ambient") || !strcmp(w, "diffuse") || !strcmp(w, "specular"))
        return dupf(p, "gl_%sMaterial.%s", face, w);
    if (!strcmp(w, "emission"))
        return dupf(p, "gl_%sMaterial.emission", face);
    if (!strcmp(w, "shininess"))
        return dupf(p, "vec4(gl_%sMaterial.shininess, 0.0, 0.0, 1.0)", face);
    arb_fail(p, "unknown material property '%s'", w);
}

static char *light_binding(arb_parser *p)
{
    int n = optional_index(p, 8);
    arb_expect(p, ".");
    const char *w = word(p);
    if (!strcmp(w, "ambient") || !strcmp(w, "diffuse") || !strcmp(w, "specular") || !strcmp(w, "position"))
        return dupf(p, "gl_LightSource[%d].%s", n, w);
    if (!strcmp(w, "attenuation"))
        return dupf(p, "vec4(gl_LightSource[%d].constantAttenuation, gl_LightSource[%d].linearAttenuation, "
                       "gl_LightSource[%d].quadraticAttenuation, gl_LightSource[%d].spotExponent)", n, n, n, n);
    if (!strcmp(w, "spot")) {
        arb_expect(p, ".");
        if (strcmp(word(p), "direction"))
            arb_fail(p, "expected state.light[n].spot.direction");
        return dupf(p, "vec4(gl_LightSource[%d].spotDirection, gl_LightSource[%d].spotCosCutoff)", n, n);
    }
    if (!strcmp(w, "half"))
        return dupf(p, "gl_LightSource[%d].halfVector", n);
    arb_fail(p, "unknown light property '%s'", w);
}

static char *lightprod_binding(arb_parser *p)
{
    int n = optional_index(p, 8);
    const char *face = "Front";
    if (dot_word(p, "front"))
        face = "Front";
    else if (dot_word(p, "back"))
        face = "Back";
    arb_expect(p, ".");
    const char *w = word(p);
    if (strcmp(w, "ambient") && strcmp(w, "diffuse") && strcmp(w, "specular"))
        arb_fail(p, "unknown light product '%s'", w);
    return dupf(p, "gl_%sLightProduct[%d].%s", face, n, w);
}

static char *lightmodel_binding(arb_parser *p)
{
    arb_expect(p, ".");
    const char *w = word(p);
    if (!strcmp(w, "ambient"))
        return dupf(p, "gl_LightModel.ambient");
    const char *face = "Front";
    if (!strcmp(w, "front") || !strcmp(w, "back")) {
        face = !strcmp(w, "back") ? "Back" : "Front";
        arb_expect(p, ".");
        w = word(p);
    }
    if (!strcmp(w, "scenecolor"))
        return dupf(p, "gl_%sLightModelProduct.sceneColor", face);
    arb_fail(p, "unknown light model property '%s'", w);
}

static char *texgen_binding(arb_parser *p)
{
    int n = optional_index(p, 8);
    arb_expect(p, ".");
    const char *kind = word(p);
    if (strcmp(kind, "eye") && strcmp(kind, "object"))
        arb_fail(p, "expected eye or object at '%s'", kind);
    bool eye = !strcmp(kind, "eye");
    arb_expect(p, ".");
    const char *c = word(p);
    if (strlen(c) != 1 || !strchr("strq", c[0]))
        arb_fail(p, "expected s, t, r or q at '%s'", c);
    char up = (char)(c[0] - 'a' + 'A');
    return dupf(p, "gl_%sPlane%c[%d]", eye ? "Eye" : "Object", up, n);
}

static int state_binding(arb_parser *p, char **ex, int max, bool single)
{
    arb_expect(p, ".");
    const char *w = word(p);
    char *e = NULL;
    if (!strcmp(w, "matrix"))
        return matrix_binding(p, ex, max, single);
    if (!strcmp(w, "material"))
        e = material_binding(p);
    else if (!strcmp(w, "light"))
        e = light_binding(p);
    else if (!strcmp(w, "lightprod"))
        e = lightprod_binding(p);
    else if (!strcmp(w, "lightmodel"))
        e = lightmodel_binding(p);
    else if (!strcmp(w, "texgen"))
        e = texgen_binding(p);
    else if (!strcmp(w, "fog")) {
        arb_expect(p, ".");
        const char *f = word(p);
        if (!strcmp(f, "color"))
            e = dupf(p, "gl_Fog.color");
        else if (!strcmp(f, "params"))
            e = dupf(p, "vec4(gl_Fog.density, gl_Fog.start, gl_Fog.end, gl_Fog.scale)");
        else
            arb_fail(p, "unknown fog property '%s'", f);
    } else if (!strcmp(w, "clip")) {
        int n = optional_index(p, 8);
        arb_expect(p, ".");
        if (strcmp(word(p), "plane"))
            arb_fail(p, "expected state.clip[n].plane");
        e = dupf(p, "gl_ClipPlane[%d]", n);
    } else if (!strcmp(w, "point")) {
        arb_expect(p, ".");
        const char *f = word(p);
        if (!strcmp(f, "size"))
            e = dupf(p, "vec4(gl_Point.size, gl_Point.sizeMin, gl_Point.sizeMax, gl_Point.fadeThresholdSize)");
        else if (!strcmp(f, "attenuation"))
            e = dupf(p, "vec4(gl_Point.distanceConstantAttenuation, gl_Point.distanceLinearAttenuation, "
                        "gl_Point.distanceQuadraticAttenuation, 1.0)");
        else
            arb_fail(p, "unknown point property '%s'", f);
    } else if (!strcmp(w, "texenv")) {
        int n = optional_index(p, 8);
        arb_expect(p, ".");
        if (strcmp(word(p), "color"))
            arb_fail(p, "expected state.texenv[n].color");
        e = dupf(p, "gl_TextureEnvColor[%d]", n);
    } else if (!strcmp(w, "depth")) {
        arb_expect(p, ".");
        if (strcmp(word(p), "range"))
            arb_fail(p, "expected state.depth.range");
        e = dupf(p, "vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0)");
    } else {
        arb_fail(p, "unknown state binding 'state.%s'", w);
    }
    if (max < 1)
        arb_fail(p, "too many parameters");
    ex[0] = e;
    return 1;
}

static int program_binding(arb_parser *p, char **ex, int max, bool single)
{
    arb_expect(p, ".");
    const char *w = word(p);
    bool env = !strcmp(w, "env");
    if (!env && strcmp(w, "local"))
        arb_fail(p, "expected program.env or program.local at '%s'", w);
    int first, last;
    index_range(p, &first, &last, 4096);
    if (single && last != first)
        arb_fail(p, "a parameter range where one vector is expected");
    int n = 0;
    for (int i = first; i <= last; i++) {
        if (n >= max)
            arb_fail(p, "too many parameters");
        ex[n++] = dupf(p, "arb_%s_%s[%d]", p->vp ? "vp" : "fp", env ? "env" : "local", i);
    }
    int *m = env ? &p->max_env : &p->max_local;
    if (last + 1 > *m)
        *m = last + 1;
    return n;
}

int arb_param_binding(arb_parser *p, char **ex, int max, bool single)
{
    if (max < 1)
        arb_fail(p, "too many parameters");
    if (arb_is(p, "{")) {
        ex[0] = constant(p, true);
        return 1;
    }
    if (p->tok.kind == T_NUM || arb_is(p, "-") || arb_is(p, "+")) {
        ex[0] = constant(p, false);
        return 1;
    }
    if (arb_is(p, "state")) {
        arb_next(p);
        return state_binding(p, ex, max, single);
    }
    if (arb_is(p, "program")) {
        arb_next(p);
        return program_binding(p, ex, max, single);
    }
    arb_fail(p, "expected a parameter binding at '%s'", p->tok.text);
}
