/* Loading a .glcap for replay or inspection: METADATA (JSON), COMMAND_STREAM, REFERENCE_IMAGEs.
 * Everything is validated here, before any GL runs, so later stages can trust the data:
 * context attributes are known values, every record decodes, every context a record uses is
 * described, every image has the size its header claims. Errors are one line naming the file
 * (and section, where one is at fault). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "capture/glcap_json.h"
#include "replay/player/player.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define REF_IMAGE_HEADER_V1 24
#define REF_IMAGE_HEADER_V2 32
#define REF_IMAGE_HEADER_V3 40
#define MAX_IMAGE_SIDE 16384

static void seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t n, const char *fmt, ...)
{
    if (!n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

void glrh_capture_close(struct glrh_capture *cap)
{
    if (!cap)
        return;
    for (unsigned i = 0; i < cap->n_images; i++)
        free(cap->images[i].data);
    for (unsigned i = 0; i < cap->n_unsized; i++)
        free(cap->unsized[i]);
    free(cap->unsized);
    free(cap->images);
    free(cap->hashes);
    free(cap->sections);
    free(cap->ctxs);
    free(cap->stream);
    free(cap->program);
    free(cap->path);
    free(cap);
}

const struct glrh_context *glrh_capture_context(const struct glrh_capture *cap, uint32_t id)
{
    for (unsigned i = 0; i < cap->n_ctxs; i++)
        if (cap->ctxs[i].id == id)
            return &cap->ctxs[i];
    return NULL;
}

/* An integer JSON member within [lo, hi]; false if missing, not a number, fractional or out of range. */
static bool json_int(const struct glcap_json *obj, const char *key, double lo, double hi, int64_t *out)
{
    const struct glcap_json *v = glcap_json_get(obj, key);
    if (!glcap_json_is(v, GLCAP_JSON_NUMBER))
        return false;
    double d = v->num;
    if (d < lo || d > hi || d != (double)(int64_t)d)
        return false;
    *out = (int64_t)d;
    return true;
}

static void json_str(const struct glcap_json *obj, const char *key, char *dst, size_t n)
{
    const struct glcap_json *v = glcap_json_get(obj, key);
    snprintf(dst, n, "%s", glcap_json_is(v, GLCAP_JSON_STRING) && v->str ? v->str : "");
}

/* GL_CONTEXT_FLAGS bits replay understands: forward compatible, debug, robust access, no error. */
#define KNOWN_CONTEXT_FLAGS 0xFu

static int parse_context(const struct glcap_json *o, struct glrh_context *c, const char *label, char *err, size_t n)
{
    int64_t v;
    if (!glcap_json_is(o, GLCAP_JSON_OBJECT)) {
        seterr(err, n, "%s: a context entry is not an object", label);
        return -1;
    }
    if (!json_int(o, "id", 1, UINT32_MAX, &v)) {
        seterr(err, n, "%s: a context has no valid \"id\"", label);
        return -1;
    }
    c->id = (uint32_t)v;
    if (!json_int(o, "share_group", 0, UINT32_MAX, &v)) {
        seterr(err, n, "%s: context %u has no valid \"share_group\"", label, c->id);
        return -1;
    }
    c->share_group = (uint32_t)v;
    const struct glcap_json *api = glcap_json_get(o, "api");
    if (glcap_json_is(api, GLCAP_JSON_STRING) && strcmp(api->str, "glx") == 0)
        c->api = 1;
    else if (glcap_json_is(api, GLCAP_JSON_STRING) && strcmp(api->str, "egl") == 0)
        c->api = 2;
    else {
        seterr(err, n, "%s: context %u: unknown \"api\" (expected \"glx\" or \"egl\")", label, c->id);
        return -1;
    }
    const struct glcap_json *es = glcap_json_get(o, "es");
    if (!(glcap_json_is(es, GLCAP_JSON_TRUE) || glcap_json_is(es, GLCAP_JSON_FALSE))) {
        seterr(err, n, "%s: context %u: \"es\" is not true or false", label, c->id);
        return -1;
    }
    c->es = glcap_json_is(es, GLCAP_JSON_TRUE);
    int64_t major, minor, profile, flags;
    if (!json_int(o, "major", 0, 1000, &major) || !json_int(o, "minor", 0, 1000, &minor) ||
        !json_int(o, "profile_mask", INT32_MIN, INT32_MAX, &profile) ||
        !json_int(o, "flags", INT32_MIN, INT32_MAX, &flags)) {
        seterr(err, n, "%s: context %u: missing or invalid major/minor/profile_mask/flags", label, c->id);
        return -1;
    }
    c->described = major != 0;
    if (c->described) {
        bool version_ok = c->es ? (major >= 1 && major <= 3) : (major >= 1 && major <= 4);
        if (!version_ok || minor > 9) {
            seterr(err, n, "%s: context %u: unknown %s version %d.%d", label, c->id, c->es ? "OpenGL ES" : "OpenGL",
                   (int)major, (int)minor);
            return -1;
        }
    }
    if (profile < 0 || profile > 2 || (c->es && profile != 0)) {
        seterr(err, n, "%s: context %u: unknown profile_mask %lld", label, c->id, (long long)profile);
        return -1;
    }
    if ((uint32_t)flags & ~KNOWN_CONTEXT_FLAGS) {
        seterr(err, n, "%s: context %u: unknown context flags 0x%x", label, c->id, (unsigned)flags);
        return -1;
    }
    c->major = (int)major;
    c->minor = (int)minor;
    c->profile_mask = (int)profile;
    c->flags = (int)flags;
    int64_t samples = 0;
    if (glcap_json_get(o, "samples") && !json_int(o, "samples", 0, 64, &samples)) {
        seterr(err, n, "%s: context %u: invalid \"samples\"", label, c->id);
        return -1;
    }
    c->samples = (int)samples;
    int64_t alpha_bits = 0;
    c->alpha_known = glcap_json_get(o, "alpha_bits") != NULL;
    if (c->alpha_known && !json_int(o, "alpha_bits", 0, 32, &alpha_bits)) {
        seterr(err, n, "%s: context %u: invalid \"alpha_bits\"", label, c->id);
        return -1;
    }
    c->alpha_bits = (int)alpha_bits;
    int64_t depth_bits = 0, stencil_bits = 0;
    c->zs_known = glcap_json_get(o, "depth_bits") != NULL && glcap_json_get(o, "stencil_bits") != NULL;
    if (c->zs_known && (!json_int(o, "depth_bits", 0, 32, &depth_bits) || !json_int(o, "stencil_bits", 0, 32, &stencil_bits))) {
        seterr(err, n, "%s: context %u: invalid \"depth_bits\" or \"stencil_bits\"", label, c->id);
        return -1;
    }
    c->depth_bits = (int)depth_bits;
    c->stencil_bits = (int)stencil_bits;
    json_str(o, "version", c->version, sizeof c->version);
    json_str(o, "renderer", c->renderer, sizeof c->renderer);
    return 0;
}

static int parse_metadata(struct glrh_capture *cap, const char *text, const char *label, char *err, size_t n)
{
    struct glcap_json *root = glcap_json_parse(text);
    int rc = -1;
    if (!root) {
        seterr(err, n, "%s: not valid JSON", label);
        goto out;
    }
    if (!glcap_json_is(root, GLCAP_JSON_OBJECT)) {
        seterr(err, n, "%s: not a JSON object", label);
        goto out;
    }
    const struct glcap_json *fmt = glcap_json_get(root, "format");
    if (!glcap_json_is(fmt, GLCAP_JSON_STRING) || strcmp(fmt->str, "glreplay capture") != 0) {
        seterr(err, n, "%s: \"format\" is not \"glreplay capture\"", label);
        goto out;
    }
    const struct glcap_json *prog = glcap_json_get(root, "program");
    cap->program = strdup(glcap_json_is(prog, GLCAP_JSON_STRING) ? prog->str : "");
    int64_t v;
    if (!json_int(root, "first_frame", 0, 9007199254740992.0, &v)) {
        seterr(err, n, "%s: no valid \"first_frame\"", label);
        goto out;
    }
    cap->first_frame = (uint64_t)v;
    if (!json_int(root, "last_frame", (double)cap->first_frame, 9007199254740992.0, &v)) {
        seterr(err, n, "%s: no valid \"last_frame\"", label);
        goto out;
    }
    cap->last_frame = (uint64_t)v;
    if (json_int(root, "calls", 0, 9007199254740992.0, &v))
        cap->meta_calls = (uint64_t)v;
    if (json_int(root, "threads", 0, 9007199254740992.0, &v))
        cap->meta_threads = (uint64_t)v;
    if (json_int(root, "snapshot_losses", 0, 9007199254740992.0, &v))
        cap->snapshot_losses = (uint64_t)v;
    const struct glcap_json *loss = glcap_json_get(root, "snapshot_first_loss");
    if (glcap_json_is(loss, GLCAP_JSON_STRING) && loss->str) {
        /* printed on one line by the verbs: no control characters from the file */
        size_t k = 0;
        for (const char *q = loss->str; *q && k + 1 < sizeof cap->snapshot_first_loss; q++)
            cap->snapshot_first_loss[k++] = (unsigned char)*q < 0x20 || *q == 0x7f ? '?' : *q;
        cap->snapshot_first_loss[k] = 0;
    }
    const struct glcap_json *init = glcap_json_get(root, "initial_state");
    if (!glcap_json_is(init, GLCAP_JSON_STRING) || !init->str[0]) {
        seterr(err, n, "%s: no \"initial_state\" string", label);
        goto out;
    }
    snprintf(cap->initial_state, sizeof cap->initial_state, "%s", init->str);
    cap->initial_default = strcmp(init->str, "default") == 0;
    const struct glcap_json *ctxs = glcap_json_get(root, "contexts");
    if (!glcap_json_is(ctxs, GLCAP_JSON_ARRAY)) {
        seterr(err, n, "%s: no \"contexts\" array", label);
        goto out;
    }
    size_t count = glcap_json_count(ctxs);
    cap->ctxs = calloc(count ? count : 1, sizeof *cap->ctxs);
    if (!cap->ctxs || !cap->program) {
        seterr(err, n, "%s: out of memory", label);
        goto out;
    }
    const struct glcap_json *o;
    for (o = ctxs->child; o; o = o->next) {
        struct glrh_context *c = &cap->ctxs[cap->n_ctxs];
        if (parse_context(o, c, label, err, n) != 0)
            goto out;
        if (glrh_capture_context(cap, c->id)) {
            seterr(err, n, "%s: context %u is listed twice", label, c->id);
            goto out;
        }
        cap->n_ctxs++;
    }
    const struct glcap_json *uns = glcap_json_get(root, "unsized_client_memory");
    if (glcap_json_is(uns, GLCAP_JSON_ARRAY)) {
        size_t k = glcap_json_count(uns);
        cap->unsized = calloc(k ? k : 1, sizeof *cap->unsized);
        if (!cap->unsized) {
            seterr(err, n, "%s: out of memory", label);
            goto out;
        }
        for (o = uns->child; o; o = o->next)
            if (glcap_json_is(o, GLCAP_JSON_STRING))
                cap->unsized[cap->n_unsized++] = strdup(o->str);
    }
    rc = 0;
out:
    glcap_json_free(root);
    return rc;
}

/* GL types a client array may have, by size in bytes (0: unknown type). */
static unsigned client_type_size(uint64_t type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED:
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV:
        return 4;
    case GL_DOUBLE: return 8;
    default: return 0;
    }
}

/* Whether a call of context `ctx_id` can be replayed: the context is described. */
static int check_ctx_use(const struct glrh_capture *cap, const struct glr_call *c, uint64_t rec, uint32_t ctx_id,
                         const char *label, char *err, size_t n)
{
    const struct glrh_context *ctx = glrh_capture_context(cap, ctx_id);
    if (!ctx) {
        seterr(err, n, "%s: record %llu (%s) uses context %u, which METADATA does not list", label,
               (unsigned long long)rec, glr_call_name(c->cmd), ctx_id);
        return -1;
    }
    if (!ctx->described) {
        seterr(err, n, "%s: record %llu (%s) uses context %u, whose attributes were not recorded", label,
               (unsigned long long)rec, glr_call_name(c->cmd), ctx_id);
        return -1;
    }
    return 0;
}

static int validate_record(struct glrh_capture *cap, const struct glr_call *c, uint64_t rec, const char *label, char *err,
                           size_t n)
{
    if (c->cmd < GLR_CMD_COUNT) {
        if (glr_cmds[c->cmd].api == GLR_API_GL && c->ctx_id)
            return check_ctx_use(cap, c, rec, c->ctx_id, label, err, n);
        return 0;
    }
    switch (c->cmd) {
    case GLR_PSEUDO_CONTEXT_CREATE:
        if (c->args[0] > UINT32_MAX || !glrh_capture_context(cap, (uint32_t)c->args[0])) {
            seterr(err, n, "%s: record %llu creates context %llu, which METADATA does not list", label,
                   (unsigned long long)rec, (unsigned long long)c->args[0]);
            return -1;
        }
        if (c->args[2] != 1 && c->args[2] != 2) {
            seterr(err, n, "%s: record %llu: unknown context api %llu", label, (unsigned long long)rec,
                   (unsigned long long)c->args[2]);
            return -1;
        }
        return 0;
    case GLR_PSEUDO_MAKE_CURRENT:
        if (!c->ctx_id)
            return 0;
        if (check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) != 0)
            return -1;
        if (c->args[0] && c->args[1] && c->args[0] <= MAX_IMAGE_SIDE && c->args[1] <= MAX_IMAGE_SIDE) {
            struct glrh_context *ctx = (struct glrh_context *)glrh_capture_context(cap, c->ctx_id);
            if (!ctx->surface_w) {
                ctx->surface_w = (unsigned)c->args[0];
                ctx->surface_h = (unsigned)c->args[1];
            }
        }
        return 0;
    case GLR_PSEUDO_SWAP:
        cap->n_swaps++;
        return c->ctx_id ? check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) : 0;
    case GLR_PSEUDO_BUFFER_MAPPED:
        /* captured map pointer, buffer, offset, length, access: a mapping older than the capture */
        if (!c->args[1] || c->args[1] > UINT32_MAX || !c->args[3]) {
            seterr(err, n, "%s: record %llu: invalid buffer mapping event", label, (unsigned long long)rec);
            return -1;
        }
        return c->ctx_id ? check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) : 0;
    case GLR_PSEUDO_BUFFER_DATA:
        /* captured map pointer, offset in the map, map length, buffer, offset in the buffer; blob */
        if (c->args[1] > c->args[2] || c->blobs[0].size > c->args[2] - c->args[1]) {
            seterr(err, n, "%s: record %llu: mapped buffer data outside its mapping", label, (unsigned long long)rec);
            return -1;
        }
        return c->ctx_id ? check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) : 0;
    case GLR_PSEUDO_MAP_READ:
        /* captured map pointer, buffer, offset, length; blob: what the mapping held (the verifier
         * reads the replay's mapping through GL, never through these numbers) */
        return c->ctx_id ? check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) : 0;
    case GLR_PSEUDO_CLIENT_ARRAY: {
        /* index, size, type, normalized, integer, stride, first, pointer */
        bool size_ok = (c->args[1] >= 1 && c->args[1] <= 4) || c->args[1] == GL_BGRA;
        if (c->args[0] >= 256 || !size_ok || !client_type_size(c->args[2]) || c->args[3] > 1 || c->args[4] > 1 ||
            c->args[5] > INT32_MAX || c->args[6] > INT32_MAX) {
            seterr(err, n, "%s: record %llu: invalid client array description", label, (unsigned long long)rec);
            return -1;
        }
        return c->ctx_id ? check_ctx_use(cap, c, rec, c->ctx_id, label, err, n) : 0;
    }
    default:
        seterr(err, n, "%s: record %llu: unknown event %u", label, (unsigned long long)rec, c->cmd);
        return -1;
    }
}

/* The length of every mapping the stream made with a length argument (glMapBufferRange,
 * glMapNamedBufferRange, a BUFFER_MAPPED event), by the captured pointer: a BUFFER_DATA record
 * must claim that same map length (the dispatcher bounds the write by the real mapping in any
 * case; a record that contradicts its own stream is refused here with a clear line). */
struct map_lengths {
    struct { uint64_t ptr, length; } m[64];
    unsigned n, next;
};

static void map_length_put(struct map_lengths *ml, uint64_t ptr, uint64_t length)
{
    for (unsigned i = 0; i < ml->n; i++)
        if (ml->m[i].ptr == ptr) {
            ml->m[i].length = length;
            return;
        }
    unsigned slot = ml->n < 64 ? ml->n++ : ml->next++ % 64;
    ml->m[slot].ptr = ptr;
    ml->m[slot].length = length;
}

static int check_map_length(struct map_lengths *ml, const struct glr_call *c, uint64_t rec, const char *label,
                            char *err, size_t n)
{
    if (c->cmd == GLR_PSEUDO_BUFFER_MAPPED) {
        map_length_put(ml, c->args[0], c->args[3]);
    } else if (c->cmd < GLR_CMD_COUNT && c->ret && (glr_cmds[c->cmd].flags & GLR_CF_MAP_BUFFER)) {
        /* A range map call: its length argument; a whole-buffer one: unknown here (a pointer can
         * be returned again by a later map of another length). */
        int len = glr_cmd_param_role(&glr_cmds[c->cmd], GLR_ROLE_length);
        map_length_put(ml, c->ret, len >= 0 ? c->args[len] : UINT64_MAX);
    } else if (c->cmd == GLR_PSEUDO_BUFFER_DATA) {
        for (unsigned i = 0; i < ml->n; i++)
            if (ml->m[i].ptr == c->args[0] && ml->m[i].length != UINT64_MAX && ml->m[i].length != c->args[2]) {
                seterr(err, n, "%s: record %llu: mapped buffer data claims a %llu-byte mapping; the stream mapped %llu bytes",
                       label, (unsigned long long)rec, (unsigned long long)c->args[2],
                       (unsigned long long)ml->m[i].length);
                return -1;
            }
    }
    return 0;
}

static int load_stream(struct glrh_capture *cap, glcap_reader *r, char *err, size_t n)
{
    int64_t idx = glcap_reader_find(r, GLCAP_SECTION_COMMAND_STREAM, 0);
    if (idx < 0) {
        seterr(err, n, "%s: no COMMAND_STREAM section (not a complete capture)", cap->path);
        return -1;
    }
    if (glcap_reader_load(r, (uint32_t)idx, &cap->stream, &cap->stream_size) != 0) {
        seterr(err, n, "%s", glcap_reader_error(r));
        return -1;
    }
    char label[512];
    glcap_reader_section_label(r, (uint32_t)idx, label, sizeof label);
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k;
    struct map_lengths maps = { 0 };
    while ((k = glr_stream_next(&s, &c)) == 1)
        if (validate_record(cap, &c, s.index - 1, label, err, n) != 0 ||
            check_map_length(&maps, &c, s.index - 1, label, err, n) != 0)
            return -1;
    if (k < 0) {
        seterr(err, n, "%s: %s", label, s.err);
        return -1;
    }
    cap->n_records = s.index;
    return 0;
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static int load_images(struct glrh_capture *cap, glcap_reader *r, char *err, size_t n)
{
    uint32_t total = glcap_reader_section_count(r);
    for (uint32_t i = 0; i < total; i++) {
        const glcap_section_info *si = glcap_reader_section(r, i);
        if (!si || !si->readable || si->type != GLCAP_SECTION_REFERENCE_IMAGE)
            continue;
        char label[512];
        glcap_reader_section_label(r, i, label, sizeof label);
        struct glrh_image *ni = realloc(cap->images, (cap->n_images + 1) * sizeof *ni);
        struct glrh_image *nh = ni ? realloc(cap->hashes, (cap->n_hashes + 1) * sizeof *nh) : NULL;
        if (ni)
            cap->images = ni;
        if (nh)
            cap->hashes = nh;
        if (!ni || !nh) {
            seterr(err, n, "%s: out of memory", label);
            return -1;
        }
        struct glrh_image im = { 0 };
        size_t size;
        if (glcap_reader_load(r, i, &im.data, &size) != 0) {
            seterr(err, n, "%s", glcap_reader_error(r));
            return -1;
        }
        const uint8_t *p = im.data;
        if (size < REF_IMAGE_HEADER_V1) {
            free(im.data);
            seterr(err, n, "%s: image header truncated (%zu bytes)", label, size);
            return -1;
        }
        /* Layout 1: the back buffer only; layout 2 adds the framebuffer and attachment; layout 3
         * is layout 2's header and the pixels' hash, no pixels. */
        uint32_t layout = get_u32(p);
        size_t header = layout == 3 ? REF_IMAGE_HEADER_V3 : layout == 2 ? REF_IMAGE_HEADER_V2 : REF_IMAGE_HEADER_V1;
        uint32_t format = get_u32(p + 20);
        if (layout < 1 || layout > 3 || format != 1 || size < header) {
            free(im.data);
            seterr(err, n, "%s: unknown image layout version %u or pixel format %u", label, layout, format);
            return -1;
        }
        im.section_id = si->id;
        im.frame = get_u32(p + 4);
        im.ctx_id = get_u32(p + 8);
        im.width = get_u32(p + 12);
        im.height = get_u32(p + 16);
        im.fbo = layout >= 2 ? get_u32(p + 24) : 0;
        im.attachment = layout >= 2 ? get_u32(p + 28) : GL_BACK;
        if (layout == 3)
            memcpy(&im.hash, p + 32, 8);
        const char *bad = NULL;
        if (im.fbo ? (im.attachment < GL_COLOR_ATTACHMENT0 || im.attachment >= GL_COLOR_ATTACHMENT0 + 32) : im.attachment != GL_BACK)
            bad = "attachment";
        else if (!im.width || !im.height || im.width > MAX_IMAGE_SIDE || im.height > MAX_IMAGE_SIDE ||
                 size != header + (layout == 3 ? 0 : (size_t)im.width * im.height * 4))
            bad = "size";
        const struct glrh_context *ctx = bad ? NULL : glrh_capture_context(cap, im.ctx_id);
        if (!bad && (!ctx || !ctx->described))
            bad = "context";
        if (bad) {
            free(im.data);
            if (bad[0] == 'a')
                seterr(err, n, "%s: image attachment 0x%x of framebuffer %u is not a colour buffer", label,
                       im.attachment, im.fbo);
            else if (bad[0] == 's')
                seterr(err, n, "%s: image of %ux%u does not match its %zu bytes", label, im.width, im.height, size);
            else
                seterr(err, n, "%s: image of context %u, which METADATA does not describe", label, im.ctx_id);
            return -1;
        }
        if (layout == 3) {
            free(im.data);
            im.data = NULL;
            cap->hashes[cap->n_hashes++] = im;
        } else {
            im.pixels = p + header;
            cap->images[cap->n_images++] = im;
        }
    }
    return 0;
}

/* Sections loaded by others (INITIAL_STATE and RESOURCE_BLOB by replay/restore.c) or by nobody:
 * their checksums are verified here, so a corrupt file is refused whatever part is damaged. */
/* Every other section is checked now, so that a damaged file is reported when it is opened. The
 * snapshot's sections (INITIAL_STATE, RESOURCE_BLOB) by their stored checksum only: whoever
 * restores the snapshot loads and fully checks them next, and decompressing them twice was 7 % of
 * a whole `glreplay model` run of an OpenArena frame (242 MB uncompressed). */
static int verify_other_sections(glcap_reader *r, char *err, size_t n)
{
    uint32_t total = glcap_reader_section_count(r);
    for (uint32_t i = 0; i < total; i++) {
        const glcap_section_info *si = glcap_reader_section(r, i);
        if (!si || !si->readable || si->type == GLCAP_SECTION_METADATA || si->type == GLCAP_SECTION_COMMAND_STREAM ||
            si->type == GLCAP_SECTION_REFERENCE_IMAGE)
            continue;
        bool snapshot = si->type == GLCAP_SECTION_INITIAL_STATE || si->type == GLCAP_SECTION_RESOURCE_BLOB;
        if ((snapshot ? glcap_reader_check_stored(r, i) : glcap_reader_read(r, i, NULL, NULL)) != 0) {
            seterr(err, n, "%s", glcap_reader_error(r));
            return -1;
        }
    }
    return 0;
}

static int record_sections(struct glrh_capture *cap, glcap_reader *r)
{
    cap->file_size = glcap_reader_file_size(r);
    cap->version_major = glcap_reader_version_major(r);
    cap->version_minor = glcap_reader_version_minor(r);
    uint32_t total = glcap_reader_section_count(r);
    cap->sections = calloc(total ? total : 1, sizeof *cap->sections);
    if (!cap->sections)
        return -1;
    for (uint32_t i = 0; i < total; i++) {
        const glcap_section_info *si = glcap_reader_section(r, i);
        if (!si)
            continue;
        cap->sections[cap->n_sections++] = (struct glrh_section_size){
            .type = si->type, .id = si->id, .compression = si->compression,
            .stored = si->stored_size, .raw = si->raw_size,
        };
    }
    return 0;
}

struct glrh_capture *glrh_capture_open(const char *path, char *err, size_t n)
{
    struct glrh_capture *cap = calloc(1, sizeof *cap);
    if (!cap || !(cap->path = strdup(path))) {
        seterr(err, n, "%s: out of memory", path);
        free(cap);
        return NULL;
    }
    glcap_reader_options ro = { 0 };
    char rerr[512];
    glcap_reader *r = glcap_reader_open(path, &ro, rerr, sizeof rerr);
    if (!r) {
        seterr(err, n, "%s", rerr);
        glrh_capture_close(cap);
        return NULL;
    }
    int64_t mi = glcap_reader_find(r, GLCAP_SECTION_METADATA, 0);
    void *meta = NULL;
    size_t meta_size = 0;
    int rc = -1;
    char label[512];
    if (record_sections(cap, r) != 0) {
        seterr(err, n, "%s: out of memory", path);
        goto out;
    }
    if (mi < 0) {
        seterr(err, n, "%s: no METADATA section (not a glreplay capture)", path);
        goto out;
    }
    glcap_reader_section_label(r, (uint32_t)mi, label, sizeof label);
    if (glcap_reader_load(r, (uint32_t)mi, &meta, &meta_size) != 0) {
        seterr(err, n, "%s", glcap_reader_error(r));
        goto out;
    }
    if (strlen(meta) != meta_size) {
        seterr(err, n, "%s: contains a NUL byte (not JSON text)", label);
        goto out;
    }
    if (parse_metadata(cap, meta, label, err, n) != 0 || load_stream(cap, r, err, n) != 0 ||
        load_images(cap, r, err, n) != 0 || verify_other_sections(r, err, n) != 0)
        goto out;
    rc = 0;
out:
    free(meta);
    glcap_reader_close(r);
    if (rc != 0) {
        glrh_capture_close(cap);
        return NULL;
    }
    return cap;
}

uint32_t glrh_namespace(void *user, uint32_t ctx_id, int obj_class)
{
    const struct glrh_capture *cap = user;
    if (glr_obj_class_per_context(obj_class))
        return ctx_id;
    for (unsigned i = 0; i < cap->n_ctxs; i++)
        if (cap->ctxs[i].id == ctx_id)
            return cap->ctxs[i].share_group;
    return ctx_id;
}
