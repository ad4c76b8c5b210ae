/* Sources of programs loaded from binaries. A binary says nothing the GPU model can run, so the
 * link inputs of a program linked from source are kept by the hash of its binary (an "entry"):
 * when the same binary is loaded again with glProgramBinary (Qt's QOpenGLProgramBinaryCache and
 * engines' caches do this from a program's second run on), the program gets those sources back.
 * The shim keeps entries on disk (shim/program_cache.c) and puts those a capture used into its
 * SHADER_SOURCES section; readers of a capture add them here before applying its stream.
 *
 * Entry (sm_io binary form): 4 magic bytes "GLPS", the entry version, the state model format version
 * it was written with, the XXH3-64 hash of the binary, then the program's link inputs as that state
 * format serializes them (io_program_link_inputs), so later builds read older entries. Entries come
 * from files and captures: everything is validated, and a bad entry changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "statemodel/sm_internal.h"
#include "statemodel/sm_io.h"

static const uint8_t entry_magic[4] = { 'G', 'L', 'P', 'S' };
#define ENTRY_VERSION 1u
#define MAX_ENTRIES 65536u

uint64_t sm_program_sources_hash(const void *binary, size_t size)
{
    return XXH3_64bits(binary, size);
}

/* Reads an entry's header; io is left at its link inputs. */
static bool read_header(struct sm_io *io, const void *entry, size_t size, uint64_t *hash)
{
    if (!entry || size < 4 || memcmp(entry, entry_magic, 4) != 0) {
        io->failed = true;
        snprintf(io->err, sizeof io->err, "not a program sources entry (bad magic)");
        return false;
    }
    io_init_read_bin(io, (const uint8_t *)entry + 4, size - 4);
    uint32_t version = 0, sm_version = 0;
    io_u32(io, "version", &version);
    if (!io->failed && version != ENTRY_VERSION)
        io_fail(io, "program sources entry version %u (this build reads %u)", version, ENTRY_VERSION);
    io_u32(io, "state_version", &sm_version);
    if (!io->failed && (sm_version < 1 || sm_version > SM_FORMAT_VERSION))
        io_fail(io, "program sources entry of state model version %u (this build reads 1 to %u)", sm_version,
                SM_FORMAT_VERSION);
    io_u64(io, "hash", hash);
    io->version = sm_version;   /* the link inputs are walked as that version wrote them */
    return !io->failed;
}

bool sm_program_sources_entry_hash(const void *entry, size_t size, uint64_t *hash)
{
    struct sm_io io;
    memset(&io, 0, sizeof io);
    return read_header(&io, entry, size, hash);
}

/* Decodes an entry's link inputs into a fresh program (validated: GLSL stages with sources). */
static struct sm_program *decode(const void *entry, size_t size, char *err, size_t err_size)
{
    struct sm_io io;
    memset(&io, 0, sizeof io);
    uint64_t hash;
    struct sm_program *p = NULL;
    if (read_header(&io, entry, size, &hash)) {
        p = sm_program_new(0);
        if (!p)
            io_fail(&io, "out of memory");
        else
            io_program_link_inputs(&io, p);
    }
    if (!io.failed && io.p != io.end)
        io_fail(&io, "%zu unexpected bytes at the end", (size_t)(io.end - io.p));
    for (uint32_t i = 0; p && !io.failed && i < p->n_linked; i++)
        if (sm_stage_of_shader_type(p->linked[i].type) < 0 || !p->linked[i].source)
            io_fail(&io, "shader %u: not a GLSL stage with a source", i);
    if (!io.failed && p && !p->n_linked)
        io_fail(&io, "no shaders");
    if (io.failed) {
        if (err_size)
            snprintf(err, err_size, "program sources: %s", io.err);
        sm_program_free(p);
        return NULL;
    }
    return p;
}

/* Moves the decoded link inputs into p (its binary and link results stay). */
static void take_link_inputs(struct sm_program *p, struct sm_program *from)
{
    struct sm_program old = *p;
    p->attrib_bindings = from->attrib_bindings;
    p->n_attrib_bindings = from->n_attrib_bindings;
    p->frag_bindings = from->frag_bindings;
    p->n_frag_bindings = from->n_frag_bindings;
    p->tf_varyings = from->tf_varyings;
    p->n_tf_varyings = from->n_tf_varyings;
    p->tf_buffer_mode = from->tf_buffer_mode;
    p->separable = from->separable;
    p->linked = from->linked;
    p->n_linked = from->n_linked;
    /* What p had goes with `from`. */
    *from = (struct sm_program){ .name = 0 };
    from->attrib_bindings = old.attrib_bindings;
    from->n_attrib_bindings = old.n_attrib_bindings;
    from->frag_bindings = old.frag_bindings;
    from->n_frag_bindings = old.n_frag_bindings;
    from->tf_varyings = old.tf_varyings;
    from->n_tf_varyings = old.n_tf_varyings;
    from->linked = old.linked;
    from->n_linked = old.n_linked;
    sm_program_free(from);
}

static struct sm_program *program_of(struct sm_state *s, uint32_t ctx, uint32_t name)
{
    struct sm_context *c = sm_ctx_find(s, ctx);
    return c && c->share ? sm_map_get(&c->share->programs, name) : NULL;
}

uint8_t *sm_program_sources_encode(const struct sm_state *s, uint32_t ctx, uint32_t name, uint64_t binary_hash,
                                   size_t *size)
{
    *size = 0;
    struct sm_program *p = program_of((struct sm_state *)s, ctx, name);
    if (!p || !p->n_linked)
        return NULL;
    for (uint32_t i = 0; i < p->n_linked; i++)
        if (p->linked[i].spirv || !p->linked[i].source)
            return NULL;   /* SPIR-V: glreplay has no GLSL of it to keep */
    struct sm_io io;
    io_init_write_bin(&io);
    for (int i = 0; i < 4; i++) {
        uint32_t b = entry_magic[i];
        io_u32(&io, NULL, &b);   /* single bytes: each < 0x80 */
    }
    uint32_t version = ENTRY_VERSION, sm_version = SM_FORMAT_VERSION;
    io.version = SM_FORMAT_VERSION;
    io_u32(&io, "version", &version);
    io_u32(&io, "state_version", &sm_version);
    io_u64(&io, "hash", &binary_hash);
    io_program_link_inputs(&io, p);
    if (io.failed) {
        free(io.buf);
        return NULL;
    }
    *size = io.len;
    return io.buf;
}

bool sm_program_sources_apply(struct sm_state *s, uint32_t ctx, uint32_t name, const void *entry, size_t size,
                              char *err, size_t err_size)
{
    struct sm_program *p = program_of(s, ctx, name);
    if (!p) {
        if (err_size)
            snprintf(err, err_size, "program sources: no program %u in context %u", name, ctx);
        return false;
    }
    struct sm_program *d = decode(entry, size, err, err_size);
    if (!d)
        return false;
    take_link_inputs(p, d);
    return true;
}

static struct sm_program_source *find(const struct sm_state *s, uint64_t hash)
{
    for (size_t i = 0; i < s->n_prog_sources; i++)
        if (s->prog_sources[i].hash == hash)
            return &s->prog_sources[i];
    return NULL;
}

void sm_program_sources_lookup(struct sm_state *s, struct sm_program *p, const void *bin, size_t size)
{
    if (!s->n_prog_sources)
        return;
    const struct sm_program_source *e = find(s, sm_program_sources_hash(bin, size));
    struct sm_program *d = e ? decode(e->entry, e->size, NULL, 0) : NULL;
    if (d)
        take_link_inputs(p, d);
}

/* LEB128 (the capture format's integers). */
static bool get_uvar(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

static bool keep(struct sm_state *s, uint64_t hash, const uint8_t *entry, size_t size)
{
    uint8_t *copy = sm_memdup(entry, size);
    if (!copy)
        return false;
    struct sm_program_source *e = find(s, hash);
    if (e) {
        free(e->entry);   /* the later entry for a binary wins */
    } else {
        struct sm_program_source *n = realloc(s->prog_sources, (s->n_prog_sources + 1) * sizeof *n);
        if (!n) {
            free(copy);
            return false;
        }
        s->prog_sources = n;
        e = &n[s->n_prog_sources++];
        e->hash = hash;
    }
    e->entry = copy;
    e->size = size;
    return true;
}

bool sm_program_sources_add(struct sm_state *s, const void *section, size_t size, char *err, size_t err_size)
{
    const uint8_t *p = section, *end = p + (section ? size : 0);
    for (uint32_t n = 0; p < end; n++) {
        uint64_t len, hash;
        char why[160];
        if (n >= MAX_ENTRIES || !get_uvar(&p, end, &len) || len > (uint64_t)(end - p)) {
            if (err_size)
                snprintf(err, err_size, "program sources: entry %u: truncated or too many entries", n);
            return false;
        }
        struct sm_program *d = decode(p, (size_t)len, why, sizeof why);
        if (!d || !sm_program_sources_entry_hash(p, (size_t)len, &hash)) {
            if (err_size)
                snprintf(err, err_size, "entry %u: %s", n, why);
            sm_program_free(d);
            return false;
        }
        sm_program_free(d);
        if (!keep(s, hash, p, (size_t)len)) {
            if (err_size)
                snprintf(err, err_size, "program sources: out of memory");
            return false;
        }
        p += len;
    }
    return true;
}

uint8_t *sm_program_sources_section(const struct sm_state *s, size_t *size)
{
    *size = 0;
    size_t total = 0;
    for (size_t i = 0; i < s->n_prog_sources; i++)
        total += 10 + s->prog_sources[i].size;
    uint8_t *out = total ? malloc(total) : NULL;
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < s->n_prog_sources; i++) {
        uint64_t v = s->prog_sources[i].size;
        do {
            out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
            v >>= 7;
        } while (v);
        memcpy(out + n, s->prog_sources[i].entry, s->prog_sources[i].size);
        n += s->prog_sources[i].size;
    }
    *size = n;
    return out;
}

