/* The replayer's dispatcher: function lookup and object name remapping around the generated
 * per-command code (glr_dispatch_gen.c). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "replay/dispatch_internal.h"
#include "registry/glr_sizes.h"
#include "replay/uniform_locations.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#include "replay/dispatch_state.h"

void glr_dispatch_set_reason(struct glr_dispatch *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->reason, sizeof d->reason, fmt, ap);
    va_end(ap);
}

const char *glr_dispatch_reason(const struct glr_dispatch *d)
{
    return d->reason[0] ? d->reason : "recorded data is malformed";
}

/* glGetIntegerv of the replay context for the size rules: state it does not have reads as 0 and
 * its GL error is taken back (the rules ask for pixel-store and binding state of any version).
 * Errors an earlier replayed call left pending are taken first: otherwise they would read as this
 * query's and every binding as 0 (a vendor driver that rejected one call of a frame then had each
 * later indexed draw refused as "NULL indices"). */
static int32_t replay_get_int(void *user, uint32_t pname)
{
    struct glr_dispatch *d = user;
    void (*get)(uint32_t, int32_t *) = (void (*)(uint32_t, int32_t *))glr_dispatch_proc(d, GLR_CMD_glGetIntegerv);
    uint32_t (*error)(void) = (uint32_t (*)(void))glr_dispatch_proc(d, GLR_CMD_glGetError);
    int32_t v = 0;
    if (!get)
        return 0;
    /* At most one flag per error kind is pending (GL 4.6 §2.3.1): a bounded loop. */
    for (int k = 0; error && k < 16 && error() != 0; k++)
        ;
    get(pname, &v);
    if (error && error() != 0)
        return 0;
    return v;
}

bool glr_dispatch_output_bound(struct glr_dispatch *d, uint32_t binding)
{
    /* glGetIntegerv(GLenum, GLint *): declared here to keep the generated types out of this file. */
    void (*get)(uint32_t, int32_t *) = (void (*)(uint32_t, int32_t *))glr_dispatch_proc(d, GLR_CMD_glGetIntegerv);
    int32_t bound = 0;
    if (get)
        get(binding, &bound);
    return bound != 0;
}

bool glr_call_lacks_client_memory(const bool *unsized, const struct glr_call *c)
{
    if (c->cmd >= GLR_CMD_COUNT || !unsized[c->cmd])
        return false;
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    for (int i = 0; i < ci->nparams; i++)
        if (glr_cmd_params(ci)[i].is_pointer && glr_cmd_params(ci)[i].is_const && !glr_cmd_params(ci)[i].obj_class && c->args[i] &&
            !c->blobs[i].size)
            return true;
    return false;
}

bool glr_obj_class_per_context(int obj_class)
{
    switch (obj_class) {
    case GLR_OBJ_VERTEX_ARRAY:
    case GLR_OBJ_FRAMEBUFFER:
    case GLR_OBJ_QUERY:
    case GLR_OBJ_TRANSFORM_FEEDBACK:
    case GLR_OBJ_PROGRAM_PIPELINE:
        return true;
    default:
        return false;
    }
}

struct glr_dispatch *glr_dispatch_create(glr_get_proc_fn get_proc, glr_namespace_fn ns, void *user)
{
    struct glr_dispatch *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->get_proc = get_proc;
    d->ns = ns;
    d->user = user;
    d->env.get_int = replay_get_int;
    d->env.user = d;
    d->uloc = glr_uloc_create();
    if (!d->uloc) {
        free(d);
        return NULL;
    }
    return d;
}

void glr_dispatch_reset_names(struct glr_dispatch *d)
{
    for (size_t i = 0; i < d->n_maps; i++) {
        free(d->maps[i].keys);
        free(d->maps[i].vals);
    }
    free(d->maps);
    d->maps = NULL;
    d->n_maps = 0;
    memset(d->ns_cache, 0, sizeof d->ns_cache);
    glr_uloc_reset(d->uloc);
}

void glr_dispatch_destroy(struct glr_dispatch *d)
{
    if (!d)
        return;
    glr_dispatch_reset_names(d);
    glr_uloc_destroy(d->uloc);
    free(d);
}

void *glr_dispatch_proc(struct glr_dispatch *d, int cmd)
{
    if (d->proc_state[cmd] == 0) {
        d->procs[cmd] = d->get_proc(d->user, glr_cmd_name(cmd));
        d->proc_state[cmd] = d->procs[cmd] ? 1 : 2;
    }
    return d->procs[cmd];
}

/* The namespace of (ctx_id, obj_class), remembered per class (see ns_cache). */
static uint32_t namespace_of(struct glr_dispatch *d, uint32_t ctx_id, int obj_class)
{
    if (obj_class < 0 || obj_class >= GLR_OBJ_COUNT)
        return d->ns ? d->ns(d->user, ctx_id, obj_class) : 0;
    if (!d->ns_cache[obj_class].valid || d->ns_cache[obj_class].ctx_id != ctx_id) {
        d->ns_cache[obj_class].ctx_id = ctx_id;
        d->ns_cache[obj_class].ns = d->ns ? d->ns(d->user, ctx_id, obj_class) : 0;
        d->ns_cache[obj_class].valid = true;
        d->ns_cache[obj_class].has_map = false;
    }
    return d->ns_cache[obj_class].ns;
}

static struct name_map *map_for(struct glr_dispatch *d, uint32_t ctx_id, int obj_class, bool create)
{
    uint32_t ns = namespace_of(d, ctx_id, obj_class);
    bool cached = obj_class >= 0 && obj_class < GLR_OBJ_COUNT;
    if (cached && d->ns_cache[obj_class].has_map)
        return &d->maps[d->ns_cache[obj_class].map];
    for (size_t i = 0; i < d->n_maps; i++)
        if (d->maps[i].ns == ns && d->maps[i].obj_class == obj_class) {
            if (cached) {
                d->ns_cache[obj_class].map = i;
                d->ns_cache[obj_class].has_map = true;
            }
            return &d->maps[i];
        }
    if (!create)
        return NULL;
    struct name_map *nm = realloc(d->maps, (d->n_maps + 1) * sizeof *nm);
    if (!nm)
        return NULL;
    d->maps = nm;
    struct name_map *m = &d->maps[d->n_maps++];
    *m = (struct name_map){ .ns = ns, .obj_class = obj_class };
    if (cached) {
        d->ns_cache[obj_class].map = d->n_maps - 1;
        d->ns_cache[obj_class].has_map = true;
    }
    return m;
}

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static bool map_put(struct name_map *m, uint64_t key, uint64_t val)
{
    if ((m->used + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k), *v = calloc(cap, sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t s = slot_of(m->keys[i], cap);
                while (k[s])
                    s = (s + 1) & (cap - 1);
                k[s] = m->keys[i];
                v[s] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    size_t s = slot_of(key, m->cap);
    while (m->keys[s] && m->keys[s] != key)
        s = (s + 1) & (m->cap - 1);
    if (!m->keys[s])
        m->used++;
    m->keys[s] = key;
    m->vals[s] = val;
    return true;
}

uint64_t glr_dispatch_lookup(struct glr_dispatch *d, uint32_t ctx_id, int obj_class, uint64_t captured)
{
    if (!captured)
        return 0; /* name 0 is the default object everywhere */
    struct name_map *m = map_for(d, ctx_id, obj_class, false);
    if (!m || !m->cap)
        return captured;
    size_t s = slot_of(captured, m->cap);
    while (m->keys[s]) {
        if (m->keys[s] == captured)
            return m->vals[s];
        s = (s + 1) & (m->cap - 1);
    }
    return captured; /* never created in the capture: a name the program used without creating */
}

uint64_t glr_dispatch_map(struct glr_dispatch *d, const struct glr_call *c, int obj_class, uint64_t captured)
{
    return glr_dispatch_lookup(d, c->ctx_id, obj_class, captured);
}

void glr_dispatch_bind(struct glr_dispatch *d, const struct glr_call *c, int obj_class, uint64_t captured,
                       uint64_t replayed)
{
    if (!captured)
        return;
    struct name_map *m = map_for(d, c->ctx_id, obj_class, true);
    if (m)
        map_put(m, captured, replayed);
}

int glr_dispatch_strings(struct glr_dispatch *d, const struct glr_blob *b, struct glr_strings *out)
{
    (void)d;
    memset(out, 0, sizeof *out);
    if (!b->size)
        return 0;
    const uint8_t *p = b->data, *end = p + b->size;
    if (b->size < 4)
        return -1;
    uint32_t n;
    memcpy(&n, p, 4);
    p += 4;
    if (n > b->size / 4)
        return -1;
    out->ptrs = calloc(n ? n : 1, sizeof *out->ptrs);
    out->lens = calloc(n ? n : 1, sizeof *out->lens);
    out->buf = malloc(b->size + n);   /* the bytes, each string then a NUL */
    char *q = out->buf;
    if (!out->ptrs || !out->lens || !out->buf) {
        glr_dispatch_strings_free(out);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len;
        if (end - p < 4) {
            glr_dispatch_strings_free(out);
            return -1;
        }
        memcpy(&len, p, 4);
        p += 4;
        if (len > (uint64_t)(end - p) || len > INT32_MAX) {
            glr_dispatch_strings_free(out);
            return -1;
        }
        memcpy(q, p, len);
        q[len] = 0;
        out->ptrs[i] = q;
        out->lens[i] = (int)len;
        q += len + 1;
        p += len;
    }
    out->count = n;
    return 0;
}

void glr_dispatch_strings_free(struct glr_strings *s)
{
    free(s->ptrs);
    free(s->lens);
    free(s->buf);
    s->ptrs = NULL;
    s->lens = NULL;
    s->buf = NULL;
}

bool glr_dispatch_count_over(struct glr_dispatch *d, uint64_t count_arg, uint32_t recorded)
{
    int64_t count = (int32_t)count_arg;
    if (count <= (int64_t)recorded)
        return false;
    glr_dispatch_set_reason(d, "count %" PRId64 " is larger than the %u recorded strings", count, recorded);
    return true;
}

/* The bytes a names parameter covers by the recorder's rule (n * 4), checked against its blob. */
static int names_need(struct glr_dispatch *d, const struct glr_call *c, int i, uint32_t *count)
{
    int64_t need = glr_param_size(&d->env, (int)c->cmd, i, c->args);
    if (need < 0 || (uint64_t)need > c->blobs[i].size || (need && !c->blobs[i].data)) {
        glr_dispatch_set_reason(d, "%s of %" PRId64 " names, %" PRIu64 " recorded", glr_param_name(&glr_cmd_params(&glr_cmds[c->cmd])[i]),
                   need < 0 ? (int64_t)-1 : need / 4, c->blobs[i].size / 4);
        return -1;
    }
    *count = (uint32_t)(need / 4);
    return 0;
}

int glr_dispatch_names_out(struct glr_dispatch *d, const struct glr_call *c, int i, struct glr_names *out)
{
    out->names = NULL;
    if (names_need(d, c, i, &out->count) != 0)
        return -1;
    out->names = calloc(out->count ? out->count : 1, sizeof *out->names);
    if (!out->names)
        glr_dispatch_set_reason(d, "out of memory");
    return out->names ? 0 : -1;
}

int glr_dispatch_names_in(struct glr_dispatch *d, const struct glr_call *c, int obj_class, int i, struct glr_names *out)
{
    if (glr_dispatch_names_out(d, c, i, out) != 0)
        return -1;
    for (uint32_t k = 0; k < out->count; k++) {
        uint32_t captured;
        memcpy(&captured, (const uint8_t *)c->blobs[i].data + 4 * k, 4);
        out->names[k] = (uint32_t)glr_dispatch_map(d, c, obj_class, captured);
    }
    return 0;
}

int glr_dispatch_client(struct glr_dispatch *d, const struct glr_call *c, int i, int null_ok, const void **out)
{
    const struct glr_blob *b = &c->blobs[i];
    const char *pname = glr_param_name(&glr_cmd_params(&glr_cmds[c->cmd])[i]);
    int64_t need = glr_param_size(&d->env, (int)c->cmd, i, c->args);
    *out = NULL;
    switch (need) {
    case GLR_SIZE_AT_DRAW:   /* a vertex array pointer: stored, read by draws (client arrays come
                              * as their own records) */
    case GLR_SIZE_OFFSET:    /* an offset into the buffer bound in the replay context */
        *out = (const void *)(uintptr_t)c->args[i];
        return 0;
    case GLR_SIZE_STRING:
        if (!b->size && !c->args[i])
            return 0;
        if (!b->size || !b->data || !memchr(b->data, 0, (size_t)b->size)) {
            glr_dispatch_set_reason(d, "%s: string not recorded or not terminated", pname);
            return -1;
        }
        *out = b->data;
        return 0;
    case GLR_SIZE_UNKNOWN:
        if (!c->args[i] && !b->size)
            return 0;
        glr_dispatch_set_reason(d, "%s: client memory of a size glreplay cannot check", pname);
        return -1;
    default:
        break;
    }
    if (need == 0) {
        *out = b->size ? b->data : NULL;
        return 0;
    }
    if (!c->args[i] && !b->size) {
        if (null_ok)
            return 0;   /* NULL: storage without contents */
        glr_dispatch_set_reason(d, "%s: NULL where the call reads %" PRId64 " bytes", pname, need);
        return -1;
    }
    if (b->size < (uint64_t)need || !b->data) {
        glr_dispatch_set_reason(d, "%s: the call reads %" PRId64 " bytes, %" PRIu64 " recorded", pname, need, b->size);
        return -1;
    }
    *out = b->data;
    return 0;
}

void glr_dispatch_names_bind(struct glr_dispatch *d, const struct glr_call *c, int obj_class,
                             const struct glr_blob *b, struct glr_names *n)
{
    for (uint32_t i = 0; i < n->count; i++) {
        uint32_t captured;
        memcpy(&captured, (const uint8_t *)b->data + 4 * i, 4);
        glr_dispatch_bind(d, c, obj_class, captured, n->names[i]);
    }
    glr_dispatch_names_free(n);
}

void glr_dispatch_names_free(struct glr_names *n)
{
    free(n->names);
    n->names = NULL;
}

/* Length of the whole buffer a glMapBuffer / glMapNamedBuffer call mapped (it has no length
 * argument): GL_BUFFER_SIZE of its target or of its (remapped) name. 0 when unknown. */
static uint64_t whole_buffer_length(struct glr_dispatch *d, const struct glr_call *c)
{
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    int32_t size = 0;
    int t = glr_cmd_param_role(ci, GLR_ROLE_target), b = glr_cmd_param_role(ci, GLR_ROLE_buffer);
    if (t >= 0) {
        void (*get)(uint32_t, uint32_t, int32_t *) =
            (void (*)(uint32_t, uint32_t, int32_t *))glr_dispatch_proc(d, GLR_CMD_glGetBufferParameteriv);
        if (get)
            get((uint32_t)c->args[t], GL_BUFFER_SIZE, &size);
    } else if (b >= 0) {
        void (*get)(uint32_t, uint32_t, int32_t *) =
            (void (*)(uint32_t, uint32_t, int32_t *))glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferParameteriv);
        if (get)
            get((uint32_t)glr_dispatch_map(d, c, GLR_OBJ_BUFFER, c->args[b]), GL_BUFFER_SIZE, &size);
    }
    return size > 0 ? (uint64_t)size : 0;
}

void glr_dispatch_mapped(struct glr_dispatch *d, const struct glr_call *c, void *replay_ptr, int64_t length)
{
    if (!c->ret || !replay_ptr)
        return;
    uint64_t len = length >= 0 ? (uint64_t)length : whole_buffer_length(d, c);
    for (size_t i = 0; i < d->n_mappings; i++)
        if (d->mappings[i].captured == c->ret) {
            d->mappings[i].replay = replay_ptr;
            d->mappings[i].length = len;
            return;
        }
    if (d->n_mappings == sizeof d->mappings / sizeof d->mappings[0])
        memmove(d->mappings, d->mappings + 1, (d->n_mappings - 1) * sizeof d->mappings[0]);
    else
        d->n_mappings++;
    d->mappings[d->n_mappings - 1].captured = c->ret;
    d->mappings[d->n_mappings - 1].replay = replay_ptr;
    d->mappings[d->n_mappings - 1].length = len;
}

int glr_dispatch_buffer_data(struct glr_dispatch *d, const struct glr_call *c)
{
    uint64_t ptr = c->args[0], off = c->args[1], len = c->args[2], n = c->blobs[0].size;
    if (!c->blobs[0].data || off > len || n > len - off) {
        glr_dispatch_set_reason(d, "mapped buffer data outside its recorded mapping");
        return GLR_DISPATCH_BAD;
    }
    for (size_t i = d->n_mappings; i-- > 0;)
        if (d->mappings[i].captured == ptr) {
            /* The record's own map length is only a claim: the replay's real mapping bounds it. */
            uint64_t real = d->mappings[i].length;
            if (off > real || n > real - off) {
                glr_dispatch_set_reason(d, "%" PRIu64 " bytes at offset %" PRIu64 " of a %" PRIu64 "-byte mapping", n, off, real);
                return GLR_DISPATCH_BAD;
            }
            memcpy(d->mappings[i].replay + off, c->blobs[0].data, (size_t)n);
            return GLR_DISPATCH_OK;
        }
    glr_dispatch_set_reason(d, "mapped buffer data for a mapping the replay does not have");
    return GLR_DISPATCH_BAD;
}

int glr_dispatch_buffer_mapped(struct glr_dispatch *d, const struct glr_call *c)
{
    uint64_t captured = c->args[0], offset = c->args[2], length = c->args[3];
    uint32_t buffer = (uint32_t)glr_dispatch_lookup(d, c->ctx_id, GLR_OBJ_BUFFER, c->args[1]);
    uint32_t access = (uint32_t)c->args[4];
    if (!buffer || !length || c->args[1] > UINT32_MAX || offset > INT64_MAX || length > INT64_MAX) {
        glr_dispatch_set_reason(d, "invalid buffer mapping record");
        return GLR_DISPATCH_BAD;
    }
    /* Keep only the bits a mapping may use; never UNSYNCHRONIZED or INVALIDATE: the restored
     * contents must survive. */
    access &= GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    void *p = NULL;
    /* The initial-state restore may have mapped it already (statemodel restores mappings): then
     * use that mapping's pointer. */
    typedef void (*named_param_fn)(uint32_t, uint32_t, int32_t *);
    typedef void (*named_ptr_fn)(uint32_t, uint32_t, void **);
    named_param_fn nparam = (named_param_fn)glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferParameteriv);
    named_ptr_fn nptr = (named_ptr_fn)glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferPointerv);
    if (nparam && nptr) {
        int32_t mapped = 0;
        nparam(buffer, GL_BUFFER_MAPPED, &mapped);
        if (mapped) {
            nptr(buffer, GL_BUFFER_MAP_POINTER, &p);
            int32_t real = 0;
            nparam(buffer, GL_BUFFER_MAP_LENGTH, &real);
            if (p) {
                struct glr_call fake = *c;
                fake.ret = captured;
                glr_dispatch_mapped(d, &fake, p, real > 0 ? real : 0);
                return GLR_DISPATCH_OK;
            }
        }
    }
    typedef void *(*map_named_fn)(uint32_t, intptr_t, intptr_t, uint32_t);
    typedef void *(*map_range_fn)(uint32_t, intptr_t, intptr_t, uint32_t);
    typedef void (*bind_fn)(uint32_t, uint32_t);
    typedef void (*get_fn)(uint32_t, int32_t *);
    map_named_fn named = (map_named_fn)glr_dispatch_proc(d, GLR_CMD_glMapNamedBufferRange);
    if (named) {
        p = named(buffer, (intptr_t)offset, (intptr_t)length, access);
    } else {
        map_range_fn range = (map_range_fn)glr_dispatch_proc(d, GLR_CMD_glMapBufferRange);
        bind_fn bind = (bind_fn)glr_dispatch_proc(d, GLR_CMD_glBindBuffer);
        get_fn get = (get_fn)glr_dispatch_proc(d, GLR_CMD_glGetIntegerv);
        if (!range || !bind || !get)
            return GLR_DISPATCH_MISSING;
        int32_t old = 0;
        get(GL_COPY_WRITE_BUFFER_BINDING, &old);
        bind(GL_COPY_WRITE_BUFFER, buffer);
        p = range(GL_COPY_WRITE_BUFFER, (intptr_t)offset, (intptr_t)length, access);
        bind(GL_COPY_WRITE_BUFFER, (uint32_t)old);
    }
    if (!p) {
        glr_dispatch_set_reason(d, "the buffer could not be mapped as recorded");
        return GLR_DISPATCH_BAD;
    }
    struct glr_call fake = *c;
    fake.ret = captured;
    glr_dispatch_mapped(d, &fake, p, length <= INT64_MAX ? (int64_t)length : 0);
    return GLR_DISPATCH_OK;
}

/* ------------------------------------------------------------------ uniform locations */

static uint32_t program_ns(struct glr_dispatch *d, const struct glr_call *c)
{
    return namespace_of(d, c->ctx_id, GLR_OBJ_PROGRAM);
}

int32_t glr_dispatch_uniform_location(struct glr_dispatch *d, const struct glr_call *c, uint32_t program,
                                      int32_t captured)
{
    return glr_uloc_translate(d->uloc, program_ns(d, c), c->ctx_id, program, captured);
}

void glr_dispatch_uniform_location_found(struct glr_dispatch *d, const struct glr_call *c, uint32_t program,
                                         int32_t replay)
{
    if (c->flags & GLR_CALL_HAS_RET)
        glr_uloc_found(d->uloc, program_ns(d, c), program, (int32_t)c->ret, replay);
}

void glr_dispatch_program_used(struct glr_dispatch *d, const struct glr_call *c, uint32_t program)
{
    glr_uloc_use_program(d->uloc, c->ctx_id, program);
}

void glr_dispatch_pipeline_bound(struct glr_dispatch *d, const struct glr_call *c, uint32_t pipeline)
{
    glr_uloc_bind_pipeline(d->uloc, c->ctx_id, pipeline);
}

void glr_dispatch_pipeline_active(struct glr_dispatch *d, const struct glr_call *c, uint32_t pipeline,
                                  uint32_t program)
{
    glr_uloc_active_program(d->uloc, program_ns(d, c), pipeline, program);
}

void glr_dispatch_program_relinked(struct glr_dispatch *d, const struct glr_call *c, uint32_t program)
{
    glr_uloc_forget_program(d->uloc, program_ns(d, c), program);
}
