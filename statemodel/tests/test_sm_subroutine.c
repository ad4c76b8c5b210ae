/* GL_ARB_shader_subroutine in the state model: the indices and locations the driver returned
 * for a linked program's subroutine functions and uniforms, per stage, and the selections of
 * glUniformSubroutinesuiv, which glUseProgram resets. */
#include <string.h>
#include "sm_test.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

static int64_t binding(const struct sm_program *p, const char *key)
{
    for (uint32_t i = 0; p && i < p->n_subroutine_names; i++)
        if (!strcmp(p->subroutine_names[i].name, key))
            return p->subroutine_names[i].index;
    return -1;
}

int main(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)5));
    CHECK(tcall(s, 1, "glLinkProgram", "u", 5));
    CHECK(tcall(s, 1, "glUseProgram", "u", 5));
    CHECK(tcall(s, 1, "glGetSubroutineIndex", "uuzr", 5, GL_FRAGMENT_SHADER, "red", (uint64_t)1));
    CHECK(tcall(s, 1, "glGetSubroutineIndex", "uuzr", 5, GL_VERTEX_SHADER, "red", (uint64_t)0));
    CHECK(tcall(s, 1, "glGetSubroutineUniformLocation", "uuzr", 5, GL_FRAGMENT_SHADER, "Pick[1]",
                (uint64_t)3));
    CHECK(tcall(s, 1, "glGetSubroutineIndex", "uuzr", 5, GL_FRAGMENT_SHADER, "none",
                (uint64_t)GL_INVALID_INDEX));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_program *p = c ? sm_get_program(c, 5) : NULL;
    CHECK(binding(p, "4:f:red") == 1 && binding(p, "0:f:red") == 0);
    CHECK(binding(p, "4:u:Pick[1]") == 3 && binding(p, "4:f:none") == -1);

    const uint32_t sel[3] = {2, 0, 1};
    CHECK(tcall(s, 1, "glUniformSubroutinesuiv", "uib", GL_FRAGMENT_SHADER, 3, sel, sizeof sel));
    const struct sm_context_state *st = c ? sm_context_state(c) : NULL;
    CHECK(st && st->n_subroutine_sel[4] == 3 && st->subroutine_sel[4][0] == 2 &&
          st->subroutine_sel[4][2] == 1 && st->n_subroutine_sel[0] == 0);
    CHECK(tcall(s, 1, "glUseProgram", "u", 5));
    CHECK(st && st->n_subroutine_sel[4] == 0);
    /* relinking forgets the names */
    CHECK(tcall(s, 1, "glLinkProgram", "u", 5));
    CHECK(binding(p, "4:f:red") == -1);
    CHECK(sm_error_count(s) == 0);
    sm_state_free(s);
    return sm_test_result("test_sm_subroutine");
}
