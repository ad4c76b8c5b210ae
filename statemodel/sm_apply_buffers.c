/* Buffer object contents metadata: size, usage, storage flags, mapping, and the contents as far
 * as the calls upload them (glBufferData/SubData/Storage, copies between known buffers). */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"

/* Buffers larger than this keep no copy of uninitialised (NULL-data) storage. */
#define SM_ZERO_FILL_LIMIT (256ull << 20)

static struct sm_buffer *named_or_bound(struct sm_ap *a, bool named, uint32_t arg)
{
    if (named) {
        struct sm_buffer *b = ap_buffer(a, arg, false);
        if (!b)
            ap_error(a, "no such buffer");
        return b;
    }
    return ap_bound_buffer(a, arg);
}

static void forget_data(struct sm_buffer *b)
{
    free(b->data);
    b->data = NULL;
    b->data_known = false;
}

static void define_store(struct sm_ap *a, struct sm_buffer *b, int64_t size, int data_arg,
                         uint32_t usage, bool immutable, uint32_t flags)
{
    if (size < 0) {
        ap_error(a, "negative buffer size");
        return;
    }
    if (b->immutable) {
        ap_error(a, "buffer storage is immutable");
        return;
    }
    forget_data(b);
    b->size = (uint64_t)size;
    b->usage = usage;
    b->immutable = immutable;
    b->storage_flags = flags;
    b->mapped = false;
    const void *src = ap_bytes(a, data_arg, (uint64_t)size);
    if (a->call->blobs[data_arg].data && !src)
        ap_error(a, "buffer data shorter than the size");
    if (size == 0) {
        b->data_known = true;
        return;
    }
    if (!src && (uint64_t)size > SM_ZERO_FILL_LIMIT)
        return;
    b->data = src ? sm_contents_alloc((size_t)size) : calloc(1, (size_t)size);
    if (!b->data) {
        ap_error(a, "out of memory for buffer contents");
        return;
    }
    if (src)
        memcpy(b->data, src, (size_t)size);
    b->data_known = true;
}

/* glBufferData(target, size, data, usage) / glNamedBufferData(buffer, ...) */
static void h_buffer_data(struct sm_ap *a)
{
    struct sm_buffer *b = named_or_bound(a, a->cmd == GLR_CMD_glNamedBufferData, ap_u(a, 0));
    if (b)
        define_store(a, b, (int64_t)ap_u64(a, 1), 2, ap_u(a, 3), false, 0);
}

/* glBufferStorage(target, size, data, flags) / glNamedBufferStorage(buffer, ...) */
static void h_buffer_storage(struct sm_ap *a)
{
    struct sm_buffer *b = named_or_bound(a, a->cmd == GLR_CMD_glNamedBufferStorage, ap_u(a, 0));
    if (b)
        define_store(a, b, (int64_t)ap_u64(a, 1), 2, 0, true, ap_u(a, 3));
}

static bool range_ok(struct sm_ap *a, const struct sm_buffer *b, int64_t off, int64_t size)
{
    if (off < 0 || size < 0 || (uint64_t)off > b->size || (uint64_t)size > b->size - (uint64_t)off) {
        ap_error(a, "range outside the buffer");
        return false;
    }
    return true;
}

/* glBufferSubData(target, offset, size, data) / glNamedBufferSubData(buffer, ...) */
static void h_buffer_sub_data(struct sm_ap *a)
{
    struct sm_buffer *b = named_or_bound(a, a->cmd == GLR_CMD_glNamedBufferSubData, ap_u(a, 0));
    int64_t off = (int64_t)ap_u64(a, 1), size = (int64_t)ap_u64(a, 2);
    if (!b || !range_ok(a, b, off, size) || size == 0)
        return;
    const void *src = ap_bytes(a, 3, (uint64_t)size);
    if (!src) {
        ap_error(a, "sub data missing from the recorded call");
        forget_data(b);
        return;
    }
    if (!b->data_known && off == 0 && (uint64_t)size == b->size) {
        b->data = malloc((size_t)size);
        b->data_known = b->data != NULL;
    }
    if (b->data_known)
        memcpy(b->data + off, src, (size_t)size);
}

/* glCopyBufferSubData(readTarget, writeTarget, readOffset, writeOffset, size) and the named form */
static void h_copy_buffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glCopyNamedBufferSubData;
    struct sm_buffer *r = named_or_bound(a, named, ap_u(a, 0));
    struct sm_buffer *w = named_or_bound(a, named, ap_u(a, 1));
    int64_t ro = (int64_t)ap_u64(a, 2), wo = (int64_t)ap_u64(a, 3), size = (int64_t)ap_u64(a, 4);
    if (!r || !w || !range_ok(a, r, ro, size) || !range_ok(a, w, wo, size))
        return;
    if (!w->data_known)
        return;
    if (!r->data_known) {
        forget_data(w);
        return;
    }
    memmove(w->data + wo, r->data + ro, (size_t)size);
}

/* glClearBuffer(Sub)Data: the cleared value depends on format conversion the model does not do. */
static void h_clear_buffer_data(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glClearNamedBufferData ||
                 a->cmd == GLR_CMD_glClearNamedBufferSubData;
    struct sm_buffer *b = named_or_bound(a, named, ap_u(a, 0));
    if (b)
        forget_data(b);
}

static void map(struct sm_ap *a, struct sm_buffer *b, uint64_t off, uint64_t len, uint32_t access)
{
    if (!b)
        return;
    if (b->mapped) {
        ap_error(a, "buffer already mapped");
        return;
    }
    b->mapped = true;
    b->map_access = access;
    b->map_offset = off;
    b->map_length = len;
    /* What the program writes through the pointer is not in the call: the recorder reports the
     * written bytes as GLR_PSEUDO_BUFFER_DATA records (the whole mapped range at unmap, each
     * flushed range, a persistent mapping's changes before each draw), which sm_apply writes into
     * the contents. So the contents stay known: bytes outside the range are untouched, and bytes
     * inside it keep their old values until those records arrive (what llvmpipe shows for bytes
     * an invalidating map left undefined, since it maps the same memory). */
}

static void h_map_buffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glMapNamedBuffer;
    struct sm_buffer *b = named_or_bound(a, named, ap_u(a, 0));
    if (b)
        map(a, b, 0, b->size, ap_u(a, 1));
}

static void h_map_buffer_range(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glMapNamedBufferRange;
    struct sm_buffer *b = named_or_bound(a, named, ap_u(a, 0));
    if (b && range_ok(a, b, (int64_t)ap_u64(a, 1), (int64_t)ap_u64(a, 2)))
        map(a, b, ap_u64(a, 1), ap_u64(a, 2), ap_u(a, 3));
}

static void h_unmap_buffer(struct sm_ap *a)
{
    struct sm_buffer *b = named_or_bound(a, a->cmd == GLR_CMD_glUnmapNamedBuffer, ap_u(a, 0));
    if (!b)
        return;
    if (!b->mapped)
        ap_error(a, "buffer not mapped");
    b->mapped = false;
    b->map_access = 0;
    b->map_offset = b->map_length = 0;
}

void sm_register_buffers(sm_apply_fn *t)
{
    t[GLR_CMD_glBufferData] = h_buffer_data;
    t[GLR_CMD_glNamedBufferData] = h_buffer_data;
    t[GLR_CMD_glBufferStorage] = h_buffer_storage;
    t[GLR_CMD_glNamedBufferStorage] = h_buffer_storage;
    t[GLR_CMD_glBufferSubData] = h_buffer_sub_data;
    t[GLR_CMD_glNamedBufferSubData] = h_buffer_sub_data;
    t[GLR_CMD_glCopyBufferSubData] = h_copy_buffer;
    t[GLR_CMD_glCopyNamedBufferSubData] = h_copy_buffer;
    t[GLR_CMD_glClearBufferData] = h_clear_buffer_data;
    t[GLR_CMD_glClearBufferSubData] = h_clear_buffer_data;
    t[GLR_CMD_glClearNamedBufferData] = h_clear_buffer_data;
    t[GLR_CMD_glClearNamedBufferSubData] = h_clear_buffer_data;
    t[GLR_CMD_glMapBuffer] = h_map_buffer;
    t[GLR_CMD_glMapNamedBuffer] = h_map_buffer;
    t[GLR_CMD_glMapBufferRange] = h_map_buffer_range;
    t[GLR_CMD_glMapNamedBufferRange] = h_map_buffer_range;
    t[GLR_CMD_glUnmapBuffer] = h_unmap_buffer;
    t[GLR_CMD_glUnmapNamedBuffer] = h_unmap_buffer;
}

/* ------------------------------------------------------------------ public setters */

bool sm_set_buffer_data(struct sm_state *s, uint32_t ctx_id, uint32_t buffer, const void *data,
                        uint64_t size)
{
    struct sm_context *c = s ? sm_ctx_find(s, ctx_id) : NULL;
    struct sm_buffer *b = c ? sm_map_get(&c->share->buffers, buffer) : NULL;
    if (!b || size != b->size || (size && !data))
        return false;
    uint8_t *copy = size ? malloc((size_t)size) : NULL;
    if (size && !copy)
        return false;
    if (size)
        memcpy(copy, data, (size_t)size);
    free(b->data);
    b->data = copy;
    b->data_known = true;
    return true;
}
