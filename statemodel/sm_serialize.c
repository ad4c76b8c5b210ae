/* Serialization of the whole state, binary and JSON (sm_json.c), described once per structure with sm_io.
 * Reading validates every count, index and enum-like field, and rejects duplicate names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_internal.h"
#include "statemodel/sm_io.h"

static const uint8_t magic[4] = { 'G', 'L', 'S', 'M' };

/* Upper bounds on counts in serialized input (far above real programs; they only stop absurd
 * allocations from corrupt input before the byte-count check can). */
#define MAX_OBJECTS   (1u << 24)
#define MAX_CONTEXTS  4096u
#define MAX_SMALL     65536u

/* ------------------------------------------------------------------ shared objects */

static void io_sampling(struct sm_io *io, const char *key, struct sm_sampling *p)
{
    io_obj_begin(io, key);
    io_enum(io, "min_filter", &p->min_filter);
    io_enum(io, "mag_filter", &p->mag_filter);
    io_enum(io, "wrap_s", &p->wrap_s);
    io_enum(io, "wrap_t", &p->wrap_t);
    io_enum(io, "wrap_r", &p->wrap_r);
    io_f32(io, "min_lod", &p->min_lod);
    io_f32(io, "max_lod", &p->max_lod);
    io_f32(io, "lod_bias", &p->lod_bias);
    io_f32(io, "max_anisotropy", &p->max_anisotropy);
    io_enum(io, "compare_mode", &p->compare_mode);
    io_enum(io, "compare_func", &p->compare_func);
    io_u32_below(io, "border_kind", &p->border_kind, SM_VK_UINT + 1);
    io_u32_n(io, "border", p->border, 4);
    io_enum(io, "srgb_decode", &p->srgb_decode);
    io_i32(io, "base_level", &p->base_level);
    io_i32(io, "max_level", &p->max_level);
    io_enum_n(io, "swizzle", p->swizzle, 4);
    io_enum(io, "depth_stencil_mode", &p->depth_stencil_mode);
    if (io->version >= 6)
        io_enum(io, "depth_texture_mode", &p->depth_texture_mode);
    io_obj_end(io);
}

static void io_buffer(struct sm_io *io, struct sm_buffer *b)
{
    io_u32(io, "name", &b->name);
    io_enum(io, "first_target", &b->first_target);
    io_u64(io, "size", &b->size);
    io_enum(io, "usage", &b->usage);
    io_bool(io, "immutable", &b->immutable);
    io_u32(io, "storage_flags", &b->storage_flags);
    io_bool(io, "data_known", &b->data_known);
    uint64_t n = b->data_known ? b->size : 0;
    io_bytes(io, "data", &b->data, &n);
    if (io_reading(io) && !io->failed && b->data_known && n != b->size)
        io_fail(io, "buffer %u: %llu bytes of data for size %llu", b->name,
                (unsigned long long)n, (unsigned long long)b->size);
    if (io_reading(io) && !io->failed && !b->data_known && n)
        io_fail(io, "buffer %u: data present but not marked known", b->name);
    io_bool(io, "mapped", &b->mapped);
    io_u32(io, "map_access", &b->map_access);
    io_u64(io, "map_offset", &b->map_offset);
    io_u64(io, "map_length", &b->map_length);
}

static void io_image(struct sm_io *io, struct sm_tex_image *im)
{
    io_bool(io, "generated", &im->generated);
    io_bool(io, "compressed", &im->compressed);
    io_enum(io, "internal_format", &im->internal_format);
    io_i32(io, "width", &im->width);
    io_i32(io, "height", &im->height);
    io_i32(io, "depth", &im->depth);
    io_i32(io, "samples", &im->samples);
    io_bool(io, "fixed_sample_locations", &im->fixed_sample_locations);
    io_bytes(io, "data", &im->data, &im->data_size);
    io_enum(io, "data_format", &im->data_format);
    io_enum(io, "data_type", &im->data_type);
    io_i32(io, "data_alignment", &im->data_alignment);
    if (io->version >= 9) {   /* glPixelTransfer scale and bias the model applies to uploaded data */
        io_bool(io, "xfer", &im->xfer);
        if (im->xfer) {
            io_f32_n(io, "xfer_scale", im->xfer_scale, 4);
            io_f32_n(io, "xfer_bias", im->xfer_bias, 4);
        }
    }
    if (io_reading(io) && !io->failed) {
        if (im->width < 0 || im->height < 0 || im->depth < 0 || im->samples < 0)
            io_fail(io, "negative image size");
        else if (im->data && im->data_alignment != 1 && im->data_alignment != 2 &&
                 im->data_alignment != 4 && im->data_alignment != 8)
            io_fail(io, "bad image data alignment %d", im->data_alignment);
    }
}

static void io_texture(struct sm_io *io, struct sm_texture *t)
{
    io_u32(io, "name", &t->name);
    io_enum(io, "target", &t->target);
    io_bool(io, "immutable", &t->immutable);
    io_i32(io, "immutable_levels", &t->immutable_levels);
    io_sampling(io, "params", &t->params);
    io_u32(io, "buffer", &t->buffer);
    io_enum(io, "buffer_format", &t->buffer_format);
    io_u64(io, "buffer_offset", &t->buffer_offset);
    io_u64(io, "buffer_size", &t->buffer_size);
    uint32_t n = 0;
    if (!io_reading(io))
        for (int f = 0; f < 6; f++)
            for (int l = 0; l < SM_MAX_LEVELS; l++)
                n += t->image[f][l].defined;
    io_arr_begin(io, "images", &n, 6 * SM_MAX_LEVELS, 2);
    if (!io_reading(io)) {
        for (uint32_t f = 0; f < 6; f++)
            for (uint32_t l = 0; l < SM_MAX_LEVELS; l++) {
                if (!t->image[f][l].defined)
                    continue;
                io_obj_begin(io, NULL);
                io_u32(io, "face", &f);
                io_u32(io, "level", &l);
                io_image(io, &t->image[f][l]);
                io_obj_end(io);
            }
    } else {
        for (uint32_t i = 0; i < n && !io->failed; i++) {
            uint32_t f = 0, l = 0;
            io_obj_begin(io, NULL);
            io_u32_below(io, "face", &f, 6);
            io_u32_below(io, "level", &l, SM_MAX_LEVELS);
            if (!io->failed && t->image[f][l].defined)
                io_fail(io, "texture %u: image face %u level %u twice", t->name, f, l);
            if (!io->failed) {
                t->image[f][l].defined = true;
                io_image(io, &t->image[f][l]);
            }
            io_obj_end(io);
        }
    }
    io_arr_end(io);
}

static void io_renderbuffer(struct sm_io *io, struct sm_renderbuffer *r)
{
    io_u32(io, "name", &r->name);
    io_bool(io, "created", &r->created);
    io_enum(io, "internal_format", &r->internal_format);
    io_i32(io, "width", &r->width);
    io_i32(io, "height", &r->height);
    io_i32(io, "samples", &r->samples);
}

static void io_sampler(struct sm_io *io, struct sm_sampler *s)
{
    io_u32(io, "name", &s->name);
    io_sampling(io, "params", &s->params);
}

/* Limits on a SPIR-V module read from a capture (untrusted): its size is a GLsizei (the bytes
 * must be in the input: io_bytes checks), its specialization constants are few. */
#define MAX_SPIRV_BYTES  0x7fffffffu
#define MAX_SPEC_CONSTS  65536u

/* A shader's SPIR-V module (GL_ARB_gl_spirv) or none: "spirv" is null or an object (version 7). */
static void io_spirv(struct sm_io *io, struct sm_spirv **sp)
{
    if (io->version < 7)
        return;
    bool has = *sp != NULL;
    io_bool(io, "has_spirv", &has);
    if (!has || io->failed)
        return;
    if (io_reading(io) && !(*sp = calloc(1, sizeof **sp))) {
        io_fail(io, "out of memory");
        return;
    }
    struct sm_spirv *s = *sp;
    io_obj_begin(io, "spirv");
    uint64_t size = s->size;
    io_bytes(io, "binary", &s->binary, &size);
    if (io_reading(io) && !io->failed) {
        if (!size || size > MAX_SPIRV_BYTES)
            io_fail(io, "SPIR-V module of %llu bytes (1 to %u expected)", (unsigned long long)size,
                    MAX_SPIRV_BYTES);
        else
            s->size = (uint32_t)size;
    }
    io_str(io, "entry", &s->entry);
    uint32_t n = s->n_spec;
    io_arr_begin(io, "spec_ids", &n, MAX_SPEC_CONSTS, 1);
    if (io_reading(io) && !io->failed && n) {
        s->spec_ids = calloc(n, 4);
        s->spec_values = calloc(n, 4);
        if (!s->spec_ids || !s->spec_values)
            io_fail(io, "out of memory");
        else
            s->n_spec = n;
    }
    for (uint32_t i = 0; i < s->n_spec && !io->failed; i++)
        io_u32(io, NULL, &s->spec_ids[i]);
    io_arr_end(io);
    if (!io->failed)
        io_u32_n(io, "spec_values", s->spec_values, s->n_spec);
    io_obj_end(io);
}

static void io_shader(struct sm_io *io, struct sm_shader *s)
{
    io_u32(io, "name", &s->name);
    io_enum(io, "type", &s->type);
    io_str(io, "source", &s->source);
    io_spirv(io, &s->spirv);
    io_bool(io, "compiled", &s->compiled);
    io_bool(io, "delete_pending", &s->delete_pending);
}

/* An array of structs with a count field: allocates on read (count set only once allocated, so a
 * failure leaves a consistent object for the free functions). */
#define IO_ARRAY(io, key, arr, count, max, minb, elem_body)                             \
    do {                                                                                \
        uint32_t n_ = (count);                                                          \
        io_arr_begin(io, key, &n_, max, minb);                                          \
        if (io_reading(io) && !(io)->failed && n_) {                                    \
            (arr) = calloc(n_, sizeof *(arr));                                          \
            if (!(arr))                                                                 \
                io_fail(io, "out of memory");                                           \
            else                                                                        \
                (count) = n_;                                                           \
        }                                                                               \
        for (uint32_t i_ = 0; i_ < (count) && !(io)->failed; i_++) {                    \
            __typeof__(&(arr)[0]) e = &(arr)[i_];                                       \
            elem_body;                                                                  \
        }                                                                               \
        io_arr_end(io);                                                                 \
    } while (0)

static void io_name_bindings(struct sm_io *io, const char *key, struct sm_name_binding **arr,
                             uint32_t *count, bool named)
{
    IO_ARRAY(io, key, *arr, *count, MAX_SMALL, 3, {
        io_obj_begin(io, NULL);
        if (named) {
            io_str(io, "name", &e->name);
            if (io_reading(io) && !io->failed && !e->name)
                io_fail(io, "%s: binding without a name", key);
        }
        io_u32(io, "index", &e->index);
        io_u32(io, "index2", &e->index2);
        io_obj_end(io);
    });
}

static size_t kind_size(uint8_t kind)
{
    return (kind == SM_VK_DOUBLE || kind == SM_VK_INT64 || kind == SM_VK_UINT64) ? 8 : 4;
}

static void io_uniform(struct sm_io *io, struct sm_uniform *u)
{
    uint32_t kind = u->kind, cols = u->cols, rows = u->rows;
    io_i32(io, "location", &u->location);
    io_u32_below(io, "kind", &kind, SM_VK_UINT64 + 1);
    io_u32_below(io, "cols", &cols, 5);
    io_u32_below(io, "rows", &rows, 5);
    if (io_reading(io) && !io->failed && (cols < 1 || rows < 1))
        io_fail(io, "uniform with zero columns or rows");
    size_t size = (size_t)cols * rows * kind_size((uint8_t)kind);
    if (io->failed)
        return;
    if (size > sizeof u->data) {
        io_fail(io, "uniform value too large");
        return;
    }
    u->kind = (uint8_t)kind;
    u->cols = (uint8_t)cols;
    u->rows = (uint8_t)rows;
    uint8_t *d = u->data;
    uint64_t n = size;
    if (!io_reading(io)) {
        io_bytes(io, "data", &d, &n);
        return;
    }
    d = NULL;
    io_bytes(io, "data", &d, &n);
    if (!io->failed && n != size)
        io_fail(io, "uniform at location %d: %llu bytes of value, expected %zu", u->location,
                (unsigned long long)n, size);
    if (!io->failed)
        memcpy(u->data, d, size);
    free(d);
}

/* The inputs of a program's last link that a binary does not show: also the body of a program
 * sources entry (sm_program_sources.c). The program's own fields are walked in format order. */
static void io_program_bindings(struct sm_io *io, struct sm_program *p)
{
    io_name_bindings(io, "attrib_bindings", &p->attrib_bindings, &p->n_attrib_bindings, true);
    io_name_bindings(io, "frag_bindings", &p->frag_bindings, &p->n_frag_bindings, true);
    IO_ARRAY(io, "tf_varyings", p->tf_varyings, p->n_tf_varyings, MAX_SMALL, 2, {
        io_str(io, NULL, e);
        if (io_reading(io) && !io->failed && !*e)
            io_fail(io, "null varying name");
    });
    io_enum(io, "tf_buffer_mode", &p->tf_buffer_mode);
    io_bool(io, "separable", &p->separable);
}

static void io_program_linked(struct sm_io *io, struct sm_program *p)
{
    IO_ARRAY(io, "linked", p->linked, p->n_linked, MAX_SMALL, 2, {
        io_obj_begin(io, NULL);
        io_enum(io, "type", &e->type);
        io_str(io, "source", &e->source);
        io_spirv(io, &e->spirv);
        io_obj_end(io);
    });
}

void io_program_link_inputs(struct sm_io *io, struct sm_program *p)
{
    io_program_bindings(io, p);
    io_program_linked(io, p);
}

static void io_program(struct sm_io *io, struct sm_program *p)
{
    io_u32(io, "name", &p->name);
    IO_ARRAY(io, "attached", p->attached, p->n_attached, MAX_SMALL, 1, { io_u32(io, NULL, e); });
    io_program_bindings(io, p);
    io_bool(io, "binary_retrievable", &p->binary_retrievable);
    io_u32(io, "link_count", &p->link_count);
    io_program_linked(io, p);
    if (io->version >= 8) {
        /* The JSON form shows the binary's size only: its bytes say nothing to a reader. */
        uint64_t n = p->binary ? p->binary_size : 0;
        io_enum(io, "binary_format", &p->binary_format);
        if (io->mode == SM_IO_WRITE_BIN || io->mode == SM_IO_READ_BIN) {
            io_bytes(io, "binary", &p->binary, &n);
            if (io_reading(io) && !io->failed) {
                if (n > UINT32_MAX)
                    io_fail(io, "program %u: binary of %llu bytes", p->name, (unsigned long long)n);
                p->binary_size = (uint32_t)n;
            }
        } else {
            io_u64(io, "binary_bytes", &n);
        }
    }
    IO_ARRAY(io, "uniforms", p->uniforms, p->n_uniforms, MAX_OBJECTS, 5, {
        io_obj_begin(io, NULL);
        io_uniform(io, e);
        if (io_reading(io) && !io->failed && i_ > 0 && p->uniforms[i_ - 1].location >= e->location)
            io_fail(io, "program %u: uniform locations not ascending", p->name);
        io_obj_end(io);
    });
    io_name_bindings(io, "ubo_bindings", &p->ubo_bindings, &p->n_ubo_bindings, false);
    io_name_bindings(io, "ssbo_bindings", &p->ssbo_bindings, &p->n_ssbo_bindings, false);
    io_name_bindings(io, "uniform_names", &p->uniform_names, &p->n_uniform_names, true);
    if (io->version >= 4)
        io_name_bindings(io, "block_names", &p->block_names, &p->n_block_names, true);
    io_bool(io, "delete_pending", &p->delete_pending);
}

/* A map of objects sorted by name. */
typedef void *(*new_fn)(uint32_t);
typedef void (*walk_fn)(struct sm_io *, void *);
typedef void (*free_fn)(void *);

static void io_map(struct sm_io *io, const char *key, struct sm_map *m, new_fn ctor, walk_fn walk,
                   free_fn fr, size_t min_bytes)
{
    uint32_t n = m->count;
    io_arr_begin(io, key, &n, MAX_OBJECTS, min_bytes);
    if (!io_reading(io)) {
        size_t k;
        uint32_t *names = sm_map_sorted_keys(m, &k);
        if (k != m->count)
            io_fail(io, "out of memory");
        for (size_t i = 0; i < k && !io->failed; i++) {
            io_obj_begin(io, NULL);
            walk(io, sm_map_get(m, names[i]));
            io_obj_end(io);
        }
        free(names);
    } else {
        for (uint32_t i = 0; i < n && !io->failed; i++) {
            void *o = ctor(0);
            if (!o) {
                io_fail(io, "out of memory");
                break;
            }
            io_obj_begin(io, NULL);
            walk(io, o);
            io_obj_end(io);
            uint32_t name = *(uint32_t *)o;   /* every object struct starts with its name */
            if (!io->failed && !name)
                io_fail(io, "%s: object named 0", key);
            if (!io->failed && sm_map_get(m, name))
                io_fail(io, "%s: name %u twice", key, name);
            if (io->failed || !sm_map_put(m, name, o)) {
                if (!io->failed)
                    io_fail(io, "out of memory");
                fr(o);
            }
        }
    }
    io_arr_end(io);
}

static void *mk_buffer(uint32_t n) { return sm_buffer_new(n); }
static void *mk_texture(uint32_t n) { return sm_texture_new(n); }
static void *mk_renderbuffer(uint32_t n) { return sm_renderbuffer_new(n); }
static void *mk_sampler(uint32_t n) { return sm_sampler_new(n); }
static void *mk_shader(uint32_t n) { return sm_shader_new(n, 0); }
static void *mk_program(uint32_t n) { return sm_program_new(n); }
static void *mk_vao(uint32_t n) { return sm_vao_new(n); }
static void *mk_fbo(uint32_t n) { return sm_framebuffer_new(n); }
static void *mk_tfo(uint32_t n) { return sm_tfo_new(n); }
static void *mk_pipeline(uint32_t n) { return sm_pipeline_new(n); }
static void *mk_query(uint32_t n) { return sm_query_new(n); }

static void w_buffer(struct sm_io *io, void *o) { io_buffer(io, o); }
static void w_texture(struct sm_io *io, void *o) { io_texture(io, o); }
static void w_renderbuffer(struct sm_io *io, void *o) { io_renderbuffer(io, o); }
static void w_sampler(struct sm_io *io, void *o) { io_sampler(io, o); }
static void w_shader(struct sm_io *io, void *o) { io_shader(io, o); }
static void w_program(struct sm_io *io, void *o) { io_program(io, o); }

/* An ARB program object: target, text, generation, local parameters (format version 5). */
static void *mk_arb_program(uint32_t n)
{
    struct sm_arb_program *p = calloc(1, sizeof *p);
    if (p)
        p->name = n;
    return p;
}

static void w_arb_program(struct sm_io *io, void *o)
{
    struct sm_arb_program *p = o;
    io_u32(io, "name", &p->name);
    io_enum(io, "target", &p->target);
    uint8_t *text = (uint8_t *)p->source;
    uint64_t len = p->length;
    io_bytes(io, "source", &text, &len);
    if (io_reading(io) && !io->failed) {
        /* kept NUL-terminated like the apply path's copy; no text stays NULL */
        bool had = text != NULL;
        char *t = malloc((size_t)len + 1);
        if (!t || len > UINT32_MAX) {
            free(t);
            free(text);
            io_fail(io, "ARB program text too large");
            return;
        }
        if (len)
            memcpy(t, text, (size_t)len);
        t[len] = 0;
        free(text);
        if (!had) {
            free(t);
            t = NULL;
        }
        p->source = t;
        p->length = (uint32_t)len;
    }
    io_u32(io, "generation", &p->generation);
    io_u32_below(io, "n_local", &p->n_local, SM_ARB_MAX_LOCAL + 1);
    if (io_reading(io) && !io->failed && p->n_local && !(p->local = calloc(p->n_local, sizeof *p->local))) {
        p->n_local = 0;
        io_fail(io, "out of memory");
    }
    if (!io->failed)
        io_f32_n(io, "local", p->n_local ? p->local[0] : NULL, p->n_local * 4);
}

static void io_group(struct sm_io *io, struct sm_share_group *g)
{
    io_u32(io, "id", &g->id);
    io_map(io, "buffers", &g->buffers, mk_buffer, w_buffer, sm_buffer_free, 10);
    io_map(io, "textures", &g->textures, mk_texture, w_texture, sm_texture_free, 20);
    io_map(io, "renderbuffers", &g->renderbuffers, mk_renderbuffer, w_renderbuffer, free, 5);
    io_map(io, "samplers", &g->samplers, mk_sampler, w_sampler, free, 20);
    io_map(io, "shaders", &g->shaders, mk_shader, w_shader, sm_shader_free, 4);
    io_map(io, "programs", &g->programs, mk_program, w_program, sm_program_free, 12);
    if (io->version >= 5)
        io_map(io, "arb_programs", &g->arb_programs, mk_arb_program, w_arb_program, sm_arb_program_free, 16);
    uint32_t n = g->n_syncs;
    io_arr_begin(io, "syncs", &n, MAX_OBJECTS, 3);
    if (io_reading(io) && !io->failed && n) {
        g->syncs = calloc(n, sizeof *g->syncs);
        if (!g->syncs)
            io_fail(io, "out of memory");
        else
            g->n_syncs = g->cap_syncs = n;
    }
    for (uint32_t i = 0; i < g->n_syncs && !io->failed; i++) {
        io_obj_begin(io, NULL);
        io_u64(io, "handle", &g->syncs[i].handle);
        io_enum(io, "condition", &g->syncs[i].condition);
        io_u32(io, "flags", &g->syncs[i].flags);
        io_obj_end(io);
    }
    io_arr_end(io);
}

/* ------------------------------------------------------------------ per-context objects */

static void io_vao(struct sm_io *io, struct sm_vao *v)
{
    io_u32(io, "name", &v->name);
    io_bool(io, "created", &v->created);
    io_u32(io, "element_buffer", &v->element_buffer);
    io_fixed_begin(io, "attribs", SM_MAX_VERTEX_ATTRIBS);
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        struct sm_vertex_attrib *a = &v->attrib[i];
        io_obj_begin(io, NULL);
        io_bool(io, "enabled", &a->enabled);
        io_i32(io, "size", &a->size);
        io_enum(io, "type", &a->type);
        io_bool(io, "normalized", &a->normalized);
        io_bool(io, "integer", &a->integer);
        io_bool(io, "long", &a->is_long);
        io_u32(io, "relative_offset", &a->relative_offset);
        io_u32_below(io, "binding", &a->binding, SM_MAX_VERTEX_ATTRIBS);
        io_i32(io, "stride", &a->stride);
        io_u64(io, "pointer", &a->pointer);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_fixed_begin(io, "bindings", SM_MAX_VERTEX_ATTRIBS);
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        struct sm_vertex_binding *b = &v->binding[i];
        io_obj_begin(io, NULL);
        io_u32(io, "buffer", &b->buffer);
        io_u64(io, "offset", &b->offset);
        io_i32(io, "stride", &b->stride);
        io_u32(io, "divisor", &b->divisor);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_fixed_begin(io, "legacy_arrays", SM_LA_COUNT);
    for (int i = 0; i < SM_LA_COUNT; i++) {
        struct sm_legacy_array *l = &v->legacy[i];
        io_obj_begin(io, NULL);
        io_bool(io, "enabled", &l->enabled);
        io_i32(io, "size", &l->size);
        io_enum(io, "type", &l->type);
        io_i32(io, "stride", &l->stride);
        io_u64(io, "pointer", &l->pointer);
        io_u32(io, "buffer", &l->buffer);
        io_obj_end(io);
    }
    io_arr_end(io);
}

static void io_attachment(struct sm_io *io, const char *key, struct sm_attachment *a)
{
    io_obj_begin(io, key);
    io_enum(io, "type", &a->type);
    io_u32(io, "name", &a->name);
    io_i32(io, "level", &a->level);
    io_i32(io, "layer", &a->layer);
    io_enum(io, "textarget", &a->textarget);
    io_bool(io, "layered", &a->layered);
    io_obj_end(io);
    if (io_reading(io) && !io->failed && a->type && a->type != GL_TEXTURE &&
        a->type != GL_RENDERBUFFER)
        io_fail(io, "bad attachment type");
}

static void io_fbo(struct sm_io *io, struct sm_framebuffer *f)
{
    io_u32(io, "name", &f->name);
    io_bool(io, "created", &f->created);
    io_fixed_begin(io, "color", SM_MAX_COLOR_ATTACH);
    for (int i = 0; i < SM_MAX_COLOR_ATTACH; i++)
        io_attachment(io, NULL, &f->color[i]);
    io_arr_end(io);
    io_attachment(io, "depth", &f->depth);
    io_attachment(io, "stencil", &f->stencil);
    io_enum_n(io, "draw_buffers", f->draw_buffers, SM_MAX_DRAW_BUFFERS);
    io_u32_below(io, "n_draw_buffers", &f->n_draw_buffers, SM_MAX_DRAW_BUFFERS + 1);
    io_enum(io, "read_buffer", &f->read_buffer);
    io_i32(io, "default_width", &f->default_width);
    io_i32(io, "default_height", &f->default_height);
    io_i32(io, "default_layers", &f->default_layers);
    io_i32(io, "default_samples", &f->default_samples);
    io_bool(io, "default_fixed_sample_locations", &f->default_fixed_sample_locations);
}

static void io_indexed(struct sm_io *io, const char *key, struct sm_indexed_buffer *b, uint32_t n)
{
    io_fixed_begin(io, key, n);
    for (uint32_t i = 0; i < n; i++) {
        io_obj_begin(io, NULL);
        io_u32(io, "buffer", &b[i].buffer);
        io_u64(io, "offset", &b[i].offset);
        io_u64(io, "size", &b[i].size);
        io_obj_end(io);
    }
    io_arr_end(io);
}

static void io_tfo(struct sm_io *io, struct sm_transform_feedback *t)
{
    io_u32(io, "name", &t->name);
    io_bool(io, "created", &t->created);
    io_indexed(io, "buffers", t->buffers, SM_MAX_TFB_BUFFERS);
    io_bool(io, "active", &t->active);
    io_bool(io, "paused", &t->paused);
    io_enum(io, "primitive_mode", &t->primitive_mode);
}

static void io_pipeline(struct sm_io *io, struct sm_pipeline *p)
{
    io_u32(io, "name", &p->name);
    io_bool(io, "created", &p->created);
    io_u32_n(io, "stages", p->stage, SM_ST_COUNT);
    io_u32(io, "active_program", &p->active_program);
}

static void io_query(struct sm_io *io, struct sm_query *q)
{
    io_u32(io, "name", &q->name);
    io_enum(io, "target", &q->target);
    io_bool(io, "active", &q->active);
    io_u32(io, "index", &q->index);
    if (io->version >= 3) {
        io_bool(io, "has_result", &q->has_result);
        io_u64(io, "result", &q->result);
    }
}

static void w_vao(struct sm_io *io, void *o) { io_vao(io, o); }
static void w_fbo(struct sm_io *io, void *o) { io_fbo(io, o); }
static void w_tfo(struct sm_io *io, void *o) { io_tfo(io, o); }
static void w_pipeline(struct sm_io *io, void *o) { io_pipeline(io, o); }
static void w_query(struct sm_io *io, void *o) { io_query(io, o); }

/* ------------------------------------------------------------------ context state */

static void io_pixel_store(struct sm_io *io, const char *key, struct sm_pixel_store *p)
{
    io_obj_begin(io, key);
    io_bool(io, "swap_bytes", &p->swap_bytes);
    io_bool(io, "lsb_first", &p->lsb_first);
    io_i32(io, "row_length", &p->row_length);
    io_i32(io, "image_height", &p->image_height);
    io_i32(io, "skip_rows", &p->skip_rows);
    io_i32(io, "skip_pixels", &p->skip_pixels);
    io_i32(io, "skip_images", &p->skip_images);
    io_i32(io, "alignment", &p->alignment);
    io_obj_end(io);
}

/* Legacy matrix stacks (format version 2): the mode and each stack's entries up to its depth.
 * Version 1 documents have none: the stacks keep their identity defaults. */
static void io_stack(struct sm_io *io, const char *key, struct sm_matrix_stack *m)
{
    io_obj_begin(io, key);
    io_u32_below(io, "depth", &m->depth, SM_MATRIX_STACK_DEPTH);
    for (uint32_t i = 0; i <= m->depth && !io->failed; i++) {
        char k[16];
        snprintf(k, sizeof k, "m%u", i);
        io_f32_n(io, k, m->m[i], 16);
    }
    io_obj_end(io);
}

static void io_matrices(struct sm_io *io, struct sm_context_state *st)
{
    io_obj_begin(io, "matrices");
    io_enum(io, "mode", &st->matrix_mode);
    io_stack(io, "modelview", &st->modelview);
    io_stack(io, "projection", &st->projection);
    for (int u = 0; u < SM_MAX_TEXTURE_COORDS && !io->failed; u++) {
        char k[16];
        snprintf(k, sizeof k, "texture%d", u);
        io_stack(io, k, &st->texture[u]);
    }
    io_obj_end(io);
}

/* ARB program bindings and the non-zero environment parameters (format version 5; older
 * documents have none: nothing bound, all zeros). */
static void io_arb_ctx(struct sm_io *io, struct sm_context_state *st)
{
    io_obj_begin(io, "arb_programs");
    io_u32_n(io, "bound", st->arb_program, 2);
    uint32_t n = 0;
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < SM_ARB_MAX_ENV; i++)
            n += st->arb_env[t][i][0] != 0 || st->arb_env[t][i][1] != 0 || st->arb_env[t][i][2] != 0 ||
                 st->arb_env[t][i][3] != 0;
    io_arr_begin(io, "env", &n, 2 * SM_ARB_MAX_ENV, 24);
    if (io_reading(io)) {
        for (uint32_t k = 0; k < n && !io->failed; k++) {
            uint32_t target = 0, index = 0;
            float v[4] = { 0 };
            io_obj_begin(io, NULL);
            io_u32_below(io, "target", &target, 2);
            io_u32_below(io, "index", &index, SM_ARB_MAX_ENV);
            io_f32_n(io, "value", v, 4);
            io_obj_end(io);
            if (!io->failed)
                memcpy(st->arb_env[target][index], v, sizeof v);
        }
    } else {
        for (uint32_t t = 0; t < 2; t++)
            for (uint32_t i = 0; i < SM_ARB_MAX_ENV; i++) {
                float *v = st->arb_env[t][i];
                if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0)
                    continue;
                io_obj_begin(io, NULL);
                io_u32(io, "target", &t);
                io_u32(io, "index", &i);
                io_f32_n(io, "value", v, 4);
                io_obj_end(io);
            }
    }
    io_arr_end(io);
    io_obj_end(io);
}

static void io_ctx_state(struct sm_io *io, struct sm_context_state *st)
{
    io_obj_begin(io, "state");
    io_u32_n(io, "buffers", st->buffer, SM_BT_COUNT);
    io_indexed(io, "uniform_buffers", st->ubo, SM_MAX_UBO_BINDINGS);
    io_indexed(io, "storage_buffers", st->ssbo, SM_MAX_SSBO_BINDINGS);
    io_indexed(io, "atomic_counter_buffers", st->atomic, SM_MAX_ATOMIC_BINDINGS);
    io_fixed_begin(io, "texture_units", SM_MAX_TEXTURE_UNITS);
    for (int u = 0; u < SM_MAX_TEXTURE_UNITS; u++) {
        io_obj_begin(io, NULL);
        io_u32_n(io, "textures", st->unit[u].bound, SM_TT_COUNT);
        io_u32(io, "sampler", &st->unit[u].sampler);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_fixed_begin(io, "image_units", SM_MAX_IMAGE_UNITS);
    for (int i = 0; i < SM_MAX_IMAGE_UNITS; i++) {
        struct sm_image_unit *im = &st->image[i];
        io_obj_begin(io, NULL);
        io_u32(io, "texture", &im->texture);
        io_i32(io, "level", &im->level);
        io_bool(io, "layered", &im->layered);
        io_i32(io, "layer", &im->layer);
        io_enum(io, "access", &im->access);
        io_enum(io, "format", &im->format);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_u32_below(io, "active_texture", &st->active_texture, SM_MAX_TEXTURE_UNITS);
    io_u32_below(io, "client_active_texture", &st->client_active_texture, SM_MAX_LEGACY_TEXCOORD);
    io_u32(io, "vertex_array", &st->vao);
    io_u32(io, "draw_framebuffer", &st->draw_fbo);
    io_u32(io, "read_framebuffer", &st->read_fbo);
    io_u32(io, "renderbuffer", &st->renderbuffer);
    io_u32(io, "program", &st->program);
    io_u32(io, "program_pipeline", &st->pipeline);
    io_u32(io, "transform_feedback", &st->tfo);
    io_fixed_begin(io, "viewports", SM_MAX_VIEWPORTS);
    for (int i = 0; i < SM_MAX_VIEWPORTS; i++) {
        io_obj_begin(io, NULL);
        io_f32_n(io, "viewport", st->viewport[i], 4);
        io_i32_n(io, "scissor", st->scissor[i], 4);
        io_f64_n(io, "depth_range", st->depth_range[i], 2);
        io_bool(io, "scissor_test", &st->scissor_test[i]);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_fixed_begin(io, "draw_buffers", SM_MAX_DRAW_BUFFERS);
    for (int i = 0; i < SM_MAX_DRAW_BUFFERS; i++) {
        struct sm_blend *b = &st->blend[i];
        io_obj_begin(io, NULL);
        io_bool(io, "blend", &st->blend_enabled[i]);
        io_enum(io, "src_rgb", &b->src_rgb);
        io_enum(io, "dst_rgb", &b->dst_rgb);
        io_enum(io, "src_alpha", &b->src_alpha);
        io_enum(io, "dst_alpha", &b->dst_alpha);
        io_enum(io, "equation_rgb", &b->eq_rgb);
        io_enum(io, "equation_alpha", &b->eq_alpha);
        io_bool_n(io, "color_mask", st->color_mask[i], 4);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_f32_n(io, "blend_color", st->blend_color, 4);
    io_enum(io, "logic_op", &st->logic_op);
    io_enum(io, "depth_func", &st->depth_func);
    io_bool(io, "depth_mask", &st->depth_mask);
    io_fixed_begin(io, "stencil", 2);
    for (int f = 0; f < 2; f++) {
        struct sm_stencil_face *s = &st->stencil[f];
        io_obj_begin(io, NULL);
        io_enum(io, "func", &s->func);
        io_i32(io, "ref", &s->ref);
        io_u32(io, "value_mask", &s->value_mask);
        io_u32(io, "write_mask", &s->write_mask);
        io_enum(io, "fail", &s->fail);
        io_enum(io, "zfail", &s->zfail);
        io_enum(io, "zpass", &s->zpass);
        io_obj_end(io);
    }
    io_arr_end(io);
    io_f32_n(io, "clear_color", st->clear_color, 4);
    io_f64(io, "clear_depth", &st->clear_depth);
    io_i32(io, "clear_stencil", &st->clear_stencil);
    io_enum(io, "cull_face", &st->cull_face_mode);
    io_enum(io, "front_face", &st->front_face);
    io_enum_n(io, "polygon_mode", st->polygon_mode, 2);
    io_f32(io, "polygon_offset_factor", &st->polygon_offset_factor);
    io_f32(io, "polygon_offset_units", &st->polygon_offset_units);
    io_f32(io, "polygon_offset_clamp", &st->polygon_offset_clamp);
    io_f32(io, "line_width", &st->line_width);
    io_f32(io, "point_size", &st->point_size);
    io_enum(io, "point_sprite_coord_origin", &st->point_sprite_coord_origin);
    io_f32(io, "sample_coverage_value", &st->sample_coverage_value);
    io_bool(io, "sample_coverage_invert", &st->sample_coverage_invert);
    io_u32(io, "sample_mask", &st->sample_mask);
    io_f32(io, "min_sample_shading", &st->min_sample_shading);
    io_enum(io, "provoking_vertex", &st->provoking_vertex);
    io_u32(io, "primitive_restart_index", &st->primitive_restart_index);
    io_i32(io, "patch_vertices", &st->patch_vertices);
    io_f32_n(io, "patch_outer", st->patch_outer, 4);
    io_f32_n(io, "patch_inner", st->patch_inner, 2);
    io_enum(io, "clip_origin", &st->clip_origin);
    io_enum(io, "clip_depth_mode", &st->clip_depth_mode);
    io_pixel_store(io, "pack", &st->pack);
    io_pixel_store(io, "unpack", &st->unpack);
    io_fixed_begin(io, "vertex_attrib_values", SM_MAX_VERTEX_ATTRIBS);
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        struct sm_attrib_value *v = &st->attrib_value[i];
        io_obj_begin(io, NULL);
        io_u32_below(io, "kind", &v->kind, SM_VK_DOUBLE + 1);
        if (!io->failed) {
            switch (v->kind) {
            case SM_VK_FLOAT: io_f32_n(io, "value", v->v.f, 4); break;
            case SM_VK_INT: io_i32_n(io, "value", v->v.i, 4); break;
            case SM_VK_UINT: io_u32_n(io, "value", v->v.u, 4); break;
            default: io_f64_n(io, "value", v->v.d, 4); break;
            }
        }
        io_obj_end(io);
    }
    io_arr_end(io);
    uint32_t n = st->n_caps;
    io_arr_begin(io, "caps", &n, MAX_SMALL, 3);
    if (io_reading(io) && !io->failed && n) {
        st->caps = calloc(n, sizeof *st->caps);
        if (!st->caps)
            io_fail(io, "out of memory");
        else
            st->n_caps = st->cap_caps = n;
    }
    for (uint32_t i = 0; i < st->n_caps && !io->failed; i++) {
        struct sm_cap *c = &st->caps[i];
        io_obj_begin(io, NULL);
        io_enum(io, "cap", &c->cap);
        io_u32(io, "index", &c->index);
        io_bool(io, "enabled", &c->enabled);
        io_obj_end(io);
        if (io_reading(io) && i > 0 && !io->failed &&
            (st->caps[i - 1].cap > c->cap ||
             (st->caps[i - 1].cap == c->cap && st->caps[i - 1].index >= c->index)))
            io_fail(io, "caps not sorted or repeated");
    }
    io_arr_end(io);
    n = st->n_hints;
    io_arr_begin(io, "hints", &n, MAX_SMALL, 2);
    if (io_reading(io) && !io->failed && n) {
        st->hints = calloc(n, sizeof *st->hints);
        if (!st->hints)
            io_fail(io, "out of memory");
        else
            st->n_hints = n;
    }
    for (uint32_t i = 0; i < st->n_hints && !io->failed; i++) {
        io_obj_begin(io, NULL);
        io_enum(io, "target", &st->hints[i].target);
        io_enum(io, "mode", &st->hints[i].mode);
        io_obj_end(io);
    }
    io_arr_end(io);
    n = st->n_active_queries;
    io_arr_begin(io, "active_queries", &n, MAX_SMALL, 3);
    if (io_reading(io) && !io->failed && n) {
        st->active_queries = calloc(n, sizeof *st->active_queries);
        if (!st->active_queries)
            io_fail(io, "out of memory");
        else
            st->n_active_queries = n;
    }
    for (uint32_t i = 0; i < st->n_active_queries && !io->failed; i++) {
        struct sm_active_query *q = &st->active_queries[i];
        io_obj_begin(io, NULL);
        io_enum(io, "target", &q->target);
        io_u32(io, "index", &q->index);
        io_u32(io, "name", &q->name);
        io_obj_end(io);
    }
    io_arr_end(io);
    if (io->version >= 2)
        io_matrices(io, st);
    else if (io_reading(io))
        sm_matrix_defaults(st);   /* version 1 keeps no stacks: GL's defaults, not zeros */
    if (io->version >= 5)
        io_arb_ctx(io, st);
    io_obj_end(io);
}

static void io_context(struct sm_io *io, struct sm_context *c)
{
    uint32_t api = c->api, major = (uint32_t)c->major, minor = (uint32_t)c->minor;
    uint32_t group = c->share ? c->share->id : 0;
    io_u32(io, "id", &c->id);
    io_u32_below(io, "api", &api, SM_API_GLES + 1);
    io_u32_below(io, "major", &major, 100);
    io_u32_below(io, "minor", &minor, 100);
    io_u32(io, "share_group", &group);
    c->api = (enum sm_api)api;
    c->major = (int)major;
    c->minor = (int)minor;
    if (io_reading(io))
        c->share = (struct sm_share_group *)(uintptr_t)group;   /* resolved by the caller */
    io_ctx_state(io, &c->st);
    io_obj_begin(io, "default_vertex_array");
    io_vao(io, &c->default_vao);
    io_obj_end(io);
    io_obj_begin(io, "default_framebuffer");
    io_fbo(io, &c->default_fb);
    io_obj_end(io);
    io_obj_begin(io, "default_transform_feedback");
    io_tfo(io, &c->default_tfo);
    io_obj_end(io);
    if (io_reading(io) && !io->failed &&
        (c->default_vao.name || c->default_fb.name || c->default_tfo.name))
        io_fail(io, "context %u: default object with a name", c->id);
    io_map(io, "vertex_arrays", &c->vaos, mk_vao, w_vao, free, 100);
    io_map(io, "framebuffers", &c->fbos, mk_fbo, w_fbo, free, 60);
    io_map(io, "transform_feedbacks", &c->tfos, mk_tfo, w_tfo, free, 16);
    io_map(io, "program_pipelines", &c->pipelines, mk_pipeline, w_pipeline, free, 9);
    io_map(io, "queries", &c->queries, mk_query, w_query, free, 4);
}

/* ------------------------------------------------------------------ whole state */

void io_state(struct sm_io *io, struct sm_state *s)
{
    uint32_t version = SM_FORMAT_VERSION;
    if (io->mode == SM_IO_WRITE_JSON) {
        char *fmt = "glreplay-statemodel";
        io_str(io, "format", &fmt);
    } else if (io->mode == SM_IO_READ_JSON) {
        char *fmt = NULL;
        io_str(io, "format", &fmt);
        if (!io->failed && (!fmt || strcmp(fmt, "glreplay-statemodel") != 0))
            io_fail(io, "not a glreplay state model document");
        free(fmt);
    }
    io_u32(io, "version", &version);
    if (io_reading(io) && !io->failed && (version < 1 || version > SM_FORMAT_VERSION))
        io_fail(io, "unsupported state model version %u (this build reads 1 to %u)", version,
                SM_FORMAT_VERSION);
    io->version = version;
    uint32_t n = (uint32_t)s->n_groups;
    io_arr_begin(io, "share_groups", &n, MAX_CONTEXTS, 7);
    for (uint32_t i = 0; i < n && !io->failed; i++) {
        struct sm_share_group *g = io_reading(io) ? sm_group_add(s, 0) : s->groups[i];
        if (!g) {
            io_fail(io, "out of memory");
            break;
        }
        io_obj_begin(io, NULL);
        if (io_reading(io))
            g->id = 0;
        io_group(io, g);
        io_obj_end(io);
        if (io_reading(io) && !io->failed) {
            if (!g->id)
                io_fail(io, "share group with id 0");
            for (size_t k = 0; k + 1 < s->n_groups && !io->failed; k++)
                if (s->groups[k]->id == g->id)
                    io_fail(io, "share group id %u twice", g->id);
            if (g->id >= s->next_group_id)
                s->next_group_id = g->id + 1;
        }
    }
    io_arr_end(io);
    n = (uint32_t)s->n_ctx;
    io_arr_begin(io, "contexts", &n, MAX_CONTEXTS, 50);
    for (uint32_t i = 0; i < n && !io->failed; i++) {
        struct sm_context *c = io_reading(io) ? NULL : s->ctx[i];
        if (io_reading(io)) {
            /* Join the first group for now; io_context gives the real group id to resolve. */
            if (!s->n_groups) {
                io_fail(io, "context without any share group");
                break;
            }
            c = sm_ctx_add(s, 0, s->groups[0], SM_API_GL_COMPAT, 0, 0);
            if (!c) {
                io_fail(io, "out of memory");
                break;
            }
            s->groups[0]->refs--;
            c->share = NULL;
            sm_context_state_free(&c->st);
            memset(&c->st, 0, sizeof c->st);
            /* The fixed-function state is not in this document (it travels as the capture's
             * fixed-function records): GL's defaults until those apply, not zeros (a zero pixel
             * scale would turn every later upload black in the model). */
            sm_fixed_defaults(&c->st.ff);
        }
        io_obj_begin(io, NULL);
        io_context(io, c);
        io_obj_end(io);
        if (io_reading(io)) {
            uint32_t gid = (uint32_t)(uintptr_t)c->share;
            c->share = NULL;
            for (size_t k = 0; k < s->n_groups; k++)
                if (s->groups[k]->id == gid)
                    c->share = s->groups[k];
            if (!c->share) {
                c->share = s->groups[0];   /* keep the state consistent for freeing */
                io_fail(io, "context %u: no share group %u", c->id, gid);
            }
            c->share->refs++;
            if (!io->failed && !c->id)
                io_fail(io, "context with id 0");
            for (size_t k = 0; k + 1 < s->n_ctx && !io->failed; k++)
                if (s->ctx[k]->id == c->id)
                    io_fail(io, "context id %u twice", c->id);
        }
    }
    io_arr_end(io);
    if (io_reading(io) && !io->failed)
        for (size_t k = 0; k < s->n_groups; k++)
            if (!s->groups[k]->refs)
                io_fail(io, "share group %u used by no context", s->groups[k]->id);
}

uint8_t *sm_serialize(const struct sm_state *s, size_t *size)
{
    struct sm_io io;
    io_init_write_bin(&io);
    for (int i = 0; i < 4; i++) {
        uint32_t b = magic[i];
        io_u32(&io, NULL, &b);   /* single bytes: each < 0x80 */
    }
    io_state(&io, (struct sm_state *)s);
    if (io.failed) {
        free(io.buf);
        *size = 0;
        return NULL;
    }
    *size = io.len;
    return io.buf;
}

static void set_err(char *err, size_t n, const char *prefix, const char *msg)
{
    if (err && n)
        snprintf(err, n, "%s: %s", prefix, msg);
}

struct sm_state *sm_deserialize(const void *data, size_t size, char *err, size_t err_size)
{
    if (!data || size < 4 || memcmp(data, magic, 4) != 0) {
        set_err(err, err_size, "state model", "not a serialized state (bad magic)");
        return NULL;
    }
    struct sm_state *s = sm_state_new();
    if (!s) {
        set_err(err, err_size, "state model", "out of memory");
        return NULL;
    }
    struct sm_io io;
    io_init_read_bin(&io, (const uint8_t *)data + 4, size - 4);
    io_state(&io, s);
    if (!io.failed && io.p != io.end)
        io_fail(&io, "%zu unexpected bytes at the end", (size_t)(io.end - io.p));
    if (io.failed) {
        set_err(err, err_size, "state model", io.err);
        sm_state_free(s);
        return NULL;
    }
    return s;
}

bool sm_state_equal(const struct sm_state *a, const struct sm_state *b)
{
    size_t na, nb;
    uint8_t *x = sm_serialize(a, &na), *y = sm_serialize(b, &nb);
    bool eq = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return eq;
}

struct sm_state *sm_state_clone(const struct sm_state *s)
{
    size_t n;
    uint8_t *bytes = sm_serialize(s, &n);
    if (!bytes)
        return NULL;
    struct sm_state *c = sm_deserialize(bytes, n, NULL, 0);
    free(bytes);
    if (!c)
        return NULL;
    c->errors = s->errors;
    memcpy(c->first_error, s->first_error, sizeof c->first_error);
    c->unhandled_calls = s->unhandled_calls;
    if (s->unhandled_counts) {
        c->unhandled_counts = sm_memdup(s->unhandled_counts,
                                        GLR_CMD_COUNT * sizeof *s->unhandled_counts);
        if (!c->unhandled_counts) {
            sm_state_free(c);
            return NULL;
        }
    }
    return c;
}
