/* Unit test of the shared size rules (registry/glr_sizes.h) with a fake GL state: every
 * class of pointer-or-offset parameter with and without a buffer bound at its binding point,
 * counted arrays, strings, COMPSIZE rules and hostile values (negative counts, overflow). */
#include <stdio.h>
#include <string.h>
#include "registry/glr_gl_enums.h"
#include "registry/glr_registry.h"
#include "registry/glr_sizes.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

/* The fake context: one binding point may have a buffer bound; unpack alignment 4. */
static uint32_t bound_binding;
static int32_t get_int(void *user, uint32_t pname)
{
    (void)user;
    if (pname == GL_UNPACK_ALIGNMENT) /* GL_UNPACK_ALIGNMENT */
        return 4;
    return pname == bound_binding ? 7 : 0;
}
static const struct glr_size_env env = { get_int, NULL };

/* Size of parameter `param` of `cmd` with args (the rest 0) and `binding` bound. */
static int64_t size_of(const char *cmd, const char *param, uint32_t binding, const uint64_t *args, int n)
{
    int c = glr_cmd_find(cmd);
    if (c < 0)
        return -100;
    int p = glr_cmd_param_index(&glr_cmds[c], param);
    if (p < 0)
        return -101;
    uint64_t a[GLR_MAX_PARAMS] = { 0 };
    memcpy(a, args, (size_t)n * sizeof *a);
    bound_binding = binding;
    return glr_param_size(&env, c, p, a);
}

#define ELEMENT GL_ELEMENT_ARRAY_BUFFER_BINDING
#define INDIRECT GL_DRAW_INDIRECT_BUFFER_BINDING
#define UNPACK GL_PIXEL_UNPACK_BUFFER_BINDING
#define PACK GL_PIXEL_PACK_BUFFER_BINDING
#define QUERY GL_QUERY_BUFFER_BINDING
#define UINT GL_UNSIGNED_INT
#define RGBA GL_RGBA
#define UBYTE GL_UNSIGNED_BYTE

int main(void)
{
    /* Vertex arrays of every kind: never read at the call. */
    static const char *const vtx[] = { "glVertexAttribPointer", "glVertexAttribIPointer", "glVertexAttribLPointer",
                                       "glVertexAttribLPointerEXT", "glVertexAttribPointerARB", "glVertexPointer",
                                       "glColorPointer", "glTexCoordPointer", "glNormalPointer", "glFogCoordPointer",
                                       "glSecondaryColorPointer", "glEdgeFlagPointer", "glIndexPointer",
                                       "glVertexPointerEXT", "glVertexAttribIPointerEXT", "glInterleavedArrays" };
    uint64_t va[6] = { 0, 4, GL_FLOAT, 0, 0, 64 };
    for (size_t i = 0; i < sizeof vtx / sizeof *vtx; i++)
        CHECK(size_of(vtx[i], "pointer", 0, va, 6) == GLR_SIZE_AT_DRAW, "%s pointer", vtx[i]);

    /* Indices: an offset with an element buffer bound, else count x size of type (the registry's
     * len "count" of the BaseInstance forms counts indices, not bytes). */
    static const char *const idx[] = { "glDrawElements", "glDrawElementsBaseVertex", "glDrawElementsInstanced",
                                       "glDrawElementsInstancedBaseInstance",
                                       "glDrawElementsInstancedBaseVertexBaseInstance", "glDrawRangeElements" };
    for (size_t i = 0; i < sizeof idx / sizeof *idx; i++) {
        int c = glr_cmd_find(idx[i]);
        uint64_t a[GLR_MAX_PARAMS] = { 4 };
        a[glr_cmd_param_index(&glr_cmds[c], "count")] = 6;
        a[glr_cmd_param_index(&glr_cmds[c], "type")] = UINT;
        a[glr_cmd_param_index(&glr_cmds[c], "indices")] = 256;
        CHECK(size_of(idx[i], "indices", ELEMENT, a, GLR_MAX_PARAMS) == GLR_SIZE_OFFSET, "%s bound", idx[i]);
        CHECK(size_of(idx[i], "indices", 0, a, GLR_MAX_PARAMS) == 24, "%s client: %lld", idx[i],
              (long long)size_of(idx[i], "indices", 0, a, GLR_MAX_PARAMS));
        a[glr_cmd_param_index(&glr_cmds[c], "count")] = (uint64_t)(int64_t)-5;
        CHECK(size_of(idx[i], "indices", 0, a, GLR_MAX_PARAMS) == 0, "%s negative count", idx[i]);
    }
    /* The index-pointer array of glMultiDrawElements: drawcount pointers while an element buffer
     * is bound; the client index data behind them is not sized. */
    uint64_t md[5] = { 4, 0, UINT, 0, 3 };
    CHECK(size_of("glMultiDrawElements", "indices", ELEMENT, md, 5) == 24, "multi-draw pointer array");
    CHECK(size_of("glMultiDrawElements", "indices", 0, md, 5) == GLR_SIZE_UNKNOWN, "multi-draw client indices");

    /* Indirect commands. */
    uint64_t di[2] = { 4, 16 };
    CHECK(size_of("glDrawArraysIndirect", "indirect", INDIRECT, di, 2) == GLR_SIZE_OFFSET, "DrawArraysIndirect bound");
    CHECK(size_of("glDrawArraysIndirect", "indirect", 0, di, 2) == 16, "DrawArraysIndirect client");
    uint64_t dei[3] = { 4, UINT, 16 };
    CHECK(size_of("glDrawElementsIndirect", "indirect", 0, dei, 3) == 20, "DrawElementsIndirect client");
    uint64_t mdi[4] = { 4, 16, 3, 32 };
    CHECK(size_of("glMultiDrawArraysIndirect", "indirect", INDIRECT, mdi, 4) == GLR_SIZE_OFFSET, "MDAI bound");
    CHECK(size_of("glMultiDrawArraysIndirect", "indirect", 0, mdi, 4) == 2 * 32 + 16, "MDAI client");
    uint64_t mdic[5] = { 4, 16, 1u << 30, 8, 0 };
    CHECK(size_of("glMultiDrawArraysIndirectCount", "indirect", 0, mdic, 5) == GLR_SIZE_UNKNOWN, "count in a buffer");

    /* Pixel unpack: texture uploads, compressed images, DrawPixels, Bitmap, PolygonStipple. */
    uint64_t ti[9] = { GL_TEXTURE_2D, 0, GL_RGBA8, 3, 2, 0, RGBA, UBYTE, 256 };
    CHECK(size_of("glTexImage2D", "pixels", UNPACK, ti, 9) == GLR_SIZE_OFFSET, "TexImage2D bound");
    CHECK(size_of("glTexImage2D", "pixels", 0, ti, 9) == 2 * 12, "TexImage2D client");
    ti[3] = 1u << 30;
    ti[4] = 1u << 30;
    CHECK(size_of("glTexImage2D", "pixels", 0, ti, 9) == GLR_SIZE_UNKNOWN, "TexImage2D 2^30 x 2^30");
    uint64_t ci[8] = { GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 0, 16, 256 };
    CHECK(size_of("glCompressedTexImage2D", "data", UNPACK, ci, 8) == GLR_SIZE_OFFSET, "compressed bound");
    CHECK(size_of("glCompressedTexImage2D", "data", 0, ci, 8) == 16, "compressed client");
    uint64_t cs[9] = { GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGBA8_ETC2_EAC, 16, 256 };
    CHECK(size_of("glCompressedTextureSubImage2D", "data", 0, cs, 9) == 16, "compressed DSA client");
    uint64_t dp[5] = { 8, 8, RGBA, UBYTE, 256 };
    CHECK(size_of("glDrawPixels", "pixels", UNPACK, dp, 5) == GLR_SIZE_OFFSET, "DrawPixels bound");
    CHECK(size_of("glDrawPixels", "pixels", 0, dp, 5) == 256, "DrawPixels client");
    /* GL_COLOR_INDEX / GL_BITMAP: 32 x 20 bits, rows of 4 bytes padded to the alignment (4) */
    uint64_t dpb[5] = { 32, 20, GL_COLOR_INDEX, GL_BITMAP, 256 };
    CHECK(size_of("glDrawPixels", "pixels", 0, dpb, 5) == 4 * 20, "DrawPixels colour-index bitmap");
    dpb[0] = 9;   /* 2 bytes a row, padded to 4; the last row unpadded */
    CHECK(size_of("glDrawPixels", "pixels", 0, dpb, 5) == 4 * 19 + 2, "DrawPixels bitmap, padded rows");
    uint64_t bm[7] = { 8, 8, 0, 0, 0, 0, 256 };
    CHECK(size_of("glBitmap", "bitmap", UNPACK, bm, 7) == GLR_SIZE_OFFSET, "Bitmap bound");
    CHECK(size_of("glBitmap", "bitmap", 0, bm, 7) == 4 * 7 + 1, "Bitmap client (rows padded to 4)");
    uint64_t ps[1] = { 256 };
    CHECK(size_of("glPolygonStipple", "mask", UNPACK, ps, 1) == GLR_SIZE_OFFSET, "PolygonStipple bound");
    CHECK(size_of("glPolygonStipple", "mask", 0, ps, 1) == 128, "PolygonStipple client");
    uint64_t pm[3] = { GL_PIXEL_MAP_I_TO_I, 16, 256 };
    CHECK(size_of("glPixelMapfv", "values", UNPACK, pm, 3) == GLR_SIZE_OFFSET, "PixelMapfv bound");
    CHECK(size_of("glPixelMapfv", "values", 0, pm, 3) == 64, "PixelMapfv client");

    /* Read-backs into pack and query buffers: offsets while bound. */
    uint64_t rp[7] = { 0, 0, 4, 4, RGBA, UBYTE, 256 };
    CHECK(size_of("glReadPixels", "pixels", PACK, rp, 7) == GLR_SIZE_OFFSET, "ReadPixels bound");
    uint64_t qo[3] = { 1, GL_QUERY_RESULT, 8 };
    CHECK(size_of("glGetQueryObjectuiv", "params", QUERY, qo, 3) == GLR_SIZE_OFFSET, "GetQueryObjectuiv bound");

    /* Plain arrays, strings, names, DSA arrays without a registry len, hostile sizes. */
    uint64_t u4[3] = { 0, 1u << 20, 0x1000 };
    CHECK(size_of("glUniform4fv", "value", 0, u4, 3) == (int64_t)16 << 20, "Uniform4fv count 2^20");
    uint64_t gb[2] = { 3, 0x1000 };
    CHECK(size_of("glGenBuffers", "buffers", 0, gb, 2) == 12, "GenBuffers");
    CHECK(size_of("glDeleteTextures", "textures", 0, gb, 2) == 12, "DeleteTextures");
    uint64_t bl[3] = { 0, 7, 0x1000 };
    CHECK(size_of("glBindAttribLocation", "name", 0, bl, 3) == GLR_SIZE_STRING, "BindAttribLocation name");
    uint64_t bd[4] = { GL_ARRAY_BUFFER, (uint64_t)1 << 60, 0x1000, GL_STATIC_DRAW };
    CHECK(size_of("glBufferData", "data", 0, bd, 4) == GLR_SIZE_UNKNOWN, "BufferData 2^60");
    bd[1] = 256u << 20;
    CHECK(size_of("glBufferData", "data", 0, bd, 4) == 256 << 20, "BufferData 256 MiB");
    uint64_t nb[4] = { 1, 100, 0x1000, GL_STATIC_DRAW };
    CHECK(size_of("glNamedBufferData", "data", 0, nb, 4) == 100, "NamedBufferData");
    uint64_t vb[6] = { 1, 0, 3, 0x1000, 0x2000, 0x3000 };
    CHECK(size_of("glVertexArrayVertexBuffers", "buffers", 0, vb, 6) == 12 &&
          size_of("glVertexArrayVertexBuffers", "offsets", 0, vb, 6) == 24, "VertexArrayVertexBuffers");
    uint64_t sp[4] = { 0, GL_TEXTURE_WRAP_S, 0x1000 };
    CHECK(size_of("glSamplerParameteriv", "param", 0, sp, 3) == 4, "SamplerParameteriv");
    sp[1] = GL_TEXTURE_BORDER_COLOR; /* GL_TEXTURE_BORDER_COLOR */
    CHECK(size_of("glSamplerParameterfv", "param", 0, sp, 3) == 16, "SamplerParameterfv border colour");

    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("size rules: OK\n");
    return failures ? 1 : 0;
}
