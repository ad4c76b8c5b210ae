/* Shaders and programs: sources, attachments, link inputs, link snapshots, uniform values by
 * location, block bindings, program pipelines. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_blob.h"

/* ------------------------------------------------------------------ helpers */

/* A plain string parameter (glBindAttribLocation's name & co): see sm_blob.h. */
static char *blob_text(struct sm_ap *a, int i)
{
    return sm_blob_cstr(&a->call->blobs[i]);
}

static bool shader_attached_anywhere(struct sm_share_group *g, uint32_t shader)
{
    for (uint32_t i = 0; i < g->programs.cap; i++) {
        struct sm_program *p = g->programs.vals[i];
        if (!p)
            continue;
        for (uint32_t k = 0; k < p->n_attached; k++)
            if (p->attached[k] == shader)
                return true;
    }
    return false;
}

static void maybe_free_shader(struct sm_share_group *g, struct sm_shader *sh)
{
    if (sh->delete_pending && !shader_attached_anywhere(g, sh->name))
        sm_shader_free(sm_map_remove(&g->shaders, sh->name));
}

static bool put_name_binding(struct sm_ap *a, struct sm_name_binding **arr, uint32_t *n,
                             char *name, uint32_t index, uint32_t index2)
{
    for (uint32_t i = 0; i < *n; i++) {
        bool same = name ? ((*arr)[i].name && !strcmp((*arr)[i].name, name))
                         : (!(*arr)[i].name && (*arr)[i].index == index);
        if (same) {
            free((*arr)[i].name);
            (*arr)[i] = (struct sm_name_binding){ name, index, index2 };
            return true;
        }
    }
    void *p = realloc(*arr, (*n + 1) * sizeof **arr);
    if (!p) {
        free(name);
        ap_error(a, "out of memory");
        return false;
    }
    *arr = p;
    (*arr)[(*n)++] = (struct sm_name_binding){ name, index, index2 };
    return true;
}

/* ------------------------------------------------------------------ shaders */

static void h_create_shader(struct sm_ap *a)
{
    uint32_t name = (uint32_t)a->call->ret;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || !name) {
        ap_error(a, "glCreateShader without its returned name");
        return;
    }
    if (sm_map_get(&a->c->share->shaders, name)) {
        /* GL never returns a live name: a corrupt capture. The old object goes (not leaked). */
        ap_error(a, "returned a name that is still in use (the old shader is replaced)");
        sm_shader_free(sm_map_remove(&a->c->share->shaders, name));
    }
    struct sm_shader *sh = sm_shader_new(name, ap_u(a, 0));
    if (!sh || !sm_map_put(&a->c->share->shaders, name, sh)) {
        free(sh);
        ap_error(a, "out of memory");
        return;
    }
}

/* glShaderSource(shader, count, string, length): blob 2 is the string array (sm_blob.h), each
 * string at its length; the source is their concatenation. The `length` blob is not needed. */
static void h_shader_source(struct sm_ap *a)
{
    struct sm_shader *sh = ap_shader(a, ap_u(a, 0));
    if (!sh)
        return;
    uint32_t n = 0;
    char *src = ap_i(a, 1) > 0 ? sm_strings_join(&a->call->blobs[2], &n) : sm_strdup("");
    if (!src) {
        ap_error(a, "shader source strings missing or malformed in the recorded call");
        return;
    }
    if (ap_i(a, 1) > 0 && n != (uint32_t)ap_i(a, 1)) {
        free(src);
        ap_error(a, "shader source string count differs from the count argument");
        return;
    }
    free(sh->source);
    sh->source = src;
    sm_spirv_free(sh->spirv);   /* GLSL source replaces a SPIR-V module (GL 4.6 section 7.2) */
    sh->spirv = NULL;
}

static void h_compile_shader(struct sm_ap *a)
{
    struct sm_shader *sh = ap_shader(a, ap_u(a, 0));
    if (sh) {
        sm_shader_compile_includes(a, sh);
        sh->compiled = true;
    }
}

static void h_delete_shader(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 0);
    if (!name)
        return;
    struct sm_shader *sh = ap_shader(a, name);
    if (!sh)
        return;
    sh->delete_pending = true;
    maybe_free_shader(a->c->share, sh);
}

/* ------------------------------------------------------------------ programs */

/* A create call that returned a name still in the model: GL never does that, so the capture is
 * corrupt; the old program is freed (not leaked) and the new one takes the name. */
static void replace_live_program(struct sm_ap *a, uint32_t name)
{
    if (!sm_map_get(&a->c->share->programs, name))
        return;
    ap_error(a, "returned a name that is still in use (the old program is replaced)");
    sm_program_free(sm_map_remove(&a->c->share->programs, name));
}

static void h_create_program(struct sm_ap *a)
{
    uint32_t name = (uint32_t)a->call->ret;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || !name) {
        ap_error(a, "glCreateProgram without its returned name");
        return;
    }
    replace_live_program(a, name);
    struct sm_program *p = sm_program_new(name);
    if (!p || !sm_map_put(&a->c->share->programs, name, p)) {
        free(p);
        ap_error(a, "out of memory");
    }
}

static void h_attach_shader(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    struct sm_shader *sh = ap_shader(a, ap_u(a, 1));
    if (!p || !sh)
        return;
    for (uint32_t i = 0; i < p->n_attached; i++)
        if (p->attached[i] == sh->name) {
            ap_error(a, "shader already attached");
            return;
        }
    void *n = realloc(p->attached, (p->n_attached + 1) * sizeof *p->attached);
    if (!n) {
        ap_error(a, "out of memory");
        return;
    }
    p->attached = n;
    p->attached[p->n_attached++] = sh->name;
}

static void detach(struct sm_share_group *g, struct sm_program *p, uint32_t shader)
{
    for (uint32_t i = 0; i < p->n_attached; i++)
        if (p->attached[i] == shader) {
            memmove(&p->attached[i], &p->attached[i + 1],
                    (p->n_attached - i - 1) * sizeof *p->attached);
            p->n_attached--;
            struct sm_shader *sh = sm_map_get(&g->shaders, shader);
            if (sh)
                maybe_free_shader(g, sh);
            return;
        }
}

static void h_detach_shader(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (p)
        detach(a->c->share, p, ap_u(a, 1));
}

static void h_link_program(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p)
        return;
    sm_program_clear_link(p);
    p->link_count++;
    if (!p->n_attached)
        return;
    p->linked = calloc(p->n_attached, sizeof *p->linked);
    if (!p->linked) {
        ap_error(a, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < p->n_attached; i++) {
        struct sm_shader *sh = sm_map_get(&a->c->share->shaders, p->attached[i]);
        if (!sh)
            continue;
        bool oom = false;
        p->linked[p->n_linked].type = sh->type;
        p->linked[p->n_linked].source = sm_strdup(sh->source ? sh->source : "");
        p->linked[p->n_linked].spirv = sm_spirv_dup(sh->spirv, &oom);   /* sm_apply_spirv.c */
        p->n_linked++;
        if (oom)
            ap_error(a, "out of memory");
    }
}

static void h_use_program(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 0);
    if (name && !ap_program(a, name))
        return;
    uint32_t old = a->c->st.program;
    a->c->st.program = name;
    memset(a->c->st.n_subroutine_sel, 0, sizeof a->c->st.n_subroutine_sel); /* GL resets them */
    struct sm_program *op = old ? sm_map_get(&a->c->share->programs, old) : NULL;
    if (op && op->delete_pending && old != name) {
        while (op->n_attached)
            detach(a->c->share, op, op->attached[op->n_attached - 1]);
        sm_program_free(sm_map_remove(&a->c->share->programs, old));
    }
}

static void h_delete_program(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 0);
    if (!name)
        return;
    struct sm_program *p = ap_program(a, name);
    if (!p)
        return;
    if (a->c->st.program == name) {
        p->delete_pending = true;
        return;
    }
    struct sm_share_group *g = a->c->share;
    sm_map_remove(&g->programs, name);
    /* Detach after removal so the shaders it held can go when pending deletion. */
    for (uint32_t i = 0; i < p->n_attached; i++) {
        struct sm_shader *sh = sm_map_get(&g->shaders, p->attached[i]);
        if (sh)
            maybe_free_shader(g, sh);
    }
    sm_program_free(p);
}

static void h_bind_attrib_location(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    char *name = p ? blob_text(a, 2) : NULL;
    if (p && !name)
        ap_error(a, "attribute name missing from the recorded call");
    if (name)
        put_name_binding(a, &p->attrib_bindings, &p->n_attrib_bindings, name, ap_u(a, 1), 0);
}

/* glBindFragDataLocation(program, color, name) / ...Indexed(program, color, index, name) */
static void h_bind_frag_data(struct sm_ap *a)
{
    bool indexed = a->cmd == GLR_CMD_glBindFragDataLocationIndexed;
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    char *name = p ? blob_text(a, indexed ? 3 : 2) : NULL;
    if (p && !name)
        ap_error(a, "output name missing from the recorded call");
    if (name)
        put_name_binding(a, &p->frag_bindings, &p->n_frag_bindings, name, ap_u(a, 1),
                         indexed ? ap_u(a, 2) : 0);
}

/* glTransformFeedbackVaryings(program, count, varyings, bufferMode): blob 2 is the string array
 * of the names (sm_blob.h). */
static void h_tf_varyings(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p)
        return;
    int32_t count = ap_i(a, 1);
    uint32_t n = 0;
    char **names = count > 0 ? sm_strings_split(&a->call->blobs[2], &n) : NULL;
    if (count > 0 && (!names || n != (uint32_t)count)) {
        if (names)
            for (uint32_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
        ap_error(a, "varying names missing, malformed or not `count` of them");
        return;
    }
    for (uint32_t i = 0; i < p->n_tf_varyings; i++)
        free(p->tf_varyings[i]);
    free(p->tf_varyings);
    p->tf_varyings = names;
    p->n_tf_varyings = count > 0 ? n : 0;
    p->tf_buffer_mode = ap_u(a, 3);
}

static void h_program_parameter(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p)
        return;
    if (ap_u(a, 1) == GL_PROGRAM_SEPARABLE)
        p->separable = ap_i(a, 2) != 0;
    else if (ap_u(a, 1) == GL_PROGRAM_BINARY_RETRIEVABLE_HINT)
        p->binary_retrievable = ap_i(a, 2) != 0;
    else
        ap_error(a, "program parameter not modelled");
}

/* glUniformBlockBinding / glShaderStorageBlockBinding(program, blockIndex, binding) */
static void h_block_binding(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p)
        return;
    if (a->cmd == GLR_CMD_glUniformBlockBinding)
        put_name_binding(a, &p->ubo_bindings, &p->n_ubo_bindings, NULL, ap_u(a, 1), ap_u(a, 2));
    else
        put_name_binding(a, &p->ssbo_bindings, &p->n_ssbo_bindings, NULL, ap_u(a, 1), ap_u(a, 2));
}

/* glGetUniformLocation(program, name) -> location: the program's uniform names, so values can be
 * shown by name. -1 (no such active uniform) and calls on unlinked programs teach nothing. */
static void h_get_uniform_location(struct sm_ap *a)
{
    int32_t loc = (int32_t)a->call->ret;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || loc < 0)
        return;
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p || !p->link_count)
        return;
    char *name = blob_text(a, 1);
    if (!name) {
        ap_error(a, "uniform name missing from the recorded call");
        return;
    }
    put_name_binding(a, &p->uniform_names, &p->n_uniform_names, name, (uint32_t)loc, 0);
}

/* glGetUniformBlockIndex(program, name) / glGetProgramResourceIndex(program,
 * GL_SHADER_STORAGE_BLOCK, name) -> index: the program's block names, so the block a shader
 * declares can be matched with the index its binding was set by. GL_INVALID_INDEX teaches nothing. */
static void h_get_block_index(struct sm_ap *a)
{
    bool storage = a->cmd == GLR_CMD_glGetProgramResourceIndex;
    if (storage && ap_u(a, 1) != GL_SHADER_STORAGE_BLOCK)
        return;
    uint32_t index = (uint32_t)a->call->ret;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || index == GL_INVALID_INDEX)
        return;
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p || !p->link_count)
        return;
    char *name = blob_text(a, storage ? 2 : 1);
    if (!name) {
        ap_error(a, "block name missing from the recorded call");
        return;
    }
    for (uint32_t i = 0; i < p->n_block_names; i++)
        if (p->block_names[i].index2 == storage && !strcmp(p->block_names[i].name, name)) {
            p->block_names[i].index = index;
            free(name);
            return;
        }
    put_name_binding(a, &p->block_names, &p->n_block_names, name, index, storage);
}

/* glProgramBinary(program, format, binary, length): the program is linked from the binary (the
 * driver may refuse it; then it is unlinked, which draws show). Its earlier link results go;
 * its sources are known only when the state holds an entry for this binary. */
static void h_program_binary(struct sm_ap *a)
{
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p)
        return;
    sm_program_clear_link(p);
    p->link_count++;
    int32_t len = ap_i(a, 3);
    const struct glr_blob *b = &a->call->blobs[2];
    if (len <= 0 || !b->data || b->size < (uint64_t)len) {
        ap_error(a, "glProgramBinary without its binary");
        return;
    }
    p->binary = sm_memdup(b->data, (size_t)len);
    if (!p->binary) {
        ap_error(a, "out of memory");
        return;
    }
    p->binary_size = (uint32_t)len;
    p->binary_format = ap_u(a, 1);
    sm_program_sources_lookup(a->s, p, p->binary, p->binary_size);
}

/* glCreateShaderProgramv(type, count, strings): a separable program linked from one shader. */
static void h_create_shader_programv(struct sm_ap *a)
{
    uint32_t name = (uint32_t)a->call->ret;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || !name) {
        ap_error(a, "glCreateShaderProgramv without its returned name");
        return;
    }
    replace_live_program(a, name);
    struct sm_program *p = sm_program_new(name);
    if (!p || !sm_map_put(&a->c->share->programs, name, p)) {
        free(p);
        ap_error(a, "out of memory");
        return;
    }
    p->separable = true;
    p->link_count = 1;
    p->linked = calloc(1, sizeof *p->linked);
    if (p->linked) {
        p->linked[0].type = ap_u(a, 0);
        p->linked[0].source = sm_strings_join(&a->call->blobs[2], NULL);
        if (!p->linked[0].source) {
            ap_error(a, "shader strings missing or malformed in the recorded call");
            p->linked[0].source = sm_strdup("");
        }
        p->n_linked = 1;
    }
}

/* ------------------------------------------------------------------ pipelines */

static struct sm_pipeline *pipeline_of(struct sm_ap *a, uint32_t name)
{
    struct sm_pipeline *p = sm_map_get(&a->c->pipelines, name);
    if (!p)
        ap_error(a, "no such program pipeline");
    return p;
}

static void h_use_program_stages(struct sm_ap *a)
{
    struct sm_pipeline *pl = pipeline_of(a, ap_u(a, 0));
    if (!pl)
        return;
    static const uint32_t bits[SM_ST_COUNT] = {
        GL_VERTEX_SHADER_BIT, GL_TESS_CONTROL_SHADER_BIT, GL_TESS_EVALUATION_SHADER_BIT,
        GL_GEOMETRY_SHADER_BIT, GL_FRAGMENT_SHADER_BIT, GL_COMPUTE_SHADER_BIT,
    };
    uint32_t stages = ap_u(a, 1);
    pl->created = true;
    for (int i = 0; i < SM_ST_COUNT; i++)
        if (stages & bits[i])
            pl->stage[i] = ap_u(a, 2);
}

static void h_active_shader_program(struct sm_ap *a)
{
    struct sm_pipeline *pl = pipeline_of(a, ap_u(a, 0));
    if (pl) {
        pl->created = true;
        pl->active_program = ap_u(a, 1);
    }
}

/* ------------------------------------------------------------------ uniforms */

struct ufam {
    bool program_form, matrix, vector;
    uint8_t cols, rows, kind;
};
static struct ufam ufams[GLR_CMD_COUNT];

static size_t kind_size(uint8_t kind)
{
    return (kind == SM_VK_DOUBLE || kind == SM_VK_INT64 || kind == SM_VK_UINT64) ? 8 : 4;
}

static struct sm_program *uniform_program(struct sm_ap *a, const struct ufam *u, int *argi)
{
    uint32_t name;
    if (u->program_form) {
        name = ap_u(a, (*argi)++);
    } else {
        name = a->c->st.program;
        if (!name && a->c->st.pipeline) {
            struct sm_pipeline *pl = sm_map_get(&a->c->pipelines, a->c->st.pipeline);
            name = pl ? pl->active_program : 0;
        }
    }
    if (!name) {
        ap_error(a, "uniform set with no program");
        return NULL;
    }
    return ap_program(a, name);
}

static struct sm_uniform *uniform_slot(struct sm_ap *a, struct sm_program *p, int32_t loc)
{
    uint32_t lo = 0, hi = p->n_uniforms;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (p->uniforms[mid].location == loc)
            return &p->uniforms[mid];
        if (p->uniforms[mid].location < loc)
            lo = mid + 1;
        else
            hi = mid;
    }
    void *n = realloc(p->uniforms, (p->n_uniforms + 1) * sizeof *p->uniforms);
    if (!n) {
        ap_error(a, "out of memory");
        return NULL;
    }
    p->uniforms = n;
    memmove(&p->uniforms[lo + 1], &p->uniforms[lo], (p->n_uniforms - lo) * sizeof *p->uniforms);
    p->n_uniforms++;
    memset(&p->uniforms[lo], 0, sizeof p->uniforms[lo]);
    p->uniforms[lo].location = loc;
    return &p->uniforms[lo];
}

static void h_uniform(struct sm_ap *a)
{
    const struct ufam *u = &ufams[a->cmd];
    int argi = 0;
    struct sm_program *p = uniform_program(a, u, &argi);
    if (!p)
        return;
    int32_t loc = ap_i(a, argi++);
    if (loc == -1)
        return;   /* ignored by GL */
    if (loc < 0) {
        ap_error(a, "invalid uniform location");
        return;
    }
    size_t es = kind_size(u->kind), comps = (size_t)u->cols * u->rows, elem = comps * es;
    int32_t count = 1;
    bool transpose = false;
    uint8_t one[128];
    const uint8_t *src;
    if (u->vector || u->matrix) {
        count = ap_i(a, argi++);
        if (u->matrix)
            transpose = ap_u(a, argi++) != 0;
        if (count <= 0) {
            if (count < 0)
                ap_error(a, "negative uniform count");
            return;
        }
        src = ap_blob(a, argi, elem * (size_t)count);
        if (!src) {
            ap_error(a, "uniform values missing from the recorded call");
            return;
        }
    } else {
        for (size_t i = 0; i < comps; i++) {
            uint64_t v = a->call->args[argi + (int)i];
            if (es == 4) {
                uint32_t w = (uint32_t)v;
                memcpy(one + i * 4, &w, 4);
            } else {
                memcpy(one + i * 8, &v, 8);
            }
        }
        src = one;
    }
    for (int32_t e = 0; e < count; e++) {
        struct sm_uniform *slot = uniform_slot(a, p, loc + e);
        if (!slot)
            return;
        slot->kind = u->kind;
        slot->cols = u->cols;
        slot->rows = u->rows;
        const uint8_t *s = src + (size_t)e * elem;
        if (transpose) {
            /* Input is row-major: element (row r, col c) at r*cols + c; store column-major. */
            for (int c = 0; c < u->cols; c++)
                for (int r = 0; r < u->rows; r++)
                    memcpy(slot->data + ((size_t)c * u->rows + r) * es,
                           s + ((size_t)r * u->cols + c) * es, es);
        } else {
            memcpy(slot->data, s, elem);
        }
    }
}

/* gl[Program]Uniform{1-4}{f,i,ui,d,i64,ui64}[v] and gl[Program]UniformMatrix{2-4}[x{2-4}]{f,d}v:
 * their shape from gl_annotations.txt. */
void sm_register_uniform_family(sm_apply_fn *tab, const struct glr_cmd_values *v)
{
    if (v->cols < 1 || v->cols > 4 || v->rows < 1 || v->rows > 4)
        return;   /* the handler's one-value buffer holds 4 x 4 (the generator bounds them already) */
    struct ufam u = { .program_form = (v->flags & GLR_VF_PROGRAM) != 0, .matrix = (v->flags & GLR_VF_MATRIX) != 0,
                      .vector = (v->flags & GLR_VF_VECTOR) != 0, .cols = v->cols, .rows = v->rows,
                      .kind = sm_vk_of_value_type(v->store) };
    ufams[v->cmd] = u;
    tab[v->cmd] = h_uniform;
}

void sm_register_programs(sm_apply_fn *t)
{
    t[GLR_CMD_glCreateShader] = h_create_shader;
    t[GLR_CMD_glShaderSource] = h_shader_source;
    t[GLR_CMD_glCompileShader] = h_compile_shader;
    t[GLR_CMD_glDeleteShader] = h_delete_shader;
    t[GLR_CMD_glCreateProgram] = h_create_program;
    t[GLR_CMD_glAttachShader] = h_attach_shader;
    t[GLR_CMD_glDetachShader] = h_detach_shader;
    t[GLR_CMD_glLinkProgram] = h_link_program;
    t[GLR_CMD_glUseProgram] = h_use_program;
    t[GLR_CMD_glDeleteProgram] = h_delete_program;
    t[GLR_CMD_glBindAttribLocation] = h_bind_attrib_location;
    t[GLR_CMD_glBindFragDataLocation] = h_bind_frag_data;
    t[GLR_CMD_glBindFragDataLocationIndexed] = h_bind_frag_data;
    t[GLR_CMD_glTransformFeedbackVaryings] = h_tf_varyings;
    t[GLR_CMD_glProgramParameteri] = h_program_parameter;
    t[GLR_CMD_glUniformBlockBinding] = h_block_binding;
    t[GLR_CMD_glShaderStorageBlockBinding] = h_block_binding;
    t[GLR_CMD_glCreateShaderProgramv] = h_create_shader_programv;
    t[GLR_CMD_glProgramBinary] = h_program_binary;
    t[GLR_CMD_glProgramBinaryOES] = h_program_binary;
    t[GLR_CMD_glGetUniformLocation] = h_get_uniform_location;
    t[GLR_CMD_glGetUniformBlockIndex] = h_get_block_index;
    t[GLR_CMD_glGetProgramResourceIndex] = h_get_block_index;
    t[GLR_CMD_glUseProgramStages] = h_use_program_stages;
    t[GLR_CMD_glActiveShaderProgram] = h_active_shader_program;
}
