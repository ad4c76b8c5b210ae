/* The read-back size rules (registry/glr_readback.c) the recorder hashes by and the
 * replayer reads into memory by: pack state, texture level sizes, bufSize, buffer and query reads. */
#include <stdio.h>
#include <string.h>
#include "registry/glr_gl_enums.h"
#include "registry/glr_registry.h"
#include "registry/glr_readback.h"
#include "registry/glr_call.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

/* The fake context's pack state (GL_PACK_ALIGNMENT, ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS). */
static int32_t align = 4, row_length, skip_rows, skip_pixels;
static int32_t get_int(void *user, uint32_t pname)
{
    (void)user;
    switch (pname) {
    case GL_PACK_ALIGNMENT: return align;
    case GL_PACK_ROW_LENGTH: return row_length;
    case GL_PACK_SKIP_ROWS: return skip_rows;
    case GL_PACK_SKIP_PIXELS: return skip_pixels;
    default: return 0;
    }
}
static const struct glr_size_env env = { get_int, NULL };

static bool tex_dims(void *user, uint32_t target, int32_t level, int64_t d[3])
{
    (void)user;
    (void)target;
    d[0] = 16 >> level;
    d[1] = 8 >> level;
    d[2] = 3;
    return d[0] > 0;
}
static const struct glr_readback_env rbe = { &env, tex_dims, NULL };

static int64_t size_of(const char *cmd, const uint64_t *args, int n)
{
    int c = glr_cmd_find(cmd);
    if (c < 0)
        return -100;
    uint64_t a[GLR_MAX_PARAMS] = { 0 };
    memcpy(a, args, (size_t)n * sizeof *a);
    return glr_readback_size(&rbe, c, a);
}

#define RGBA GL_RGBA
#define RGB GL_RGB
#define UBYTE GL_UNSIGNED_BYTE
#define FLOAT GL_FLOAT

int main(void)
{
    uint64_t rp[6] = { 0, 0, 3, 2, RGB, UBYTE };
    CHECK(size_of("glReadPixels", rp, 6) == 12 + 9, "3x2 RGB8, rows padded to 4: %lld", (long long)size_of("glReadPixels", rp, 6));
    align = 1;
    CHECK(size_of("glReadPixels", rp, 6) == 18, "3x2 RGB8, alignment 1");
    row_length = 5;
    CHECK(size_of("glReadPixels", rp, 6) == 15 + 9, "row length 5");
    row_length = 0;
    skip_pixels = 1;
    skip_rows = 1;
    CHECK(size_of("glReadPixels", rp, 6) == 9 + 9 + 12, "skips");
    skip_pixels = skip_rows = 0;
    align = 4;
    uint64_t one[6] = { 10, 10, 1, 1, RGBA, FLOAT };
    CHECK(size_of("glReadPixels", one, 6) == 16, "one RGBA float pixel (piglit's probe)");
    uint64_t rn[8] = { 0, 0, 2, 2, RGBA, UBYTE, 15, 0 };
    CHECK(size_of("glReadnPixels", rn, 8) == -1, "bufSize 15 < 16: GL refuses, nothing written");
    rn[6] = 16;
    CHECK(size_of("glReadnPixels", rn, 8) == 16, "bufSize 16");
    uint64_t gt[5] = { GL_TEXTURE_2D, 1, RGBA, UBYTE, 0 };
    CHECK(size_of("glGetTexImage", gt, 5) == 8 * 4 * 4, "2D level 1: 8x4 RGBA8");
    gt[0] = GL_TEXTURE_3D; /* GL_TEXTURE_3D */
    CHECK(size_of("glGetTexImage", gt, 5) == 8 * 4 * 4 * 3, "3D level 1: 8x4x3");
    uint64_t bs[4] = { GL_ARRAY_BUFFER, 4, 100, 0 };
    CHECK(size_of("glGetBufferSubData", bs, 4) == 100, "GetBufferSubData");
    uint64_t q[3] = { 1, GL_QUERY_RESULT, 0 };
    CHECK(size_of("glGetQueryObjectuiv", q, 3) == 4 && size_of("glGetQueryObjectui64v", q, 3) == 8, "queries");
    uint64_t none[6] = { 0 };
    CHECK(size_of("glGetTextureSubImage", none, 6) == -1, "no rule: -1");
    CHECK(size_of("glUniform1f", none, 2) == -1, "not a read-back");
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("read-back sizes: OK\n");
    return failures ? 1 : 0;
}
