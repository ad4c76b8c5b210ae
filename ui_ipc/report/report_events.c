/* The events of a report: the command stream walked through the state model (as `glreplay state`
 * does), giving the page its event list (every record, with its call's arguments), and for every
 * draw, clear and blit a detail file: the API state at that event (sm_query_json), the bound
 * program, the textures it samples (as PNGs where the model holds their contents) and the buffers
 * its vertex inputs and uniform blocks read; and the state after every event, as chunks of changes
 * (report_states.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ui_ipc/report/report.h"
#include "capture/glcap_file.h"
#include "replay/player/player.h"
#include "replay/player/image_util.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"
#include "registry/glr_call_codec.h"

enum ev_kind { EV_CALL = 0, EV_DRAW = 1, EV_CLEAR = 2, EV_BLIT = 3, EV_SHIM = 4 };

struct walk {
    const char *dir;
    struct sm_state *s;
    cJSON *programs;        /* "ctx:program:link" -> {context, program, link, shaders} */
    cJSON *textures_done;   /* content hash -> PNG file name (each texture image written once) */
    char *err;
    size_t err_size;
};

static void *load_section(glcap_reader *r, uint16_t type, size_t *size, bool *missing, char *err, size_t n)
{
    *missing = false;
    int64_t idx = glcap_reader_find(r, type, 0);
    if (idx < 0) {
        *missing = true;
        return NULL;
    }
    void *data = NULL;
    if (glcap_reader_load(r, (uint32_t)idx, &data, size) != 0) {
        snprintf(err, n, "%s", glcap_reader_error(r));
        return NULL;
    }
    return data;
}

/* The state before the first record: the capture's saved initial state, or an empty model with
 * the metadata's contexts declared. */
static struct sm_state *initial_state(glcap_reader *r, const char *path, char *err, size_t n)
{
    size_t size;
    bool missing;
    struct sm_state *s = NULL;
    void *init = load_section(r, GLCAP_SECTION_INITIAL_STATE, &size, &missing, err, n);
    if (!init && !missing)
        return NULL;
    if (init) {
        char e[256];
        s = sm_deserialize(init, size, e, sizeof e);
        free(init);
        if (!s) {
            snprintf(err, n, "%s: initial state: %s", path, e);
            return NULL;
        }
    } else if (!(s = sm_state_new())) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    char *meta = load_section(r, GLCAP_SECTION_METADATA, &size, &missing, err, n);
    if (!meta && !missing) {
        sm_state_free(s);
        return NULL;
    }
    if (meta) {
        char e[256];
        bool dflt = false;
        int rc = sm_declare_capture_contexts(s, meta, &dflt, e, sizeof e);
        free(meta);
        if (rc < 0) {
            snprintf(err, n, "%s: section METADATA: %s", path, e);
            sm_state_free(s);
            return NULL;
        }
    }
    return s;
}

static enum ev_kind kind_of(uint32_t cmd)
{
    if (cmd >= GLR_CMD_COUNT)
        return EV_SHIM;
    if (glrh_cmd_is_draw(cmd))
        return EV_DRAW;
    if (glrh_cmd_is_clear(cmd))
        return EV_CLEAR;
    if (glrh_cmd_is_blit(cmd))
        return EV_BLIT;
    return EV_CALL;
}

/* Primitive modes by name: values below 0x100 are ambiguous in the registry (4 is both GL_TRIANGLES
 * and GL_LINE_BIT), so a draw's mode is looked up here (values from the generated header). */
#define MODE(x) { x, #x }
static const struct { uint32_t v; const char *n; } modes[] = {
    MODE(GL_POINTS), MODE(GL_LINES), MODE(GL_LINE_LOOP), MODE(GL_LINE_STRIP), MODE(GL_TRIANGLES),
    MODE(GL_TRIANGLE_STRIP), MODE(GL_TRIANGLE_FAN), MODE(GL_QUADS), MODE(GL_QUAD_STRIP), MODE(GL_POLYGON),
    MODE(GL_LINES_ADJACENCY), MODE(GL_LINE_STRIP_ADJACENCY), MODE(GL_TRIANGLES_ADJACENCY),
    MODE(GL_TRIANGLE_STRIP_ADJACENCY), MODE(GL_PATCHES),
};

static const char *enum_text(const struct glr_call *c, const struct glr_param_info *p, uint64_t v)
{
    if (v < 0x100) {
        if (p->role == GLR_ROLE_mode && (glrh_cmd_is_draw(c->cmd) || c->cmd == GLR_CMD_glBegin))
            for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
                if (modes[i].v == v)
                    return modes[i].n;
        return NULL; /* a number: the name would be a guess */
    }
    return sm_enum_name((uint32_t)v);
}

/* "glDrawArrays(GL_TRIANGLES, 0, 36)": the call as the event list shows it. Enum parameters by
 * name, client memory by its size. */
static void call_text(const struct glr_call *c, char *out, size_t n)
{
    size_t used = (size_t)snprintf(out, n, "%s(", glr_call_name(c->cmd));
    if (c->cmd < GLR_CMD_COUNT) {
        const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
        for (int i = 0; i < ci->nparams && used < n; i++) {
            const struct glr_param_info *p = &glr_cmd_params(ci)[i];
            char v[64];
            const char *en;
            if (p->is_pointer)
                snprintf(v, sizeof v, c->blobs[i].data ? "<%" PRIu64 " bytes>" : "0x%" PRIx64,
                         c->blobs[i].data ? c->blobs[i].size : c->args[i]);
            else if (p->kind == GLR_KIND_F32)
                snprintf(v, sizeof v, "%g", (double)glr_arg_f32(c, i));
            else if (p->kind == GLR_KIND_F64)
                snprintf(v, sizeof v, "%g", glr_arg_f64(c, i));
            else if (strcmp(glr_str(p->ctype), "GLenum") == 0 && (en = enum_text(c, p, c->args[i])) != NULL)
                snprintf(v, sizeof v, "%s", en);
            else if (p->kind == GLR_KIND_I32 || p->kind == GLR_KIND_I64)
                snprintf(v, sizeof v, "%" PRId64, (int64_t)c->args[i]);
            else
                snprintf(v, sizeof v, "%" PRIu64, c->args[i]);
            used += (size_t)snprintf(out + used, n - used, "%s%s", i ? ", " : "", v);
        }
    }
    if (used < n)
        snprintf(out + used, n - used, ")");
}

/* The program bound at a draw, recorded once per link in programs.js; its key, or NULL. */
static const char *note_program(struct walk *w, const struct sm_context *ctx, uint32_t name, char *key, size_t n)
{
    const struct sm_program *p = name ? sm_get_program(ctx, name) : NULL;
    if (!p)
        return NULL;
    snprintf(key, n, "%u:%u:%u", sm_context_share_id(ctx), name, p->link_count);
    if (cJSON_GetObjectItemCaseSensitive(w->programs, key))
        return key;
    cJSON *o = cJSON_AddObjectToObject(w->programs, key);
    cJSON_AddNumberToObject(o, "context", sm_context_id(ctx));
    cJSON_AddNumberToObject(o, "share_group", sm_context_share_id(ctx));
    cJSON_AddNumberToObject(o, "program", name);
    cJSON_AddNumberToObject(o, "link", p->link_count);
    cJSON *sh = cJSON_AddArrayToObject(o, "shaders");
    for (uint32_t i = 0; i < p->n_linked; i++) {
        cJSON *e = cJSON_CreateObject();
        const char *t = sm_enum_name(p->linked[i].type);
        cJSON_AddStringToObject(e, "stage", t ? t : "?");
        cJSON_AddStringToObject(e, "source", p->linked[i].source ? p->linked[i].source : "");
        cJSON_AddItemToArray(sh, e);
    }
    /* Not linked (yet) in the model: the attached shaders are what would be linked. */
    if (!p->n_linked)
        for (uint32_t i = 0; i < p->n_attached; i++) {
            const struct sm_shader *s = sm_get_shader(ctx, p->attached[i]);
            if (!s)
                continue;
            cJSON *e = cJSON_CreateObject();
            const char *t = sm_enum_name(s->type);
            cJSON_AddStringToObject(e, "stage", t ? t : "?");
            cJSON_AddStringToObject(e, "source", s->source ? s->source : "");
            cJSON_AddItemToArray(sh, e);
        }
    return key;
}

static uint64_t fnv1a(const uint8_t *p, uint64_t n, uint64_t h)
{
    for (uint64_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* Converts a texture image the model holds (8-bit unsigned client data in one of the common
 * formats) to RGBA8 rows bottom-up, as GL stores them. NULL when the format is not pictured. */
static uint8_t *texture_rgba(const struct sm_tex_image *im)
{
    if (!im->defined || !im->data || im->compressed || im->data_type != GL_UNSIGNED_BYTE || im->width <= 0 ||
        im->height <= 0 || im->width > 16384 || im->height > 16384)
        return NULL;
    int comps;
    switch (im->data_format) {
    case GL_RGBA: case GL_BGRA: comps = 4; break;
    case GL_RGB: case GL_BGR: comps = 3; break;
    case GL_RG: case GL_LUMINANCE_ALPHA: comps = 2; break;
    case GL_RED: case GL_LUMINANCE: case GL_ALPHA: comps = 1; break;
    default: return NULL;
    }
    size_t align = im->data_alignment > 0 ? (size_t)im->data_alignment : 4;
    size_t row = (size_t)im->width * comps;
    size_t pitch = (row + align - 1) / align * align;
    if ((uint64_t)pitch * (uint64_t)(im->height - 1) + row > im->data_size)
        return NULL;
    uint8_t *out = malloc((size_t)im->width * im->height * 4);
    if (!out)
        return NULL;
    for (int y = 0; y < im->height; y++) {
        const uint8_t *s = im->data + pitch * (size_t)y;
        uint8_t *d = out + (size_t)y * im->width * 4;
        for (int x = 0; x < im->width; x++, s += comps, d += 4) {
            uint8_t r = s[0], g = 0, b = 0, a = 255;
            switch (im->data_format) {
            case GL_RGBA: g = s[1]; b = s[2]; a = s[3]; break;
            case GL_BGRA: r = s[2]; g = s[1]; b = s[0]; a = s[3]; break;
            case GL_RGB: g = s[1]; b = s[2]; break;
            case GL_BGR: r = s[2]; g = s[1]; b = s[0]; break;
            case GL_RG: g = s[1]; break;
            case GL_LUMINANCE_ALPHA: g = b = r; a = s[1]; break;
            case GL_LUMINANCE: g = b = r; break;
            case GL_ALPHA: r = g = b = 0; a = s[0]; break;
            default: break;
            }
            d[0] = r;
            d[1] = g;
            d[2] = b;
            d[3] = a;
        }
    }
    return out;
}

static void texture_picture(struct walk *w, const struct sm_texture *t, cJSON *e);

/* The textures of the state's units, with a PNG of level 0 where the model has its contents. */
static cJSON *textures_json(struct walk *w, const struct sm_context *ctx, const cJSON *units)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *u;
    cJSON_ArrayForEach(u, units)
    {
        cJSON *e = cJSON_Duplicate(u, true);
        cJSON_AddItemToArray(out, e);
        const cJSON *tn = cJSON_GetObjectItemCaseSensitive(u, "texture");
        const struct sm_texture *t = cJSON_IsNumber(tn) ? sm_get_texture(ctx, (uint32_t)tn->valuedouble) : NULL;
        if (t)
            texture_picture(w, t, e);
    }
    return out;
}

/* Adds "png" (level 0 as a PNG in data/tex, written once per content) or "image_note" to e. */
static void texture_picture(struct walk *w, const struct sm_texture *t, cJSON *e)
{
    const struct sm_tex_image *im = &t->image[0][0];
    uint8_t *rgba = texture_rgba(im);
    if (!rgba) {
        cJSON_AddStringToObject(e, "image_note", !im->defined ? "no image defined"
                                : !im->data ? "contents not known to the state model (e.g. rendered to)"
                                            : "format not pictured");
        return;
    }
    char hash[40], file[64];
    uint64_t h = fnv1a(im->data, im->data_size, 0xcbf29ce484222325ull);
    h = fnv1a((const uint8_t *)&im->width, sizeof im->width, h);
    h = fnv1a((const uint8_t *)&im->data_format, sizeof im->data_format, h);
    snprintf(hash, sizeof hash, "%016" PRIx64, h);
    snprintf(file, sizeof file, "data/tex/%s.png", hash);
    if (!cJSON_GetObjectItemCaseSensitive(w->textures_done, hash)) {
        char path[4096], e2[512];
        snprintf(path, sizeof path, "%s/%s", w->dir, file);
        /* Full size up to 256 pixels: enough to recognise, small enough for many textures. */
        if (glrr_write_thumb_png(path, rgba, (unsigned)im->width, (unsigned)im->height, 256, e2, sizeof e2) != 0)
            fprintf(stderr, "glreplay: warning: report: %s\n", e2);
        cJSON_AddTrueToObject(w->textures_done, hash);
    }
    cJSON_AddStringToObject(e, "png", file);
    free(rgba);
}

/* One buffer's summary: size, usage, whether the model knows its contents, and the first words
 * as floats and as unsigned integers (a glance at vertex or index data). */
static cJSON *buffer_json(const struct sm_context *ctx, uint32_t name, const char *role)
{
    const struct sm_buffer *b = sm_get_buffer(ctx, name);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "buffer", name);
    cJSON_AddStringToObject(o, "role", role);
    if (!b) {
        cJSON_AddStringToObject(o, "note", "not a buffer the state model knows");
        return o;
    }
    cJSON_AddNumberToObject(o, "size", (double)b->size);
    const char *usage = b->usage ? sm_enum_name(b->usage) : NULL;
    cJSON_AddStringToObject(o, "usage", usage ? usage : b->immutable ? "immutable storage" : "-");
    cJSON_AddBoolToObject(o, "contents_known", b->data_known);
    if (b->data_known && b->data) {
        uint64_t words = b->size / 4 < 16 ? b->size / 4 : 16;
        cJSON *f = cJSON_AddArrayToObject(o, "first_floats");
        cJSON *u = cJSON_AddArrayToObject(o, "first_uints");
        for (uint64_t i = 0; i < words; i++) {
            float fv;
            uint32_t uv;
            memcpy(&fv, b->data + i * 4, 4);
            memcpy(&uv, b->data + i * 4, 4);
            /* NaN and infinities are not JSON numbers. */
            if (fv != fv || fv > 3.4e38f || fv < -3.4e38f)
                cJSON_AddItemToArray(f, cJSON_CreateNull());
            else
                cJSON_AddItemToArray(f, cJSON_CreateNumber(fv));
            cJSON_AddItemToArray(u, cJSON_CreateNumber(uv));
        }
    }
    return o;
}

static cJSON *buffers_json(const struct sm_context *ctx, const cJSON *state)
{
    cJSON *out = cJSON_CreateArray();
    const cJSON *va = cJSON_GetObjectItemCaseSensitive(state, "vertex_array");
    const cJSON *eb = cJSON_GetObjectItemCaseSensitive(va, "element_buffer");
    if (cJSON_IsNumber(eb) && eb->valuedouble > 0)
        cJSON_AddItemToArray(out, buffer_json(ctx, (uint32_t)eb->valuedouble, "element (index) buffer"));
    uint32_t seen[64];
    int n_seen = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(va, "enabled_attributes"))
    {
        const cJSON *bn = cJSON_GetObjectItemCaseSensitive(a, "buffer");
        if (!cJSON_IsNumber(bn) || bn->valuedouble <= 0)
            continue;
        uint32_t name = (uint32_t)bn->valuedouble;
        bool dup = false;
        for (int i = 0; i < n_seen; i++)
            dup |= seen[i] == name;
        if (dup || n_seen == 64)
            continue;
        seen[n_seen++] = name;
        cJSON_AddItemToArray(out, buffer_json(ctx, name, "vertex buffer"));
    }
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(state, "uniform_buffers"))
    {
        const cJSON *bn = cJSON_GetObjectItemCaseSensitive(a, "buffer");
        if (cJSON_IsNumber(bn) && bn->valuedouble > 0)
            cJSON_AddItemToArray(out, buffer_json(ctx, (uint32_t)bn->valuedouble, "uniform buffer"));
    }
    return out;
}

/* Reads component i of a vertex attribute of GL type `type` at p as a double; false for types not
 * decoded here (packed formats). Normalized integers are shown as the shader sees them. */
static bool read_component(const uint8_t *p, uint32_t type, bool normalized, int i, double *out)
{
    switch (type) {
    case GL_FLOAT: { float v; memcpy(&v, p + 4 * i, 4); *out = v; return v == v; }
    case GL_DOUBLE: { double v; memcpy(&v, p + 8 * i, 8); *out = v; return v == v; }
    case GL_UNSIGNED_BYTE: *out = normalized ? p[i] / 255.0 : p[i]; return true;
    case GL_BYTE: { int8_t v = (int8_t)p[i]; *out = normalized ? (v < -127 ? -1.0 : v / 127.0) : v; return true; }
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p + 2 * i, 2); *out = normalized ? v / 65535.0 : v; return true; }
    case GL_SHORT: { int16_t v; memcpy(&v, p + 2 * i, 2); *out = normalized ? (v < -32767 ? -1.0 : v / 32767.0) : v; return true; }
    case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, p + 4 * i, 4); *out = normalized ? v / 4294967295.0 : v; return true; }
    case GL_INT: { int32_t v; memcpy(&v, p + 4 * i, 4); *out = normalized ? (v < -2147483647 ? -1.0 : v / 2147483647.0) : v; return true; }
    default: return false;
    }
}

static unsigned type_size(uint32_t type)
{
    switch (type) {
    case GL_FLOAT: case GL_UNSIGNED_INT: case GL_INT: return 4;
    case GL_DOUBLE: return 8;
    case GL_UNSIGNED_SHORT: case GL_SHORT: return 2;
    case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
    default: return 0;
    }
}

/* The vertices a draw starts with (up to 3): its first indices when it reads an index buffer the
 * model holds, else `first` onwards, else 0 onwards. */
static int first_vertices(const struct sm_context *ctx, const struct glr_call *c, const cJSON *state, uint64_t *v)
{
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    int pi = glr_cmd_param_role(ci, GLR_ROLE_indices), pt = glr_cmd_param_role(ci, GLR_ROLE_type),
        pf = glr_cmd_param_role(ci, GLR_ROLE_first);
    if (pi >= 0 && pt >= 0 && !glr_cmd_params(ci)[pi].is_pointer)
        pi = -1;
    if (pi >= 0 && pt >= 0) {
        const cJSON *eb = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(state, "vertex_array"),
                                                           "element_buffer");
        const struct sm_buffer *b = cJSON_IsNumber(eb) && eb->valuedouble > 0
                                        ? sm_get_buffer(ctx, (uint32_t)eb->valuedouble) : NULL;
        unsigned isz = type_size((uint32_t)c->args[pt]);
        if (!b || !b->data_known || !b->data || !isz || isz > 4)
            return 0;
        uint64_t off = c->args[pi];
        int n = 0;
        for (; n < 3 && off + (uint64_t)(n + 1) * isz <= b->size; n++) {
            double d;
            read_component(b->data + off, (uint32_t)c->args[pt], false, n, &d);
            v[n] = (uint64_t)d;
        }
        return n;
    }
    uint64_t first = pf >= 0 ? (uint64_t)(int64_t)(int32_t)c->args[pf] : 0;
    for (int i = 0; i < 3; i++)
        v[i] = first + (uint64_t)i;
    return 3;
}

/* The vertex inputs of a draw: each enabled attribute's layout and its values for the draw's
 * first vertices, read from the buffers the model holds. */
static cJSON *vertex_inputs_json(const struct sm_context *ctx, const struct glr_call *c, const cJSON *state)
{
    cJSON *out = cJSON_CreateArray();
    uint64_t verts[3];
    int nv = glrh_cmd_is_draw(c->cmd) ? first_vertices(ctx, c, state, verts) : 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(state, "vertex_array"),
                                                           "enabled_attributes"))
    {
        cJSON *e = cJSON_Duplicate(a, true);
        cJSON_AddItemToArray(out, e);
        const cJSON *bn = cJSON_GetObjectItemCaseSensitive(a, "buffer");
        const cJSON *ty = cJSON_GetObjectItemCaseSensitive(a, "type");
        uint32_t type = 0;
        if (!cJSON_IsNumber(bn) || bn->valuedouble <= 0 || !cJSON_IsString(ty) || !sm_enum_value(ty->valuestring, &type))
            continue;
        const struct sm_buffer *b = sm_get_buffer(ctx, (uint32_t)bn->valuedouble);
        int size = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "size"));
        uint64_t stride = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "stride"));
        uint64_t offset = (uint64_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "offset"));
        unsigned ts = type_size(type);
        bool norm = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "normalized"));
        if (!b || !b->data_known || !b->data || !ts || size < 1 || size > 4)
            continue;
        if (!stride)
            stride = (uint64_t)ts * (uint64_t)size;
        cJSON *vals = cJSON_AddArrayToObject(e, "first_vertices");
        for (int i = 0; i < nv; i++) {
            uint64_t at = offset + verts[i] * stride;
            if (verts[i] > b->size || at + (uint64_t)ts * size > b->size)
                break;
            cJSON *vx = cJSON_CreateArray();
            cJSON_AddItemToArray(vx, cJSON_CreateNumber((double)verts[i]));
            for (int k = 0; k < size; k++) {
                double d;
                cJSON_AddItemToArray(vx, read_component(b->data + at, type, norm, k, &d) ? cJSON_CreateNumber(d)
                                                                                          : cJSON_CreateNull());
            }
            cJSON_AddItemToArray(vals, vx);
        }
    }
    return out;
}

/* The texture or buffer a call writes (an upload, storage, a copy, mipmaps; by the name it is given
 * or the one bound to its target), after the call: its size and format and a PNG of level 0 (a
 * texture) or its first words (a buffer), for "Changed by this event" (the state lists bindings,
 * not contents). NULL for other calls. */
static cJSON *object_written(struct walk *w, const struct glr_call *c)
{
    const struct sm_context *ctx = c->ctx_id ? sm_context_get(w->s, c->ctx_id) : NULL;
    if (!ctx || c->cmd >= GLR_CMD_COUNT)
        return NULL;
    /* The uploads and copies that define a texture's or a buffer's contents (classes generated
     * from the registry: GLR_CF_TEX_WRITE, GLR_CF_BUF_WRITE). */
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    bool tex = (ci->flags & GLR_CF_TEX_WRITE) != 0, buf = (ci->flags & GLR_CF_BUF_WRITE) != 0;
    if (!tex && !buf)
        return NULL;
    /* The object: a named parameter (DSA forms, the write side of a copy), else the binding of the
     * target (the write side of glCopyBufferSubData). */
    int pn = glr_cmd_param_role(ci, tex ? GLR_ROLE_texture : GLR_ROLE_writeBuffer);
    if (pn < 0 && buf)
        pn = glr_cmd_param_role(ci, GLR_ROLE_buffer);
    int pt = glr_cmd_param_role(ci, buf ? GLR_ROLE_writeTarget : GLR_ROLE_target);
    if (pt < 0)
        pt = glr_cmd_param_role(ci, GLR_ROLE_target);
    uint32_t obj = pn >= 0 ? (uint32_t)c->args[pn]
                 : pt >= 0 ? (tex ? sm_bound_texture_name(ctx, (uint32_t)c->args[pt])
                                  : sm_bound_buffer_name(ctx, (uint32_t)c->args[pt])) : 0;
    if (!obj)
        return NULL;
    if (buf)
        return buffer_json(ctx, obj, "written by this call");
    const struct sm_texture *t = sm_get_texture(ctx, obj);
    if (!t)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "texture", obj);
    const struct sm_tex_image *im = &t->image[0][0];
    const char *f = im->internal_format ? sm_enum_name(im->internal_format) : NULL;
    cJSON_AddStringToObject(o, "internal_format", f ? f : "-");
    cJSON_AddNumberToObject(o, "width", im->width);
    cJSON_AddNumberToObject(o, "height", im->height);
    int levels = 0;
    for (int l = 0; l < SM_MAX_LEVELS; l++)
        levels += t->image[0][l].defined;
    cJSON_AddNumberToObject(o, "levels", levels);
    texture_picture(w, t, o);
    return o;
}

/* The detail file of a draw, clear or blit: data/d/<record>.js. */
static int write_detail(struct walk *w, uint64_t record, const struct glr_call *c, const char *text)
{
    const struct sm_context *ctx = c->ctx_id ? sm_context_get(w->s, c->ctx_id) : NULL;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "record", (double)record);
    cJSON_AddStringToObject(root, "call", text);
    cJSON_AddNumberToObject(root, "context", c->ctx_id);
    char *sj = ctx ? sm_query_json(w->s, c->ctx_id) : NULL;
    cJSON *state = sj ? cJSON_Parse(sj) : NULL;
    free(sj);
    if (state) {
        cJSON_AddItemToObject(root, "state", state);
        const cJSON *prog = cJSON_GetObjectItemCaseSensitive(state, "program");
        const cJSON *pn = cJSON_GetObjectItemCaseSensitive(prog, "name");
        char key[64];
        const char *k = cJSON_IsNumber(pn) ? note_program(w, ctx, (uint32_t)pn->valuedouble, key, sizeof key) : NULL;
        if (k)
            cJSON_AddStringToObject(root, "program_key", k);
        cJSON_AddItemToObject(root, "textures",
                              textures_json(w, ctx, cJSON_GetObjectItemCaseSensitive(state, "textures")));
        cJSON_AddItemToObject(root, "buffers", buffers_json(ctx, state));
        cJSON_AddItemToObject(root, "vertex_inputs", vertex_inputs_json(ctx, c, state));
    } else {
        cJSON_AddStringToObject(root, "note", "no state: the call ran on no context the state model knows");
    }
    char path[4096], prefix[64];
    snprintf(path, sizeof path, "%s/data/d/%llu.js", w->dir, (unsigned long long)record);
    snprintf(prefix, sizeof prefix, "glrReport.detail");
    int rc = glrr_write_js(path, prefix, root, w->err, w->err_size);
    cJSON_Delete(root);
    return rc;
}

int glrr_write_events(const char *capture, const char *out_dir, bool progress, struct glrr_events_summary *sum,
                      char *err, size_t err_size)
{
    memset(sum, 0, sizeof *sum);
    glcap_reader *r = glcap_reader_open(capture, NULL, err, err_size);
    if (!r)
        return -1;
    int rc = -1;
    size_t size = 0;
    bool missing;
    void *stream = NULL;
    struct walk w = { .dir = out_dir, .err = err, .err_size = err_size };
    cJSON *root = cJSON_CreateObject(), *names = cJSON_CreateArray(), *events = cJSON_CreateArray();
    struct glrr_states *states = NULL;
    w.programs = cJSON_CreateObject();
    w.textures_done = cJSON_CreateObject();
    int name_index[GLR_PSEUDO_END + 1];
    for (size_t i = 0; i < sizeof name_index / sizeof name_index[0]; i++)
        name_index[i] = -1;
    int n_names = 0;
    if (!(w.s = initial_state(r, capture, err, err_size)))
        goto out;
    if (!(states = glrr_states_new(out_dir, w.s))) {
        snprintf(err, err_size, "report: out of memory reading the initial state");
        goto out;
    }
    stream = load_section(r, GLCAP_SECTION_COMMAND_STREAM, &size, &missing, err, err_size);
    if (!stream) {
        if (missing)
            snprintf(err, err_size, "%s: no COMMAND_STREAM section (not a capture of calls)", capture);
        goto out;
    }
    struct glr_stream st;
    struct glr_call c;
    glr_stream_init(&st, stream, size);
    int k;
    for (uint64_t rec = 0; (k = glr_stream_next(&st, &c)) == 1; rec++) {
        enum ev_kind kind = kind_of(c.cmd);
        char text[1024];
        call_text(&c, text, sizeof text);
        uint32_t slot = c.cmd < GLR_PSEUDO_END ? c.cmd : GLR_PSEUDO_END; /* the stream reader allows no other */
        if (name_index[slot] < 0) {
            name_index[slot] = n_names++;
            cJSON_AddItemToArray(names, cJSON_CreateString(glr_call_name(c.cmd)));
        }
        /* [record, name index, context, kind, call text]: compact, 10,000 events load at once. */
        cJSON *e = cJSON_CreateArray();
        cJSON_AddItemToArray(e, cJSON_CreateNumber((double)rec));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(name_index[slot]));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(c.ctx_id));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(kind));
        cJSON_AddItemToArray(e, cJSON_CreateString(text));
        cJSON_AddItemToArray(events, e);
        /* The state of an event is the state its call sees: before applying it. */
        if (kind == EV_DRAW || kind == EV_CLEAR || kind == EV_BLIT) {
            sum->draws += kind == EV_DRAW;
            sum->clears += kind == EV_CLEAR;
            sum->blits += kind == EV_BLIT;
            if (write_detail(&w, rec, &c, text) != 0)
                goto out;
        }
        if (glrr_states_before(states, rec, err, err_size) != 0)
            goto out;
        sm_apply(w.s, &c);
        if (glrr_states_after(states, rec, w.s, err, err_size) != 0)
            goto out;
        if (kind == EV_CALL)
            glrr_states_object(states, rec, object_written(&w, &c));
        sum->records++;
        if (progress && (rec & 1023) == 0)
            fprintf(stderr, "\rglreplay: report: events %llu", (unsigned long long)rec);
    }
    if (progress)
        fprintf(stderr, "\r\033[K");
    if (k < 0) {
        snprintf(err, err_size, "%s: %s", capture, st.err);
        goto out;
    }
    if (glrr_states_finish(states, err, err_size) != 0)
        goto out;
    const char *base = strrchr(capture, '/');
    cJSON_AddStringToObject(root, "capture", base ? base + 1 : capture);
    cJSON_AddNumberToObject(root, "state_chunk", GLRR_STATE_CHUNK);
    cJSON_AddNumberToObject(root, "records", (double)sum->records);
    cJSON_AddNumberToObject(root, "draws", (double)sum->draws);
    cJSON_AddNumberToObject(root, "clears", (double)sum->clears);
    cJSON_AddNumberToObject(root, "blits", (double)sum->blits);
    cJSON_AddItemToObject(root, "names", names);
    cJSON_AddItemToObject(root, "events", events);
    names = events = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/data/events.js", out_dir);
    if (glrr_write_js(path, "glrReport.events", root, err, err_size) != 0)
        goto out;
    snprintf(path, sizeof path, "%s/data/programs.js", out_dir);
    if (glrr_write_js(path, "glrReport.programs", w.programs, err, err_size) != 0)
        goto out;
    rc = 0;
out:
    cJSON_Delete(names);
    cJSON_Delete(events);
    cJSON_Delete(root);
    cJSON_Delete(w.programs);
    cJSON_Delete(w.textures_done);
    glrr_states_free(states);
    sm_state_free(w.s);
    free(stream);
    glcap_reader_close(r);
    return rc;
}
