/* What the stages ask of a compiled program: a type's location chunks, whether a stage's sources
 * name an identifier, hidden varyings, a uniform's words. A leaf under the program builder and the
 * geometry, tessellation and SPIR-V stages it builds (they called back into gmf_program.c). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

/* A double scalar/vector of `comps` components: two words each, four words per location,
 * so a dvec3/dvec4 takes two locations (GL 4.5 section 11.1.1; GLSL 4.50 section 4.4.1).
 * `comp` is in 32-bit components, as the GLSL component qualifier counts them for doubles. */
static int add_double_vector(int var, int comps, gm_scalar scalar, int word, int *loc, int comp,
                             gmf_chunk *out, int *n, int max)
{
    for (int first = 0; first < comps; first += 2) {
        if (*n >= max)
            return -1;
        int dn = comps - first < 2 ? comps - first : 2;
        out[(*n)++] = (gmf_chunk){ var, word + first * 2, dn * 2, *loc, first ? 0 : comp,
                                   scalar, first, true, 0 };
        (*loc)++;
    }
    return 0;
}

int gmf_add_chunks(const gm_program *p, int var, int type, int word, int *loc, int comp,
                   gmf_chunk *out, int *n, int max)
{
    gm_type_desc t;
    if (gm_type_get(p, type, &t) != 0)
        return -1;
    switch (t.kind) {
    case GM_TYPE_SCALAR:
    case GM_TYPE_VECTOR:
        if (t.width == 64)
            return add_double_vector(var, t.rows > 0 ? t.rows : 1, t.scalar, word, loc, comp,
                                     out, n, max);
        if (*n >= max)
            return -1;
        out[(*n)++] = (gmf_chunk){ var, word, t.components, *loc, comp, t.scalar, 0, false, 0 };
        (*loc)++;
        return 0;
    case GM_TYPE_MATRIX: {
        int rows = t.rows > 0 ? t.rows : 4;
        for (int c = 0; c < t.columns; c++) {
            if (t.width == 64) {
                if (add_double_vector(var, rows, t.scalar, word + c * rows * 2, loc, 0, out, n,
                                      max))
                    return -1;
                continue;
            }
            if (*n >= max)
                return -1;
            out[(*n)++] = (gmf_chunk){ var, word + c * rows, rows, *loc, 0, t.scalar, 0, false, 0 };
            (*loc)++;
        }
        return 0;
    }
    case GM_TYPE_ARRAY: {
        gm_type_desc e;
        if (gm_type_get(p, t.element, &e) != 0)
            return -1;
        for (int i = 0; i < t.length; i++)
            if (gmf_add_chunks(p, var, t.element, word + i * e.components, loc, comp, out, n, max))
                return -1;
        return 0;
    }
    case GM_TYPE_STRUCT:
        for (int i = 0; i < t.length; i++) {
            int mt, off, first = *n;
            if (gm_type_member(p, type, i, &mt, NULL, &off) != 0 ||
                gmf_add_chunks(p, var, mt, word + off, loc, 0, out, n, max))
                return -1;
            int interp = gm_type_member_interp(p, type, i);   /* interface block members */
            for (int k = first; interp && k < *n; k++)
                out[k].interp = (uint8_t)interp;
        }
        return 0;
    default:
        return -1;
    }
}

int gmf_type_chunks(const gm_program *p, int var, int type, int word, int *loc, int comp,
                    gmf_chunk *out, int *n, int max)
{
    return gmf_add_chunks(p, var, type, word, loc, comp, out, n, max);
}

/* Does the source (as compiled) of the program's `stage` name identifier `id`? glslang's SPIR-V
 * carries the whole gl_PerVertex block, gl_ClipDistance[1] and gl_CullDistance[1] included,
 * whenever gl_Position is written, so only the source tells whether the shader writes them. */
bool gmf_stage_source_names(const gmf_prog *p, gm_stage stage, const char *id)
{
    size_t n = strlen(id);
    for (int i = 0; i < p->cr.shader_count; i++) {
        const char *src = p->cr.shaders[i].compiled_source;
        if (p->cr.shaders[i].stage != stage || !src)
            continue;
        for (const char *s = strstr(src, id); s; s = strstr(s + 1, id)) {
            bool before = s > src && (isalnum((unsigned char)s[-1]) || s[-1] == '_');
            bool after = isalnum((unsigned char)s[n]) || s[n] == '_';
            if (!before && !after)
                return true;
        }
    }
    return false;
}

/* Clip or cull distances the fragment shader reads (fs_var, `have` written by the vertex
 * stage): hidden smooth varyings after the shader's own, as llvmpipe interpolates them. */
void gmf_hidden_varyings(gmf_prog *p, const gm_program *fs, int fs_var, int have, int *slot,
                         int *count)
{
    gm_type_desc t;
    const gm_var_info *vi = gm_program_var(fs, fs_var);
    int n = gm_type_get(fs, vi->type, &t) == 0 && t.kind == GM_TYPE_ARRAY ? t.length : 0;
    if (n > have)
        n = have;
    int slots = (n + 3) / 4;
    if (n <= 0 || p->info.num_varyings + slots > GM_PIPE_MAX_VARYINGS)
        return;
    *slot = p->info.num_varyings;
    *count = n;
    for (int k = 0; k < slots; k++) {
        p->info.interp[*slot + k] = GM_INTERP_SMOOTH;
        p->info.loc[*slot + k] = GM_LOC_CENTER;
    }
    p->info.num_varyings += slots;
}

/* Converts one state-model uniform value into the model's words for an element of type t. */
bool gmf_uniform_words(const gm_program *gp, int type, const struct sm_uniform *u,
                          uint32_t *words, int max)
{
    gm_type_desc t;
    if (gm_type_get(gp, type, &t) != 0)
        return false;
    int n = u->cols * u->rows;
    if (u->kind == SM_VK_DOUBLE && t.scalar == GM_SCALAR_FLOAT && t.components == 2 * n && 2 * n <= max) {
        /* doubles: the model keeps each as two words (low, high), i.e. the double's bytes */
        memcpy(words, u->data, (size_t)n * 8);
        return true;
    }
    if ((u->kind == SM_VK_INT64 || u->kind == SM_VK_UINT64) && t.scalar != GM_SCALAR_FLOAT &&
        t.components == 2 * n && 2 * n <= max) {
        memcpy(words, u->data, (size_t)n * 8); /* 64-bit integers: as doubles (low, high) */
        return true;
    }
    if (t.components != n || n > max)
        return false;
    if (u->kind == SM_VK_DOUBLE || u->kind == SM_VK_INT64 || u->kind == SM_VK_UINT64)
        return false;
    memcpy(words, u->data, (size_t)n * 4);
    if (t.scalar == GM_SCALAR_BOOL)
        for (int i = 0; i < n; i++) {
            float f;
            memcpy(&f, &words[i], 4);
            words[i] = u->kind == SM_VK_FLOAT ? f != 0.0f : words[i] != 0;
        }
    return true;
}
