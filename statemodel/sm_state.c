/* State lifetime, contexts and share groups, object constructors with GL defaults. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_internal.h"

void sm_error(struct sm_state *s, const char *fmt, ...)
{
    if (s->errors++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->first_error, sizeof s->first_error, fmt, ap);
        va_end(ap);
    }
}

char *sm_strdup(const char *str)
{
    return str ? strdup(str) : NULL;
}

void *sm_memdup(const void *p, size_t n)
{
    if (!p || !n)
        return NULL;
    void *q = malloc(n);
    if (q)
        memcpy(q, p, n);
    return q;
}

/* ------------------------------------------------------------------ defaults */

void sm_sampling_defaults(struct sm_sampling *p, bool rect)
{
    memset(p, 0, sizeof *p);
    p->min_filter = rect ? GL_LINEAR : GL_NEAREST_MIPMAP_LINEAR;
    p->mag_filter = GL_LINEAR;
    p->wrap_s = p->wrap_t = p->wrap_r = rect ? GL_CLAMP_TO_EDGE : GL_REPEAT;
    p->min_lod = -1000.0f;
    p->max_lod = 1000.0f;
    p->max_anisotropy = 1.0f;
    p->compare_mode = GL_NONE;
    p->compare_func = GL_LEQUAL;
    p->border_kind = SM_VK_FLOAT;
    p->srgb_decode = GL_DECODE_EXT;
    p->max_level = 1000;
    p->swizzle[0] = GL_RED;
    p->swizzle[1] = GL_GREEN;
    p->swizzle[2] = GL_BLUE;
    p->swizzle[3] = GL_ALPHA;
    p->depth_stencil_mode = GL_DEPTH_COMPONENT;
    p->depth_texture_mode = GL_LUMINANCE;   /* the compatibility default (core has no such state) */
}

void sm_vao_defaults(struct sm_vao *v, uint32_t name)
{
    memset(v, 0, sizeof *v);
    v->name = name;
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        v->attrib[i].size = 4;
        v->attrib[i].type = GL_FLOAT;
        v->attrib[i].binding = i;
        v->binding[i].stride = 16;
    }
    for (int i = 0; i < SM_LA_COUNT; i++) {
        v->legacy[i].size = (i == SM_LA_NORMAL) ? 3 : (i == SM_LA_FOG_COORD || i == SM_LA_INDEX ||
                                                        i == SM_LA_EDGE_FLAG) ? 1 :
                            (i == SM_LA_SECONDARY_COLOR) ? 3 : 4;
        v->legacy[i].type = (i == SM_LA_EDGE_FLAG) ? GL_UNSIGNED_BYTE : GL_FLOAT;
    }
}

void sm_framebuffer_defaults(struct sm_framebuffer *f, uint32_t name, bool is_default)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    f->n_draw_buffers = 1;
    f->draw_buffers[0] = is_default ? GL_BACK : GL_COLOR_ATTACHMENT0;
    f->read_buffer = is_default ? GL_BACK : GL_COLOR_ATTACHMENT0;
    for (int i = 1; i < SM_MAX_DRAW_BUFFERS; i++)
        f->draw_buffers[i] = GL_NONE;
    f->default_layers = 0;
    f->default_fixed_sample_locations = false;
}

void sm_context_state_defaults(struct sm_context_state *st)
{
    memset(st, 0, sizeof *st);
    for (int i = 0; i < SM_MAX_VIEWPORTS; i++) {
        st->depth_range[i][0] = 0.0;
        st->depth_range[i][1] = 1.0;
    }
    for (int i = 0; i < SM_MAX_DRAW_BUFFERS; i++) {
        st->blend[i] = (struct sm_blend){ GL_ONE, GL_ZERO, GL_ONE, GL_ZERO, GL_FUNC_ADD,
                                          GL_FUNC_ADD };
        for (int c = 0; c < 4; c++)
            st->color_mask[i][c] = true;
    }
    st->logic_op = GL_COPY;
    st->depth_func = GL_LESS;
    st->depth_mask = true;
    for (int f = 0; f < 2; f++)
        st->stencil[f] = (struct sm_stencil_face){ GL_ALWAYS, 0, 0xFFFFFFFFu, 0xFFFFFFFFu,
                                                   GL_KEEP, GL_KEEP, GL_KEEP };
    st->clear_depth = 1.0;
    st->cull_face_mode = GL_BACK;
    st->front_face = GL_CCW;
    st->polygon_mode[0] = st->polygon_mode[1] = GL_FILL;
    st->line_width = 1.0f;
    st->point_size = 1.0f;
    st->point_sprite_coord_origin = GL_UPPER_LEFT;
    st->line_stipple_repeat = 1;
    st->line_stipple_pattern = 0xFFFFu;
    for (int r = 0; r < 32; r++)
        st->polygon_stipple[r] = 0xFFFFFFFFu;
    st->sample_coverage_value = 1.0f;
    st->sample_mask = 0xFFFFFFFFu;
    st->provoking_vertex = GL_LAST_VERTEX_CONVENTION;
    st->patch_vertices = 3;
    for (int i = 0; i < 4; i++)
        st->patch_outer[i] = 1.0f;
    st->patch_inner[0] = st->patch_inner[1] = 1.0f;
    st->clip_origin = GL_LOWER_LEFT;
    st->clip_depth_mode = GL_NEGATIVE_ONE_TO_ONE;
    st->pack.alignment = st->unpack.alignment = 4;
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        st->attrib_value[i].kind = SM_VK_FLOAT;
        st->attrib_value[i].v.f[3] = 1.0f;
    }
    /* GL 2.1 table 6.5: colour (1,1,1,1), normal (0,0,1), secondary colour (0,0,0,1), texture
     * coordinates (0,0,0,1), edge flag TRUE. */
    for (int i = 0; i < SM_LA_COUNT; i++) {
        st->legacy_current[i][0] = st->legacy_current[i][1] = st->legacy_current[i][2] = 0.0f;
        st->legacy_current[i][3] = 1.0f;
    }
    for (int k = 0; k < 4; k++)
        st->legacy_current[SM_LA_COLOR][k] = 1.0f;
    st->legacy_current[SM_LA_NORMAL][2] = 1.0f;
    st->legacy_current[SM_LA_NORMAL][3] = 0.0f;
    st->legacy_current[SM_LA_EDGE_FLAG][0] = 1.0f;
    for (int i = 0; i < SM_MAX_IMAGE_UNITS; i++) {
        st->image[i].access = GL_READ_ONLY;
        st->image[i].format = GL_R8;
    }
    sm_matrix_defaults(st);
    sm_fixed_defaults(&st->ff);
}

void sm_matrix_defaults(struct sm_context_state *st)
{
    st->matrix_mode = GL_MODELVIEW;
    struct sm_matrix_stack *stacks[2 + SM_MAX_TEXTURE_COORDS] = { &st->modelview, &st->projection };
    for (int i = 0; i < SM_MAX_TEXTURE_COORDS; i++)
        stacks[2 + i] = &st->texture[i];
    for (int i = 0; i < 2 + SM_MAX_TEXTURE_COORDS; i++) {
        memset(stacks[i], 0, sizeof *stacks[i]);
        for (int k = 0; k < 4; k++)
            stacks[i]->m[0][k * 5] = 1.0f;
    }
}

void sm_context_state_free(struct sm_context_state *st)
{
    free(st->caps);
    free(st->hints);
    free(st->active_queries);
    st->caps = NULL;
    st->hints = NULL;
    st->active_queries = NULL;
    st->n_caps = st->cap_caps = st->n_hints = st->n_active_queries = 0;
}

/* ------------------------------------------------------------------ objects */

struct sm_buffer *sm_buffer_new(uint32_t name)
{
    struct sm_buffer *b = calloc(1, sizeof *b);
    if (b)
        b->name = name;
    return b;
}

void sm_buffer_free(void *p)
{
    struct sm_buffer *b = p;
    if (b)
        free(b->data);
    free(b);
}

struct sm_texture *sm_texture_new(uint32_t name)
{
    struct sm_texture *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->name = name;
    sm_sampling_defaults(&t->params, false);
    return t;
}

void sm_texture_free(void *p)
{
    struct sm_texture *t = p;
    if (!t)
        return;
    for (int f = 0; f < 6; f++)
        for (int l = 0; l < SM_MAX_LEVELS; l++)
            free(t->image[f][l].data);
    free(t);
}

struct sm_renderbuffer *sm_renderbuffer_new(uint32_t name)
{
    struct sm_renderbuffer *r = calloc(1, sizeof *r);
    if (r) {
        r->name = name;
        r->internal_format = GL_RGBA4;
    }
    return r;
}

struct sm_sampler *sm_sampler_new(uint32_t name)
{
    struct sm_sampler *x = calloc(1, sizeof *x);
    if (x) {
        x->name = name;
        sm_sampling_defaults(&x->params, false);
    }
    return x;
}

struct sm_shader *sm_shader_new(uint32_t name, uint32_t type)
{
    struct sm_shader *sh = calloc(1, sizeof *sh);
    if (sh) {
        sh->name = name;
        sh->type = type;
    }
    return sh;
}

void sm_shader_free(void *p)
{
    struct sm_shader *sh = p;
    if (sh) {
        free(sh->source);
        sm_spirv_free(sh->spirv);
    }
    free(sh);
}

struct sm_program *sm_program_new(uint32_t name)
{
    struct sm_program *p = calloc(1, sizeof *p);
    if (p) {
        p->name = name;
        p->tf_buffer_mode = GL_INTERLEAVED_ATTRIBS;
    }
    return p;
}

static void free_bindings(struct sm_name_binding *b, uint32_t n)
{
    for (uint32_t i = 0; b && i < n; i++)
        free(b[i].name);
    free(b);
}

/* Forgets what the last link produced (uniform values and block bindings reset at link). */
void sm_program_clear_link(struct sm_program *p)
{
    for (uint32_t i = 0; i < p->n_linked; i++) {
        free(p->linked[i].source);
        sm_spirv_free(p->linked[i].spirv);
    }
    free(p->linked);
    p->linked = NULL;
    p->n_linked = 0;
    free(p->binary);
    p->binary = NULL;
    p->binary_size = 0;
    p->binary_format = 0;
    free(p->uniforms);
    p->uniforms = NULL;
    p->n_uniforms = 0;
    free_bindings(p->ubo_bindings, p->n_ubo_bindings);
    free_bindings(p->ssbo_bindings, p->n_ssbo_bindings);
    p->ubo_bindings = p->ssbo_bindings = NULL;
    p->n_ubo_bindings = p->n_ssbo_bindings = 0;
    free_bindings(p->uniform_names, p->n_uniform_names);
    p->uniform_names = NULL;
    p->n_uniform_names = 0;
    free_bindings(p->block_names, p->n_block_names);
    p->block_names = NULL;
    p->n_block_names = 0;
    free_bindings(p->subroutine_names, p->n_subroutine_names);
    p->subroutine_names = NULL;
    p->n_subroutine_names = 0;
}

void sm_program_free(void *ptr)
{
    struct sm_program *p = ptr;
    if (!p)
        return;
    sm_program_clear_link(p);
    free(p->attached);
    free_bindings(p->attrib_bindings, p->n_attrib_bindings);
    free_bindings(p->frag_bindings, p->n_frag_bindings);
    for (uint32_t i = 0; i < p->n_tf_varyings; i++)
        free(p->tf_varyings[i]);
    free(p->tf_varyings);
    free(p);
}

struct sm_vao *sm_vao_new(uint32_t name)
{
    struct sm_vao *v = malloc(sizeof *v);
    if (v)
        sm_vao_defaults(v, name);
    return v;
}

struct sm_framebuffer *sm_framebuffer_new(uint32_t name)
{
    struct sm_framebuffer *f = malloc(sizeof *f);
    if (f)
        sm_framebuffer_defaults(f, name, false);
    return f;
}

struct sm_transform_feedback *sm_tfo_new(uint32_t name)
{
    struct sm_transform_feedback *t = calloc(1, sizeof *t);
    if (t)
        t->name = name;
    return t;
}

struct sm_pipeline *sm_pipeline_new(uint32_t name)
{
    struct sm_pipeline *p = calloc(1, sizeof *p);
    if (p)
        p->name = name;
    return p;
}

struct sm_query *sm_query_new(uint32_t name)
{
    struct sm_query *q = calloc(1, sizeof *q);
    if (q)
        q->name = name;
    return q;
}

/* ------------------------------------------------------------------ state, contexts, groups */

struct sm_state *sm_state_new(void)
{
    struct sm_state *s = calloc(1, sizeof *s);
    if (s)
        s->next_group_id = 1;
    return s;
}

static void group_free(struct sm_share_group *g)
{
    sm_map_free(&g->buffers, sm_buffer_free);
    sm_map_free(&g->textures, sm_texture_free);
    sm_map_free(&g->renderbuffers, free);
    sm_map_free(&g->samplers, free);
    sm_map_free(&g->shaders, sm_shader_free);
    sm_map_free(&g->programs, sm_program_free);
    sm_map_free(&g->arb_programs, sm_arb_program_free);
    free(g->syncs);
    sm_named_strings_free(g);
    free(g);
}

static void ctx_free(struct sm_context *c)
{
    sm_context_state_free(&c->st);
    sm_map_free(&c->vaos, free);
    sm_map_free(&c->fbos, free);
    sm_map_free(&c->tfos, free);
    sm_map_free(&c->pipelines, free);
    sm_map_free(&c->queries, free);
    free(c);
}

void sm_state_free(struct sm_state *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_ctx; i++)
        ctx_free(s->ctx[i]);
    for (size_t i = 0; i < s->n_groups; i++)
        group_free(s->groups[i]);
    free(s->ctx);
    free(s->groups);
    free(s->unhandled_counts);
    sm_program_sources_free(s);
    free(s);
}

struct sm_context *sm_ctx_find(const struct sm_state *s, uint32_t id)
{
    for (size_t i = 0; i < s->n_ctx; i++)
        if (s->ctx[i]->id == id)
            return s->ctx[i];
    return NULL;
}

struct sm_share_group *sm_group_add(struct sm_state *s, uint32_t id)
{
    if (s->n_groups == s->cap_groups) {
        size_t nc = s->cap_groups ? s->cap_groups * 2 : 4;
        void *p = realloc(s->groups, nc * sizeof *s->groups);
        if (!p)
            return NULL;
        s->groups = p;
        s->cap_groups = nc;
    }
    struct sm_share_group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->id = id ? id : s->next_group_id;
    if (g->id >= s->next_group_id)
        s->next_group_id = g->id + 1;
    s->groups[s->n_groups++] = g;
    return g;
}

struct sm_context *sm_ctx_add(struct sm_state *s, uint32_t id, struct sm_share_group *group,
                              enum sm_api api, int major, int minor)
{
    if (s->n_ctx == s->cap_ctx) {
        size_t nc = s->cap_ctx ? s->cap_ctx * 2 : 4;
        void *p = realloc(s->ctx, nc * sizeof *s->ctx);
        if (!p)
            return NULL;
        s->ctx = p;
        s->cap_ctx = nc;
    }
    if (!group && !(group = sm_group_add(s, 0)))
        return NULL;
    struct sm_context *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->id = id;
    c->api = api;
    c->major = major;
    c->minor = minor;
    c->share = group;
    group->refs++;
    sm_context_state_defaults(&c->st);
    sm_vao_defaults(&c->default_vao, 0);
    c->default_vao.created = true;
    sm_framebuffer_defaults(&c->default_fb, 0, true);
    c->default_fb.created = true;
    c->default_tfo.created = true;
    s->ctx[s->n_ctx++] = c;
    return c;
}

bool sm_context_create(struct sm_state *s, uint32_t ctx_id, uint32_t share_with, enum sm_api api,
                       int major, int minor)
{
    if (!s || ctx_id == 0 || sm_ctx_find(s, ctx_id) || (unsigned)api > SM_API_GLES)
        return false;
    struct sm_share_group *g = NULL;
    if (share_with) {
        struct sm_context *o = sm_ctx_find(s, share_with);
        if (!o)
            return false;
        g = o->share;
    }
    return sm_ctx_add(s, ctx_id, g, api, major, minor) != NULL;
}

void sm_context_destroy(struct sm_state *s, uint32_t ctx_id)
{
    for (size_t i = 0; i < s->n_ctx; i++) {
        struct sm_context *c = s->ctx[i];
        if (c->id != ctx_id)
            continue;
        struct sm_share_group *g = c->share;
        ctx_free(c);
        memmove(&s->ctx[i], &s->ctx[i + 1], (s->n_ctx - i - 1) * sizeof *s->ctx);
        s->n_ctx--;
        if (--g->refs == 0) {
            for (size_t k = 0; k < s->n_groups; k++)
                if (s->groups[k] == g) {
                    memmove(&s->groups[k], &s->groups[k + 1],
                            (s->n_groups - k - 1) * sizeof *s->groups);
                    s->n_groups--;
                    break;
                }
            group_free(g);
        }
        return;
    }
}

/* ------------------------------------------------------------------ caps */

bool sm_cap_default(uint32_t cap)
{
    return cap == GL_DITHER || cap == GL_MULTISAMPLE;
}

static int cap_cmp(const struct sm_cap *e, uint32_t cap, uint32_t index)
{
    if (e->cap != cap)
        return e->cap < cap ? -1 : 1;
    if (e->index != index)
        return e->index < index ? -1 : 1;
    return 0;
}

const struct sm_cap *sm_caps_find(const struct sm_context_state *st, uint32_t cap, uint32_t index)
{
    uint32_t lo = 0, hi = st->n_caps;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        int c = cap_cmp(&st->caps[mid], cap, index);
        if (c == 0)
            return &st->caps[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

bool sm_caps_set(struct sm_context_state *st, uint32_t cap, uint32_t index, bool on)
{
    uint32_t lo = 0, hi = st->n_caps;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        int c = cap_cmp(&st->caps[mid], cap, index);
        if (c == 0) {
            if (on == sm_cap_default(cap)) {
                /* Back to its default: drop the entry so equal states compare equal. */
                memmove(&st->caps[mid], &st->caps[mid + 1],
                        (st->n_caps - mid - 1) * sizeof *st->caps);
                st->n_caps--;
            } else {
                st->caps[mid].enabled = on;
            }
            return true;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (on == sm_cap_default(cap))
        return true;
    if (st->n_caps == st->cap_caps) {
        uint32_t nc = st->cap_caps ? st->cap_caps * 2 : 16;
        void *p = realloc(st->caps, nc * sizeof *st->caps);
        if (!p)
            return false;
        st->caps = p;
        st->cap_caps = nc;
    }
    memmove(&st->caps[lo + 1], &st->caps[lo], (st->n_caps - lo) * sizeof *st->caps);
    st->caps[lo] = (struct sm_cap){ cap, index, on };
    st->n_caps++;
    return true;
}

/* ------------------------------------------------------------------ enum mappings */

static const uint32_t tex_targets[SM_TT_COUNT] = {
    GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BUFFER,
    GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_EXTERNAL_OES,
};

int sm_tex_target_index(uint32_t target)
{
    for (int i = 0; i < SM_TT_COUNT; i++)
        if (tex_targets[i] == target)
            return i;
    return -1;
}

uint32_t sm_tex_target_enum(int idx)
{
    return (idx >= 0 && idx < SM_TT_COUNT) ? tex_targets[idx] : 0;
}

static const uint32_t buffer_targets[SM_BT_COUNT] = {
    GL_ARRAY_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GL_PIXEL_PACK_BUFFER,
    GL_PIXEL_UNPACK_BUFFER, GL_TEXTURE_BUFFER, GL_DRAW_INDIRECT_BUFFER,
    GL_DISPATCH_INDIRECT_BUFFER, GL_QUERY_BUFFER, GL_PARAMETER_BUFFER, GL_UNIFORM_BUFFER,
    GL_SHADER_STORAGE_BUFFER, GL_ATOMIC_COUNTER_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER,
};

int sm_buffer_target_index(uint32_t target)
{
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (buffer_targets[i] == target)
            return i;
    return -1;
}

uint32_t sm_buffer_target_enum(int idx)
{
    return (idx >= 0 && idx < SM_BT_COUNT) ? buffer_targets[idx] : 0;
}

static const uint32_t stage_types[SM_ST_COUNT] = {
    GL_VERTEX_SHADER, GL_TESS_CONTROL_SHADER, GL_TESS_EVALUATION_SHADER, GL_GEOMETRY_SHADER,
    GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER,
};

int sm_stage_of_shader_type(uint32_t type)
{
    for (int i = 0; i < SM_ST_COUNT; i++)
        if (stage_types[i] == type)
            return i;
    return -1;
}

uint32_t sm_shader_type_of_stage(int stage)
{
    return (stage >= 0 && stage < SM_ST_COUNT) ? stage_types[stage] : 0;
}

int sm_cube_face(uint32_t target)
{
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        return (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
    return -1;
}

uint32_t sm_type_size(uint32_t type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
    case GL_DOUBLE: return 8;
    default: return 4;   /* INT, UNSIGNED_INT, FLOAT, FIXED and the packed 4-byte types */
    }
}

/* ------------------------------------------------------------------ enum names */

const char *sm_enum_name(uint32_t value)
{
    unsigned lo = 0, hi = sm_enum_by_value_count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (sm_enum_by_value[mid].value == value)
            return sm_enum_str(sm_enum_by_value[mid].name);
        if (sm_enum_by_value[mid].value < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

bool sm_enum_value(const char *name, uint32_t *value)
{
    unsigned lo = 0, hi = sm_enum_by_name_count;
    while (name && lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c = strcmp(name, sm_enum_str(sm_enum_by_name[mid].name));
        if (c == 0) {
            *value = sm_enum_by_name[mid].value;
            return true;
        }
        if (c > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}
