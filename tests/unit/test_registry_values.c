/* Unit test: the value families of registry/gl_annotations.txt ("family" lines, glr_values) and
 * the registry facts the state model's texture appliers read (the class of the first parameter,
 * the type/height/depth roles, GLR_FORM_MULTISAMPLE) give, for every command, the same answers as
 * the name parsers they replaced: statemodel's sm_register_uniform_family and
 * sm_register_attrib_family, the texture/sampler parameter forms and the named, compressed,
 * dimension and multisample tests of statemodel/sm_apply_textures.c, the fixed-function setters'
 * forms (sm_apply_fixed.c, sm_apply_raster.c) and the frame runner's query result types
 * (gmf_queries.c), copied here, and only here, as the reference. */
#include <stdio.h>
#include <string.h>
#include "registry/glr_registry.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

/* What a family line states, as the former parsers worked it out of the name. */
struct shape {
    int family, cols, rows, type, store;
    unsigned flags;
};

static bool take(const char **s, const char *t)
{
    size_t n = strlen(t);
    if (strncmp(*s, t, n))
        return false;
    *s += n;
    return true;
}

/* The former sm_register_attrib_family: glVertexAttrib[I|L]{1-4}[N]{b,s,i,f,d,ub,us,ui}[v]. */
static bool old_attrib(const char *name, struct shape *f)
{
    const char *s = name;
    if (!take(&s, "glVertexAttrib"))
        return false;
    char mode = 0;
    if (*s == 'I' || *s == 'L')
        mode = *s++;
    if (*s < '1' || *s > '4')
        return false;
    *f = (struct shape){ .family = GLR_VALUES_ATTRIB, .cols = 1, .rows = *s++ - '0' };
    if (*s == 'N') {
        f->flags |= GLR_VF_NORMALIZED;
        s++;
    }
    static const struct { const char *t; int vt; } types[] = {
        { "ub", GLR_VT_UB }, { "us", GLR_VT_US }, { "ui", GLR_VT_UI }, { "b", GLR_VT_B }, { "s", GLR_VT_S },
        { "i", GLR_VT_I }, { "f", GLR_VT_F }, { "d", GLR_VT_D },
    };
    for (size_t i = 0; i < sizeof types / sizeof *types && !f->type; i++)
        if (take(&s, types[i].t))
            f->type = types[i].vt;
    if (!f->type)
        return false;
    if (*s == 'v') {
        f->flags |= GLR_VF_VECTOR;
        s++;
    }
    if (*s)
        return false;
    if (mode == 'L') {
        if (f->type != GLR_VT_D)
            return false;
        f->store = GLR_VT_D;
    } else if (mode == 'I') {
        f->store = (f->type == GLR_VT_UB || f->type == GLR_VT_US || f->type == GLR_VT_UI) ? GLR_VT_UI : GLR_VT_I;
    } else {
        f->store = GLR_VT_F;
    }
    return true;
}

static bool old_kind(const char **s, int *kind)
{
    static const struct { const char *t; int k; } kinds[] = {
        { "ui64", GLR_VT_UI64 }, { "i64", GLR_VT_I64 }, { "ui", GLR_VT_UI },
        { "f", GLR_VT_F }, { "i", GLR_VT_I }, { "d", GLR_VT_D },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (take(s, kinds[i].t)) {
            *kind = kinds[i].k;
            return true;
        }
    return false;
}

static bool only_suffix(const char *s)
{
    return !*s || !strcmp(s, "ARB") || !strcmp(s, "EXT") || !strcmp(s, "NV");
}

/* The former sm_register_uniform_family: gl[Program]Uniform{1-4}{f,i,ui,d,i64,ui64}[v] and
 * gl[Program]UniformMatrix{2-4}[x{2-4}]{f,d}v. */
static bool old_uniform(const char *name, struct shape *u)
{
    const char *s = name;
    *u = (struct shape){ .family = GLR_VALUES_UNIFORM };
    if (take(&s, "glProgramUniform"))
        u->flags |= GLR_VF_PROGRAM;
    else if (!take(&s, "glUniform"))
        return false;
    if (take(&s, "Matrix")) {
        if (*s < '2' || *s > '4')
            return false;
        u->flags |= GLR_VF_MATRIX;
        u->cols = u->rows = *s++ - '0';
        if (*s == 'x') {
            if (s[1] < '2' || s[1] > '4')
                return false;
            u->rows = s[1] - '0';
            s += 2;
        }
        if (!old_kind(&s, &u->type) || (u->type != GLR_VT_F && u->type != GLR_VT_D) || *s++ != 'v' ||
            !only_suffix(s))
            return false;
    } else {
        if (*s < '1' || *s > '4')
            return false;
        u->cols = 1;
        u->rows = *s++ - '0';
        if (!old_kind(&s, &u->type))
            return false;
        if (*s == 'v') {
            u->flags |= GLR_VF_VECTOR;
            s++;
        }
        if (!only_suffix(s))
            return false;
    }
    u->store = u->type;
    return true;
}

/* The former sm_register_textures loop over gl{Tex,Texture,Sampler}Parameter{f,i,fv,iv,Iiv,Iuiv}
 * and h_parameter's reading of the suffix. */
static bool old_parameter(const char *name, struct shape *p)
{
    static const char *const owners[] = { "glTexParameter", "glTextureParameter", "glSamplerParameter" };
    static const struct { const char *form; int type; unsigned flags; } forms[] = {
        { "f", GLR_VT_F, 0 }, { "i", GLR_VT_I, 0 }, { "fv", GLR_VT_F, GLR_VF_VECTOR },
        { "iv", GLR_VT_I, GLR_VF_VECTOR }, { "Iiv", GLR_VT_I, GLR_VF_VECTOR | GLR_VF_INTEGER },
        { "Iuiv", GLR_VT_UI, GLR_VF_VECTOR | GLR_VF_INTEGER },
    };
    for (size_t o = 0; o < 3; o++) {
        const char *s = name;
        if (!take(&s, owners[o]))
            continue;
        for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
            if (!strcmp(s, forms[f].form)) {
                *p = (struct shape){ .family = GLR_VALUES_PARAMETER, .cols = 1, .rows = 1, .type = forms[f].type,
                                     .store = forms[f].type, .flags = forms[f].flags };
                return true;
            }
    }
    return false;
}

/* The former gpu_model/frame/gmf_queries.c get_result_into_buffer() reading of the result type
 * from the name (32 or 64 bits, signed), where that reading is right: the unsuffixed names (a
 * vendor suffix moved the letters it read; the family lines state those forms' real type). It read
 * i64v as unsigned, which its writer ignores at 64 bits (signedness only clamps 32-bit results):
 * main compares the signedness of 32-bit results only. */
static bool old_result(const char *name, struct shape *r)
{
    if (strncmp(name, "glGetQueryObject", 16) && strncmp(name, "glGetQueryBufferObject", 22))
        return false;
    size_t len = strlen(name);
    char s[64];
    snprintf(s, sizeof s, "%s", name);
    static const char *const suffixes[] = { "ARB", "EXT" };
    for (size_t i = 0; i < 2; i++)
        if (len > 3 && !strcmp(s + len - 3, suffixes[i]))
            s[len -= 3] = 0;
    int bits = s[len - 3] == '6' ? 64 : 32;   /* ...i64v / ...ui64v */
    bool is_signed = s[len - 2] == 'i' && s[len - 3] != 'u';
    int t = bits == 64 ? (is_signed ? GLR_VT_I64 : GLR_VT_UI64) : (is_signed ? GLR_VT_I : GLR_VT_UI);
    *r = (struct shape){ .family = GLR_VALUES_RESULT, .cols = 1, .rows = 1, .type = t, .store = t };
    return true;
}

/* The former statemodel/sm_apply_fixed.c form_of() and sm_apply_raster.c h_point_parameter():
 * the element type and vector form from the name's last letters, for the commands registered to
 * the handlers that read them (glLight*, glMaterial*, glLightModel*, glFog*, glTexEnv*, glTexGen*,
 * glPointParameter*). */
static bool old_setter(const char *n, struct shape *r)
{
    static const char *const registered[] = {
        "glLightf", "glLighti", "glLightfv", "glLightiv", "glMaterialf", "glMateriali", "glMaterialfv",
        "glMaterialiv", "glLightModelf", "glLightModeli", "glLightModelfv", "glLightModeliv", "glFogf", "glFogi",
        "glFogfv", "glFogiv", "glTexEnvf", "glTexEnvi", "glTexEnvfv", "glTexEnviv", "glTexGenf", "glTexGeni",
        "glTexGend", "glTexGenfv", "glTexGeniv", "glTexGendv", "glPointParameteri", "glPointParameterf",
        "glPointParameteriv", "glPointParameterfv",
    };
    bool found = false;
    for (size_t i = 0; i < sizeof registered / sizeof *registered; i++)
        found = found || !strcmp(n, registered[i]);
    if (!found)
        return false;
    size_t len = strlen(n);
    bool vec = len > 2 && n[len - 1] == 'v';
    char c = vec ? n[len - 2] : n[len - 1];
    int t = c == 'd' ? GLR_VT_D : c == 'i' ? GLR_VT_I : GLR_VT_F;
    *r = (struct shape){ .family = GLR_VALUES_SETTER, .cols = 1, .rows = 1, .type = t, .store = t,
                         .flags = vec ? GLR_VF_VECTOR : 0 };
    return true;
}

/* The former sm_apply_textures.c name tests, where its handlers read them. */
static void check_texture_facts(uint32_t k, long *checked)
{
    const char *n = glr_cmd_name(k);
    const struct glr_cmd_info *ci = &glr_cmds[k];
    uint8_t first = ci->nparams ? glr_cmd_params(ci)[0].obj_class : GLR_OBJ_NONE;
    int dims = glr_cmd_param_role(ci, GLR_ROLE_depth) >= 0 ? 3 : glr_cmd_param_role(ci, GLR_ROLE_height) >= 0 ? 2 : 1;
    bool sub_image = !strncmp(n, "glTexSubImage", 13) || !strncmp(n, "glTextureSubImage", 17) ||
                     !strncmp(n, "glCompressedTexSubImage", 23) || !strncmp(n, "glCompressedTextureSubImage", 27);
    bool storage = !strncmp(n, "glTexStorage", 12) || !strncmp(n, "glTextureStorage", 16);
    size_t len = strlen(n);
    if ((sub_image || storage) && len >= 2 && n[len - 1] == 'D' && n[len - 2] >= '1' && n[len - 2] <= '3') {
        bool named = !strncmp(n, "glTexture", 9) || !strncmp(n, "glCompressedTexture", 19);
        CHECK((first == GLR_OBJ_TEXTURE) == named, "%s: texture named first %d, by name %d", n, first, named);
        CHECK(dims == n[len - 2] - '0', "%s: %d dimensions by role, %c by name", n, dims, n[len - 2]);
        if (sub_image) {
            bool compressed = !strncmp(n, "glCompressed", 12);
            CHECK((glr_cmd_param_role(ci, GLR_ROLE_type) < 0) == compressed, "%s: compressed by role", n);
        }
        ++*checked;
    }
    const char *ms = strstr(n, "Multisample");
    if (storage && ms && !ms[strlen("Multisample")]) {
        CHECK((glr_cmd_param_role(ci, GLR_ROLE_depth) >= 0) == (strstr(n, "3DMultisample") != NULL), "%s: 3D", n);
        CHECK((first == GLR_OBJ_TEXTURE) == !strncmp(n, "glTextureStorage", 16), "%s: named", n);
        ++*checked;
    }
    if (!strcmp(n, "glRenderbufferStorage") || !strcmp(n, "glRenderbufferStorageMultisample") ||
        !strcmp(n, "glNamedRenderbufferStorage") || !strcmp(n, "glNamedRenderbufferStorageMultisample")) {
        CHECK((first == GLR_OBJ_RENDERBUFFER) == !strncmp(n, "glNamed", 7), "%s: renderbuffer named first", n);
        CHECK(((ci->form & GLR_FORM_MULTISAMPLE) != 0) == (strstr(n, "Multisample") != NULL), "%s: multisample", n);
        ++*checked;
    }
    struct shape p;
    if (old_parameter(n, &p)) {
        CHECK((first == GLR_OBJ_SAMPLER) == !strncmp(n, "glSampler", 9), "%s: sampler first", n);
        CHECK((first == GLR_OBJ_TEXTURE) == !strncmp(n, "glTextureParameter", 18), "%s: texture first", n);
        ++*checked;
    }
}

int main(void)
{
    const struct glr_cmd_values *row[GLR_CMD_COUNT] = { 0 };
    for (unsigned i = 0; i < glr_values_count; i++) {
        CHECK(glr_values[i].cmd < GLR_CMD_COUNT && !row[glr_values[i].cmd], "glr_values row %u", i);
        CHECK(i == 0 || glr_values[i - 1].cmd < glr_values[i].cmd, "glr_values not in command order at %u", i);
        if (glr_values[i].cmd < GLR_CMD_COUNT)
            row[glr_values[i].cmd] = &glr_values[i];
    }
    long found[5] = { 0 }, texture_facts = 0;
    for (uint32_t k = 0; k < GLR_CMD_COUNT; k++) {
        const char *n = glr_cmd_name(k);
        struct shape want = { 0 };
        /* The state model asked the uniform and attribute parsers of unaliased GL commands only
         * (an alias is applied as the command it aliases), the parameter forms by exact name. */
        bool has = old_parameter(n, &want) || old_result(n, &want) || old_setter(n, &want) ||
                   (glr_cmds[k].api == GLR_API_GL && glr_cmds[k].alias < 0 &&
                    (old_uniform(n, &want) || old_attrib(n, &want)));
        const struct glr_cmd_values *v = row[k];
        CHECK(has == (v != NULL), "%s: a family line %d, by name %d", n, v != NULL, has);
        if (has && v && want.family == GLR_VALUES_RESULT && (want.type == GLR_VT_UI64 || want.type == GLR_VT_I64) &&
            (v->type == GLR_VT_UI64 || v->type == GLR_VT_I64))
            want.type = want.store = v->type;   /* 64 bits either way: signedness unused */
        if (has && v) {
            CHECK(v->family == want.family && v->cols == want.cols && v->rows == want.rows && v->type == want.type &&
                      v->store == want.store && v->flags == want.flags,
                  "%s: family %d %dx%d type %d store %d flags 0x%x, by name %d %dx%d %d %d 0x%x", n, v->family,
                  v->cols, v->rows, v->type, v->store, v->flags, want.family, want.cols, want.rows, want.type,
                  want.store, want.flags);
            found[want.family - 1]++;
        }
        check_texture_facts(k, &texture_facts);
    }
    /* Not a comparison of nothing: the families and the texture commands are all there. */
    CHECK(found[0] >= 150 && found[1] >= 60 && found[2] == 18, "families: %ld uniform, %ld attrib, %ld parameter",
          found[0], found[1], found[2]);
    CHECK(texture_facts >= 40, "only %ld texture commands checked", texture_facts);
    CHECK(found[3] >= 12 && found[4] == 30, "only %ld query result reads, %ld setters", found[3], found[4]);
    printf("%ld uniform, %ld attribute, %ld parameter, %ld query result and %ld setter commands as by name; %ld "
           "texture commands' registry facts\n", found[0], found[1], found[2], found[3], found[4], texture_facts);
    return failures ? 1 : 0;
}
