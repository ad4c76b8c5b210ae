/* ARB assembly program state: names, bindings per target, program strings (and their
 * generation), environment and local parameters in every form, enables, deletion, bad input. */
#include <string.h>
#include "sm_test.h"


static bool vec_eq(const float *v, float x, float y, float z, float w)
{
    return v[0] == x && v[1] == y && v[2] == z && v[3] == w;
}

int main(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 2, 1));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t names[2] = { 5, 6 };
    CHECK(tcall(s, 1, "glGenProgramsARB", "ib", 2, names, sizeof names));
    CHECK(sm_get_arb_program(c, 5) && sm_get_arb_program(c, 6) && !sm_get_arb_program(c, 7));
    CHECK(tcall(s, 1, "glBindProgramARB", "uu", GL_VERTEX_PROGRAM_ARB, 5));
    CHECK(tcall(s, 1, "glBindProgramARB", "uu", GL_FRAGMENT_PROGRAM_ARB, 6));
    CHECK(st->arb_program[0] == 5 && st->arb_program[1] == 6);

    const char vp[] = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";
    CHECK(tcall(s, 1, "glProgramStringARB", "uuib", GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
                (int)strlen(vp), vp, strlen(vp)));
    const struct sm_arb_program *p = sm_get_arb_program(c, 5);
    CHECK(p && p->source && p->length == strlen(vp) && !strcmp(p->source, vp) && p->generation == 1);
    CHECK(p && p->target == GL_VERTEX_PROGRAM_ARB);
    CHECK(tcall(s, 1, "glProgramStringARB", "uuib", GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
                (int)strlen(vp), vp, strlen(vp)));
    CHECK(p && p->generation == 2);

    /* env: per target, every form */
    CHECK(tcall(s, 1, "glProgramEnvParameter4fARB", "uuffff", GL_VERTEX_PROGRAM_ARB, 3, 1.0, 2.0, 3.0, 4.0));
    CHECK(tcall(s, 1, "glProgramEnvParameter4dARB", "uudddd", GL_FRAGMENT_PROGRAM_ARB, 3, 5.0, 6.0, 7.0, 8.0));
    float fv[8] = { 9, 10, 11, 12, 13, 14, 15, 16 };
    double dv[4] = { -1, -2, -3, -4 };
    CHECK(tcall(s, 1, "glProgramEnvParameter4fvARB", "uub", GL_VERTEX_PROGRAM_ARB, 0, fv, sizeof fv / 2));
    CHECK(tcall(s, 1, "glProgramEnvParameter4dvARB", "uub", GL_VERTEX_PROGRAM_ARB, 255, dv, sizeof dv));
    CHECK(tcall(s, 1, "glProgramEnvParameters4fvEXT", "uuib", GL_FRAGMENT_PROGRAM_ARB, 10, 2, fv, sizeof fv));
    CHECK(vec_eq(st->arb_env[0][3], 1, 2, 3, 4) && vec_eq(st->arb_env[1][3], 5, 6, 7, 8));
    CHECK(vec_eq(st->arb_env[0][0], 9, 10, 11, 12) && vec_eq(st->arb_env[0][255], -1, -2, -3, -4));
    CHECK(vec_eq(st->arb_env[1][10], 9, 10, 11, 12) && vec_eq(st->arb_env[1][11], 13, 14, 15, 16));
    CHECK(vec_eq(st->arb_env[0][1], 0, 0, 0, 0));

    /* local: per program object (the bound one), every form, DSA */
    CHECK(tcall(s, 1, "glProgramLocalParameter4fARB", "uuffff", GL_VERTEX_PROGRAM_ARB, 2, 1.0, 2.0, 3.0, 4.0));
    CHECK(tcall(s, 1, "glProgramLocalParameter4dvARB", "uub", GL_VERTEX_PROGRAM_ARB, 0, dv, sizeof dv));
    CHECK(tcall(s, 1, "glProgramLocalParameters4fvEXT", "uuib", GL_FRAGMENT_PROGRAM_ARB, 1, 2, fv, sizeof fv));
    CHECK(tcall(s, 1, "glNamedProgramLocalParameter4fEXT", "uuuffff", 6, GL_FRAGMENT_PROGRAM_ARB, 0,
                7.0, 7.0, 7.0, 7.0));
    p = sm_get_arb_program(c, 5);
    const struct sm_arb_program *f = sm_get_arb_program(c, 6);
    CHECK(p && p->n_local == 3 && vec_eq(p->local[2], 1, 2, 3, 4) && vec_eq(p->local[0], -1, -2, -3, -4) &&
          vec_eq(p->local[1], 0, 0, 0, 0));
    CHECK(f && f->n_local == 3 && vec_eq(f->local[0], 7, 7, 7, 7) && vec_eq(f->local[2], 13, 14, 15, 16));

    /* enables are caps */
    CHECK(tcall(s, 1, "glEnable", "u", GL_VERTEX_PROGRAM_ARB));
    CHECK(tcall(s, 1, "glEnable", "u", GL_VERTEX_PROGRAM_POINT_SIZE_ARB));
    CHECK(sm_is_enabled(c, GL_VERTEX_PROGRAM_ARB, 0) && !sm_is_enabled(c, GL_FRAGMENT_PROGRAM_ARB, 0) &&
          sm_is_enabled(c, GL_VERTEX_PROGRAM_POINT_SIZE_ARB, 0));

    /* bad input: errors, no crash, no change */
    uint64_t errs = sm_error_count(s);
    tcall(s, 1, "glProgramEnvParameter4fARB", "uuffff", GL_VERTEX_PROGRAM_ARB, 256, 1.0, 1.0, 1.0, 1.0);
    tcall(s, 1, "glProgramEnvParameters4fvEXT", "uuib", GL_VERTEX_PROGRAM_ARB, 250, 10, fv, sizeof fv);
    tcall(s, 1, "glProgramEnvParameters4fvEXT", "uuib", GL_VERTEX_PROGRAM_ARB, 0, 3, fv, sizeof fv);
    tcall(s, 1, "glProgramLocalParameter4fARB", "uuffff", GL_TEXTURE_2D, 0, 1.0, 1.0, 1.0, 1.0);
    tcall(s, 1, "glProgramStringARB", "uuib", GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, 100, vp,
          strlen(vp));
    CHECK(sm_error_count(s) == errs + 5);
    CHECK(vec_eq(st->arb_env[0][0], 9, 10, 11, 12) && p->generation == 2);

    /* GL's default object 0 takes a string and parameters while 0 is bound */
    const char fp0[] = "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n";
    CHECK(tcall(s, 1, "glBindProgramARB", "uu", GL_FRAGMENT_PROGRAM_ARB, 0));
    CHECK(tcall(s, 1, "glProgramStringARB", "uuib", GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
                (int)strlen(fp0), fp0, strlen(fp0)));
    CHECK(tcall(s, 1, "glProgramLocalParameter4fARB", "uuffff", GL_FRAGMENT_PROGRAM_ARB, 1, 3.0, 3.0, 3.0, 3.0));
    const struct sm_arb_program *d = sm_bound_arb_program(c, 1);
    CHECK(d && d->name == SM_ARB_DEFAULT_NAME(1) && d->source && !strcmp(d->source, fp0) &&
          d->n_local == 2 && vec_eq(d->local[1], 3, 3, 3, 3));
    CHECK(!sm_bound_arb_program(c, 0) || sm_bound_arb_program(c, 0)->name == 5);
    /* its restore binds 0 to give the string back; named programs are bound by name */
    struct sm_call_list rl = { 0 };
    CHECK(sm_restore_calls(s, &rl) && !rl.failed);
    bool string_on_default = false, bound_five = false;
    for (size_t i = 0; i + 1 < rl.count; i++) {
        const struct glr_call *k = &rl.calls[i];
        if (k->cmd == GLR_CMD_glBindProgramARB && k->args[0] == GL_FRAGMENT_PROGRAM_ARB && k->args[1] == 0 &&
            rl.calls[i + 1].cmd == GLR_CMD_glProgramStringARB && rl.calls[i + 1].blobs[3].size == strlen(fp0) &&
            !memcmp(rl.calls[i + 1].blobs[3].data, fp0, strlen(fp0)))
            string_on_default = true;
        if (k->cmd == GLR_CMD_glBindProgramARB && k->args[0] == GL_VERTEX_PROGRAM_ARB && k->args[1] == 5 &&
            rl.calls[i + 1].cmd == GLR_CMD_glProgramStringARB)
            bound_five = true;
    }
    CHECK(string_on_default && bound_five);
    sm_call_list_free(&rl);
    CHECK(tcall(s, 1, "glBindProgramARB", "uu", GL_FRAGMENT_PROGRAM_ARB, 6));

    /* deletion unbinds in this context */
    uint32_t del = 5;
    CHECK(tcall(s, 1, "glDeleteProgramsARB", "ib", 1, &del, sizeof del));
    CHECK(!sm_get_arb_program(c, 5) && st->arb_program[0] == 0 && st->arb_program[1] == 6);
    /* binding a name never generated creates it (compatibility) */
    CHECK(tcall(s, 1, "glBindProgramARB", "uu", GL_VERTEX_PROGRAM_ARB, 42));
    CHECK(sm_get_arb_program(c, 42) != NULL && st->arb_program[0] == 42);
    sm_state_free(s);
    return sm_test_result("test_sm_arb_program");
}
