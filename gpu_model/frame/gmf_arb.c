/* ARB assembly programs in the frame runner: a draw with no GLSL program and GL_VERTEX_PROGRAM_ARB
 * and/or GL_FRAGMENT_PROGRAM_ARB enabled runs the programs translated to GLSL by gpu_model/arbasm
 * (one line per instruction, so the debugger and profiler see the assembly's lines), compiled
 * and linked like a GLSL program. A stage without an enabled ARB program runs a small stand-in
 * for the fixed-function stage, only for the state it can represent (no lighting, and texgen
 * only object/eye linear on units 0-3, in the vertex stage; no texturing or fog in the fragment
 * stage); other draws are reported.
 * The fixed-function generator (another module) replaces those stand-ins through
 * gmf_arb_stage_source(), which gives the translated source of one stage.
 *
 * Programs are cached in the runner's program list under synthetic names (GMF_ARB_NAME_BASE +
 * slot) keyed by the ARB program objects, their string generations and the state the
 * translation depends on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gmf_internal.h"
#include "arbasm/arbasm.h"

#define GMF_ARB_NAME_BASE 0xA0000000u

typedef struct arb_key {
    uint32_t share, vp, vp_gen, fp, fp_gen, pad;
    /* state the stand-in stages depend on */
    uint64_t ff_bits;
    uint64_t gen_bits;   /* texgen modes of the stand-in vertex stage (texgen_bits) */
} arb_key;

typedef struct arb_entry {
    arb_key key;
    struct sm_program sp;                 /* synthetic program handed to gmf_prog_get */
    struct sm_linked_shader linked[2];
    struct sm_name_binding attribs[16];
    char attrib_names[16][16];
    arbasm_result res[2];                 /* translation per stage (glsl NULL: stand-in) */
    char *text[2];                        /* the ARB program text per stage (NULL: stand-in) */
} arb_entry;

struct gmf_arb_cache {
    arb_entry **e;
    int n, cap;
};

void gmf_arb_free(gmf_runner *r)
{
    struct gmf_arb_cache *c = r->arb;
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        for (int s = 0; s < 2; s++) {
            if (!c->e[i]->res[s].glsl)
                free(c->e[i]->linked[s].source);   /* stand-ins are owned here */
            arbasm_result_free(&c->e[i]->res[s]);
            free(c->e[i]->text[s]);
        }
        free(c->e[i]);
    }
    free(c->e);
    free(c);
    r->arb = NULL;
}

static const struct sm_arb_program *enabled_program(const struct sm_context *c, int t)
{
    uint32_t cap = t == 0 ? GL_VERTEX_PROGRAM_ARB : GL_FRAGMENT_PROGRAM_ARB;
    if (!sm_is_enabled(c, cap, 0))
        return NULL;
    return sm_bound_arb_program(c, t);
}

bool gmf_arb_enabled(const struct sm_context *c)
{
    return sm_is_enabled(c, GL_VERTEX_PROGRAM_ARB, 0) || sm_is_enabled(c, GL_FRAGMENT_PROGRAM_ARB, 0);
}

char *gmf_arb_stage_source(const struct sm_context *c, int stage, char *err, size_t err_size)
{
    const struct sm_arb_program *ap = stage == 0 || stage == 1 ? enabled_program(c, stage) : NULL;
    if (!ap || !ap->source) {
        snprintf(err, err_size, "no enabled ARB %s program with a string", stage ? "fragment" : "vertex");
        return NULL;
    }
    arbasm_result r;
    if (arbasm_translate(ap->source, ap->length, NULL, &r) != 0) {
        snprintf(err, err_size, "ARB program %u: %s", ap->name, r.error);
        return NULL;
    }
    if ((int)r.stage != stage) {
        snprintf(err, err_size, "ARB program %u is not a %s program", ap->name, stage ? "fragment" : "vertex");
        arbasm_result_free(&r);
        return NULL;
    }
    return r.glsl;
}

/* Stand-in vertex stage for a fragment program: transform, colours, texture coordinates by the
 * texture matrices, fog coordinate as |eye z| (Mesa's default fog distance) or glFogCoord's. */
static char *ff_vertex(const struct sm_context *c, unsigned texcoords, char *err, size_t n)
{
    if (sm_is_enabled(c, GL_LIGHTING, 0)) {
        snprintf(err, n, "fixed-function lighting with an ARB fragment program (not modelled yet)");
        return NULL;
    }
    /* Object- and eye-linear texture coordinate generation as the fixed-function generator
     * writes it (gm_ff_vs.c); the modes that need normals stay reported. Units 4-7 are not in
     * the cache key (ff_state_bits), so generation there stays reported too. */
    static const uint32_t gen[4] = { GL_TEXTURE_GEN_S, GL_TEXTURE_GEN_T, GL_TEXTURE_GEN_R, GL_TEXTURE_GEN_Q };
    const struct sm_fixed_state *ff = &sm_context_state(c)->ff;
    unsigned generated = 0;
    for (int u = 0; u < 8; u++)
        for (int k = 0; k < 4; k++)
            if ((texcoords & (1u << u)) && sm_is_enabled(c, gen[k], (uint32_t)u)) {
                uint32_t m = ff->unit[u].gen_mode[k];
                if (u >= 4 || (m != GL_OBJECT_LINEAR && m != GL_EYE_LINEAR)) {
                    snprintf(err, n, "texture coordinate generation (mode 0x%04x) with an ARB fragment program "
                             "(not modelled yet)", m);
                    return NULL;
                }
                generated |= 1u << u;
            }
    /* Mesa's fixed vertex stage (ffvertex_prog.c) takes the fog coordinate as it is, without
     * abs(), when GL_FOG_COORD_SRC is GL_FOG_COORD (piglit fp-fog reads it in the program). */
    bool from_coord = sm_context_state(c)->ff.fog_coord_src == GL_FOG_COORD;
    char buf[4096];
    int k = snprintf(buf, sizeof buf, "void main() { gl_Position = ftransform(); gl_FrontColor = gl_Color; "
                     "gl_FrontSecondaryColor = gl_SecondaryColor; gl_FogFragCoord = %s; ",
                     from_coord ? "gl_FogCoord" : "abs((gl_ModelViewMatrix * gl_Vertex).z)");
    for (int u = 0; u < 8 && k > 0 && (size_t)k < sizeof buf; u++) {
        if (!(texcoords & (1u << u)))
            continue;
        if (!(generated & (1u << u))) {
            k += snprintf(buf + k, sizeof buf - (size_t)k,
                          "gl_TexCoord[%d] = gl_TextureMatrix[%d] * gl_MultiTexCoord%d; ", u, u, u);
            continue;
        }
        k += snprintf(buf + k, sizeof buf - (size_t)k, "{ vec4 tc = gl_MultiTexCoord%d; ", u);
        for (int q = 0; q < 4 && k > 0 && (size_t)k < sizeof buf; q++) {
            if (!sm_is_enabled(c, gen[q], (uint32_t)u))
                continue;
            bool eye = ff->unit[u].gen_mode[q] == GL_EYE_LINEAR;
            k += snprintf(buf + k, sizeof buf - (size_t)k, "tc.%c = dot(%s, gl_%sPlane%c[%d]); ", "xyzw"[q],
                          eye ? "gl_ModelViewMatrix * gl_Vertex" : "gl_Vertex", eye ? "Eye" : "Object", "STRQ"[q], u);
        }
        if (k > 0 && (size_t)k < sizeof buf)
            k += snprintf(buf + k, sizeof buf - (size_t)k, "gl_TexCoord[%d] = gl_TextureMatrix[%d] * tc; } ", u, u);
    }
    if (k > 0 && (size_t)k < sizeof buf)
        snprintf(buf + k, sizeof buf - (size_t)k, "}\n");
    return strdup(buf);
}

/* Stand-in fragment stage for a vertex program: the interpolated colour plus the secondary
 * colour (colour sum is on whenever a vertex program is, ARB_vertex_program section 3.9). */
static char *ff_fragment(const struct sm_context *c, bool secondary, char *err, size_t n)
{
    static const uint32_t targets[] = { GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_CUBE_MAP,
                                        GL_TEXTURE_RECTANGLE };
    for (uint32_t u = 0; u < 8; u++)
        for (size_t t = 0; t < sizeof targets / sizeof *targets; t++)
            if (sm_is_enabled(c, targets[t], u)) {
                snprintf(err, n, "fixed-function texturing with an ARB vertex program (not modelled yet)");
                return NULL;
            }
    if (sm_is_enabled(c, GL_FOG, 0)) {
        snprintf(err, n, "fixed-function fog with an ARB vertex program (not modelled yet)");
        return NULL;
    }
    return strdup(secondary ? "void main() { gl_FragColor = vec4(gl_Color.rgb + gl_SecondaryColor.rgb, gl_Color.a); }\n"
                            : "void main() { gl_FragColor = gl_Color; }\n");
}

/* The texgen modes of units 0-3 the stand-in vertex stage writes (2 bits per coordinate). */
static uint64_t texgen_bits(const struct sm_context *c)
{
    const struct sm_fixed_state *ff = &sm_context_state(c)->ff;
    uint64_t bits = 0;
    for (int u = 0; u < 4; u++)
        for (int q = 0; q < 4; q++) {
            uint32_t m = ff->unit[u].gen_mode[q];
            uint64_t v = m == GL_OBJECT_LINEAR ? 1 : m == GL_EYE_LINEAR ? 2 : 3;
            bits |= v << (2 * (4 * u + q));
        }
    return bits;
}

/* The enables the stand-in stages look at (lighting, fog, texture targets of units 0-7, texgen
 * of sets 0-3): a change makes another entry, so a stand-in is never reused for state it does
 * not represent. */
static uint64_t ff_state_bits(const struct sm_context *c)
{
    static const uint32_t targets[] = { GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_CUBE_MAP,
                                        GL_TEXTURE_RECTANGLE };
    static const uint32_t gen[] = { GL_TEXTURE_GEN_S, GL_TEXTURE_GEN_T, GL_TEXTURE_GEN_R, GL_TEXTURE_GEN_Q };
    uint64_t bits = (uint64_t)sm_is_enabled(c, GL_LIGHTING, 0) | (uint64_t)sm_is_enabled(c, GL_FOG, 0) << 1 |
                    (uint64_t)(sm_context_state(c)->ff.fog_coord_src == GL_FOG_COORD) << 63;
    int k = 2;
    for (uint32_t u = 0; u < 8; u++)
        for (size_t t = 0; t < 5; t++, k++)
            bits |= (uint64_t)sm_is_enabled(c, targets[t], u) << k;
    for (uint32_t u = 0; u < 4; u++)
        for (size_t t = 0; t < 4; t++, k++)
            bits |= (uint64_t)sm_is_enabled(c, gen[t], u) << k;
    return bits;
}

static arb_entry *build_entry(const struct sm_context *c, const arb_key *key, uint32_t name, char *err, size_t n,
                              bool *invalid)
{
    arb_entry *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    e->key = *key;
    uint32_t stage_prog[2] = { key->vp, key->fp };
    for (int s = 0; s < 2; s++) {
        if (!stage_prog[s])
            continue;
        const struct sm_arb_program *ap = sm_get_arb_program(c, stage_prog[s]);
        if (!ap || !ap->source) {
            /* never given a string: not a valid program, GL draws nothing */
            snprintf(err, n, "ARB %s program %u has no program string", s ? "fragment" : "vertex", stage_prog[s]);
            *invalid = ap != NULL;
            goto fail;
        }
        if (arbasm_translate(ap->source, ap->length, NULL, &e->res[s]) != 0) {
            snprintf(err, n, "ARB %s program %u: %s", s ? "fragment" : "vertex", ap->name, e->res[s].error);
            *invalid = !e->res[s].unsupported;
            goto fail;
        }
        if ((int)e->res[s].stage != s) {
            snprintf(err, n, "ARB program %u bound as a %s program is not one", ap->name, s ? "fragment" : "vertex");
            goto fail;
        }
        e->linked[s].source = e->res[s].glsl;
        if (!(e->text[s] = strndup(ap->source, ap->length))) {
            snprintf(err, n, "out of memory");
            goto fail;
        }
    }
    if (!key->vp) {
        unsigned tc = e->res[1].texcoords_read;
        if (!(e->linked[0].source = ff_vertex(c, tc, err, n)))
            goto fail;
    }
    if (!key->fp && !(e->linked[1].source = ff_fragment(c, e->res[0].writes_secondary, err, n)))
        goto fail;
    e->linked[0].type = GL_VERTEX_SHADER;
    e->linked[1].type = GL_FRAGMENT_SHADER;
    e->sp.name = name;
    e->sp.link_count = 1;
    e->sp.linked = e->linked;
    e->sp.n_linked = 2;
    int na = 0;
    for (int i = 1; i < 16; i++)
        if (e->res[0].attribs_used & (1u << i)) {
            snprintf(e->attrib_names[na], sizeof e->attrib_names[na], "arb_attrib%d", i);
            e->attribs[na] = (struct sm_name_binding){ e->attrib_names[na], (uint32_t)i, 0 };
            na++;
        }
    e->sp.attrib_bindings = e->attribs;
    e->sp.n_attrib_bindings = (uint32_t)na;
    return e;
fail:
    for (int s = 0; s < 2; s++) {
        if (!e->res[s].glsl)
            free(e->linked[s].source);
        arbasm_result_free(&e->res[s]);
        free(e->text[s]);
    }
    free(e);
    return NULL;
}

gmf_prog *gmf_arb_prog_get(gmf_runner *r, const struct sm_context *c, const struct sm_program **sp_out,
                           bool *invalid, gmf_event *ev)
{
    *invalid = false;
    const struct sm_arb_program *vp = enabled_program(c, 0), *fp = enabled_program(c, 1);
    bool vp_on = sm_is_enabled(c, GL_VERTEX_PROGRAM_ARB, 0), fp_on = sm_is_enabled(c, GL_FRAGMENT_PROGRAM_ARB, 0);
    if ((vp_on && !vp) || (fp_on && !fp)) {
        gmf_note(ev, "ARB %s program enabled but none bound (or unknown)", vp_on && !vp ? "vertex" : "fragment");
        return NULL;
    }
    arb_key key = { sm_context_share_id(c), vp ? vp->name : 0, vp ? vp->generation : 0,
                    fp ? fp->name : 0, fp ? fp->generation : 0, 0, ff_state_bits(c),
                    texgen_bits(c) };
    if (!r->arb && !(r->arb = calloc(1, sizeof *r->arb))) {
        gmf_note(ev, "out of memory");
        return NULL;
    }
    struct gmf_arb_cache *cache = r->arb;
    arb_entry *e = NULL;
    for (int i = 0; i < cache->n && !e; i++)
        if (!memcmp(&cache->e[i]->key, &key, sizeof key))
            e = cache->e[i];
    if (!e) {
        char err[300];
        if (cache->n == cache->cap) {
            int cap = cache->cap ? cache->cap * 2 : 8;
            arb_entry **ne = realloc(cache->e, (size_t)cap * sizeof *ne);
            if (!ne) {
                gmf_note(ev, "out of memory");
                return NULL;
            }
            cache->e = ne;
            cache->cap = cap;
        }
        /* The key is zero-padded by the initializer above, so memcmp compares values only. */
        e = build_entry(c, &key, GMF_ARB_NAME_BASE + (uint32_t)cache->n, err, sizeof err, invalid);
        if (!e) {
            /* An invalid program string: GL refused it too, and a draw with it raises
             * GL_INVALID_OPERATION and draws nothing (ARB_vertex_program 2.14.1). */
            if (!*invalid)
                gmf_note(ev, "%s", err);
            return NULL;
        }
        cache->e[cache->n++] = e;
    }
    gmf_prog *p = gmf_prog_get(r, c, &e->sp);
    if (!p || !p->ok) {
        gmf_note(ev, "%s", p ? p->error : "out of memory");
        return NULL;
    }
    *sp_out = &e->sp;
    return p;
}

/* program.env / program.local and the texture units of the translated stages. */
static void upload_stage(const struct sm_context *c, gm_program *gp, int t, const struct sm_arb_program *ap)
{
    const struct sm_context_state *st = sm_context_state(c);
    if (!gp || !ap)
        return;
    int u = gm_program_find_uniform(gp, t ? "arb_fp_env" : "arb_vp_env");
    if (u >= 0) {
        int n = gm_program_uniform(gp, u)->array_size;
        gm_program_set_uniform(gp, u, 0, n < SM_ARB_MAX_ENV ? n : SM_ARB_MAX_ENV, st->arb_env[t]);
    }
    u = gm_program_find_uniform(gp, t ? "arb_fp_local" : "arb_vp_local");
    if (u >= 0) {
        int n = gm_program_uniform(gp, u)->array_size;
        static const float zero[4];
        for (int i = 0; i < n; i++)
            gm_program_set_uniform(gp, u, i, 1, (uint32_t)i < ap->n_local ? ap->local[i] : zero);
    }
    for (int k = 0; k < gm_program_uniform_count(gp); k++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, k);
        int unit;
        if (ui->is_opaque && sscanf(ui->name, "arb_texture%d", &unit) == 1) {
            int32_t v = unit;
            gm_program_set_uniform(gp, k, 0, 1, &v);
        }
    }
}

void gmf_arb_upload(const struct sm_context *c, gmf_prog *p)
{
    upload_stage(c, p->vs, 0, enabled_program(c, 0));
    upload_stage(c, p->fs, 1, enabled_program(c, 1));
}

static const arb_entry *entry_of(const gmf_runner *r, uint32_t name)
{
    const struct gmf_arb_cache *c = r ? r->arb : NULL;
    if (!c || name < GMF_ARB_NAME_BASE || name - GMF_ARB_NAME_BASE >= (uint32_t)c->n)
        return NULL;
    return c->e[name - GMF_ARB_NAME_BASE];
}

const struct sm_program *gmf_arb_program(const gmf_runner *r, uint32_t name)
{
    const arb_entry *e = entry_of(r, name);
    return e ? &e->sp : NULL;
}

const char *gmf_arb_program_text(const gmf_runner *r, uint32_t name, int stage)
{
    const arb_entry *e = entry_of(r, name);
    return e && (stage == 0 || stage == 1) ? e->text[stage] : NULL;
}
