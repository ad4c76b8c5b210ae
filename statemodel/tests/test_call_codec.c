/* The call encoder (glr_call_encode) writes records glr_stream_next reads back exactly: every
 * parameter kind (signed, unsigned, float, double, pointer values), return values and blobs. */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"
#include "registry/glr_call_codec.h"


static void same(const struct glr_call *a, const struct glr_call *b)
{
    const struct glr_cmd_info *ci = &glr_cmds[a->cmd];
    CHECK(a->cmd == b->cmd && a->ctx_id == b->ctx_id && a->thread_id == b->thread_id && a->seq == b->seq);
    for (int i = 0; i < ci->nparams; i++) {
        CHECK(a->args[i] == b->args[i] || glr_cmd_params(ci)[i].is_pointer);
        CHECK(a->blobs[i].size == b->blobs[i].size);
        if (a->blobs[i].size && b->blobs[i].size == a->blobs[i].size)
            CHECK(!memcmp(a->blobs[i].data, b->blobs[i].data, (size_t)a->blobs[i].size));
    }
    if (ci->ret_kind != GLR_KIND_VOID)
        CHECK(a->ret == b->ret && (b->flags & GLR_CALL_HAS_RET));
}

int main(void)
{
    static const float pos[4] = { 1.5f, -2.0f, 0.25f, 0.0f };
    struct glr_call c[5];
    c[0] = tmake(3, "glLightfv", "uub", GL_LIGHT0, GL_POSITION, pos, sizeof pos);
    c[1] = tmake(3, "glViewport", "iiii", -7, 0, 1 << 30, 5);
    c[2] = tmake(3, "glDepthRange", "dd", 0.125, 1e300);
    c[3] = tmake(3, "glClearColor", "ffff", -0.5, 1.0, 3.0e38, 0.0);
    c[4] = tmake(3, "glCreateProgram", "r", (uint64_t)42);
    c[3].seq = UINT64_C(1) << 40;
    c[1].thread_id = 9;
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (int i = 0; i < 5; i++)
        CHECK(glr_call_encode(&c[i], &buf, &size, &cap));
    struct glr_stream s;
    struct glr_call d;
    glr_stream_init(&s, buf, size);
    for (int i = 0; i < 5; i++) {
        CHECK(glr_stream_next(&s, &d) == 1);
        same(&c[i], &d);
    }
    CHECK(glr_stream_next(&s, &d) == 0);
    /* A pseudo record is refused, a truncation is detected. */
    struct glr_call p = { .cmd = GLR_CMD_COUNT };
    size_t before = size;
    CHECK(!glr_call_encode(&p, &buf, &size, &cap) && size == before);
    glr_stream_init(&s, buf, size - 1);
    int k;
    while ((k = glr_stream_next(&s, &d)) == 1)
        ;
    CHECK(k == -1);
    free(buf);
    if (sm_test_failures)
        fprintf(stderr, "test_call_codec: %d failures\n", sm_test_failures);
    else
        printf("test_call_codec: all checks passed\n");
    return sm_test_failures != 0;
}
