/* Display lists as recorded calls (sm_lists.c): compile modes, glCallLists name types and
 * glListBase, nesting to 64, a list calling itself twice per level (stopped by the call budget),
 * glDeleteLists, and sm_apply_listed on the state model. */
#include <string.h>
#include "sm_test.h"
#include "statemodel/sm_lists.h"

struct counter {
    struct sm_lists *L;
    int colors, calls, missing;
    bool bad;
};

static void exec_cb(void *user, const struct glr_call *c)
{
    struct counter *k = user;
    k->calls++;
    if (c->cmd == GLR_CMD_glColor3f)
        k->colors++;
    bool bad = false;
    sm_lists_call(k->L, 1, c, exec_cb, NULL, k, &bad);
    k->bad = k->bad || bad;
}

static void missing_cb(void *user, uint32_t name)
{
    (void)name;
    ((struct counter *)user)->missing++;
}

/* Feeds c to the compiler; true when GL would also execute it now. */
static bool feed(struct sm_lists *L, struct glr_call c)
{
    return !sm_lists_compile(L, 1, &c);
}

static int call(struct sm_lists *L, struct glr_call c, struct counter *k)
{
    memset(k, 0, sizeof *k);
    k->L = L;
    bool bad = false;
    CHECK(sm_lists_call(L, 1, &c, exec_cb, missing_cb, k, &bad));
    k->bad = k->bad || bad;
    return k->colors;
}

int main(void)
{
    struct sm_lists *L = sm_lists_new();
    struct counter k;
    /* list 1: GL_COMPILE, one colour; its calls are not executed while compiled */
    CHECK(!feed(L, tmake(1, "glNewList", "uu", 1u, (unsigned)GL_COMPILE)));
    CHECK(!feed(L, tmake(1, "glColor3f", "fff", 1.0, 0.0, 0.0)));
    CHECK(feed(L, tmake(1, "glGenBuffers", "ib", 1, (const void *)"\1\0\0\0", (size_t)4)));   /* executed at once */
    CHECK(!feed(L, tmake(1, "glEndList", "")));
    /* list 2: GL_COMPILE_AND_EXECUTE, a colour and list 1 */
    CHECK(!feed(L, tmake(1, "glNewList", "uu", 2u, (unsigned)GL_COMPILE_AND_EXECUTE)));
    CHECK(feed(L, tmake(1, "glColor3f", "fff", 0.0, 1.0, 0.0)));
    CHECK(feed(L, tmake(1, "glCallList", "u", 1u)));
    CHECK(!feed(L, tmake(1, "glEndList", "")));
    CHECK(call(L, tmake(1, "glCallList", "u", 1u), &k) == 1 && k.calls == 1 && !k.bad);
    CHECK(call(L, tmake(1, "glCallList", "u", 2u), &k) == 2 && !k.bad);
    /* list 3 calls itself: 64 levels (GL_MAX_LIST_NESTING), then ignored */
    feed(L, tmake(1, "glNewList", "uu", 3u, (unsigned)GL_COMPILE));
    feed(L, tmake(1, "glColor3f", "fff", 0.0, 0.0, 1.0));
    feed(L, tmake(1, "glCallList", "u", 3u));
    feed(L, tmake(1, "glEndList", ""));
    CHECK(call(L, tmake(1, "glCallList", "u", 3u), &k) == SM_MAX_LIST_NESTING && !k.bad);
    /* list 4 calls itself twice: 2^64 calls in GL; the walk stops at its budget and says so */
    feed(L, tmake(1, "glNewList", "uu", 4u, (unsigned)GL_COMPILE));
    feed(L, tmake(1, "glCallList", "u", 4u));
    feed(L, tmake(1, "glCallList", "u", 4u));
    feed(L, tmake(1, "glEndList", ""));
    call(L, tmake(1, "glCallList", "u", 4u), &k);
    CHECK(k.bad && k.calls <= (1 << 24) + 64);
    /* glCallLists: names of several types, offset by glListBase */
    CHECK(sm_lists_call(L, 1, &(struct glr_call){ 0 }, exec_cb, NULL, &k, &k.bad) == false);
    call(L, tmake(1, "glListBase", "u", 1u), &k);
    const int16_t shorts[2] = { 0, 1 };   /* lists 1 and 2 */
    CHECK(call(L, tmake(1, "glCallLists", "iub", 2, (unsigned)GL_SHORT, shorts, sizeof shorts), &k) == 3);
    const uint8_t two[2] = { 0, 1 };      /* GL_2_BYTES: 0 * 256 + 1 = list 2 */
    CHECK(call(L, tmake(1, "glCallLists", "iub", 1, (unsigned)GL_2_BYTES, two, sizeof two), &k) == 2);
    const float fl[1] = { 0.0f };
    CHECK(call(L, tmake(1, "glCallLists", "iub", 1, (unsigned)GL_FLOAT, fl, sizeof fl), &k) == 1);
    CHECK(call(L, tmake(1, "glCallLists", "iub", 3, (unsigned)GL_SHORT, shorts, sizeof shorts), &k) == 3 && k.bad);
    CHECK(call(L, tmake(1, "glCallLists", "iub", 1, (unsigned)GL_SHORT, shorts, sizeof shorts), &k) == 1);
    call(L, tmake(1, "glListBase", "u", 0u), &k);
    CHECK(call(L, tmake(1, "glCallList", "u", 99u), &k) == 0 && k.missing == 1);
    /* glDeleteLists */
    call(L, tmake(1, "glDeleteLists", "ui", 1u, 1), &k);
    CHECK(call(L, tmake(1, "glCallList", "u", 1u), &k) == 0 && k.missing == 1);
    CHECK(call(L, tmake(1, "glCallList", "u", 2u), &k) == 1);   /* its nested list 1 is gone */
    sm_lists_free(L);

    /* sm_apply_listed: the colour of a GL_COMPILE list applies only when the list is called */
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 2, 1));
    L = sm_lists_new();
    const struct sm_context_state *st = sm_context_state(sm_context_get(s, 1));
    struct glr_call seq[] = {
        tmake(1, "glNewList", "uu", 7u, (unsigned)GL_COMPILE), tmake(1, "glColor3f", "fff", 0.25, 0.5, 0.75),
        tmake(1, "glEndList", ""),
    };
    for (size_t i = 0; i < sizeof seq / sizeof *seq; i++)
        sm_apply_listed(s, L, &seq[i]);
    CHECK(st->legacy_current[SM_LA_COLOR][0] == 1.0f);
    struct glr_call cl = tmake(1, "glCallList", "u", 7u);
    sm_apply_listed(s, L, &cl);
    CHECK(st->legacy_current[SM_LA_COLOR][0] == 0.25f && st->legacy_current[SM_LA_COLOR][2] == 0.75f);
    sm_lists_free(L);
    sm_state_free(s);
    return sm_test_result("test_sm_lists");
}
