/* Unit test of the shim's always-on object tracking (shim/track.c), linked with stand-ins for the
 * shim's context functions. Calls are handed to glr_track_call() exactly as the generated track
 * functions do (registry/gen_registry.py, track_body()): packed arguments and blobs
 * pointing at client memory. Checks names, shader sources kept after the shader is deleted, link
 * inputs, share groups and context destruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/track.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

/* ---- stand-ins for the shim (contexts.c, shim_state.c) ---- */
bool glr_disabled;
static uint32_t current_ctx;
struct glr_context { int unused; };
static struct glr_context fake;
struct glr_context *glr_ctx_current(void) { return current_ctx ? &fake : NULL; }
uint32_t glr_ctx_id(const struct glr_context *c) { return c ? current_ctx : 0; }

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

/* ---- calls as the generated track functions make them ---- */

static void gen(uint32_t cmd, uint32_t n, const uint32_t *names)
{
    uint64_t a[2] = { n, (uint64_t)(uintptr_t)names };
    struct glr_blob b[2] = { { 0 }, { 0 } };
    glr_track_blob(&b[1], names, (int64_t)n * 4);
    glr_track_call(cmd, a, b, 2, 0, 0, 0);
}

static void one_name(uint32_t cmd, uint32_t name)
{
    uint64_t a[1] = { name };
    struct glr_blob b[1] = { { 0 } };
    glr_track_call(cmd, a, b, 1, 0, 0, 0);
}

static void two_names(uint32_t cmd, uint32_t x, uint32_t y)
{
    uint64_t a[2] = { x, y };
    struct glr_blob b[2] = { { 0 }, { 0 } };
    glr_track_call(cmd, a, b, 2, 0, 0, 0);
}

static void create(uint32_t cmd, uint64_t arg, int nargs, uint32_t ret)
{
    uint64_t a[1] = { arg };
    struct glr_blob b[1] = { { 0 } };
    glr_track_call(cmd, a, b, nargs, ret, 1, 0);
}

static void shader_source(uint32_t shader, const char *text)
{
    const char *strings[1] = { text };
    uint64_t a[4] = { shader, 1, (uint64_t)(uintptr_t)strings, 0 };
    struct glr_blob b[4] = { { 0 }, { 0 }, { 0 }, { 0 } };
    unsigned owned = glr_track_strings(&b[2], strings, 1, NULL) << 2;
    glr_track_call(GLR_CMD_glShaderSource, a, b, 4, 0, 0, owned);
}

static void bind_attrib(uint32_t prog, uint32_t index, const char *name)
{
    uint64_t a[3] = { prog, index, (uint64_t)(uintptr_t)name };
    struct glr_blob b[3] = { { 0 }, { 0 }, { 0 } };
    glr_track_string(&b[2], name);
    glr_track_call(GLR_CMD_glBindAttribLocation, a, b, 3, 0, 0, 0);
}

static bool has_name(const struct sm_context *c, enum sm_object_kind k, uint32_t name)
{
    uint32_t names[64];
    size_t n = sm_object_names(c, k, names, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (names[i] == name)
            return true;
    return false;
}

int main(void)
{
    /* Two contexts of one share group, and a third on its own. */
    glr_track_context_created(1, 1);
    glr_track_context_created(2, 1);
    glr_track_context_created(3, 3);
    glr_track_context_described(1, false, 4, 5, 1);
    glr_track_context_described(2, false, 4, 5, 1);
    glr_track_context_described(3, true, 3, 2, 0);
    bool es = true;
    int major = 0, minor = 0, profile = 0;
    CHECK(glr_track_context_version(1, &es, &major, &minor, &profile) && !es && major == 4 && minor == 5 &&
          profile == 1, "context 1 version");
    CHECK(glr_track_context_version(3, &es, &major, &minor, &profile) && es && major == 3, "context 3 version");

    current_ctx = 1;
    uint32_t bufs[3] = { 1, 2, 3 }, tex[1] = { 7 }, vao[1] = { 1 };
    gen(GLR_CMD_glGenBuffers, 3, bufs);
    gen(GLR_CMD_glGenTextures, 1, tex);
    gen(GLR_CMD_glGenVertexArrays, 1, vao);
    uint32_t del[1] = { 2 };
    gen(GLR_CMD_glDeleteBuffers, 1, del);
    create(GLR_CMD_glCreateShader, GL_VERTEX_SHADER, 1, 10);
    shader_source(10, "#version 330 core\nvoid main() { gl_Position = vec4(0); }\n");
    one_name(GLR_CMD_glCompileShader, 10);
    create(GLR_CMD_glCreateProgram, 0, 0, 11);
    two_names(GLR_CMD_glAttachShader, 11, 10);
    bind_attrib(11, 3, "a_pos");
    one_name(GLR_CMD_glLinkProgram, 11);
    /* Deleted while attached: the source must survive (the driver cannot give it back). */
    one_name(GLR_CMD_glDeleteShader, 10);

    /* Context 2 shares: its buffer is visible from context 1; its VAO is its own. */
    current_ctx = 2;
    uint32_t b2[1] = { 4 }, vao2[1] = { 1 };
    gen(GLR_CMD_glGenBuffers, 1, b2);
    gen(GLR_CMD_glGenVertexArrays, 1, vao2);
    /* Context 3 is in another group. */
    current_ctx = 3;
    uint32_t b3[1] = { 9 };
    gen(GLR_CMD_glGenBuffers, 1, b3);
    /* No current context: ignored. */
    current_ctx = 0;
    uint32_t b0[1] = { 99 };
    gen(GLR_CMD_glGenBuffers, 1, b0);

    struct sm_state *s = glr_track_clone();
    CHECK(s != NULL, "clone");
    if (!s)
        return 1;
    const struct sm_context *c1 = sm_context_get(s, 1), *c2 = sm_context_get(s, 2), *c3 = sm_context_get(s, 3);
    CHECK(c1 && c2 && c3, "contexts declared");
    if (!c1 || !c2 || !c3)
        return 1;
    CHECK(sm_context_share_id(c1) == sm_context_share_id(c2), "contexts 1 and 2 share");
    CHECK(sm_context_share_id(c3) != sm_context_share_id(c1), "context 3 has its own group");
    CHECK(sm_context_api(c3, NULL, NULL) == SM_API_GLES, "context 3 is ES");
    CHECK(sm_context_api(c1, NULL, NULL) == SM_API_GL_CORE, "context 1 is core");
    CHECK(has_name(c1, SM_OBJ_BUFFER, 1) && has_name(c1, SM_OBJ_BUFFER, 3), "buffers 1 and 3 live");
    CHECK(!has_name(c1, SM_OBJ_BUFFER, 2), "buffer 2 deleted");
    CHECK(has_name(c1, SM_OBJ_BUFFER, 4), "buffer 4 of context 2 visible from context 1");
    CHECK(!has_name(c1, SM_OBJ_BUFFER, 9) && has_name(c3, SM_OBJ_BUFFER, 9), "buffer 9 only in context 3's group");
    CHECK(!has_name(c1, SM_OBJ_BUFFER, 99), "a call with no current context is not tracked");
    CHECK(has_name(c1, SM_OBJ_TEXTURE, 7), "texture 7");
    CHECK(sm_object_count(c1, SM_OBJ_VAO) == 1 && sm_object_count(c2, SM_OBJ_VAO) == 1, "one VAO per context");
    const struct sm_shader *sh = sm_get_shader(c1, 10);
    CHECK(sh && sh->source && strstr(sh->source, "gl_Position") && sh->delete_pending,
          "shader 10 deleted while attached keeps its source");
    const struct sm_program *p = sm_get_program(c1, 11);
    CHECK(p && p->link_count == 1, "program 11 linked once");
    CHECK(p && p->n_attrib_bindings == 1 && !strcmp(p->attrib_bindings[0].name, "a_pos") &&
          p->attrib_bindings[0].index == 3, "attribute binding a_pos -> 3");
    CHECK(p && p->n_linked == 1 && p->linked[0].source && strstr(p->linked[0].source, "gl_Position"),
          "the linked shader's source");
    sm_state_free(s);

    /* Destroying context 3 drops it (and its lone group). */
    glr_track_context_destroyed(3);
    s = glr_track_clone();
    CHECK(s && !sm_context_get(s, 3) && sm_context_get(s, 1), "context 3 destroyed");
    sm_state_free(s);

    /* GLREPLAY_DISABLE: nothing is tracked. */
    glr_disabled = true;
    current_ctx = 1;
    uint32_t b5[1] = { 5 };
    gen(GLR_CMD_glGenBuffers, 1, b5);
    s = glr_track_clone();
    CHECK(s && sm_context_get(s, 1) && !has_name(sm_context_get(s, 1), SM_OBJ_BUFFER, 5), "disabled: not tracked");
    sm_state_free(s);

    if (failures) {
        printf("%d check(s) failed\n", failures);
        return 1;
    }
    printf("tracking: all checks passed\n");
    return 0;
}
