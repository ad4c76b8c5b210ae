/* Texture images of the snapshot read back through pixel buffer objects (issue 17 §5).
 *
 * A synchronous glGetTexImage into client memory makes the driver finish the texture's rendering
 * and copy it while the program's thread waits, then the snapshot copies it again into its state
 * model. Here each image is read into one of GLR_SNAP_PBO_RING buffer objects and the read is
 * collected (mapped, handed to the state model, unmapped) only when that ring slot is needed again
 * or at the end: on a GPU the copies of the next images run while earlier ones are collected, as
 * RenderDoc does at capture start, and on any driver the client-memory copy (with the page faults
 * of fresh memory for every image) is gone: the state model copies straight from the mapping.
 *
 * Used on desktop GL >= 3.0 (pixel buffer objects and glMapBufferRange) with a hardware driver.
 * ES reads images through a framebuffer (snapshot_objects.c) and keeps the synchronous path, as do
 * software renderers (see software_renderer()) and every context where a PBO cannot be allocated.
 * GLREPLAY_SNAPSHOT_PBO=1 uses PBOs on every desktop GL >= 3.0 context (the tests run the PBO path
 * on llvmpipe so), =0 never.
 * The PBO names are generated and deleted inside the snapshot, like its scratch framebuffer; the
 * program's GL_PIXEL_PACK_BUFFER binding is put back (glr_snap_pbo_end, and the snapshot's pack
 * state helpers around each texture). */
#include <stdlib.h>
#include <string.h>
#include "shim/snapshot_pbo.h"
#include "registry/glr_gl_enums.h"

/* A driver that renders on the CPU (llvmpipe, softpipe) has no copy engine to overlap with, and
 * Mesa fills the PBO there at more cost than the plain copy: 0.21 s against 0.09 s of the program
 * thread's CPU for 128 MiB of textures (docs/BENCHMARKS.md). */
static bool software_renderer(void)
{
    const char *r = (const char *)GLR_REAL(glGetString)(GL_RENDERER);
    return r && (strstr(r, "llvmpipe") || strstr(r, "softpipe"));
}

void glr_snap_pbo_begin(struct glr_snap *sn, struct glr_snap_pbo *p)
{
    memset(p, 0, sizeof *p);
    if (sn->es || !glr_snap_has(sn, 3, 0, -1, 0))
        return;
    const char *env = getenv("GLREPLAY_SNAPSHOT_PBO");
    if (env && strcmp(env, "1") == 0)
        p->usable = true;
    else if (env && strcmp(env, "0") == 0)
        p->usable = false;
    else
        p->usable = !software_renderer();
}

/* Maps the oldest read's PBO and hands its bytes to the state model. Binds GL_PIXEL_PACK_BUFFER
 * to the PBO; the caller puts the binding back. */
static void collect_oldest(struct glr_snap *sn, struct glr_snap_pbo *p)
{
    struct glr_snap_pbo_read r = p->pending[0];
    memmove(&p->pending[0], &p->pending[1], (p->n_pending - 1) * sizeof p->pending[0]);
    p->n_pending--;
    GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, p->pbo[r.slot]);
    const void *data = GLR_REAL(glMapBufferRange)(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)r.size, GL_MAP_READ_BIT);
    if (!data) {
        glr_snap_warn(sn, "texture %u level %d: its pixel buffer could not be mapped; contents not kept",
                      r.texture, r.level);
        return;
    }
    if (!sm_set_texture_image_data(sn->s, sn->ctx, r.texture, r.face, r.level, r.format, r.type, 1, data, r.size))
        glr_snap_warn(sn, "texture %u level %d: the model refused its contents", r.texture, r.level);
    else
        sn->bytes_read += r.size;
    GLR_REAL(glUnmapBuffer)(GL_PIXEL_PACK_BUFFER);
}

/* A ring slot no pending read uses. */
static unsigned free_slot(const struct glr_snap_pbo *p)
{
    for (unsigned s = 0; s < GLR_SNAP_PBO_RING; s++) {
        bool used = false;
        for (unsigned i = 0; i < p->n_pending; i++)
            used |= p->pending[i].slot == s;
        if (!used)
            return s;
    }
    return 0;   /* unreachable: the caller collects one read when all slots are in use */
}

bool glr_snap_pbo_read(struct glr_snap *sn, struct glr_snap_pbo *p, uint32_t texture, int f, GLenum face, int level,
                       GLenum format, GLenum type, uint64_t size)
{
    if (!p->usable || size == 0 || size > (uint64_t)PTRDIFF_MAX)
        return false;
    if (p->n_pending == GLR_SNAP_PBO_RING)
        collect_oldest(sn, p);
    unsigned s = free_slot(p);
    if (s >= p->n_pbo) {
        GLR_REAL(glGenBuffers)(1, &p->pbo[s]);
        p->n_pbo = s + 1;
    }
    GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, p->pbo[s]);
    if (p->cap[s] < size) {
        while (GLR_REAL(glGetError)() != GL_NO_ERROR) {
            /* errors of the snapshot's own earlier calls: it discards them at its end anyway */
        }
        GLR_REAL(glBufferData)(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)size, NULL, GL_STREAM_READ);
        if (GLR_REAL(glGetError)() != GL_NO_ERROR) {   /* out of memory: read this one synchronously */
            p->cap[s] = 0;
            GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
            return false;
        }
        p->cap[s] = size;
    }
    GLR_REAL(glGetTexImage)(face, level, format, type, NULL);   /* offset 0 in the bound PBO */
    GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
    p->pending[p->n_pending++] = (struct glr_snap_pbo_read){ texture, f, level, format, type, size, s };
    return true;
}

void glr_snap_pbo_end(struct glr_snap *sn, struct glr_snap_pbo *p)
{
    if (!p->n_pbo)
        return;
    GLint saved = 0;
    GLR_REAL(glGetIntegerv)(GL_PIXEL_PACK_BUFFER_BINDING, &saved);
    while (p->n_pending)
        collect_oldest(sn, p);
    GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, (GLuint)saved);
    GLR_REAL(glDeleteBuffers)((GLsizei)p->n_pbo, p->pbo);
    memset(p, 0, sizeof *p);
}

bool glr_snap_map_buffers(const struct glr_snap *sn)
{
    return sn->es ? sn->major >= 3 : glr_snap_has(sn, 3, 0, -1, 0);
}
