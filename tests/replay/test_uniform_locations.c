/* Unit test of the replayer's uniform location map (replay/uniform_locations.h): lookups per
 * program and share group, the program glUniform* goes to (glUseProgram, else the bound
 * pipeline's active program), relinks forgetting a program's answers, and many entries. */
#include "replay/uniform_locations.h"
#include "tests/support/glr_check.h"

int main(void)
{
    struct glr_uloc *u = glr_uloc_create();
    REQUIRE(u);
    /* Nothing known: every location passes through. */
    CHECK(glr_uloc_translate(u, 1, 1, 0, 7) == 7);
    glr_uloc_found(u, 1, 10, 5, 0);
    glr_uloc_found(u, 1, 10, 9, 1);
    glr_uloc_found(u, 2, 10, 5, 3);          /* the same name in another share group */
    glr_uloc_found(u, 1, 10, -1, 4);         /* -1 (no such uniform) is never mapped */
    CHECK(glr_uloc_translate(u, 1, 1, 10, 5) == 0);
    CHECK(glr_uloc_translate(u, 1, 1, 10, 9) == 1);
    CHECK(glr_uloc_translate(u, 2, 1, 10, 5) == 3);
    CHECK(glr_uloc_translate(u, 1, 1, 10, -1) == -1);
    CHECK(glr_uloc_translate(u, 1, 1, 10, 6) == 6);   /* never asked for: unchanged */
    /* glUniform* (program 0): the context's program. */
    CHECK(glr_uloc_translate(u, 1, 1, 0, 5) == 5);     /* no program in use yet */
    glr_uloc_use_program(u, 1, 10);
    CHECK(glr_uloc_translate(u, 1, 1, 0, 5) == 0);
    CHECK(glr_uloc_translate(u, 1, 2, 0, 5) == 5);     /* another context uses none */
    /* No program in use: the bound pipeline's active program. */
    glr_uloc_use_program(u, 1, 0);
    glr_uloc_bind_pipeline(u, 1, 3);
    glr_uloc_active_program(u, 1, 3, 10);
    CHECK(glr_uloc_translate(u, 1, 1, 0, 9) == 1);
    glr_uloc_active_program(u, 1, 3, 11);
    CHECK(glr_uloc_translate(u, 1, 1, 0, 9) == 9);
    /* A relink forgets the program's answers (it asks again), not other programs'. */
    glr_uloc_found(u, 1, 11, 9, 2);
    glr_uloc_forget_program(u, 1, 10);
    CHECK(glr_uloc_translate(u, 1, 1, 10, 5) == 5);
    CHECK(glr_uloc_translate(u, 1, 1, 11, 9) == 2);
    CHECK(glr_uloc_translate(u, 2, 1, 10, 5) == 3);
    /* A later answer for the same location replaces the earlier one. */
    glr_uloc_found(u, 1, 11, 9, 6);
    CHECK(glr_uloc_translate(u, 1, 1, 11, 9) == 6);
    /* Many programs and locations (the index grows). */
    for (int p = 100; p < 200; p++)
        for (int l = 0; l < 50; l++)
            glr_uloc_found(u, 1, (uint32_t)p, l * 3, 1000 + p * 50 + l);
    int wrong = 0;
    for (int p = 100; p < 200; p++)
        for (int l = 0; l < 50; l++)
            wrong += glr_uloc_translate(u, 1, 1, (uint32_t)p, l * 3) != 1000 + p * 50 + l;
    CHECKF(wrong == 0, "%d of 5000 lookups wrong", wrong);
    glr_uloc_forget_program(u, 1, 150);
    CHECK(glr_uloc_translate(u, 1, 1, 150, 3) == 3);
    CHECK(glr_uloc_translate(u, 1, 1, 151, 3) == 1000 + 151 * 50 + 1);
    /* A reset (a new pass) forgets everything. */
    glr_uloc_reset(u);
    CHECK(glr_uloc_translate(u, 1, 1, 11, 9) == 9);
    glr_uloc_destroy(u);
    if (failures)
        fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
