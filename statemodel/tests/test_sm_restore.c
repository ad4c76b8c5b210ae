/* Restore-call generation: the expected order (objects, bindings, state), and applying the
 * generated calls to an empty model reproduces the saved state exactly. */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"

static long find(const struct sm_call_list *l, const char *name, size_t from)
{
    int id = glr_cmd_find(name);
    for (size_t i = from; i < l->count; i++)
        if (l->calls[i].cmd == (uint32_t)id)
            return (long)i;
    return -1;
}

/* First call of a command with a given first argument. */
static long find1(const struct sm_call_list *l, const char *name, uint64_t a0)
{
    int id = glr_cmd_find(name);
    for (size_t i = 0; i < l->count; i++)
        if (l->calls[i].cmd == (uint32_t)id && l->calls[i].args[0] == a0)
            return (long)i;
    return -1;
}

static struct sm_state *replay_into_new(const struct sm_state *orig, const struct sm_call_list *l)
{
    struct sm_state *r = sm_state_new();
    /* The replayer creates the contexts with the captured share relations first. */
    for (size_t i = 0; i < sm_context_count(orig); i++) {
        const struct sm_context *c = sm_context_at(orig, i);
        int major, minor;
        enum sm_api api = sm_context_api(c, &major, &minor);
        uint32_t share = 0;
        for (size_t k = 0; k < i; k++)
            if (sm_context_share_id(sm_context_at(orig, k)) == sm_context_share_id(c)) {
                share = sm_context_id(sm_context_at(orig, k));
                break;
            }
        CHECK(sm_context_create(r, sm_context_id(c), share, api, major, minor));
    }
    for (size_t i = 0; i < l->count; i++)
        CHECK(sm_apply(r, &l->calls[i]));
    return r;
}

static void test_core(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    build_core_frame(s, 1);
    struct sm_call_list l = { 0 };
    CHECK(sm_restore_calls(s, &l));
    CHECK(l.count > 40);
    for (size_t i = 0; i < l.count; i++)
        CHECK(l.calls[i].ctx_id == 1);

    /* Objects before bindings before state. */
    long gen_buf = find(&l, "glGenBuffers", 0);
    long buf_data = find(&l, "glBufferData", 0);
    long create_sh = find(&l, "glCreateShader", 0);
    long link = find(&l, "glLinkProgram", 0);
    long uni = find(&l, "glUniform4fv", 0);
    long use_final = -1;
    for (long i = (long)l.count - 1; i >= 0; i--)
        if (l.calls[i].cmd == (uint32_t)glr_cmd_find("glUseProgram") && l.calls[i].args[0] == 5) {
            use_final = i;
            break;
        }
    long vao_bind_final = -1;
    for (long i = (long)l.count - 1; i >= 0; i--)
        if (l.calls[i].cmd == (uint32_t)glr_cmd_find("glBindVertexArray")) {
            vao_bind_final = i;
            break;
        }
    long viewport = find(&l, "glViewport", 0);
    long depth = find1(&l, "glEnable", GL_DEPTH_TEST);
    CHECK(gen_buf >= 0 && buf_data > gen_buf);
    CHECK(create_sh > buf_data && link > create_sh && uni > link);
    CHECK(use_final > uni && vao_bind_final > link);
    CHECK(viewport > use_final && depth > use_final);
    CHECK(buf_data >= 0 && l.calls[buf_data].blobs[2].size == 48);
    CHECK(create_sh >= 0 && (l.calls[create_sh].flags & GLR_CALL_HAS_RET) && l.calls[create_sh].ret == 4);
    /* The vertex shader was deleted after link: the program is linked from a temporary copy. */
    long temp_delete = find(&l, "glDeleteShader", 0);
    CHECK(temp_delete > link);
    CHECK(find(&l, "glGenerateMipmap", 0) > find(&l, "glTexImage2D", 0));
    CHECK(find(&l, "glFenceSync", 0) >= 0);

    struct sm_state *r = replay_into_new(s, &l);
    CHECK(sm_error_count(r) == 0);
    if (sm_error_count(r))
        fprintf(stderr, "replay error: %s\n", sm_first_error(r));
    CHECK(sm_state_equal(s, r));
    if (!sm_state_equal(s, r)) {
        char *a = sm_to_json(s), *b = sm_to_json(r);
        size_t k = 0;
        while (a[k] && a[k] == b[k])
            k++;
        fprintf(stderr, "first difference at %zu:\n  saved:    %.160s\n  restored: %.160s\n", k,
                a + (k > 60 ? k - 60 : 0), b + (k > 60 ? k - 60 : 0));
        free(a);
        free(b);
    }
    sm_state_free(r);
    sm_call_list_free(&l);
    sm_state_free(s);
}

static void test_legacy_and_shared(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    CHECK(sm_context_create(s, 2, 1, SM_API_GL_CORE, 4, 5));
    CHECK(sm_context_create(s, 3, 0, SM_API_GL_COMPAT, 2, 1));
    build_core_frame(s, 1);
    build_legacy_frame(s, 3);
    uint32_t vao = 4;
    tcall(s, 2, "glGenVertexArrays", "ib", 1, &vao, sizeof vao);
    tcall(s, 2, "glBindVertexArray", "u", 4);
    tcall(s, 2, "glActiveTexture", "u", GL_TEXTURE1);
    tcall(s, 2, "glBindTexture", "uu", GL_TEXTURE_2D, 7);   /* shared texture */
    tcall(s, 2, "glEnable", "u", GL_BLEND);
    struct sm_call_list l = { 0 };
    CHECK(sm_restore_calls(s, &l));
    /* Shared objects are created once, on the group's first context. */
    int tex_gens = 0;
    for (size_t i = 0; i < l.count; i++)
        if (l.calls[i].cmd == (uint32_t)glr_cmd_find("glGenTextures")) {
            tex_gens++;
            CHECK(l.calls[i].ctx_id == 1);
        }
    CHECK(tex_gens == 1);
    long legacy = find(&l, "glVertexPointer", 0);
    CHECK(legacy >= 0 && l.calls[legacy].ctx_id == 3);
    struct sm_state *r = replay_into_new(s, &l);
    CHECK(sm_error_count(r) == 0);
    if (sm_error_count(r))
        fprintf(stderr, "replay error: %s\n", sm_first_error(r));
    CHECK(sm_state_equal(s, r));
    sm_state_free(r);
    sm_call_list_free(&l);
    sm_state_free(s);
}

/* SPIR-V shaders (GL_ARB_gl_spirv): restored with glShaderBinary and glSpecializeShader (no
 * glCompileShader, which GL refuses for them); a program linked from a module whose shader was
 * given GLSL since links from a temporary shader holding the module. */
static void test_spirv(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 6));
    const uint32_t names[2] = { 3, 4 }, module[5] = { 0x07230203u, 0x10000u, 0, 8, 0 };
    const uint32_t ids[1] = { 2 }, vals[1] = { 5 };
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)3));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)4));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)9));
    CHECK(tcall(s, 1, "glShaderBinary", "ibubi", 2, names, sizeof names, GL_SHADER_BINARY_FORMAT_SPIR_V,
                module, sizeof module, (int)sizeof module));
    CHECK(tcall(s, 1, "glSpecializeShader", "uzubb", 3, "main", 1, ids, sizeof ids, vals, sizeof vals));
    CHECK(tcall(s, 1, "glSpecializeShader", "uzubb", 4, "main", 0, NULL, (size_t)0, NULL, (size_t)0));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 9, 3));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 9, 4));
    CHECK(tcall(s, 1, "glLinkProgram", "u", 9));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 4, 1, "void main() {}", (uint64_t)0));
    CHECK(sm_error_count(s) == 0);
    struct sm_call_list l = { 0 };
    CHECK(sm_restore_calls(s, &l));
    long bin = find(&l, "glShaderBinary", 0), spec = find(&l, "glSpecializeShader", 0);
    CHECK(bin >= 0 && spec > bin && l.calls[bin].blobs[3].size == sizeof module);
    CHECK(spec >= 0 && l.calls[spec].args[0] == 3 && l.calls[spec].blobs[3].size == 4);
    for (size_t i = 0; i < l.count; i++)   /* only the GLSL shader 4 is compiled */
        if (l.calls[i].cmd == (uint32_t)glr_cmd_find("glCompileShader"))
            CHECK(l.calls[i].args[0] == 4);
    struct sm_state *r = replay_into_new(s, &l);
    CHECK(sm_error_count(r) == 0);
    if (sm_error_count(r))
        fprintf(stderr, "replay error: %s\n", sm_first_error(r));
    CHECK(sm_state_equal(s, r));
    const struct sm_program *p = sm_get_program(sm_context_get(r, 1), 9);
    CHECK(p && p->n_linked == 2 && p->linked[0].spirv && p->linked[1].spirv &&
          p->linked[0].spirv->n_spec == 1 && p->linked[0].spirv->spec_values[0] == 5);
    sm_state_free(r);
    sm_call_list_free(&l);
    sm_state_free(s);
}

int main(void)
{
    test_spirv();
    test_core();
    test_legacy_and_shared();
    return sm_test_result("test_sm_restore");
}
