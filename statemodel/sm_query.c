/* The CLI's view of a context (`glreplay state F.glcap --event K [--json]`): what a draw uses,
 * as JSON, and the same tree printed as indented text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "statemodel/sm_internal.h"

static cJSON *jenum(uint32_t v)
{
    const char *n = v >= 0x100 ? sm_enum_name(v) : NULL;
    if (n)
        return cJSON_CreateString(n);
    char buf[16];
    snprintf(buf, sizeof buf, "0x%X", v);
    return cJSON_CreateString(v == 0 ? "GL_NONE" : buf);
}

/* A value of a parameter whose registry group is known (gl.xml group=): values are shared between
 * groups (0x4000: GL_LIGHT0 as a capability, GL_COLOR_BUFFER_BIT as a mask), the group picks the
 * name (small ones too: GL_ZERO and GL_ONE of BlendingFactor, GL_NONE of DrawBufferMode); a value
 * outside the group is named as jenum does. */
static cJSON *jenum_in(const char *group, uint32_t v)
{
    const char *n = sm_enum_name_in(group, v);
    return n ? cJSON_CreateString(n) : jenum(v);
}

static cJSON *jnum(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateString(isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

static cJSON *jfloats(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, jnum(v[i]));
    return a;
}

static void add(cJSON *o, const char *k, cJSON *v) { cJSON_AddItemToObject(o, k, v); }

static const char *const kind_glsl[] = { "float", "int", "uint", "double", "int64_t", "uint64_t" };

/* The name the program was asked for at this location (glGetUniformLocation), or NULL. */
static const char *uniform_name(const struct sm_program *p, int32_t location)
{
    for (uint32_t i = 0; i < p->n_uniform_names; i++)
        if (p->uniform_names[i].index == (uint32_t)location)
            return p->uniform_names[i].name;
    return NULL;
}

static cJSON *uniform_json(const struct sm_program *p, const struct sm_uniform *u)
{
    cJSON *o = cJSON_CreateObject();
    const char *name = uniform_name(p, u->location);
    if (name)
        cJSON_AddStringToObject(o, "name", name);
    char type[32];
    static const char *const vec_prefix[] = { "vec", "ivec", "uvec", "dvec", "i64vec", "u64vec" };
    if (u->cols == 1 && u->rows == 1)
        snprintf(type, sizeof type, "%s", kind_glsl[u->kind]);
    else if (u->cols == 1)
        snprintf(type, sizeof type, "%s%u", vec_prefix[u->kind], u->rows);
    else if (u->cols == u->rows)
        snprintf(type, sizeof type, "%smat%u", u->kind == SM_VK_DOUBLE ? "d" : "", u->cols);
    else
        snprintf(type, sizeof type, "%smat%ux%u", u->kind == SM_VK_DOUBLE ? "d" : "", u->cols, u->rows);
    cJSON_AddNumberToObject(o, "location", u->location);
    cJSON_AddStringToObject(o, "type", type);
    cJSON *vals = cJSON_CreateArray();
    for (int i = 0; i < u->cols * u->rows; i++) {
        double v;
        switch (u->kind) {
        case SM_VK_FLOAT: { float f; memcpy(&f, u->data + 4 * i, 4); v = f; break; }
        case SM_VK_INT: { int32_t x; memcpy(&x, u->data + 4 * i, 4); v = x; break; }
        case SM_VK_UINT: { uint32_t x; memcpy(&x, u->data + 4 * i, 4); v = x; break; }
        case SM_VK_DOUBLE: memcpy(&v, u->data + 8 * i, 8); break;
        case SM_VK_INT64: { int64_t x; memcpy(&x, u->data + 8 * i, 8); v = (double)x; break; }
        default: { uint64_t x; memcpy(&x, u->data + 8 * i, 8); v = (double)x; break; }
        }
        cJSON_AddItemToArray(vals, jnum(v));
    }
    add(o, "value", vals);
    return o;
}

static cJSON *program_json(const struct sm_context *c, uint32_t name)
{
    const struct sm_program *p = sm_get_program(c, name);
    if (!p)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "name", p->name);
    cJSON_AddNumberToObject(o, "link_count", p->link_count);
    cJSON_AddBoolToObject(o, "separable", p->separable);
    cJSON *sh = cJSON_CreateArray();
    for (uint32_t i = 0; i < p->n_linked; i++) {
        cJSON *s = cJSON_CreateObject();
        add(s, "type", jenum_in("ShaderType", p->linked[i].type));
        cJSON_AddNumberToObject(s, "source_chars",
                                p->linked[i].source ? (double)strlen(p->linked[i].source) : 0);
        const struct sm_spirv *spv = p->linked[i].spirv;
        if (spv) {   /* GL_ARB_gl_spirv: the module's size, entry point and constants */
            cJSON_AddNumberToObject(s, "spirv_bytes", spv->size);
            add(s, "spirv_entry", spv->entry ? cJSON_CreateString(spv->entry) : cJSON_CreateNull());
            cJSON_AddNumberToObject(s, "spirv_spec_constants", spv->n_spec);
        }
        cJSON_AddItemToArray(sh, s);
    }
    add(o, "linked_shaders", sh);
    cJSON *at = cJSON_CreateArray();
    for (uint32_t i = 0; i < p->n_attached; i++)
        cJSON_AddItemToArray(at, cJSON_CreateNumber(p->attached[i]));
    add(o, "attached_shaders", at);
    cJSON *u = cJSON_CreateArray();
    for (uint32_t i = 0; i < p->n_uniforms; i++)
        cJSON_AddItemToArray(u, uniform_json(p, &p->uniforms[i]));
    add(o, "uniforms", u);
    cJSON *ub = cJSON_CreateArray();
    for (uint32_t i = 0; i < p->n_ubo_bindings; i++) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "block_index", p->ubo_bindings[i].index);
        cJSON_AddNumberToObject(b, "binding", p->ubo_bindings[i].index2);
        cJSON_AddItemToArray(ub, b);
    }
    add(o, "uniform_block_bindings", ub);
    return o;
}

static cJSON *vao_json(const struct sm_context *c)
{
    const struct sm_vao *v = sm_get_vao(c, c->st.vao);
    if (!v)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "name", v->name);
    cJSON_AddNumberToObject(o, "element_buffer", v->element_buffer);
    cJSON *arr = cJSON_CreateArray();
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_vertex_attrib *a = &v->attrib[i];
        const struct sm_vertex_binding *b = &v->binding[a->binding];
        if (!a->enabled)
            continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "index", i);
        cJSON_AddNumberToObject(e, "size", a->size);
        add(e, "type", jenum_in("VertexAttribPointerType", a->type));
        cJSON_AddBoolToObject(e, "normalized", a->normalized);
        cJSON_AddBoolToObject(e, "integer", a->integer);
        cJSON_AddNumberToObject(e, "binding", a->binding);
        cJSON_AddNumberToObject(e, "buffer", b->buffer);
        cJSON_AddNumberToObject(e, "offset", (double)(b->offset + a->relative_offset));
        cJSON_AddNumberToObject(e, "stride", b->stride);
        cJSON_AddNumberToObject(e, "divisor", b->divisor);
        cJSON_AddBoolToObject(e, "client_array", b->buffer == 0);
        cJSON_AddItemToArray(arr, e);
    }
    add(o, "enabled_attributes", arr);
    cJSON *cur = cJSON_CreateArray();
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_attrib_value *av = &c->st.attrib_value[i];
        if (v->attrib[i].enabled || (av->kind == SM_VK_FLOAT && av->v.f[0] == 0 &&
                                     av->v.f[1] == 0 && av->v.f[2] == 0 && av->v.f[3] == 1))
            continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "index", i);
        cJSON *vals = cJSON_CreateArray();
        for (int k = 0; k < 4; k++)
            cJSON_AddItemToArray(vals, jnum(av->kind == SM_VK_FLOAT ? av->v.f[k] :
                                            av->kind == SM_VK_INT ? av->v.i[k] :
                                            av->kind == SM_VK_UINT ? av->v.u[k] : av->v.d[k]));
        add(e, "value", vals);
        cJSON_AddItemToArray(cur, e);
    }
    add(o, "current_values", cur);
    if (c->api == SM_API_GL_COMPAT) {
        /* what glColor*, glNormal*, glTexCoord*, ... set (sm_apply_current.c) */
        static const char *const slot_names[SM_LA_TEXCOORD0] = { "vertex", "normal", "color", "secondary_color",
                                                                  "fog_coord", "edge_flag", "index" };
        cJSON *leg = cJSON_CreateObject();
        for (int sl = SM_LA_NORMAL; sl < SM_LA_COUNT; sl++) {
            char name[32];
            if (sl < SM_LA_TEXCOORD0)
                snprintf(name, sizeof name, "%s", slot_names[sl]);
            else
                snprintf(name, sizeof name, "texcoord%d", sl - SM_LA_TEXCOORD0);
            cJSON *vals = cJSON_CreateArray();
            for (int k = 0; k < 4; k++)
                cJSON_AddItemToArray(vals, jnum(c->st.legacy_current[sl][k]));
            add(leg, name, vals);
        }
        add(o, "legacy_current_values", leg);
    }
    return o;
}

static cJSON *textures_json(const struct sm_context *c)
{
    cJSON *arr = cJSON_CreateArray();
    for (uint32_t u = 0; u < SM_MAX_TEXTURE_UNITS; u++) {
        const struct sm_texture_unit *tu = &c->st.unit[u];
        for (int t = 0; t < SM_TT_COUNT; t++) {
            if (!tu->bound[t])
                continue;
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "unit", u);
            add(e, "target", jenum_in("TextureTarget", sm_tex_target_enum(t)));
            cJSON_AddNumberToObject(e, "texture", tu->bound[t]);
            cJSON_AddNumberToObject(e, "sampler", tu->sampler);
            const struct sm_texture *tex = sm_get_texture(c, tu->bound[t]);
            if (tex) {
                const struct sm_tex_image *im = &tex->image[0][tex->params.base_level >= 0 &&
                    tex->params.base_level < SM_MAX_LEVELS ? tex->params.base_level : 0];
                add(e, "internal_format", jenum_in("InternalFormat", im->internal_format));
                cJSON_AddNumberToObject(e, "width", im->width);
                cJSON_AddNumberToObject(e, "height", im->height);
                cJSON_AddNumberToObject(e, "depth", im->depth);
                int levels = 0;
                for (int l = 0; l < SM_MAX_LEVELS; l++)
                    levels += tex->image[0][l].defined;
                cJSON_AddNumberToObject(e, "levels", levels);
                cJSON_AddBoolToObject(e, "immutable", tex->immutable);
            }
            const struct sm_sampling *p = tex ? &tex->params : NULL;
            const struct sm_sampler *smp = tu->sampler ? sm_get_sampler(c, tu->sampler) : NULL;
            if (smp)
                p = &smp->params;
            if (p) {
                add(e, "min_filter", jenum_in("TextureMinFilter", p->min_filter));
                add(e, "mag_filter", jenum_in("TextureMagFilter", p->mag_filter));
                add(e, "wrap_s", jenum_in("TextureWrapMode", p->wrap_s));
                add(e, "wrap_t", jenum_in("TextureWrapMode", p->wrap_t));
                add(e, "wrap_r", jenum_in("TextureWrapMode", p->wrap_r));
                add(e, "compare_mode", jenum_in("TextureCompareMode", p->compare_mode));
            }
            cJSON_AddItemToArray(arr, e);
        }
    }
    return arr;
}

static cJSON *attachment_json(const struct sm_context *c, const char *point,
                              const struct sm_attachment *a)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "point", point);
    cJSON_AddStringToObject(e, "type", a->type == GL_TEXTURE ? "texture" : "renderbuffer");
    cJSON_AddNumberToObject(e, "name", a->name);
    if (a->type == GL_TEXTURE) {
        cJSON_AddNumberToObject(e, "level", a->level);
        cJSON_AddNumberToObject(e, "layer", a->layer);
        cJSON_AddBoolToObject(e, "layered", a->layered);
        const struct sm_texture *t = sm_get_texture(c, a->name);
        int face = a->textarget ? sm_cube_face(a->textarget) : -1;
        if (t && a->level >= 0 && a->level < SM_MAX_LEVELS) {
            const struct sm_tex_image *im = &t->image[face < 0 ? 0 : face][a->level];
            add(e, "internal_format", jenum_in("InternalFormat", im->internal_format));
            cJSON_AddNumberToObject(e, "width", im->width);
            cJSON_AddNumberToObject(e, "height", im->height);
        }
    } else {
        const struct sm_renderbuffer *r = sm_get_renderbuffer(c, a->name);
        if (r) {
            add(e, "internal_format", jenum_in("InternalFormat", r->internal_format));
            cJSON_AddNumberToObject(e, "width", r->width);
            cJSON_AddNumberToObject(e, "height", r->height);
            cJSON_AddNumberToObject(e, "samples", r->samples);
        }
    }
    return e;
}

static cJSON *framebuffer_json(const struct sm_context *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "draw", c->st.draw_fbo);
    cJSON_AddNumberToObject(o, "read", c->st.read_fbo);
    const struct sm_framebuffer *f = sm_get_framebuffer(c, c->st.draw_fbo);
    cJSON *att = cJSON_CreateArray();
    cJSON *db = cJSON_CreateArray();
    if (f) {
        char point[32];
        for (int i = 0; i < SM_MAX_COLOR_ATTACH; i++)
            if (f->color[i].type) {
                snprintf(point, sizeof point, "GL_COLOR_ATTACHMENT%d", i);
                cJSON_AddItemToArray(att, attachment_json(c, point, &f->color[i]));
            }
        if (f->depth.type)
            cJSON_AddItemToArray(att, attachment_json(c, "GL_DEPTH_ATTACHMENT", &f->depth));
        if (f->stencil.type)
            cJSON_AddItemToArray(att, attachment_json(c, "GL_STENCIL_ATTACHMENT", &f->stencil));
        for (uint32_t i = 0; i < f->n_draw_buffers; i++)
            cJSON_AddItemToArray(db, jenum_in("DrawBufferMode", f->draw_buffers[i]));
    }
    add(o, "attachments", att);
    add(o, "draw_buffers", db);
    const struct sm_framebuffer *rf = sm_get_framebuffer(c, c->st.read_fbo);
    add(o, "read_buffer", jenum_in("ReadBufferMode", rf ? rf->read_buffer : 0));
    return o;
}

static cJSON *stencil_json(const struct sm_stencil_face *s)
{
    cJSON *o = cJSON_CreateObject();
    add(o, "func", jenum_in("StencilFunction", s->func));
    cJSON_AddNumberToObject(o, "ref", s->ref);
    cJSON_AddNumberToObject(o, "value_mask", s->value_mask);
    cJSON_AddNumberToObject(o, "write_mask", s->write_mask);
    add(o, "fail", jenum_in("StencilOp", s->fail));
    add(o, "zfail", jenum_in("StencilOp", s->zfail));
    add(o, "zpass", jenum_in("StencilOp", s->zpass));
    return o;
}

/* ARB assembly programs of a context, only when one is bound or a target enabled: per target
 * the enable, the bound program (0: GL's default object), its text size and local parameter
 * count, and how many environment parameters are non-zero. */
static cJSON *arb_programs_json(const struct sm_context *c)
{
    static const uint32_t caps[2] = { GL_VERTEX_PROGRAM_ARB, GL_FRAGMENT_PROGRAM_ARB };
    static const char *const names[2] = { "vertex", "fragment" };
    const struct sm_context_state *st = &c->st;
    bool any = false;
    for (int t = 0; t < 2; t++)
        any |= st->arb_program[t] != 0 || sm_is_enabled(c, caps[t], 0) || sm_bound_arb_program(c, t);
    if (!any)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    for (int t = 0; t < 2; t++) {
        cJSON *e = cJSON_CreateObject();
        const struct sm_arb_program *p = sm_bound_arb_program(c, t);
        int env = 0;
        for (int i = 0; i < SM_ARB_MAX_ENV; i++)
            env += st->arb_env[t][i][0] != 0 || st->arb_env[t][i][1] != 0 || st->arb_env[t][i][2] != 0 ||
                   st->arb_env[t][i][3] != 0;
        cJSON_AddBoolToObject(e, "enabled", sm_is_enabled(c, caps[t], 0));
        cJSON_AddNumberToObject(e, "program", st->arb_program[t]);
        cJSON_AddNumberToObject(e, "source_chars", p && p->source ? p->length : 0);
        cJSON_AddNumberToObject(e, "local_parameters", p ? p->n_local : 0);
        cJSON_AddNumberToObject(e, "nonzero_env_parameters", env);
        add(o, names[t], e);
    }
    return o;
}

static cJSON *context_json(const struct sm_state *s, const struct sm_context *c)
{
    const struct sm_context_state *st = &c->st;
    cJSON *o = cJSON_CreateObject();
    static const char *const apis[] = { "GL compatibility", "GL core", "GLES" };
    char ver[16];
    snprintf(ver, sizeof ver, "%d.%d", c->major, c->minor);
    cJSON_AddNumberToObject(o, "context", c->id);
    cJSON_AddStringToObject(o, "api", apis[c->api]);
    cJSON_AddStringToObject(o, "version", ver);
    cJSON_AddNumberToObject(o, "share_group", c->share->id);
    add(o, "program", program_json(c, st->program));
    cJSON_AddNumberToObject(o, "program_pipeline", st->pipeline);
    cJSON *arb = arb_programs_json(c);
    if (arb)
        add(o, "arb_programs", arb);
    add(o, "vertex_array", vao_json(c));
    add(o, "textures", textures_json(c));
    add(o, "framebuffer", framebuffer_json(c));
    add(o, "viewport", jfloats(st->viewport[0], 4));
    cJSON *sc = cJSON_CreateObject();
    cJSON_AddBoolToObject(sc, "enabled", st->scissor_test[0]);
    cJSON *box = cJSON_CreateArray();
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToArray(box, cJSON_CreateNumber(st->scissor[0][i]));
    add(sc, "box", box);
    add(o, "scissor", sc);
    cJSON *dr = cJSON_CreateArray();
    cJSON_AddItemToArray(dr, jnum(st->depth_range[0][0]));
    cJSON_AddItemToArray(dr, jnum(st->depth_range[0][1]));
    add(o, "depth_range", dr);
    cJSON *bl = cJSON_CreateArray();
    for (int i = 0; i < SM_MAX_DRAW_BUFFERS; i++) {
        if (i > 0 && !memcmp(&st->blend[i], &st->blend[0], sizeof st->blend[0]) &&
            st->blend_enabled[i] == st->blend_enabled[0] &&
            !memcmp(st->color_mask[i], st->color_mask[0], sizeof st->color_mask[0]))
            continue;
        cJSON *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "draw_buffer", i);
        cJSON_AddBoolToObject(b, "enabled", st->blend_enabled[i]);
        add(b, "src_rgb", jenum_in("BlendingFactor", st->blend[i].src_rgb));
        add(b, "dst_rgb", jenum_in("BlendingFactor", st->blend[i].dst_rgb));
        add(b, "src_alpha", jenum_in("BlendingFactor", st->blend[i].src_alpha));
        add(b, "dst_alpha", jenum_in("BlendingFactor", st->blend[i].dst_alpha));
        add(b, "equation_rgb", jenum_in("BlendEquationModeEXT", st->blend[i].eq_rgb));
        add(b, "equation_alpha", jenum_in("BlendEquationModeEXT", st->blend[i].eq_alpha));
        cJSON *m = cJSON_CreateArray();
        for (int k = 0; k < 4; k++)
            cJSON_AddItemToArray(m, cJSON_CreateBool(st->color_mask[i][k]));
        add(b, "color_mask", m);
        cJSON_AddItemToArray(bl, b);
    }
    cJSON *blend = cJSON_CreateObject();
    add(blend, "per_draw_buffer", bl);
    add(blend, "color", jfloats(st->blend_color, 4));
    add(o, "blend", blend);
    cJSON *dp = cJSON_CreateObject();
    cJSON_AddBoolToObject(dp, "test", sm_is_enabled(c, GL_DEPTH_TEST, 0));
    add(dp, "func", jenum_in("DepthFunction", st->depth_func));
    cJSON_AddBoolToObject(dp, "mask", st->depth_mask);
    add(o, "depth", dp);
    cJSON *sn = cJSON_CreateObject();
    cJSON_AddBoolToObject(sn, "test", sm_is_enabled(c, GL_STENCIL_TEST, 0));
    add(sn, "front", stencil_json(&st->stencil[0]));
    add(sn, "back", stencil_json(&st->stencil[1]));
    add(o, "stencil", sn);
    cJSON *ra = cJSON_CreateObject();
    cJSON_AddBoolToObject(ra, "cull", sm_is_enabled(c, GL_CULL_FACE, 0));
    add(ra, "cull_face", jenum_in("CullFaceMode", st->cull_face_mode));
    add(ra, "front_face", jenum_in("FrontFaceDirection", st->front_face));
    add(ra, "polygon_mode_front", jenum_in("PolygonMode", st->polygon_mode[0]));
    add(ra, "polygon_mode_back", jenum_in("PolygonMode", st->polygon_mode[1]));
    cJSON_AddBoolToObject(ra, "polygon_offset_fill", sm_is_enabled(c, GL_POLYGON_OFFSET_FILL, 0));
    add(ra, "polygon_offset_factor", jnum(st->polygon_offset_factor));
    add(ra, "polygon_offset_units", jnum(st->polygon_offset_units));
    add(ra, "line_width", jnum(st->line_width));
    add(ra, "point_size", jnum(st->point_size));
    cJSON_AddBoolToObject(ra, "program_point_size", sm_is_enabled(c, GL_PROGRAM_POINT_SIZE, 0));
    cJSON_AddBoolToObject(ra, "primitive_restart", sm_is_enabled(c, GL_PRIMITIVE_RESTART, 0));
    cJSON_AddBoolToObject(ra, "primitive_restart_fixed_index",
                          sm_is_enabled(c, GL_PRIMITIVE_RESTART_FIXED_INDEX, 0));
    cJSON_AddNumberToObject(ra, "primitive_restart_index", st->primitive_restart_index);
    add(ra, "provoking_vertex", jenum_in("VertexProvokingMode", st->provoking_vertex));
    cJSON_AddBoolToObject(ra, "rasterizer_discard", sm_is_enabled(c, GL_RASTERIZER_DISCARD, 0));
    cJSON_AddBoolToObject(ra, "multisample", sm_is_enabled(c, GL_MULTISAMPLE, 0));
    cJSON_AddBoolToObject(ra, "framebuffer_srgb", sm_is_enabled(c, GL_FRAMEBUFFER_SRGB, 0));
    add(o, "raster", ra);
    cJSON *cl = cJSON_CreateObject();
    add(cl, "color", jfloats(st->clear_color, 4));
    add(cl, "depth", jnum(st->clear_depth));
    cJSON_AddNumberToObject(cl, "stencil", st->clear_stencil);
    add(o, "clear", cl);
    cJSON *en = cJSON_CreateArray();
    for (uint32_t i = 0; i < st->n_caps; i++) {
        if (!st->caps[i].enabled)
            continue;
        cJSON *e = cJSON_CreateObject();
        add(e, "cap", jenum_in("EnableCap", st->caps[i].cap));
        cJSON_AddNumberToObject(e, "index", st->caps[i].index);
        cJSON_AddItemToArray(en, e);
    }
    add(o, "enabled_caps", en);
    cJSON *bufs = cJSON_CreateObject();
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (st->buffer[i]) {
            const char *n = sm_enum_name_in("BufferTargetARB", sm_buffer_target_enum(i));
            cJSON_AddNumberToObject(bufs, n ? n : sm_enum_name(sm_buffer_target_enum(i)), st->buffer[i]);
        }
    add(o, "buffer_bindings", bufs);
    cJSON *ub = cJSON_CreateArray();
    for (uint32_t i = 0; i < SM_MAX_UBO_BINDINGS; i++) {
        if (!st->ubo[i].buffer)
            continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "index", i);
        cJSON_AddNumberToObject(e, "buffer", st->ubo[i].buffer);
        cJSON_AddNumberToObject(e, "offset", (double)st->ubo[i].offset);
        cJSON_AddNumberToObject(e, "size", (double)st->ubo[i].size);
        cJSON_AddItemToArray(ub, e);
    }
    add(o, "uniform_buffers", ub);
    /* Query objects: target, whether active, and the result an earlier frame left (kept by the
     * snapshot; the frame's own results are not known without a driver). */
    cJSON *qs = cJSON_CreateArray();
    size_t nq = sm_object_count(c, SM_OBJ_QUERY);
    uint32_t *qn = nq ? malloc(nq * sizeof *qn) : NULL;
    nq = qn ? sm_object_names(c, SM_OBJ_QUERY, qn, nq) : 0;
    for (size_t i = 0; i < nq; i++) {
        const struct sm_query *q = sm_get_query(c, qn[i]);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "name", qn[i]);
        add(e, "target", q->target ? jenum_in("QueryTarget", q->target) : cJSON_CreateNull());
        cJSON_AddBoolToObject(e, "active", q->active);
        if (q->has_result)
            cJSON_AddNumberToObject(e, "result", (double)q->result);
        cJSON_AddItemToArray(qs, e);
    }
    free(qn);
    add(o, "queries", qs);
    cJSON_AddNumberToObject(o, "unhandled_calls", (double)s->unhandled_calls);
    cJSON_AddNumberToObject(o, "model_errors", (double)s->errors);
    return o;
}

static const struct sm_context *pick(const struct sm_state *s, uint32_t ctx_id)
{
    if (!s)
        return NULL;
    return ctx_id ? sm_ctx_find(s, ctx_id) : (s->n_ctx ? s->ctx[0] : NULL);
}

uint32_t sm_bound_texture_name(const struct sm_context *c, uint32_t target)
{
    int ti = sm_tex_target_index(sm_cube_face(target) >= 0 ? GL_TEXTURE_CUBE_MAP : target);
    return c && ti >= 0 && c->st.active_texture < SM_MAX_TEXTURE_UNITS ? c->st.unit[c->st.active_texture].bound[ti] : 0;
}

uint32_t sm_bound_buffer_name(const struct sm_context *c, uint32_t target)
{
    if (!c)
        return 0;
    if (target == GL_ELEMENT_ARRAY_BUFFER) {
        const struct sm_vao *v = sm_get_vao(c, c->st.vao);
        return v ? v->element_buffer : 0;
    }
    int bi = sm_buffer_target_index(target);
    return bi >= 0 ? c->st.buffer[bi] : 0;
}

struct cJSON *sm_query_tree(const struct sm_state *s, uint32_t ctx_id)
{
    const struct sm_context *c = pick(s, ctx_id);
    return c ? context_json(s, c) : NULL;
}

char *sm_query_json(const struct sm_state *s, uint32_t ctx_id)
{
    const struct sm_context *c = pick(s, ctx_id);
    if (!c)
        return NULL;
    cJSON *o = context_json(s, c);
    char *out = o ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    return out;
}

static void print_value(FILE *out, const cJSON *v)
{
    if (cJSON_IsString(v))
        fputs(v->valuestring, out);
    else if (cJSON_IsBool(v))
        fputs(cJSON_IsTrue(v) ? "true" : "false", out);
    else if (cJSON_IsNull(v))
        fputs("none", out);
    else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
             fabs(v->valuedouble) < 1e15)
        fprintf(out, "%.0f", v->valuedouble);   /* names, masks: every digit */
    else if (cJSON_IsNumber(v))
        fprintf(out, "%.9g", v->valuedouble);
}

static bool scalar_array(const cJSON *v)
{
    if (!cJSON_IsArray(v))
        return false;
    for (const cJSON *e = v->child; e; e = e->next)
        if (cJSON_IsObject(e) || cJSON_IsArray(e))
            return false;
    return true;
}

static void print_tree(FILE *out, const cJSON *o, int indent)
{
    for (const cJSON *e = o->child; e; e = e->next) {
        fprintf(out, "%*s", indent, "");
        if (e->string)
            fprintf(out, "%s:", e->string);
        else
            fputs("-", out);
        if (cJSON_IsObject(e)) {
            fputc('\n', out);
            print_tree(out, e, indent + 2);
        } else if (scalar_array(e)) {
            fputs(" [", out);
            for (const cJSON *x = e->child; x; x = x->next) {
                print_value(out, x);
                if (x->next)
                    fputs(", ", out);
            }
            fputs("]\n", out);
        } else if (cJSON_IsArray(e)) {
            fputs(e->child ? "\n" : " (none)\n", out);
            print_tree(out, e, indent + 2);
        } else {
            fputc(' ', out);
            print_value(out, e);
            fputc('\n', out);
        }
    }
}

bool sm_query_text(const struct sm_state *s, uint32_t ctx_id, FILE *out)
{
    const struct sm_context *c = pick(s, ctx_id);
    if (!c || !out)
        return false;
    cJSON *o = context_json(s, c);
    if (!o)
        return false;
    print_tree(out, o, 0);
    cJSON_Delete(o);
    return !ferror(out);
}
