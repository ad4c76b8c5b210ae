/* sm_apply on realistic frames: objects, bindings, contents metadata and context state. */
#include <math.h>
#include <string.h>
#include "sm_test.h"

static void test_core_frame(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 3, 3));
    build_core_frame(s, 1);
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_context_state *st = sm_context_state(c);
    CHECK(sm_error_count(s) == 0);
    if (sm_error_count(s))
        fprintf(stderr, "first model error: %s\n", sm_first_error(s));
    CHECK(sm_unhandled_calls(s) == 0);

    /* VAO and buffers */
    CHECK(st->vao == 1);
    const struct sm_vao *v = sm_get_vao(c, 1);
    CHECK(v && v->element_buffer == 2);
    CHECK(v && v->attrib[0].enabled && v->attrib[0].size == 3 && v->attrib[0].type == GL_FLOAT);
    CHECK(v && v->binding[0].buffer == 1 && v->binding[0].stride == 12);
    CHECK(v && v->binding[1].offset == 8 && v->binding[1].stride == 8 && v->binding[1].divisor == 1);
    CHECK(sm_get_vao(c, 0)->element_buffer == 0);
    const struct sm_buffer *b = sm_get_buffer(c, 1);
    CHECK(b && b->size == 48 && b->usage == GL_STATIC_DRAW && b->data_known);
    CHECK(b && b->first_target == GL_ARRAY_BUFFER);
    float f;
    memcpy(&f, b->data + 12, 4);
    CHECK(f == 1.0f);
    CHECK(st->buffer[SM_BT_ARRAY] == 1);
    CHECK(st->ubo[3].buffer == 1 && st->ubo[3].offset == 16 && st->ubo[3].size == 32);
    CHECK(st->buffer[SM_BT_UNIFORM] == 1);

    /* shaders and program */
    CHECK(sm_get_shader(c, 3) == NULL);          /* deleted after detach */
    const struct sm_shader *fs = sm_get_shader(c, 4);
    CHECK(fs && fs->type == GL_FRAGMENT_SHADER && fs->compiled && strstr(fs->source, "tint[2]"));
    const struct sm_program *p = sm_get_program(c, 5);
    CHECK(st->program == 5);
    CHECK(p && p->link_count == 1 && p->n_linked == 2 && p->n_attached == 1 && p->attached[0] == 4);
    CHECK(p && p->linked[0].type == GL_VERTEX_SHADER && strstr(p->linked[0].source, "gl_Position"));
    CHECK(p && p->n_attrib_bindings == 1 && !strcmp(p->attrib_bindings[0].name, "pos"));
    CHECK(p && p->n_frag_bindings == 1 && !strcmp(p->frag_bindings[0].name, "color"));
    const struct sm_uniform *u2 = p ? sm_program_uniform(p, 2) : NULL;
    const struct sm_uniform *u3 = p ? sm_program_uniform(p, 3) : NULL;
    const struct sm_uniform *u0 = p ? sm_program_uniform(p, 0) : NULL;
    const struct sm_uniform *u4 = p ? sm_program_uniform(p, 4) : NULL;
    CHECK(u2 && u2->kind == SM_VK_FLOAT && u2->rows == 4 && u2->cols == 1);
    if (u3) {
        memcpy(&f, u3->data + 4, 4);
        CHECK(f == 0.5f);
    }
    CHECK(u3 != NULL);
    int32_t i0 = 0;
    if (u0)
        memcpy(&i0, u0->data, 4);
    CHECK(u0 && u0->kind == SM_VK_INT && i0 == 7);
    if (u4) {
        float m[4];
        memcpy(m, u4->data, 16);
        /* row-major {1,2,3,4} stored column-major: {1,3,2,4} */
        CHECK(u4->cols == 2 && u4->rows == 2 && m[0] == 1 && m[1] == 3 && m[2] == 2 && m[3] == 4);
    }
    CHECK(u4 != NULL);
    CHECK(p && p->n_ubo_bindings == 1 && p->ubo_bindings[0].index == 0 &&
          p->ubo_bindings[0].index2 == 3);

    /* textures and samplers */
    CHECK(st->active_texture == 3);
    CHECK(st->unit[3].bound[SM_TT_2D] == 7 && st->unit[3].sampler == 8);
    const struct sm_texture *t = sm_get_texture(c, 7);
    CHECK(t && t->target == GL_TEXTURE_2D);
    CHECK(t && t->image[0][0].defined && t->image[0][0].internal_format == GL_RGBA8 &&
          t->image[0][0].width == 4 && t->image[0][0].data_size == 64 &&
          t->image[0][0].data_alignment == 1);
    CHECK(t && t->image[0][1].defined && t->image[0][1].generated && t->image[0][1].width == 2);
    CHECK(t && t->image[0][2].defined && t->image[0][2].width == 1 && !t->image[0][3].defined);
    CHECK(t && t->params.min_filter == GL_LINEAR_MIPMAP_LINEAR);
    const struct sm_sampler *smp = sm_get_sampler(c, 8);
    CHECK(smp && smp->params.wrap_s == GL_CLAMP_TO_EDGE && smp->params.border_kind == SM_VK_FLOAT);
    if (smp) {
        memcpy(&f, &smp->params.border[1], 4);
        CHECK(f == 0.5f);
    }

    /* framebuffer */
    CHECK(st->draw_fbo == 1 && st->read_fbo == 1);
    const struct sm_framebuffer *fb = sm_get_framebuffer(c, 1);
    CHECK(fb && fb->color[0].type == GL_TEXTURE && fb->color[0].name == 7 &&
          fb->color[0].textarget == GL_TEXTURE_2D);
    CHECK(fb && fb->depth.type == GL_RENDERBUFFER && fb->stencil.name == 9);
    CHECK(fb && fb->n_draw_buffers == 1 && fb->draw_buffers[0] == GL_COLOR_ATTACHMENT0);
    const struct sm_renderbuffer *rb = sm_get_renderbuffer(c, 9);
    CHECK(rb && rb->internal_format == GL_DEPTH24_STENCIL8 && rb->width == 64 && rb->height == 32);

    /* context state */
    CHECK(st->viewport[0][2] == 64 && st->viewport[15][3] == 32);
    CHECK(st->scissor[0][0] == 1 && st->scissor_test[0] && st->scissor_test[7]);
    CHECK(sm_is_enabled(c, GL_DEPTH_TEST, 0) && st->depth_func == GL_LEQUAL);
    CHECK(st->blend_enabled[0] && st->blend_enabled[1] && !st->blend_enabled[2]);
    CHECK(st->blend[0].src_rgb == GL_SRC_ALPHA && st->blend[0].dst_alpha == GL_ZERO);
    CHECK(st->blend[1].src_rgb == GL_ONE && st->blend[1].dst_rgb == GL_ONE);
    CHECK(st->stencil[1].func == GL_EQUAL && st->stencil[0].func == GL_ALWAYS);
    CHECK(st->stencil[0].zpass == GL_REPLACE && st->stencil[1].zpass == GL_REPLACE);
    CHECK(st->color_mask[2][0] && !st->color_mask[2][1] && st->color_mask[1][1]);
    CHECK(fabsf(st->clear_color[1] - 0.2f) < 1e-6f && st->clear_depth == 0.5);
    CHECK(st->cull_face_mode == GL_FRONT && sm_is_enabled(c, GL_CULL_FACE, 0));
    CHECK(!sm_is_enabled(c, GL_DITHER, 0) && sm_is_enabled(c, GL_MULTISAMPLE, 0));
    CHECK(st->polygon_offset_units == 2.0f && st->line_width == 2.0f);
    CHECK(st->primitive_restart_index == 0xFFFF && sm_is_enabled(c, GL_PRIMITIVE_RESTART, 0));
    CHECK(st->provoking_vertex == GL_FIRST_VERTEX_CONVENTION);
    CHECK(st->pack.alignment == 2 && st->unpack.alignment == 1);
    CHECK(st->attrib_value[5].kind == SM_VK_FLOAT && st->attrib_value[5].v.f[1] == 0.25f);
    CHECK(st->n_hints == 1 && st->hints[0].mode == GL_NICEST);
    const struct sm_query *q = sm_get_query(c, 11);
    CHECK(q && q->target == GL_SAMPLES_PASSED && !q->active && st->n_active_queries == 0);
    CHECK(sm_get_sync(c, 0x7f00deadbeef00ull) != NULL);

    /* deletion unbinds in the current context and detaches from the bound framebuffer */
    uint32_t tex = 7;
    CHECK(tcall(s, 1, "glDeleteTextures", "ib", 1, &tex, sizeof tex));
    CHECK(sm_get_texture(c, 7) == NULL && st->unit[3].bound[SM_TT_2D] == 0);
    CHECK(fb && fb->color[0].type == 0);
    /* deleting the current program only marks it; it goes when no longer current */
    CHECK(tcall(s, 1, "glDeleteProgram", "u", 5));
    CHECK(sm_get_program(c, 5) && sm_get_program(c, 5)->delete_pending);
    CHECK(tcall(s, 1, "glUseProgram", "u", 0));
    CHECK(sm_get_program(c, 5) == NULL && sm_get_shader(c, 4) != NULL);
    CHECK(sm_error_count(s) == 0);
    sm_state_free(s);
}

static void test_legacy_frame(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 2, 0, SM_API_GL_COMPAT, 2, 1));
    build_legacy_frame(s, 2);
    const struct sm_context *c = sm_context_get(s, 2);
    const struct sm_context_state *st = sm_context_state(c);
    if (sm_error_count(s))
        fprintf(stderr, "first model error: %s\n", sm_first_error(s));
    CHECK(sm_error_count(s) == 0);
    const struct sm_vao *v = sm_get_vao(c, 0);
    CHECK(v->attrib[0].enabled && v->binding[0].buffer == 20);
    CHECK(v->attrib[1].enabled && v->binding[1].buffer == 0 &&
          v->attrib[1].pointer == 0x7fff12340000ull && v->attrib[1].normalized);
    CHECK(fabsf(st->attrib_value[2].v.f[2] - 0.2f) < 1e-6f && st->attrib_value[2].v.f[0] == 1.0f);
    CHECK(st->attrib_value[3].v.f[2] == 3.0f && st->attrib_value[3].v.f[3] == 1.0f);
    CHECK(v->legacy[SM_LA_VERTEX].enabled && v->legacy[SM_LA_VERTEX].pointer == 0x1000);
    CHECK(v->legacy[SM_LA_TEXCOORD0 + 1].enabled && v->legacy[SM_LA_TEXCOORD0 + 1].stride == 8);
    CHECK(st->client_active_texture == 1);
    const struct sm_program *p = sm_get_program(c, 31);
    CHECK(p && p->link_count == 1 && st->program == 31);
    const struct sm_uniform *u = p ? sm_program_uniform(p, 0) : NULL;
    CHECK(u && u->kind == SM_VK_FLOAT && u->rows == 1);
    CHECK(sm_is_enabled(c, GL_TEXTURE_2D, 0) && !sm_is_enabled(c, GL_TEXTURE_2D, 1));

    /* Unmodelled legacy commands are reported, never silently applied. */
    CHECK(!tcall(s, 2, "glEvalCoord1f", "f", 0.5));
    CHECK(!tcall(s, 2, "glMapGrid1f", "iff", 4, 0.0, 1.0));
    CHECK(!tcall(s, 2, "glEvalCoord1f", "f", 0.25));
    CHECK(sm_unhandled_calls(s) == 3);
    uint32_t cmds[8];
    uint64_t counts[8];
    size_t n = sm_unhandled_list(s, cmds, counts, 8);
    CHECK(n == 2);
    for (size_t i = 0; i < n && i < 8; i++) {
        if (cmds[i] == (uint32_t)glr_cmd_find("glEvalCoord1f"))
            CHECK(counts[i] == 2);
        else
            CHECK(cmds[i] == (uint32_t)glr_cmd_find("glMapGrid1f") && counts[i] == 1);
    }
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glDrawArrays")) == SM_CMD_NO_STATE);
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glGetIntegerv")) == SM_CMD_NO_STATE);
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glBindFramebufferEXT")) == SM_CMD_APPLIED);
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glMapGrid1d")) == SM_CMD_UNHANDLED);
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glLightfv")) == SM_CMD_APPLIED);
    /* The canonical form the GPU model's frame runner also dispatches on: EXT_framebuffer_object
     * commands (not aliased in the registry) act as their core forms, aliases follow the registry. */
    CHECK(sm_cmd_canonical((uint32_t)glr_cmd_find("glGenerateMipmapEXT")) ==
          (uint32_t)glr_cmd_find("glGenerateMipmap"));
    CHECK(sm_cmd_canonical((uint32_t)glr_cmd_find("glBindFramebufferEXT")) ==
          (uint32_t)glr_cmd_find("glBindFramebuffer"));
    CHECK(sm_cmd_canonical((uint32_t)glr_cmd_find("glActiveTextureARB")) ==
          (uint32_t)glr_cmd_find("glActiveTexture"));
    CHECK(sm_cmd_canonical((uint32_t)glr_cmd_find("glDrawArrays")) ==
          (uint32_t)glr_cmd_find("glDrawArrays"));
    sm_state_free(s);
}

static bool near(float a, float b) { return a - b < 1e-5f && b - a < 1e-5f; }

/* Legacy matrix stacks: the mode picks the stack (texture: the active unit's), transforms
 * post-multiply, push/pop save and restore, and stack misuse is an error, not a crash. */
static void test_matrix_stacks(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 3, "glMatrixMode", "u", GL_PROJECTION));
    CHECK(tcall(s, 3, "glLoadIdentity", ""));
    CHECK(tcall(s, 3, "glOrtho", "dddddd", -2.0, 2.0, -1.0, 1.0, -1.0, 1.0));
    CHECK(tcall(s, 3, "glMatrixMode", "u", GL_MODELVIEW));
    CHECK(tcall(s, 3, "glTranslatef", "fff", 1.0, 2.0, 3.0));
    CHECK(tcall(s, 3, "glPushMatrix", ""));
    CHECK(tcall(s, 3, "glRotatef", "ffff", 90.0, 0.0, 0.0, 2.0));
    CHECK(tcall(s, 3, "glScalef", "fff", 2.0, 2.0, 2.0));
    const struct sm_context *c = sm_context_get(s, 3);
    const struct sm_context_state *st = c ? sm_context_state(c) : NULL;
    CHECK(st != NULL);
    if (st) {
        const float *p = st->projection.m[st->projection.depth];
        CHECK(near(p[0], 0.5f) && near(p[5], 1.0f) && near(p[10], -1.0f) && near(p[15], 1.0f));
        const float *mv = st->modelview.m[st->modelview.depth];
        /* T(1,2,3) * Rz(90) * S(2): x maps to 2y, y to -2x, translation kept. */
        CHECK(st->modelview.depth == 1);
        CHECK(near(mv[0], 0.0f) && near(mv[1], 2.0f) && near(mv[4], -2.0f) && near(mv[5], 0.0f));
        CHECK(near(mv[10], 2.0f) && near(mv[12], 1.0f) && near(mv[13], 2.0f) && near(mv[14], 3.0f));
    }
    CHECK(tcall(s, 3, "glPopMatrix", ""));
    if (st) {
        const float *mv = st->modelview.m[st->modelview.depth];
        CHECK(st->modelview.depth == 0 && near(mv[0], 1.0f) && near(mv[12], 1.0f));
    }
    uint64_t errors = sm_error_count(s);
    CHECK(tcall(s, 3, "glPopMatrix", ""));
    CHECK(sm_error_count(s) == errors + 1);
    float m[16] = { 0 };
    for (int i = 0; i < 16; i++)
        m[i] = (float)i;
    CHECK(tcall(s, 3, "glActiveTexture", "u", GL_TEXTURE1));
    CHECK(tcall(s, 3, "glMatrixMode", "u", GL_TEXTURE));
    CHECK(tcall(s, 3, "glLoadTransposeMatrixf", "b", (const void *)m, sizeof m));
    if (st) {
        CHECK(near(st->texture[1].m[0][1], 4.0f) && near(st->texture[1].m[0][4], 1.0f));
        CHECK(near(st->texture[0].m[0][1], 0.0f) && near(st->texture[0].m[0][0], 1.0f));
    }
    CHECK(tcall(s, 3, "glFrustum", "dddddd", -1.0, 1.0, -1.0, 1.0, 0.0, 1.0));
    CHECK(sm_error_count(s) == errors + 2);
    sm_state_free(s);
}

static void test_bad_arguments(void)
{
    struct sm_state *s = sm_state_new();
    /* Out-of-range indices and unknown names are errors the model counts, never crashes on. */
    CHECK(tcall(s, 3, "glActiveTexture", "u", GL_TEXTURE0 + 500));
    CHECK(tcall(s, 3, "glBindBufferBase", "uuu", GL_UNIFORM_BUFFER, 100000, 1));
    CHECK(tcall(s, 3, "glEnableVertexAttribArray", "u", 1000));
    CHECK(tcall(s, 3, "glUniform1f", "if", 0, 1.0));            /* no program */
    CHECK(tcall(s, 3, "glAttachShader", "uu", 77, 78));        /* no such objects */
    CHECK(tcall(s, 3, "glTexImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA,
                GL_UNSIGNED_BYTE, NULL, (size_t)0));            /* the default texture */
    CHECK(tcall(s, 3, "glDrawBuffers", "ib", 4, NULL, (size_t)0));   /* missing blob */
    CHECK(tcall(s, 3, "glBufferSubData", "uppb", GL_ARRAY_BUFFER, (uint64_t)0, (uint64_t)4, "abcd",
                (size_t)4));
    /* glAttachShader reports both the program and the shader; the image with nothing bound
     * goes to GL_TEXTURE_2D's default texture, which is no error */
    CHECK(sm_error_count(s) == 8);
    const struct sm_context *c0 = sm_context_get(s, 3);
    const struct sm_texture *def = c0 ? sm_get_texture(c0, sm_texture_key(0, SM_TT_2D)) : NULL;
    CHECK(def && def->target == GL_TEXTURE_2D && def->image[0][0].defined && def->image[0][0].width == 4);
    CHECK(c0 && !sm_get_texture(c0, sm_texture_key(0, SM_TT_1D)));
    CHECK(strlen(sm_first_error(s)) > 0);
    struct glr_call bad = { .cmd = GLR_PSEUDO_END + 5, .ctx_id = 3 }; /* past every known record type */
    CHECK(!sm_apply(s, &bad));
    sm_state_free(s);
}

/* Bytes written through a mapping arrive as GLR_PSEUDO_BUFFER_DATA records: the contents stay
 * known across the map (the recorder sends the written bytes), the record's bytes land at its
 * offset, and a record covering a buffer whose contents were unknown makes them known. */
static void test_mapped_writes(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    uint32_t one = 1;
    CHECK(tcall(s, 1, "glGenBuffers", "ib", 1, &one, sizeof one));
    CHECK(tcall(s, 1, "glBindBuffer", "uu", GL_UNIFORM_BUFFER, 1));
    CHECK(tcall(s, 1, "glBufferData", "upbu", GL_UNIFORM_BUFFER, (uint64_t)8, "ABCDEFGH", (size_t)8, GL_DYNAMIC_DRAW));
    CHECK(tcall(s, 1, "glMapBufferRange", "uppur", GL_UNIFORM_BUFFER, (uint64_t)2, (uint64_t)4,
                GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT, (uint64_t)0x1000));
    struct glr_call d = { .cmd = GLR_PSEUDO_BUFFER_DATA, .ctx_id = 1 };
    d.args[0] = 0x1000; d.args[1] = 0; d.args[2] = 4; d.args[3] = 1; d.args[4] = 2;
    d.blobs[0] = (struct glr_blob){ "wxyz", 4 };
    CHECK(sm_apply(s, &d));
    CHECK(tcall(s, 1, "glUnmapBuffer", "u", GL_UNIFORM_BUFFER));
    const struct sm_buffer *b = sm_get_buffer(sm_context_get(s, 1), 1);
    CHECK(b && b->data_known && b->data && !memcmp(b->data, "ABwxyzGH", 8));
    /* A write past the buffer's end is ignored, not applied in part. */
    d.args[4] = 6;
    CHECK(sm_apply(s, &d));
    CHECK(b && !memcmp(b->data, "ABwxyzGH", 8));
    /* Contents unknown (storage without data over the zero-fill limit is not the case here: a
     * clear makes them unknown), then one record covering the whole buffer: known again. */
    CHECK(tcall(s, 1, "glClearBufferData", "uuuub", GL_UNIFORM_BUFFER, GL_R8, GL_RED, GL_UNSIGNED_BYTE, NULL, (size_t)0));
    b = sm_get_buffer(sm_context_get(s, 1), 1);
    CHECK(b && !b->data_known);
    d.args[4] = 0;
    d.args[2] = 8;
    d.blobs[0] = (struct glr_blob){ "12345678", 8 };
    CHECK(sm_apply(s, &d));
    CHECK(b && b->data_known && b->data && !memcmp(b->data, "12345678", 8));
    sm_state_free(s);
}

/* A create call returning a name still in the model (a corrupt capture: GL never does that):
 * counted as an error, the new object takes the name and the old one is freed, not leaked (the
 * ASan build of this test checks the leak). */
static void test_create_reuses_name(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)9));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)3));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 3, 1, "void main() {}", (uint64_t)0));
    CHECK(sm_error_count(s) == 0);
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)9));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)3));
    const char *srcs[1] = { "void main() {}" };
    CHECK(tcall(s, 1, "glCreateShaderProgramv", "uiSr", GL_FRAGMENT_SHADER, 1, srcs, 1, (uint64_t)9));
    CHECK(sm_error_count(s) == 3);
    CHECK(strstr(sm_first_error(s), "still in use") != NULL);
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_shader *sh = c ? sm_get_shader(c, 3) : NULL;
    CHECK(sh && sh->type == GL_FRAGMENT_SHADER && (!sh->source || !sh->source[0]));
    const struct sm_program *p = c ? sm_get_program(c, 9) : NULL;
    CHECK(p && p->separable);
    sm_state_free(s);
}

/* SPIR-V shaders (GL_ARB_gl_spirv): glShaderBinary gives both listed shaders the module,
 * glSpecializeShader the entry point and constants, the link snapshot keeps a copy that a later
 * glShaderSource (which drops the module) does not touch; a short binary or a missing entry
 * point is an error, not a crash. */
static void test_spirv_shaders(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 6));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)3));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)4));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)9));
    const uint32_t names[2] = { 3, 4 }, module[5] = { 0x07230203u, 0x10000u, 0, 8, 0 };
    CHECK(tcall(s, 1, "glShaderBinary", "ibubi", 2, names, sizeof names, GL_SHADER_BINARY_FORMAT_SPIR_V,
                module, sizeof module, (int)sizeof module));
    const uint32_t ids[2] = { 3, 4 }, vals[2] = { 7, 1 };
    CHECK(tcall(s, 1, "glSpecializeShader", "uzubb", 4, "main", 2, ids, sizeof ids, vals, sizeof vals));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 9, 4));
    CHECK(tcall(s, 1, "glLinkProgram", "u", 9));
    CHECK(sm_error_count(s) == 0);
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_shader *v = c ? sm_get_shader(c, 3) : NULL, *f = c ? sm_get_shader(c, 4) : NULL;
    CHECK(v && v->spirv && v->spirv->size == sizeof module && !v->spirv->entry && !v->compiled);
    CHECK(f && f->spirv && f->compiled && f->spirv->entry && !strcmp(f->spirv->entry, "main") &&
          f->spirv->n_spec == 2 && f->spirv->spec_ids[1] == 4 && f->spirv->spec_values[0] == 7);
    CHECK(f && f->spirv && !memcmp(f->spirv->binary, module, sizeof module) && !f->source);
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 4, 1, "void main() {}", (uint64_t)0));
    const struct sm_program *p = c ? sm_get_program(c, 9) : NULL;
    CHECK(f && !f->spirv && f->source);
    CHECK(p && p->n_linked == 1 && p->linked[0].spirv && p->linked[0].spirv->n_spec == 2 &&
          !strcmp(p->linked[0].spirv->entry, "main"));
    /* a binary shorter than its length, a specialization without a module or an entry point */
    tcall(s, 1, "glShaderBinary", "ibubi", 1, names, sizeof names[0], GL_SHADER_BINARY_FORMAT_SPIR_V,
          module, (size_t)8, 20);
    tcall(s, 1, "glSpecializeShader", "uzubb", 4, "main", 0, NULL, (size_t)0, NULL, (size_t)0);
    tcall(s, 1, "glSpecializeShader", "ububb", 3, NULL, (size_t)0, 0, NULL, (size_t)0, NULL, (size_t)0);
    CHECK(sm_error_count(s) == 3);
    CHECK(v && v->spirv && v->spirv->size == sizeof module && !v->spirv->entry);
    sm_state_free(s);
}

/* Line and polygon stipple: glLineStipple clamps the repeat; glPolygonStipple unpacks 32x32
 * bits under the unpack state (MSB first by default, LSB first and skipped rows honoured). */
static void test_stipples(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 4, 0, SM_API_GL_COMPAT, 2, 1));
    const struct sm_context_state *st = sm_context_state(sm_context_get(s, 4));
    CHECK(st->line_stipple_repeat == 1 && st->line_stipple_pattern == 0xFFFF);
    CHECK(st->polygon_stipple[0] == 0xFFFFFFFFu && st->polygon_stipple[31] == 0xFFFFFFFFu);
    CHECK(tcall(s, 4, "glLineStipple", "iu", 300, 0x1234ABCDu));
    CHECK(st->line_stipple_repeat == 256 && st->line_stipple_pattern == 0xABCD);
    uint8_t pat[4 * 33];
    for (int i = 0; i < (int)sizeof pat; i++)
        pat[i] = (uint8_t)(i * 7 + 1);
    CHECK(tcall(s, 4, "glPolygonStipple", "b", pat, (size_t)128));
    CHECK(st->polygon_stipple[0] == (uint32_t)(pat[0] << 24 | pat[1] << 16 | pat[2] << 8 | pat[3]));
    CHECK(st->polygon_stipple[31] == (uint32_t)(pat[124] << 24 | pat[125] << 16 | pat[126] << 8 | pat[127]));
    CHECK(tcall(s, 4, "glPixelStorei", "ui", GL_UNPACK_LSB_FIRST, 1));
    CHECK(tcall(s, 4, "glPixelStorei", "ui", GL_UNPACK_SKIP_ROWS, 1));
    CHECK(tcall(s, 4, "glPolygonStipple", "b", pat, sizeof pat));
    uint32_t want = 0;
    for (int x = 0; x < 32; x++)
        want |= (uint32_t)((pat[4 + x / 8] >> (x % 8)) & 1u) << (31 - x);
    CHECK(st->polygon_stipple[0] == want);
    /* too short a blob: the pattern is kept */
    CHECK(tcall(s, 4, "glPolygonStipple", "b", pat, (size_t)16));
    CHECK(st->polygon_stipple[0] == want);
    sm_state_free(s);
}

int main(void)
{
    test_stipples();
    test_spirv_shaders();
    test_create_reuses_name();
    test_core_frame();
    test_legacy_frame();
    test_bad_arguments();
    test_matrix_stacks();
    test_mapped_writes();
    return sm_test_result("test_sm_apply");
}
