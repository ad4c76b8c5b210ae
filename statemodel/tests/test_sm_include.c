/* GL_ARB_shading_language_include in the state model: named strings per share group, #include
 * resolved when a shader is compiled (absolute paths with `.`/`..`, nested includes relative to
 * the including string, glCompileShaderIncludeARB's search paths, quotes and angle brackets),
 * an unknown path left as it is, glDeleteNamedStringARB. */
#include <string.h>
#include "sm_test.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

static const char *compiled(struct sm_state *s, uint32_t name)
{
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_shader *sh = c ? sm_get_shader(c, name) : NULL;
    return sh && sh->source ? sh->source : "";
}

int main(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 4, 5));
    const char *a = "/lib/./x/../a.glsl", *a_text = "float fa() { return 1.0; }\n#include \"b.glsl\"\n";
    const char *b = "/lib/b.glsl", *b_text = "float fb() { return 2.0; }";
    const char *c = "/other/c.glsl", *c_text = "float fc() { return 3.0; }\n";
    CHECK(tcall(s, 1, "glNamedStringARB", "uibib", GL_SHADER_INCLUDE_ARB, -1, a, strlen(a) + 1,
                (int)strlen(a_text), a_text, strlen(a_text)));
    CHECK(tcall(s, 1, "glNamedStringARB", "uibib", GL_SHADER_INCLUDE_ARB, (int)strlen(b), b, strlen(b),
                -1, b_text, strlen(b_text) + 1));
    CHECK(tcall(s, 1, "glNamedStringARB", "uibib", GL_SHADER_INCLUDE_ARB, -1, c, strlen(c) + 1, -1,
                c_text, strlen(c_text) + 1));
    CHECK(sm_error_count(s) == 0);

    /* glCompileShader: absolute path, nested relative include from /lib */
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)3));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 3, 1,
                "#extension GL_ARB_shading_language_include : enable\n#include \"/lib/a.glsl\"\n"
                "void main() {}\n", (uint64_t)0));
    CHECK(tcall(s, 1, "glCompileShader", "u", 3));
    CHECK(!strcmp(compiled(s, 3), "#extension GL_ARB_shading_language_include : enable\n"
                                  "float fa() { return 1.0; }\nfloat fb() { return 2.0; }\n"
                                  "void main() {}\n"));

    /* glCompileShaderIncludeARB: <c.glsl> through the second search path; an unknown one stays */
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)4));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 4, 1, "#include <c.glsl>\n#include <nope.glsl>\n",
                (uint64_t)0));
    const char *paths[2] = {"/lib", "/other/"};
    CHECK(tcall(s, 1, "glCompileShaderIncludeARB", "uiSp", 4, 2, paths, 2, (uint64_t)0));
    CHECK(!strcmp(compiled(s, 4), "float fc() { return 3.0; }\n#include <nope.glsl>\n"));

    /* a deleted string no longer resolves; a path above the root is refused */
    CHECK(tcall(s, 1, "glDeleteNamedStringARB", "ib", -1, c, strlen(c) + 1));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)5));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 5, 1, "#include \"/other/c.glsl\"\n", (uint64_t)0));
    CHECK(tcall(s, 1, "glCompileShader", "u", 5));
    CHECK(!strcmp(compiled(s, 5), "#include \"/other/c.glsl\"\n"));
    CHECK(tcall(s, 1, "glNamedStringARB", "uibib", GL_SHADER_INCLUDE_ARB, -1, "/../x", (size_t)6, -1,
                "x", (size_t)2));
    CHECK(sm_error_count(s) == 1);

    /* a string that includes itself twice: the expansion stops (nesting limit, 64 MiB) and the
     * call is reported instead of running 2^32 expansions */
    const char *loop = "/loop.glsl", *loop_text = "#include \"/loop.glsl\"\n#include \"/loop.glsl\"\n"
                                                  "float padding_padding_padding_padding_padding;\n";
    CHECK(tcall(s, 1, "glNamedStringARB", "uibib", GL_SHADER_INCLUDE_ARB, -1, loop, strlen(loop) + 1, -1,
                loop_text, strlen(loop_text) + 1));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)6));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 6, 1, "#include \"/loop.glsl\"\n", (uint64_t)0));
    CHECK(tcall(s, 1, "glCompileShader", "u", 6));
    CHECK(sm_error_count(s) == 2);
    CHECK(!strcmp(compiled(s, 6), "#include \"/loop.glsl\"\n"));
    sm_state_free(s);
    return sm_test_result("test_sm_include");
}
