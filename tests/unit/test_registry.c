/* Unit test of the generated command table: lookup round trips, aliases, parameter metadata. */
#include <stdio.h>
#include <string.h>
#include "registry/glr_registry.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

int main(void)
{
    CHECK(GLR_CMD_COUNT > 3000, "only %d commands generated", GLR_CMD_COUNT);
    for (int i = 0; i < GLR_CMD_COUNT; i++) {
        const struct glr_cmd_info *c = &glr_cmds[i];
        CHECK(glr_cmd_find(glr_str(c->name)) == i, "lookup of %s gives %d, not %d", glr_str(c->name), glr_cmd_find(glr_str(c->name)), i);
        if (i > 0)
            CHECK(strcmp(glr_cmd_name(i - 1), glr_str(c->name)) < 0, "table not sorted at %s", glr_str(c->name));
        CHECK(c->nparams <= GLR_MAX_PARAMS, "%s has %d params", glr_str(c->name), c->nparams);
        if (c->alias >= 0) {
            CHECK(c->alias < GLR_CMD_COUNT, "%s alias out of range", glr_str(c->name));
            /* An alias must be callable in place of its target: same parameter count and kinds. */
            const struct glr_cmd_info *t = &glr_cmds[c->alias];
            CHECK(t->nparams == c->nparams, "%s aliases %s with %d vs %d params", glr_str(c->name), glr_str(t->name), c->nparams,
                  t->nparams);
            for (int p = 0; p < c->nparams && p < t->nparams; p++)
                CHECK(glr_cmd_params(t)[p].kind == glr_cmd_params(c)[p].kind ||
                      ((glr_cmd_params(t)[p].kind == GLR_KIND_I32 || glr_cmd_params(t)[p].kind == GLR_KIND_U32) &&
                       (glr_cmd_params(c)[p].kind == GLR_KIND_I32 || glr_cmd_params(c)[p].kind == GLR_KIND_U32)), "%s param %d kind differs from alias %s", glr_str(c->name),
                      p, glr_str(t->name));
        }
        for (int p = 0; p < c->nparams; p++) {
            const struct glr_param_info *pi = &glr_cmd_params(c)[p];
            CHECK(pi->kind != GLR_KIND_VOID, "%s param %s has no kind", glr_str(c->name), glr_param_name(pi));
            CHECK(!pi->is_pointer || pi->kind == GLR_KIND_PTR, "%s pointer param %s not PTR", glr_str(c->name), glr_param_name(pi));
        }
    }
    /* Known entries from each registry file. */
    int u4f = glr_cmd_find("glUniform4f");
    CHECK(u4f >= 0 && glr_cmds[u4f].nparams == 5 && glr_cmd_params(&glr_cmds[u4f])[1].kind == GLR_KIND_F32,
          "glUniform4f metadata wrong");
    int ss = glr_cmd_find("glShaderSource");
    CHECK(ss >= 0 && glr_cmd_params(&glr_cmds[ss])[2].len && strcmp(glr_param_len(&glr_cmd_params(&glr_cmds[ss])[2]), "count") == 0,
          "glShaderSource string len should be 'count'");
    int ab = glr_cmd_find("glActiveTextureARB");
    CHECK(ab >= 0 && glr_cmds[ab].alias == glr_cmd_find("glActiveTexture"), "glActiveTextureARB alias");
    int mc = glr_cmd_find("glXMakeCurrent");
    CHECK(mc >= 0 && glr_cmds[mc].api == GLR_API_GLX && glr_cmds[mc].ret_kind == GLR_KIND_I32, "glXMakeCurrent");
    int ec = glr_cmd_find("eglCreateContext");
    CHECK(ec >= 0 && glr_cmds[ec].api == GLR_API_EGL && glr_cmds[ec].ret_kind == GLR_KIND_PTR, "eglCreateContext");
    int md = glr_cmd_find("glMultiDrawElementsIndirect");
    CHECK(md >= 0 && glr_cmd_params(&glr_cmds[md])[1].kind == GLR_KIND_U32, "glMultiDrawElementsIndirect type param");
    CHECK(glr_cmd_find("glNotARealFunction") == -1 && glr_cmd_find("") == -1 && glr_cmd_find(NULL) == -1,
          "unknown names must not be found");
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("registry: %d commands OK\n", GLR_CMD_COUNT);
    return failures ? 1 : 0;
}
