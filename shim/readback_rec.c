/* Recording what a read-back returned to the program (issue 13, defect 3): piglit's probes, test
 * runners and offscreen tools check a frame with glReadPixels, glGetTexImage, glGetBufferSubData and
 * query results, not with a swapped image. After the real call, the bytes it wrote are hashed (and
 * kept when small) into the blob of its output parameter (registry/glr_readback.h);
 * `replay --verify` reads the same back and compares.
 * Reads into a bound pixel pack buffer are read from the buffer right after the call (a
 * synchronous read, only while a capture records). A destination with gaps between its rows
 * (pack row length, skips or alignment padding) is marked unchecked: the bytes between rows are
 * the program's, not GL's. Nothing here raises a GL error the program could see: state the
 * context does not have is not queried, and a mapped or too small buffer is not read. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "shim/recorder.h"
#include "registry/glr_call.h"
#include "registry/glr_readback.h"
#include "registry/glr_gl_enums.h"

/* Pack state a context lacks reads as 0 (OpenGL ES 2 has no pack row length, skips or pack
 * buffer; no ES has pack image parameters; desktop GL before 2.1 no pack buffer). */
static bool lacks(uint32_t pname)
{
    const struct glr_ctx_desc *cd = glr_current_ctx_desc();
    if (!cd)
        return true;
    bool es2 = cd->is_es && cd->major < 3;
    bool pre21 = !cd->is_es && (cd->major < 2 || (cd->major == 2 && cd->minor < 1));
    switch (pname) {
    case GL_PACK_ROW_LENGTH: case GL_PACK_SKIP_ROWS: case GL_PACK_SKIP_PIXELS:
        return es2;
    case GL_PACK_SKIP_IMAGES: case GL_PACK_IMAGE_HEIGHT:
        return cd->is_es;
    case GL_PIXEL_PACK_BUFFER_BINDING:
        return es2 || pre21;
    case GL_QUERY_BUFFER_BINDING:
        return cd->is_es || cd->major < 4 || (cd->major == 4 && cd->minor < 4);
    default:
        return false;
    }
}

/* The program's pack state, with overrides: the size of the bytes as a tight client-memory read
 * (no pack buffer, alignment 1, no row length or skips) or as the call really wrote them. */
struct env_user {
    bool tight;
};

static int32_t get_int(void *user, uint32_t pname)
{
    const struct env_user *u = user;
    if (lacks(pname))
        return 0;
    if (pname == GL_PIXEL_PACK_BUFFER_BINDING || pname == GL_QUERY_BUFFER_BINDING)
        return 0;   /* sized as client memory; the caller knows where the bytes went */
    if (u->tight) {
        if (pname == GL_PACK_ALIGNMENT)
            return 1;
        if (pname == GL_PACK_ROW_LENGTH || pname == GL_PACK_SKIP_ROWS || pname == GL_PACK_SKIP_PIXELS ||
            pname == GL_PACK_SKIP_IMAGES || pname == GL_PACK_IMAGE_HEIGHT)
            return 0;
    }
    GLint v = 0;
    GLR_REAL(glGetIntegerv)(pname, &v);
    return v;
}

static int32_t bound(uint32_t binding)
{
    if (lacks(binding))
        return 0;
    GLint v = 0;
    GLR_REAL(glGetIntegerv)(binding, &v);
    return v;
}

static bool is_pixel_read(int cmd)
{
    return glr_cmds[cmd].flags & GLR_CF_PIXELS;   /* generated: registry/gen_registry.py reader_flags */
}

/* A texture level's size in the program's context (glGetTexImage). The program's own call named
 * this target and level, so asking about them raises no error its call did not. */
static bool tex_dims(void *user, uint32_t target, int32_t level, int64_t d[3])
{
    (void)user;
    const struct glr_ctx_desc *cd = glr_current_ctx_desc();
    if (!cd || cd->is_es)
        return false;
    GLint w = 0, h = 0, z = 0;
    GLR_REAL(glGetTexLevelParameteriv)(target, level, GL_TEXTURE_WIDTH, &w);
    GLR_REAL(glGetTexLevelParameteriv)(target, level, GL_TEXTURE_HEIGHT, &h);
    if (cd->major > 1 || cd->minor >= 2)   /* 3D textures: GL 1.2 */
        GLR_REAL(glGetTexLevelParameteriv)(target, level, GL_TEXTURE_DEPTH, &z);
    d[0] = w;
    d[1] = h;
    d[2] = z;
    return w > 0;
}

static void put_blob(struct glr_rec *w, uint8_t flags, uint64_t size, const void *bytes)
{
    uint8_t b[GLR_RB_HEADER + GLR_RB_MAX_BYTES];
    uint64_t hash = bytes ? XXH3_64bits(bytes, (size_t)size) : 0;
    if (bytes)
        flags |= GLR_RB_HASHED;
    if (bytes && size <= GLR_RB_MAX_BYTES)
        flags |= GLR_RB_BYTES;
    b[0] = flags;
    memcpy(b + 1, &size, 8);
    memcpy(b + 9, &hash, 8);
    size_t n = GLR_RB_HEADER;
    if (flags & GLR_RB_BYTES) {
        memcpy(b + n, bytes, (size_t)size);
        n += (size_t)size;
    }
    glr_rec_blob(w, b, (int64_t)n);
}

void glr_rec_readback(struct glr_rec *w, int cmd, int param, const uint64_t *a, const void *ptr)
{
    (void)param;
    struct env_user real = { false }, tight = { true };
    const struct glr_size_env env_real = { get_int, &real }, env_tight = { get_int, &tight };
    const struct glr_readback_env rb_real = { &env_real, tex_dims, NULL }, rb_tight = { &env_tight, tex_dims, NULL };
    int64_t size = glr_readback_size(&rb_real, cmd, a);
    bool pixels = is_pixel_read(cmd);
    bool into_pack = pixels && bound(GL_PIXEL_PACK_BUFFER_BINDING) != 0;
    bool into_query_buffer = !pixels && glr_cmds[cmd].readback == GLR_RBC_GET_QUERY_OBJECT &&
                             bound(GL_QUERY_BUFFER_BINDING) != 0;
    uint8_t flags = into_pack ? GLR_RB_BUFFER : 0;
    if (size < 0 || size > ((int64_t)1 << 31) || into_query_buffer ||
        (pixels && glr_readback_size(&rb_tight, cmd, a) != size)) {
        put_blob(w, flags | GLR_RB_UNCHECKED, size < 0 ? 0 : (uint64_t)size, NULL);
        return;
    }
    if (!into_pack) {
        /* Client memory: the call wrote `size` bytes at ptr (a NULL destination wrote nothing). */
        put_blob(w, flags | (size && !ptr ? GLR_RB_UNCHECKED : 0), (uint64_t)size, ptr || !size ? (ptr ? ptr : "") : NULL);
        return;
    }
    /* Into the pixel pack buffer at offset `ptr`: read it back from the buffer, when the buffer is
     * not mapped and holds the range (else GL would raise an error the program could see). */
    const struct glr_ctx_desc *cd = glr_current_ctx_desc();
    uint64_t off = (uint64_t)(uintptr_t)ptr;
    GLint bsize = 0;   /* glGetBufferParameteriv: GL 1.5 (the 64-bit query needs 3.2) */
    GLint mapped = 1;
    uint8_t *tmp = NULL;
    if (cd && !cd->is_es && size > 0) {
        GLR_REAL(glGetBufferParameteriv)(GL_PIXEL_PACK_BUFFER, GL_BUFFER_SIZE, &bsize);
        GLR_REAL(glGetBufferParameteriv)(GL_PIXEL_PACK_BUFFER, GL_BUFFER_MAPPED, &mapped);
        if (!mapped && off <= (uint64_t)bsize && (uint64_t)size <= (uint64_t)bsize - off &&
            (tmp = malloc((size_t)size)) != NULL)
            GLR_REAL(glGetBufferSubData)(GL_PIXEL_PACK_BUFFER, (GLintptr)off, (GLsizeiptr)size, tmp);
    }
    put_blob(w, flags | (tmp ? 0 : GLR_RB_UNCHECKED), (uint64_t)size, tmp);
    free(tmp);
}

/* Reads through a mapping (GL_MAP_READ_BIT, glMapBuffer GL_READ_ONLY/GL_READ_WRITE): the program
 * reads the bytes itself, so no call tells what it saw. Right after the map call's own record,
 * a GLR_PSEUDO_MAP_READ record keeps what the mapping held then (piglit's `probe ssbo` maps the
 * buffer and reads it like this); `replay --verify` compares the replay's mapping of the same call.
 * Only while a capture records (never into a display list being compiled: a map is not compiled). */
void glr_rec_map_read(uint32_t ctx, const void *ptr, uint32_t buffer, uint64_t offset, uint64_t length)
{
    if (!(glr_slow_mode & GLR_SLOW_RECORD) || !ptr)
        return;
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_MAP_READ, ctx);
    if (!r)
        return;
    glr_rec_uvar(r, (uint64_t)(uintptr_t)ptr);
    glr_rec_uvar(r, buffer);
    glr_rec_uvar(r, offset);
    glr_rec_uvar(r, length);
    if (length > ((uint64_t)1 << 31))
        put_blob(r, GLR_RB_UNCHECKED, length, NULL);   /* beyond what any replay compares */
    else
        put_blob(r, 0, length, ptr);
    glr_rec_end(r);
}
