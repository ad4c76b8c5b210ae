/* Small pieces of the pass reset: key sets, call lists, GL target tables. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml: the enums glcorearb.h lacks */

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

bool pr_set_add(struct pr_set *s, uint64_t key)
{
    if (!key) {
        s->has_zero = true;
        return true;
    }
    if ((s->used + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k);
        if (!k)
            return false;
        for (size_t i = 0; i < s->cap; i++)
            if (s->keys[i]) {
                size_t j = slot_of(s->keys[i], cap);
                while (k[j])
                    j = (j + 1) & (cap - 1);
                k[j] = s->keys[i];
            }
        free(s->keys);
        s->keys = k;
        s->cap = cap;
    }
    size_t j = slot_of(key, s->cap);
    while (s->keys[j] && s->keys[j] != key)
        j = (j + 1) & (s->cap - 1);
    if (!s->keys[j]) {
        s->keys[j] = key;
        s->used++;
    }
    return true;
}

bool pr_set_has(const struct pr_set *s, uint64_t key)
{
    if (!key)
        return s->has_zero;
    if (!s->cap)
        return false;
    size_t j = slot_of(key, s->cap);
    while (s->keys[j]) {
        if (s->keys[j] == key)
            return true;
        j = (j + 1) & (s->cap - 1);
    }
    return false;
}

void pr_set_free(struct pr_set *s)
{
    free(s->keys);
    memset(s, 0, sizeof *s);
}

struct glr_call *pr_emit(struct sm_call_list *l, uint32_t ctx, uint32_t cmd, int n, ...)
{
    struct glr_call *c = sm_call_list_push(l);
    if (!c)
        return NULL;
    c->cmd = cmd;
    c->ctx_id = ctx;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n && i < GLR_MAX_PARAMS; i++)
        c->args[i] = va_arg(ap, uint64_t);
    va_end(ap);
    return c;
}

struct glr_call *pr_copy(struct sm_call_list *l, const struct glr_call *src)
{
    struct glr_call *c = sm_call_list_push(l);
    if (c) {
        uint64_t seq = c->seq;
        *c = *src;
        c->seq = seq;
    }
    return c;
}

void pr_blob(struct sm_call_list *l, struct glr_call *c, int i, const void *data, size_t size)
{
    sm_call_list_own_blob(l, c, i, data, size);
}

uint64_t pr_f(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

uint64_t pr_d(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* In enum sm_buffer_target order. */
const uint32_t pr_buffer_targets[SM_BT_COUNT] = {
    GL_ARRAY_BUFFER, GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GL_PIXEL_PACK_BUFFER,
    GL_PIXEL_UNPACK_BUFFER, GL_TEXTURE_BUFFER, GL_DRAW_INDIRECT_BUFFER, GL_DISPATCH_INDIRECT_BUFFER,
    GL_QUERY_BUFFER, GL_PARAMETER_BUFFER, GL_UNIFORM_BUFFER, GL_SHADER_STORAGE_BUFFER,
    GL_ATOMIC_COUNTER_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER,
};

int pr_buffer_target_index(uint32_t target)
{
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (pr_buffer_targets[i] == target)
            return i;
    return -1;
}

/* In enum sm_tex_target order. */
const uint32_t pr_tex_targets[SM_TT_COUNT] = {
    GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_1D_ARRAY, GL_TEXTURE_2D_ARRAY,
    GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BUFFER,
    GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_EXTERNAL_OES,
};

int pr_tex_target_index(uint32_t target)
{
    if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        target = GL_TEXTURE_CUBE_MAP;
    for (int i = 0; i < SM_TT_COUNT; i++)
        if (pr_tex_targets[i] == target)
            return i;
    return -1;
}

/* The plan's failure reason and the applying of reset calls live here, below every pass_reset
 * file, so the files the plan calls need not call back up into it. */
bool pr_fail(struct glrh_reset *p, const char *fmt, ...)
{
    if (!p->failed && p->why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->why, p->why_size, fmt, ap);
        va_end(ap);
    }
    p->failed = true;
    return false;
}

void pr_apply_from(struct glrh_reset *p, size_t from)
{
    for (size_t i = from; i < p->reset.count; i++)
        sm_apply(p->end, &p->reset.calls[i]);
}
