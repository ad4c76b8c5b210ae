/* Buffer mappings. The driver cannot tell what a program writes through a mapped pointer, so the
 * shim keeps every live mapping (always, not only while capturing: a persistent mapping made at
 * start-up is written to in every later frame), and a capture records the written bytes as
 * GLR_PSEUDO_BUFFER_DATA events: the whole mapped range at unmap (write mappings without
 * FLUSH_EXPLICIT), the flushed range at each glFlushMapped*, and for persistent write mappings the
 * bytes that changed since the last look, before every draw. The replayer writes them through its
 * own mapping of the same call (docs/GLCAP_FORMAT.md). A read mapping's bytes at map time are kept
 * as a GLR_PSEUDO_MAP_READ record for `replay --verify` (shim/readback_rec.c). */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/recorder.h"
#include "registry/glr_call.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

struct glr_map {
    uint32_t group;        /* share group of the mapping context */
    uint32_t buffer;       /* buffer name (0 when the binding could not be queried) */
    uint32_t ctx, target;  /* for target-based unmaps when the name is unknown */
    uint8_t *ptr;
    uint64_t offset, length;
    uint32_t access;       /* GL_MAP_* bits */
    uint8_t *shadow;       /* persistent write mappings: the bytes as last recorded */
    struct glr_map *next;
};

struct glr_map;
void glr_rec_persistent_maps_locked_one(struct glr_map *m);

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_map *maps;
static int persistent_count;

/* Buffer binding query for each buffer target (values from gl.xml). */
static GLenum binding_of(GLenum target)
{
    switch (target) {
    case GL_ARRAY_BUFFER: return GL_ARRAY_BUFFER_BINDING;
    case GL_ELEMENT_ARRAY_BUFFER: return GL_ELEMENT_ARRAY_BUFFER_BINDING;
    case GL_PIXEL_PACK_BUFFER: return GL_PIXEL_PACK_BUFFER_BINDING;
    case GL_PIXEL_UNPACK_BUFFER: return GL_PIXEL_UNPACK_BUFFER_BINDING;
    case GL_UNIFORM_BUFFER: return GL_UNIFORM_BUFFER_BINDING;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BUFFER_BINDING;
    case GL_TRANSFORM_FEEDBACK_BUFFER: return GL_TRANSFORM_FEEDBACK_BUFFER_BINDING;
    case GL_COPY_READ_BUFFER: return GL_COPY_READ_BUFFER_BINDING;
    case GL_COPY_WRITE_BUFFER: return GL_COPY_WRITE_BUFFER_BINDING;
    case GL_DRAW_INDIRECT_BUFFER: return GL_DRAW_INDIRECT_BUFFER_BINDING;
    case GL_SHADER_STORAGE_BUFFER: return GL_SHADER_STORAGE_BUFFER_BINDING;
    case GL_DISPATCH_INDIRECT_BUFFER: return GL_DISPATCH_INDIRECT_BUFFER_BINDING;
    case GL_QUERY_BUFFER: return GL_QUERY_BUFFER_BINDING;
    case GL_ATOMIC_COUNTER_BUFFER: return GL_ATOMIC_COUNTER_BUFFER_BINDING;
    default: return 0;
    }
}

static uint32_t bound_buffer(GLenum target)
{
    GLenum b = binding_of(target);
    GLint name = 0;
    if (b)
        GLR_REAL(glGetIntegerv)(b, &name);
    return (uint32_t)name;
}

static uint32_t current_group(uint32_t *ctx_out)
{
    struct glr_context *c = glr_ctx_current();
    *ctx_out = glr_ctx_id(c);
    return glr_ctx_share_group(c);
}

static void record_bytes(const struct glr_map *m, uint64_t off, uint64_t len)
{
    if (!m->ptr || off >= m->length || !len)
        return;
    if (len > m->length - off)
        len = m->length - off;
    uint32_t ctx;
    current_group(&ctx);
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_BUFFER_DATA, ctx);
    if (!r)
        return;
    glr_rec_uvar(r, (uint64_t)(uintptr_t)m->ptr);
    glr_rec_uvar(r, off);
    glr_rec_uvar(r, m->length);
    glr_rec_uvar(r, m->buffer);
    glr_rec_uvar(r, m->offset + off);
    glr_rec_blob(r, m->ptr + off, (int64_t)len);
    glr_rec_end(r);
}

static void track_map(uint32_t buffer, GLenum target, void *ptr, uint64_t offset, uint64_t length, uint32_t access)
{
    if (!ptr || glr_disabled)
        return;
    if (access & GL_MAP_READ_BIT) {
        uint32_t ctx;
        current_group(&ctx);
        glr_rec_map_read(ctx, ptr, buffer, offset, length);
    }
    struct glr_map *m = calloc(1, sizeof *m);
    if (!m) {
        glr_log(GLR_LOG_ERROR, "out of memory tracking a buffer mapping; a capture may miss its writes");
        return;
    }
    m->group = current_group(&m->ctx);
    m->buffer = buffer;
    m->target = target;
    m->ptr = ptr;
    m->offset = offset;
    m->length = length;
    m->access = access;
    if ((access & GL_MAP_PERSISTENT_BIT) && (access & GL_MAP_WRITE_BIT)) {
        m->shadow = malloc(length ? length : 1);
        if (m->shadow)
            memcpy(m->shadow, ptr, length);
    }
    pthread_mutex_lock(&maps_lock);
    m->next = maps;
    maps = m;
    if (m->shadow)
        persistent_count++;
    pthread_mutex_unlock(&maps_lock);
}

static struct glr_map *find_locked(uint32_t buffer, GLenum target)
{
    uint32_t ctx, group = current_group(&ctx);
    for (struct glr_map *m = maps; m; m = m->next)
        if (m->group == group && (buffer ? m->buffer == buffer : (m->ctx == ctx && m->target == target)))
            return m;
    return NULL;
}

/* Before the real unmap: a write mapping's bytes (all of them unless flushed explicitly). */
static void before_unmap(uint32_t buffer, GLenum target)
{
    pthread_mutex_lock(&maps_lock);
    struct glr_map *m = find_locked(buffer, target);
    if (m && (m->access & GL_MAP_WRITE_BIT)) {
        if (m->shadow) {
            glr_rec_persistent_maps_locked_one(m);
        } else if (!(m->access & GL_MAP_FLUSH_EXPLICIT_BIT)) {
            record_bytes(m, 0, m->length);
        }
    }
    pthread_mutex_unlock(&maps_lock);
}

static void after_unmap(uint32_t buffer, GLenum target)
{
    pthread_mutex_lock(&maps_lock);
    for (struct glr_map **pp = &maps; *pp; pp = &(*pp)->next) {
        uint32_t ctx, group = current_group(&ctx);
        struct glr_map *m = *pp;
        if (m->group == group && (buffer ? m->buffer == buffer : (m->ctx == ctx && m->target == target))) {
            *pp = m->next;
            if (m->shadow)
                persistent_count--;
            free(m->shadow);
            free(m);
            break;
        }
    }
    pthread_mutex_unlock(&maps_lock);
}

static void on_flush(uint32_t buffer, GLenum target, int64_t offset, int64_t length)
{
    if (offset < 0 || length <= 0)
        return;
    pthread_mutex_lock(&maps_lock);
    struct glr_map *m = find_locked(buffer, target);
    if (m && (m->access & GL_MAP_WRITE_BIT)) {
        record_bytes(m, (uint64_t)offset, (uint64_t)length);
        if (m->shadow && (uint64_t)offset < m->length) {
            uint64_t n = (uint64_t)length < m->length - (uint64_t)offset ? (uint64_t)length : m->length - (uint64_t)offset;
            memcpy(m->shadow + offset, m->ptr + offset, n);
        }
    }
    pthread_mutex_unlock(&maps_lock);
}

/* Persistent write mappings: record the 4 KiB blocks that changed since the last record. */
void glr_rec_persistent_maps_locked_one(struct glr_map *m)
{
    const uint64_t block = 4096;
    uint64_t run_start = 0;
    bool in_run = false;
    for (uint64_t off = 0;; off += block) {
        bool changed = false;
        if (off < m->length) {
            uint64_t n = m->length - off < block ? m->length - off : block;
            changed = memcmp(m->ptr + off, m->shadow + off, n) != 0;
        }
        if (changed && !in_run) {
            run_start = off;
            in_run = true;
        } else if (!changed && in_run) {
            uint64_t end = off < m->length ? off : m->length;
            record_bytes(m, run_start, end - run_start);
            memcpy(m->shadow + run_start, m->ptr + run_start, end - run_start);
            in_run = false;
        }
        if (off >= m->length)
            break;
    }
}

void glr_rec_persistent_maps(void)
{
    if (!__atomic_load_n(&persistent_count, __ATOMIC_RELAXED))
        return;
    pthread_mutex_lock(&maps_lock);
    uint32_t ctx, group = current_group(&ctx);
    for (struct glr_map *m = maps; m; m = m->next)
        if (m->shadow && m->group == group)
            glr_rec_persistent_maps_locked_one(m);
    pthread_mutex_unlock(&maps_lock);
}

static uint64_t whole_size(uint32_t buffer, GLenum target)
{
    GLint64 size = 0;
    if (buffer && !target)
        GLR_REAL(glGetNamedBufferParameteri64v)(buffer, GL_BUFFER_SIZE, &size);
    else
        GLR_REAL(glGetBufferParameteri64v)(target, GL_BUFFER_SIZE, &size);
    return size > 0 ? (uint64_t)size : 0;
}

static uint32_t access_bits(GLenum access)
{
    return access == GL_READ_ONLY ? GL_MAP_READ_BIT
         : access == GL_WRITE_ONLY ? GL_MAP_WRITE_BIT
         : GL_MAP_READ_BIT | GL_MAP_WRITE_BIT;
}

#define MAP_TARGET(fn)                                                                              \
    void *glr_hook_##fn(GLenum target, GLenum access)                                               \
    {                                                                                               \
        void *p = glr_call_##fn(target, access);                                                    \
        if (p && !glr_disabled)                                                                     \
            track_map(bound_buffer(target), target, p, 0, whole_size(0, target), access_bits(access)); \
        return p;                                                                                   \
    }
MAP_TARGET(glMapBuffer)
MAP_TARGET(glMapBufferARB)
MAP_TARGET(glMapBufferOES)

#define MAP_RANGE(fn)                                                                               \
    void *glr_hook_##fn(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access)       \
    {                                                                                               \
        void *p = glr_call_##fn(target, offset, length, access);                                    \
        if (p && !glr_disabled)                                                                     \
            track_map(bound_buffer(target), target, p, (uint64_t)offset, (uint64_t)length, access); \
        return p;                                                                                   \
    }
MAP_RANGE(glMapBufferRange)
MAP_RANGE(glMapBufferRangeEXT)

#define MAP_NAMED(fn)                                                                               \
    void *glr_hook_##fn(GLuint buffer, GLenum access)                                               \
    {                                                                                               \
        void *p = glr_call_##fn(buffer, access);                                                    \
        if (p && !glr_disabled)                                                                     \
            track_map(buffer, 0, p, 0, whole_size(buffer, 0), access_bits(access));                 \
        return p;                                                                                   \
    }
MAP_NAMED(glMapNamedBuffer)
MAP_NAMED(glMapNamedBufferEXT)

#define MAP_NAMED_RANGE(fn)                                                                         \
    void *glr_hook_##fn(GLuint buffer, GLintptr offset, GLsizeiptr length, GLbitfield access)       \
    {                                                                                               \
        void *p = glr_call_##fn(buffer, offset, length, access);                                    \
        if (p && !glr_disabled)                                                                     \
            track_map(buffer, 0, p, (uint64_t)offset, (uint64_t)length, access);                    \
        return p;                                                                                   \
    }
MAP_NAMED_RANGE(glMapNamedBufferRange)
MAP_NAMED_RANGE(glMapNamedBufferRangeEXT)

#define UNMAP_TARGET(fn)                                                                            \
    GLboolean glr_hook_##fn(GLenum target)                                                          \
    {                                                                                               \
        uint32_t b = glr_disabled ? 0 : bound_buffer(target);                                       \
        if (!glr_disabled)                                                                          \
            before_unmap(b, target);                                                                \
        GLboolean ok = glr_call_##fn(target);                                                       \
        if (!glr_disabled)                                                                          \
            after_unmap(b, target);                                                                 \
        return ok;                                                                                  \
    }
UNMAP_TARGET(glUnmapBuffer)
UNMAP_TARGET(glUnmapBufferARB)
UNMAP_TARGET(glUnmapBufferOES)

#define UNMAP_NAMED(fn)                                                                             \
    GLboolean glr_hook_##fn(GLuint buffer)                                                          \
    {                                                                                               \
        if (!glr_disabled)                                                                          \
            before_unmap(buffer, 0);                                                                \
        GLboolean ok = glr_call_##fn(buffer);                                                       \
        if (!glr_disabled)                                                                          \
            after_unmap(buffer, 0);                                                                 \
        return ok;                                                                                  \
    }
UNMAP_NAMED(glUnmapNamedBuffer)
UNMAP_NAMED(glUnmapNamedBufferEXT)

#define FLUSH_TARGET(fn)                                                                            \
    void glr_hook_##fn(GLenum target, GLintptr offset, GLsizeiptr length)                           \
    {                                                                                               \
        if (!glr_disabled)                                                                          \
            on_flush(bound_buffer(target), target, (int64_t)offset, (int64_t)length);               \
        glr_call_##fn(target, offset, length);                                                      \
    }
FLUSH_TARGET(glFlushMappedBufferRange)
FLUSH_TARGET(glFlushMappedBufferRangeEXT)

#define FLUSH_NAMED(fn)                                                                             \
    void glr_hook_##fn(GLuint buffer, GLintptr offset, GLsizeiptr length)                           \
    {                                                                                               \
        if (!glr_disabled)                                                                          \
            on_flush(buffer, 0, (int64_t)offset, (int64_t)length);                                  \
        glr_call_##fn(buffer, offset, length);                                                      \
    }
FLUSH_NAMED(glFlushMappedNamedBufferRange)
FLUSH_NAMED(glFlushMappedNamedBufferRangeEXT)

/* At the start of a capture: every live mapping, so the replay maps the same buffers (after the
 * initial state is restored) before the frame writes through them; persistent shadows restart from
 * the current bytes (the snapshot holds those). */
void glr_rec_live_maps(void)
{
    pthread_mutex_lock(&maps_lock);
    for (struct glr_map *m = maps; m; m = m->next) {
        struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_BUFFER_MAPPED, m->ctx);
        if (!r)
            break;
        glr_rec_uvar(r, (uint64_t)(uintptr_t)m->ptr);
        glr_rec_uvar(r, m->buffer);
        glr_rec_uvar(r, m->offset);
        glr_rec_uvar(r, m->length);
        glr_rec_uvar(r, m->access);
        glr_rec_end(r);
        if (m->shadow)
            memcpy(m->shadow, m->ptr, m->length);
    }
    pthread_mutex_unlock(&maps_lock);
}
