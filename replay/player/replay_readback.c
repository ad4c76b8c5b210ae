/* replay --verify of read-backs: what glReadPixels, glGetTexImage, glGetBufferSubData and query
 * results returned to the program is in the capture (a hash and the size, the bytes when small;
 * shim/readback_rec.c, registry/glr_readback.h). After the replay dispatched such a call,
 * the same read is made here into memory of the replayer's own (a read into a pixel pack buffer:
 * the replay's buffer is read) and compared; one line per read-back in the first pass, and any
 * difference in any pass. That is how piglit's probes check a frame, and it verifies frames that
 * never swap. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "replay/player/replayer_internal.h"
#include "replay/dispatch_internal.h"
#include "registry/glr_readback.h"

typedef void (*read_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
typedef void (*readn_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, GLsizei, void *);
typedef void (*get_tex_image_fn)(GLenum, GLint, GLenum, GLenum, void *);
typedef void (*getn_tex_image_fn)(GLenum, GLint, GLenum, GLenum, GLsizei, void *);
typedef void (*get_buffer_sub_data_fn)(GLenum, GLintptr, GLsizeiptr, void *);
typedef void (*get_named_buffer_sub_data_fn)(GLuint, GLintptr, GLsizeiptr, void *);
typedef void (*get_query_object_fn)(GLuint, GLenum, void *);
typedef void (*get_query_objectiv_fn)(GLuint, GLenum, GLint *);
typedef void (*get_integerv_fn)(GLenum, GLint *);

static const char *name_of(const struct glr_call *c)
{
    return glr_cmd_name(c->cmd);
}

/* The read-back's output parameter: its one non-const pointer that is not an object name. */
static int output_param(const struct glr_call *c)
{
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    for (int i = 0; i < ci->nparams; i++)
        if (glr_cmd_params(ci)[i].is_pointer && !glr_cmd_params(ci)[i].is_const && !glr_cmd_params(ci)[i].obj_class)
            return i;
    return -1;
}

static GLint get_int(struct replayer *r, GLenum pname)
{
    get_integerv_fn f = (get_integerv_fn)glr_dispatch_proc(r->disp, GLR_CMD_glGetIntegerv);
    GLint v = 0;
    if (f)
        f(pname, &v);
    return v;
}

static int32_t env_get_int(void *user, uint32_t pname)
{
    struct replayer *r = user;
    GLint v = get_int(r, pname);
    glrh_gl_drain_errors(&r->gl);   /* state this context lacks reads as 0 */
    return v;
}

static bool env_tex_dims(void *user, uint32_t target, int32_t level, int64_t d[3])
{
    struct replayer *r = user;
    void (*f)(GLenum, GLint, GLenum, GLint *) =
        (void (*)(GLenum, GLint, GLenum, GLint *))glr_dispatch_proc(r->disp, GLR_CMD_glGetTexLevelParameteriv);
    if (!f)
        return false;
    GLint w = 0, h = 0, z = 0;
    f(target, level, GL_TEXTURE_WIDTH, &w);
    f(target, level, GL_TEXTURE_HEIGHT, &h);
    f(target, level, GL_TEXTURE_DEPTH, &z);
    glrh_gl_drain_errors(&r->gl);
    d[0] = w;
    d[1] = h;
    d[2] = z;
    return w > 0;
}

/* The replay's bytes of this read-back into buf (size bytes). NULL on success, else why not. The
 * read is made only when, under the replay's own state, it writes exactly the recorded size: the
 * capture is untrusted, and buf holds that many bytes. */
static const char *read_again(struct replayer *r, const struct glr_call *c, int out, const struct glr_readback *rb,
                              uint8_t *buf)
{
    /* Which call to repeat: a class generated from the registry (glr_cmd_info.readback,
     * registry/gl_annotations.txt), no name compared. */
    enum glr_readback_call rc = glr_cmds[c->cmd].readback;
    const uint64_t *a = c->args;
    void *f = glr_dispatch_proc(r->disp, (int)c->cmd);
    if (rb->flags & GLR_RB_BUFFER) {
        /* The dispatcher issued the read into the replay's pack buffer: read that range. */
        get_buffer_sub_data_fn get = (get_buffer_sub_data_fn)glr_dispatch_proc(r->disp, GLR_CMD_glGetBufferSubData);
        if (!get || !get_int(r, GL_PIXEL_PACK_BUFFER_BINDING))
            return "the replay has no pixel pack buffer bound";
        GLint64 bsize = 0;
        GLint mapped = 1;
        void (*param64)(GLenum, GLenum, GLint64 *) =
            (void (*)(GLenum, GLenum, GLint64 *))glr_dispatch_proc(r->disp, GLR_CMD_glGetBufferParameteri64v);
        void (*param)(GLenum, GLenum, GLint *) =
            (void (*)(GLenum, GLenum, GLint *))glr_dispatch_proc(r->disp, GLR_CMD_glGetBufferParameteriv);
        if (!param64 || !param)
            return "the replay's GL cannot read a buffer back";
        param64(GL_PIXEL_PACK_BUFFER, GL_BUFFER_SIZE, &bsize);
        param(GL_PIXEL_PACK_BUFFER, GL_BUFFER_MAPPED, &mapped);
        uint64_t off = a[out];
        if (mapped || off > (uint64_t)bsize || rb->size > (uint64_t)bsize - off)
            return "the replay's pixel pack buffer is mapped or too small";
        get(GL_PIXEL_PACK_BUFFER, (GLintptr)off, (GLsizeiptr)rb->size, buf);
        return NULL;
    }
    if (!f)
        return "the replay's GL lacks the command";
    const struct glr_size_env env = { env_get_int, r };
    const struct glr_readback_env rbe = { &env, env_tex_dims, r };
    int64_t need = glr_readback_size(&rbe, (int)c->cmd, a);
    if (need < 0 || (uint64_t)need != rb->size)
        return "under the replay's pack state it writes another size than the program's read";
    bool pixels = glr_cmds[c->cmd].flags & GLR_CF_PIXELS;
    if (pixels && get_int(r, GL_PIXEL_PACK_BUFFER_BINDING))
        return "the replay has a pixel pack buffer bound where the program had none";
    if (rc == GLR_RBC_READ_PIXELS) {
        ((read_pixels_fn)f)((GLint)a[0], (GLint)a[1], (GLsizei)a[2], (GLsizei)a[3], (GLenum)a[4], (GLenum)a[5], buf);
    } else if (rc == GLR_RBC_READN_PIXELS) {
        ((readn_pixels_fn)f)((GLint)a[0], (GLint)a[1], (GLsizei)a[2], (GLsizei)a[3], (GLenum)a[4], (GLenum)a[5],
                             (GLsizei)rb->size, buf);
    } else if (rc == GLR_RBC_GET_TEX_IMAGE) {
        ((get_tex_image_fn)f)((GLenum)a[0], (GLint)a[1], (GLenum)a[2], (GLenum)a[3], buf);
    } else if (rc == GLR_RBC_GETN_TEX_IMAGE) {
        ((getn_tex_image_fn)f)((GLenum)a[0], (GLint)a[1], (GLenum)a[2], (GLenum)a[3], (GLsizei)rb->size, buf);
    } else if (rc == GLR_RBC_GET_TEXTURE_IMAGE) {
        GLuint tex = (GLuint)glr_dispatch_lookup(r->disp, c->ctx_id, GLR_OBJ_TEXTURE, a[0]);
        ((getn_tex_image_fn)f)(tex, (GLint)a[1], (GLenum)a[2], (GLenum)a[3], (GLsizei)rb->size, buf);
    } else if (rc == GLR_RBC_GET_BUFFER_SUB_DATA) {
        ((get_buffer_sub_data_fn)f)((GLenum)a[0], (GLintptr)a[1], (GLsizeiptr)rb->size, buf);
    } else if (rc == GLR_RBC_GET_NAMED_BUFFER_SUB_DATA) {
        GLuint b = (GLuint)glr_dispatch_lookup(r->disp, c->ctx_id, GLR_OBJ_BUFFER, a[0]);
        ((get_named_buffer_sub_data_fn)f)(b, (GLintptr)a[1], (GLsizeiptr)rb->size, buf);
    } else if (rc == GLR_RBC_GET_QUERY_OBJECT) {
        /* Only a finished result is reproducible: availability depends on timing, and timer
         * queries measure time. */
        if (a[1] != GL_QUERY_RESULT)
            return "a query's availability depends on timing";
        GLuint q = (GLuint)glr_dispatch_lookup(r->disp, c->ctx_id, GLR_OBJ_QUERY, a[0]);
        get_query_objectiv_fn target = (get_query_objectiv_fn)glr_dispatch_proc(r->disp, GLR_CMD_glGetQueryObjectiv);
        GLint t = 0;
        if (target)
            target(q, GL_QUERY_TARGET, &t);
        glrh_gl_drain_errors(&r->gl);   /* GL_QUERY_TARGET needs GL 4.5: 0 before */
        if (t == GL_TIME_ELAPSED || t == GL_TIMESTAMP)
            return "a timer query measures time";
        ((get_query_object_fn)f)(q, (GLenum)a[1], buf);
    } else {
        return "the replayer does not read this command back";
    }
    return NULL;
}

static void print_bytes(FILE *out, const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n && i < 16; i++)
        fprintf(out, "%02x", p[i]);
    if (n > 16)
        fprintf(out, "...");
}

void glrh_verify_readback(struct replayer *r, const struct glr_call *c)
{
    int out = output_param(c);
    struct glr_readback rb;
    if (out < 0 || !glr_readback_parse(c->blobs[out].data, c->blobs[out].size, &rb))
        return;   /* not a read-back, or a capture from before read-backs were recorded */
    bool first = r->pass == 0;
    const char *why = NULL;
    uint8_t *buf = NULL;
    if (rb.flags & GLR_RB_UNCHECKED)
        why = rb.flags & GLR_RB_BUFFER ? "the capture could not read the pack buffer"
                                       : "its destination has gaps between rows or no size rule";
    else if (!(rb.flags & GLR_RB_HASHED))
        why = "nothing was recorded";
    else if (rb.size > ((uint64_t)1 << 31))
        why = "its recorded size is beyond any read-back the replayer makes";
    else if (!(buf = calloc(1, rb.size ? (size_t)rb.size : 1)))
        why = "out of memory";
    else
        why = read_again(r, c, out, &rb, buf);
    glrh_gl_drain_errors(&r->gl);
    if (why) {
        if (first) {
            r->res->readbacks_unchecked++;
            fprintf(r->out, "read-back at record %llu (%s, %llu bytes): not compared: %s\n",
                    (unsigned long long)r->record, name_of(c), (unsigned long long)rb.size, why);
        }
        free(buf);
        return;
    }
    /* The bytes, where the capture kept them (small reads), else their hash. */
    bool same = rb.bytes ? memcmp(buf, rb.bytes, (size_t)rb.size) == 0 : XXH3_64bits(buf, (size_t)rb.size) == rb.hash;
    if (first || !same)
        r->res->readbacks_checked++;
    if (same) {
        if (first)
            fprintf(r->out, "read-back at record %llu (%s, %llu bytes): matches\n", (unsigned long long)r->record,
                    name_of(c), (unsigned long long)rb.size);
    } else {
        r->res->readbacks_differing++;
        fprintf(r->out, "pass %u read-back at record %llu (%s, %llu bytes): DIFFERS", r->pass + 1,
                (unsigned long long)r->record, name_of(c), (unsigned long long)rb.size);
        if (rb.bytes) {
            fprintf(r->out, ": got ");
            print_bytes(r->out, buf, rb.size);
            fprintf(r->out, ", the program read ");
            print_bytes(r->out, rb.bytes, rb.size);
        }
        fprintf(r->out, "\n");
    }
    free(buf);
}

/* A GLR_PSEUDO_MAP_READ record (args: captured map pointer, buffer, offset, length; blob: what the
 * program's mapping held): the replay has just replayed the same map call, so its buffer is mapped
 * now. Its mapping is found through GL (GL_BUFFER_MAP_POINTER of the replay's buffer), never through
 * the record's pointer, and read only when GL says that many bytes are mapped there. */
static const char *map_bytes(struct replayer *r, const struct glr_call *c, const struct glr_readback *rb,
                             const uint8_t **out)
{
    void (*pointerv)(GLuint, GLenum, void **) =
        (void (*)(GLuint, GLenum, void **))glr_dispatch_proc(r->disp, GLR_CMD_glGetNamedBufferPointerv);
    void (*param64)(GLuint, GLenum, GLint64 *) =
        (void (*)(GLuint, GLenum, GLint64 *))glr_dispatch_proc(r->disp, GLR_CMD_glGetNamedBufferParameteri64v);
    if (!pointerv || !param64 || !r->current || r->current->desc->es)
        return "the replay's GL cannot query a mapping (no GL 4.5 named buffer queries)";
    if (!c->args[1] || c->args[1] > UINT32_MAX)
        return "the capture does not name the mapped buffer";
    GLuint b = (GLuint)glr_dispatch_lookup(r->disp, c->ctx_id, GLR_OBJ_BUFFER, c->args[1]);
    GLint64 mapped = 0, length = 0, offset = -1;
    void *p = NULL;
    param64(b, GL_BUFFER_MAPPED, &mapped);
    param64(b, GL_BUFFER_MAP_LENGTH, &length);
    param64(b, GL_BUFFER_MAP_OFFSET, &offset);
    pointerv(b, GL_BUFFER_MAP_POINTER, &p);
    if (glrh_gl_drain_errors(&r->gl) || !mapped || !p)
        return "the replay's buffer is not mapped";
    if (length < 0 || (uint64_t)length != rb->size || (uint64_t)offset != c->args[2])
        return "the replay mapped another range than the program";
    *out = p;
    return NULL;
}

void glrh_verify_map_read(struct replayer *r, const struct glr_call *c)
{
    struct glr_readback rb;
    if (!glr_readback_parse(c->blobs[0].data, c->blobs[0].size, &rb))
        return;
    bool first = r->pass == 0;
    const char *why = NULL;
    const uint8_t *bytes = NULL;
    if ((rb.flags & GLR_RB_UNCHECKED) || !(rb.flags & GLR_RB_HASHED))
        why = "the mapping was too large to record";
    else if (rb.size != c->args[3])
        why = "the record contradicts its own map length";
    else
        why = map_bytes(r, c, &rb, &bytes);
    if (why) {
        if (first) {
            r->res->readbacks_unchecked++;
            fprintf(r->out, "read through a mapping at record %llu (%llu bytes): not compared: %s\n",
                    (unsigned long long)r->record, (unsigned long long)rb.size, why);
        }
        return;
    }
    bool same = rb.bytes ? memcmp(bytes, rb.bytes, (size_t)rb.size) == 0 : XXH3_64bits(bytes, (size_t)rb.size) == rb.hash;
    if (first || !same)
        r->res->readbacks_checked++;
    if (same) {
        if (first)
            fprintf(r->out, "read through a mapping at record %llu (%llu bytes): matches\n",
                    (unsigned long long)r->record, (unsigned long long)rb.size);
        return;
    }
    r->res->readbacks_differing++;
    fprintf(r->out, "pass %u read through a mapping at record %llu (%llu bytes): DIFFERS", r->pass + 1,
            (unsigned long long)r->record, (unsigned long long)rb.size);
    if (rb.bytes) {
        fprintf(r->out, ": the replay's mapping holds ");
        print_bytes(r->out, bytes, rb.size);
        fprintf(r->out, ", the program's held ");
        print_bytes(r->out, rb.bytes, rb.size);
    }
    fprintf(r->out, "\n");
}
