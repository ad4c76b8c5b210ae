/* Programs loaded from binaries (sm_program_sources.c): glProgramBinary keeps the binary, an entry
 * made from a program linked from source gives a later load of that binary its sources (in the
 * same state, and in another state through a section), the binary and the sources survive
 * serialization, restore loads the binary when no sources are known and links from source when
 * they are, and bad entries and sections change nothing. */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

static const char *vs = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
static const char *fs = "#version 330\nout vec4 c;\nvoid main() { c = vec4(1); }\n";
static const unsigned char bin[] = "a driver's program binary, as the program reads it back";

static const struct sm_program *program(struct sm_state *s, uint32_t name)
{
    const struct sm_context *c = sm_context_get(s, 1);
    return c ? sm_get_program(c, name) : NULL;
}

/* Program 3 linked from vs/fs with an attribute binding and a frag-data binding. */
static void link_from_source(struct sm_state *s)
{
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)1));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 1, 1, vs, (uint64_t)0));
    CHECK(tcall(s, 1, "glCompileShader", "u", 1));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)2));
    CHECK(tcall(s, 1, "glShaderSource", "uisp", 2, 1, fs, (uint64_t)0));
    CHECK(tcall(s, 1, "glCompileShader", "u", 2));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)3));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 3, 1));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 3, 2));
    CHECK(tcall(s, 1, "glBindAttribLocation", "uuz", 3, 5, "p"));
    CHECK(tcall(s, 1, "glBindFragDataLocation", "uuz", 3, 1, "c"));
    CHECK(tcall(s, 1, "glLinkProgram", "u", 3));
}

static void load_binary(struct sm_state *s, uint32_t name)
{
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)name));
    CHECK(tcall(s, 1, "glProgramBinary", "uubi", name, GL_PROGRAM_BINARY_FORMAT_MESA, bin, sizeof bin, (int)sizeof bin));
}

/* Whether restoring s makes a call of that name. */
static bool restores_with(const struct sm_state *s, const char *name)
{
    struct sm_call_list l;
    memset(&l, 0, sizeof l);
    bool found = false;
    int id = glr_cmd_find(name);
    if (sm_restore_calls(s, &l))
        for (size_t i = 0; i < l.count; i++)
            found |= (int)l.calls[i].cmd == id;
    sm_call_list_free(&l);
    return found;
}

int main(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    link_from_source(s);
    uint64_t h = sm_program_sources_hash(bin, sizeof bin);
    size_t size;
    uint8_t *entry = sm_program_sources_encode(s, 1, 3, h, &size);
    CHECK(entry && size > 16);
    uint64_t got = 0;
    CHECK(sm_program_sources_entry_hash(entry, size, &got) && got == h);

    /* Loaded from the binary with no entry known: the binary, no sources. */
    load_binary(s, 7);
    const struct sm_program *p = program(s, 7);
    CHECK(p && p->binary && p->binary_size == sizeof bin && p->binary_format == GL_PROGRAM_BINARY_FORMAT_MESA && !p->n_linked);
    CHECK(p && p->link_count == 1);
    CHECK(sm_error_count(s) == 0);

    /* Restore without sources loads the binary again. */
    CHECK(restores_with(s, "glProgramBinary"));

    /* The binary survives serialization (the snapshot of a capture). */
    size_t n;
    uint8_t *bytes = sm_serialize(s, &n);
    struct sm_state *back = bytes ? sm_deserialize(bytes, n, NULL, 0) : NULL;
    free(bytes);
    CHECK(back && program(back, 7) && program(back, 7)->binary_size == sizeof bin &&
          !memcmp(program(back, 7)->binary, bin, sizeof bin));
    sm_state_free(back);

    /* The entry applied (the shim's cache hit): the sources and bindings of the original link. */
    char err[200];
    CHECK(sm_program_sources_apply(s, 1, 7, entry, size, err, sizeof err));
    p = program(s, 7);
    CHECK(p && p->n_linked == 2 && p->linked[0].type == GL_VERTEX_SHADER && !strcmp(p->linked[0].source, vs) &&
          !strcmp(p->linked[1].source, fs));
    CHECK(p && p->n_attrib_bindings == 1 && !strcmp(p->attrib_bindings[0].name, "p") &&
          p->attrib_bindings[0].index == 5);
    CHECK(p && p->n_frag_bindings == 1 && !strcmp(p->frag_bindings[0].name, "c"));
    CHECK(p && p->binary);   /* kept: the program still is the binary's */
    CHECK(restores_with(s, "glLinkProgram"));

    /* Another state (a capture's reader): the section makes a later glProgramBinary find them. */
    uint8_t section[4096];
    CHECK(size < 128 * 128);
    size_t k = 0;
    uint64_t v = size;
    do {
        section[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    CHECK(k + size <= sizeof section);
    memcpy(section + k, entry, size);
    struct sm_state *r = sm_state_new();
    CHECK(sm_context_create(r, 1, 0, SM_API_GL_CORE, 4, 5));
    CHECK(sm_program_sources_add(r, section, k + size, err, sizeof err));
    size_t out_size;
    uint8_t *out = sm_program_sources_section(r, &out_size);
    CHECK(out && out_size == k + size && !memcmp(out, section, out_size));
    free(out);
    load_binary(r, 9);
    p = program(r, 9);
    CHECK(p && p->n_linked == 2 && !strcmp(p->linked[1].source, fs));
    /* A relink from source drops the binary. */
    CHECK(tcall(r, 1, "glLinkProgram", "u", 9));
    p = program(r, 9);
    CHECK(p && !p->binary && !p->n_linked);

    /* Bad input changes nothing and says why. */
    uint8_t *bad = malloc(size);
    memcpy(bad, entry, size);
    bad[size - 3] ^= 0xff;
    err[0] = 0;
    CHECK(!sm_program_sources_apply(r, 1, 9, "GLPS", 4, err, sizeof err) && err[0]);
    CHECK(!sm_program_sources_apply(r, 1, 9, "nope nope", 9, err, sizeof err) && strstr(err, "magic"));
    CHECK(!sm_program_sources_apply(r, 1, 42, entry, size, err, sizeof err));   /* no such program */
    const uint8_t truncated[] = { 0x90, 0x01, 'G', 'L' };
    CHECK(!sm_program_sources_add(r, truncated, sizeof truncated, err, sizeof err) && err[0]);
    p = program(r, 9);
    CHECK(p && !p->n_linked);
    free(bad);

    /* A program with no GLSL (loaded from a binary itself) gives no entry. */
    struct sm_state *t = sm_state_new();
    CHECK(sm_context_create(t, 1, 0, SM_API_GL_CORE, 4, 5));
    load_binary(t, 4);
    CHECK(!sm_program_sources_encode(t, 1, 4, h, &n));
    sm_state_free(t);

    free(entry);
    sm_state_free(r);
    sm_state_free(s);
    return sm_test_result("test_sm_program_sources");
}
