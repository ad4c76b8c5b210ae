/* Field-by-field comparison of the driver's state (glGet*) with the state model (gl_fields.h). */
#include <epoxy/gl.h>
#include <stdio.h>
#include <string.h>
#include "gl_fields.h"

static const char *enum_text(uint32_t v, char *buf, size_t n)
{
    const char *name = v >= 0x100 ? sm_enum_name(v) : NULL;
    if (name)
        snprintf(buf, n, "%s", name);
    else
        snprintf(buf, n, "%u", v);
    return buf;
}

static void mismatch_u(struct field_check *k, const char *field, uint64_t driver, uint64_t model,
                       bool is_enum)
{
    k->fields++;
    if (driver == model)
        return;
    k->mismatches++;
    char a[64], b[64];
    if (is_enum)
        printf("%s %s: driver %s, model %s\n", k->where, field, enum_text((uint32_t)driver, a, sizeof a),
               enum_text((uint32_t)model, b, sizeof b));
    else
        printf("%s %s: driver %llu, model %llu\n", k->where, field, (unsigned long long)driver,
               (unsigned long long)model);
}

static void check_int(struct field_check *k, const char *field, GLenum pname, uint64_t model, bool is_enum)
{
    GLint v = 0;
    glGetIntegerv(pname, &v);
    mismatch_u(k, field, (uint32_t)v, (uint32_t)model, is_enum);
}

/* An object name: the model's captured name mapped to the replaying driver's. */
static void check_name(struct field_check *k, const char *field, GLenum pname, int obj_class,
                       uint32_t model_name)
{
    GLint v = 0;
    glGetIntegerv(pname, &v);
    uint64_t want = glr_dispatch_lookup(k->d, k->ctx, obj_class, model_name);
    mismatch_u(k, field, (uint32_t)v, want, false);
}

static void check_bool(struct field_check *k, const char *field, GLenum cap, bool model)
{
    mismatch_u(k, field, glIsEnabled(cap) ? 1 : 0, model ? 1 : 0, false);
}

static void check_floats(struct field_check *k, const char *field, GLenum pname, const float *model, int n)
{
    float v[4] = { 0 };
    glGetFloatv(pname, v);
    k->fields++;
    if (!memcmp(v, model, sizeof *v * (size_t)n))
        return;
    k->mismatches++;
    printf("%s %s: driver", k->where, field);
    for (int i = 0; i < n; i++)
        printf(" %g", v[i]);
    printf(", model");
    for (int i = 0; i < n; i++)
        printf(" %g", model[i]);
    printf("\n");
}

static void compare_stencil(struct field_check *k, const struct sm_context_state *st)
{
    static const struct { const char *name; GLenum pn[2]; int what; } f[] = {
        { "GL_STENCIL_FUNC", { GL_STENCIL_FUNC, GL_STENCIL_BACK_FUNC }, 0 },
        { "GL_STENCIL_REF", { GL_STENCIL_REF, GL_STENCIL_BACK_REF }, 1 },
        { "GL_STENCIL_VALUE_MASK", { GL_STENCIL_VALUE_MASK, GL_STENCIL_BACK_VALUE_MASK }, 2 },
        { "GL_STENCIL_WRITEMASK", { GL_STENCIL_WRITEMASK, GL_STENCIL_BACK_WRITEMASK }, 3 },
        { "GL_STENCIL_FAIL", { GL_STENCIL_FAIL, GL_STENCIL_BACK_FAIL }, 4 },
        { "GL_STENCIL_PASS_DEPTH_FAIL", { GL_STENCIL_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_FAIL }, 5 },
        { "GL_STENCIL_PASS_DEPTH_PASS", { GL_STENCIL_PASS_DEPTH_PASS, GL_STENCIL_BACK_PASS_DEPTH_PASS }, 6 },
    };
    for (int face = 0; face < 2; face++) {
        const struct sm_stencil_face *s = &st->stencil[face];
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
            uint64_t model = f[i].what == 0 ? s->func : f[i].what == 1 ? (uint32_t)s->ref
                           : f[i].what == 2 ? s->value_mask : f[i].what == 3 ? s->write_mask
                           : f[i].what == 4 ? s->fail : f[i].what == 5 ? s->zfail : s->zpass;
            char name[64];
            snprintf(name, sizeof name, "%s%s", f[i].name, face ? " (back)" : "");
            if (f[i].what == 2 || f[i].what == 3) {
                /* Masks: GL's initial value is all ones; Mesa keeps only the 8 bits a stencil
                 * buffer can have (0xFF). Compare the bits that exist. */
                GLint v = 0;
                glGetIntegerv(f[i].pn[face], &v);
                mismatch_u(k, name, (uint32_t)v & 0xFF, model & 0xFF, false);
                continue;
            }
            check_int(k, name, f[i].pn[face], model, f[i].what == 0 || f[i].what >= 4);
        }
    }
}

/* Texture bindings per unit for the common targets, and the sampler per unit. */
static void compare_units(struct field_check *k, const struct sm_context *c,
                          const struct sm_context_state *st)
{
    bool es = sm_context_api(c, NULL, NULL) == SM_API_GLES;   /* no rectangle textures in GLES */
    static const struct { enum sm_tex_target t; GLenum binding; const char *name; } targets[] = {
        { SM_TT_2D, GL_TEXTURE_BINDING_2D, "GL_TEXTURE_BINDING_2D" },
        { SM_TT_3D, GL_TEXTURE_BINDING_3D, "GL_TEXTURE_BINDING_3D" },
        { SM_TT_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, "GL_TEXTURE_BINDING_CUBE_MAP" },
        { SM_TT_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, "GL_TEXTURE_BINDING_2D_ARRAY" },
        { SM_TT_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, "GL_TEXTURE_BINDING_RECTANGLE" },
        { SM_TT_BUFFER, GL_TEXTURE_BINDING_BUFFER, "GL_TEXTURE_BINDING_BUFFER" },
    };
    GLint active = GL_TEXTURE0, units = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    if (units > 16)
        units = 16;
    for (int u = 0; u < units; u++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)u);
        for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
            if (es && targets[i].t == SM_TT_RECTANGLE)
                continue;
            char name[80];
            snprintf(name, sizeof name, "unit %d %s", u, targets[i].name);
            check_name(k, name, targets[i].binding, GLR_OBJ_TEXTURE, st->unit[u].bound[targets[i].t]);
        }
        char name[64];
        snprintf(name, sizeof name, "unit %d GL_SAMPLER_BINDING", u);
        check_name(k, name, GL_SAMPLER_BINDING, GLR_OBJ_SAMPLER, st->unit[u].sampler);
    }
    glActiveTexture((GLenum)active);
}

/* The layout of the enabled attributes of the bound vertex array. */
static void compare_attribs(struct field_check *k, const struct sm_context *c,
                            const struct sm_context_state *st)
{
    const struct sm_vao *v = sm_get_vao(c, st->vao);
    if (!v || (st->vao == 0 && sm_context_api(c, NULL, NULL) == SM_API_GL_CORE))
        return;   /* core profiles have no default vertex array to query */
    for (GLuint i = 0; i < 16; i++) {
        const struct sm_vertex_attrib *a = &v->attrib[i];
        GLint en = 0, size = 0, type = 0, norm = 0, stride = 0, buf = 0;
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
        char name[80];
        snprintf(name, sizeof name, "attrib %u GL_VERTEX_ATTRIB_ARRAY_ENABLED", i);
        mismatch_u(k, name, en != 0, a->enabled, false);
        if (!en && !a->enabled)
            continue;
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
        glGetVertexAttribiv(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
        void *ptr = NULL;
        glGetVertexAttribPointerv(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        snprintf(name, sizeof name, "attrib %u size", i);
        mismatch_u(k, name, (uint32_t)size, (uint32_t)a->size, false);
        snprintf(name, sizeof name, "attrib %u type", i);
        mismatch_u(k, name, (uint32_t)type, a->type, true);
        snprintf(name, sizeof name, "attrib %u normalized", i);
        mismatch_u(k, name, norm != 0, a->normalized, false);
        snprintf(name, sizeof name, "attrib %u stride", i);
        mismatch_u(k, name, (uint32_t)stride, (uint32_t)a->stride, false);
        snprintf(name, sizeof name, "attrib %u buffer", i);
        mismatch_u(k, name, (uint32_t)buf,
                   glr_dispatch_lookup(k->d, k->ctx, GLR_OBJ_BUFFER, v->binding[a->binding].buffer), false);
        /* A client array's pointer is an address in the captured process; the replay points
         * at the recorded bytes instead. Offsets into buffers must agree. */
        if (v->binding[a->binding].buffer) {
            snprintf(name, sizeof name, "attrib %u pointer", i);
            mismatch_u(k, name, (uint64_t)(uintptr_t)ptr, a->pointer, false);
        }
    }
}

/* The uniform values the model holds for the current program, read back with glGetnUniform*. */
static void compare_uniforms(struct field_check *k, const struct sm_context *c,
                             const struct sm_context_state *st)
{
    const struct sm_program *p = st->program ? sm_get_program(c, st->program) : NULL;
    if (!p)
        return;
    GLuint prog = (GLuint)glr_dispatch_lookup(k->d, k->ctx, GLR_OBJ_PROGRAM, p->name);
    for (uint32_t i = 0; i < p->n_uniforms; i++) {
        const struct sm_uniform *u = &p->uniforms[i];
        if (u->kind > SM_VK_UINT)
            continue;
        uint32_t n = (uint32_t)u->cols * u->rows, got[16] = { 0 };
        if (u->kind == SM_VK_FLOAT)
            glGetnUniformfv(prog, u->location, sizeof got, (GLfloat *)got);
        else if (u->kind == SM_VK_INT)
            glGetnUniformiv(prog, u->location, sizeof got, (GLint *)got);
        else
            glGetnUniformuiv(prog, u->location, sizeof got, got);
        k->fields++;
        if (!memcmp(got, u->data, 4 * n))
            continue;
        k->mismatches++;
        printf("%s uniform location %d of program %u: driver and model values differ\n", k->where,
               u->location, p->name);
    }
}

void compare_fields(struct field_check *k, const struct sm_context *c)
{
    const struct sm_context_state *st = sm_context_state(c);
    while (glGetError() != GL_NO_ERROR) {
    }
    check_name(k, "GL_CURRENT_PROGRAM", GL_CURRENT_PROGRAM, GLR_OBJ_PROGRAM, st->program);
    check_name(k, "GL_VERTEX_ARRAY_BINDING", GL_VERTEX_ARRAY_BINDING, GLR_OBJ_VERTEX_ARRAY, st->vao);
    check_name(k, "GL_ARRAY_BUFFER_BINDING", GL_ARRAY_BUFFER_BINDING, GLR_OBJ_BUFFER, st->buffer[SM_BT_ARRAY]);
    const struct sm_vao *vao = sm_get_vao(c, st->vao);
    check_name(k, "GL_ELEMENT_ARRAY_BUFFER_BINDING", GL_ELEMENT_ARRAY_BUFFER_BINDING, GLR_OBJ_BUFFER,
               vao ? vao->element_buffer : 0);
    check_name(k, "GL_UNIFORM_BUFFER_BINDING", GL_UNIFORM_BUFFER_BINDING, GLR_OBJ_BUFFER,
               st->buffer[SM_BT_UNIFORM]);
    check_name(k, "GL_DRAW_FRAMEBUFFER_BINDING", GL_DRAW_FRAMEBUFFER_BINDING, GLR_OBJ_FRAMEBUFFER, st->draw_fbo);
    check_name(k, "GL_READ_FRAMEBUFFER_BINDING", GL_READ_FRAMEBUFFER_BINDING, GLR_OBJ_FRAMEBUFFER, st->read_fbo);
    check_name(k, "GL_RENDERBUFFER_BINDING", GL_RENDERBUFFER_BINDING, GLR_OBJ_RENDERBUFFER, st->renderbuffer);
    check_int(k, "GL_ACTIVE_TEXTURE", GL_ACTIVE_TEXTURE, GL_TEXTURE0 + st->active_texture, true);
    compare_units(k, c, st);
    check_floats(k, "GL_VIEWPORT", GL_VIEWPORT, st->viewport[0], 4);
    GLint box[4] = { 0 };
    glGetIntegerv(GL_SCISSOR_BOX, box);
    for (int i = 0; i < 4; i++)
        mismatch_u(k, "GL_SCISSOR_BOX", (uint32_t)box[i], (uint32_t)st->scissor[0][i], false);
    check_bool(k, "GL_SCISSOR_TEST", GL_SCISSOR_TEST, st->scissor_test[0]);
    check_bool(k, "GL_BLEND", GL_BLEND, st->blend_enabled[0]);
    check_int(k, "GL_BLEND_SRC_RGB", GL_BLEND_SRC_RGB, st->blend[0].src_rgb, true);
    check_int(k, "GL_BLEND_DST_RGB", GL_BLEND_DST_RGB, st->blend[0].dst_rgb, true);
    check_int(k, "GL_BLEND_SRC_ALPHA", GL_BLEND_SRC_ALPHA, st->blend[0].src_alpha, true);
    check_int(k, "GL_BLEND_DST_ALPHA", GL_BLEND_DST_ALPHA, st->blend[0].dst_alpha, true);
    check_int(k, "GL_BLEND_EQUATION_RGB", GL_BLEND_EQUATION_RGB, st->blend[0].eq_rgb, true);
    check_int(k, "GL_BLEND_EQUATION_ALPHA", GL_BLEND_EQUATION_ALPHA, st->blend[0].eq_alpha, true);
    check_floats(k, "GL_BLEND_COLOR", GL_BLEND_COLOR, st->blend_color, 4);
    GLboolean mask[4] = { 0 };
    glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    for (int i = 0; i < 4; i++)
        mismatch_u(k, "GL_COLOR_WRITEMASK", mask[i] != 0, st->color_mask[0][i], false);
    check_bool(k, "GL_DEPTH_TEST", GL_DEPTH_TEST, sm_is_enabled(c, GL_DEPTH_TEST, 0));
    check_int(k, "GL_DEPTH_FUNC", GL_DEPTH_FUNC, st->depth_func, true);
    GLboolean dmask = 0;
    glGetBooleanv(GL_DEPTH_WRITEMASK, &dmask);
    mismatch_u(k, "GL_DEPTH_WRITEMASK", dmask != 0, st->depth_mask, false);
    check_bool(k, "GL_STENCIL_TEST", GL_STENCIL_TEST, sm_is_enabled(c, GL_STENCIL_TEST, 0));
    compare_stencil(k, st);
    check_floats(k, "GL_COLOR_CLEAR_VALUE", GL_COLOR_CLEAR_VALUE, st->clear_color, 4);
    float cd = (float)st->clear_depth;
    check_floats(k, "GL_DEPTH_CLEAR_VALUE", GL_DEPTH_CLEAR_VALUE, &cd, 1);
    check_int(k, "GL_STENCIL_CLEAR_VALUE", GL_STENCIL_CLEAR_VALUE, (uint32_t)st->clear_stencil, false);
    check_bool(k, "GL_CULL_FACE", GL_CULL_FACE, sm_is_enabled(c, GL_CULL_FACE, 0));
    check_int(k, "GL_CULL_FACE_MODE", GL_CULL_FACE_MODE, st->cull_face_mode, true);
    check_int(k, "GL_FRONT_FACE", GL_FRONT_FACE, st->front_face, true);
    check_bool(k, "GL_POLYGON_OFFSET_FILL", GL_POLYGON_OFFSET_FILL, sm_is_enabled(c, GL_POLYGON_OFFSET_FILL, 0));
    check_int(k, "GL_UNPACK_ALIGNMENT", GL_UNPACK_ALIGNMENT, (uint32_t)st->unpack.alignment, false);
    check_int(k, "GL_PACK_ALIGNMENT", GL_PACK_ALIGNMENT, (uint32_t)st->pack.alignment, false);
    compare_attribs(k, c, st);
    compare_uniforms(k, c, st);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR)
        printf("%s note: GL error 0x%x while reading the state\n", k->where, err);
    while (glGetError() != GL_NO_ERROR) {
    }
}
