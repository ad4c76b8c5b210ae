/* The blob layouts the shim's recorder writes and the replay dispatcher reads (DESIGN.md, "Blob
 * layouts"): sm_apply decodes them, rejects malformed ones without crashing, and sm_restore_calls
 * emits them, so its calls replay through the dispatcher unchanged. */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"

static const char *const vs_parts[] = { "#version 330 core\n", "void main() { gl_Position = vec4(0.0); }\n" };

static struct glr_call pseudo(uint32_t cmd, uint64_t a0, uint64_t a1, uint64_t a2)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.args[0] = a0;
    c.args[1] = a1;
    c.args[2] = a2;
    return c;
}

static void test_shader_source(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)3);
    /* Two strings with a `length` array (recorded as its own blob, not needed to decode). */
    int32_t lens[2] = { (int32_t)strlen(vs_parts[0]), (int32_t)strlen(vs_parts[1]) };
    CHECK(tcall(s, 1, "glShaderSource", "uiSb", 3, 2, vs_parts, 2, lens, sizeof lens));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_shader *sh = sm_get_shader(c, 3);
    CHECK(sh && sh->source && !strcmp(sh->source, "#version 330 core\n"
                                      "void main() { gl_Position = vec4(0.0); }\n"));
    CHECK(sm_error_count(s) == 0);

    /* Malformed string arrays: counted as errors, the source stays as it was. */
    static const uint8_t too_many[] = { 3, 0, 0, 0, 1, 0, 0, 0, 'x' };             /* count 3, one string */
    static const uint8_t too_long[] = { 1, 0, 0, 0, 9, 0, 0, 0, 'x', 'y' };        /* length past the end */
    static const uint8_t trailing[] = { 1, 0, 0, 0, 1, 0, 0, 0, 'x', 'y' };        /* a byte after the last */
    static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0 };          /* count 2^32-1 */
    static const char raw_text[] = "void main() {}";                               /* the old guess */
    const struct { const void *p; size_t n; } bad[] = {
        { too_many, sizeof too_many }, { too_long, sizeof too_long }, { trailing, sizeof trailing },
        { huge, sizeof huge }, { raw_text, sizeof raw_text - 1 }, { NULL, 0 }, { too_many, 3 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t before = sm_error_count(s);
        tcall(s, 1, "glShaderSource", "uibb", 3, 1, bad[i].p, bad[i].n, NULL, (size_t)0);
        CHECK(sm_error_count(s) == before + 1);
    }
    /* A count argument that disagrees with the blob's count. */
    uint64_t before = sm_error_count(s);
    tcall(s, 1, "glShaderSource", "uiSb", 3, 1, vs_parts, 2, NULL, (size_t)0);
    CHECK(sm_error_count(s) == before + 1);
    sh = sm_get_shader(c, 3);
    CHECK(sh && sh->source && strstr(sh->source, "gl_Position"));
    /* An empty string array (count 1, length 0) is a valid empty source. */
    static const char *const empty[] = { "" };
    tcall(s, 1, "glShaderSource", "uiSb", 3, 1, empty, 1, NULL, (size_t)0);
    sh = sm_get_shader(c, 3);
    CHECK(sh && sh->source && sh->source[0] == 0);
    sm_state_free(s);
}

static void test_program_strings(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    tcall(s, 1, "glCreateProgram", "r", (uint64_t)5);
    static const char *const vary[] = { "out_pos", "gl_NextBuffer", "out_col" };
    CHECK(tcall(s, 1, "glTransformFeedbackVaryings", "uiSu", 5, 3, vary, 3, GL_INTERLEAVED_ATTRIBS));
    CHECK(tcall(s, 1, "glBindAttribLocation", "uuz", 5, 2, "normal"));
    CHECK(tcall(s, 1, "glBindFragDataLocationIndexed", "uuuz", 5, 0, 1, "blend_src"));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_program *p = sm_get_program(c, 5);
    CHECK(p && p->n_tf_varyings == 3);
    CHECK(p && p->n_tf_varyings == 3 && !strcmp(p->tf_varyings[0], "out_pos") &&
          !strcmp(p->tf_varyings[1], "gl_NextBuffer") && !strcmp(p->tf_varyings[2], "out_col"));
    CHECK(p && p->tf_buffer_mode == GL_INTERLEAVED_ATTRIBS);
    CHECK(p && p->n_attrib_bindings == 1 && !strcmp(p->attrib_bindings[0].name, "normal") &&
          p->attrib_bindings[0].index == 2);
    CHECK(p && p->n_frag_bindings == 1 && !strcmp(p->frag_bindings[0].name, "blend_src") &&
          p->frag_bindings[0].index2 == 1);
    CHECK(sm_error_count(s) == 0);
    /* Fewer names in the blob than the count says: an error, the old varyings stay. */
    uint64_t before = sm_error_count(s);
    tcall(s, 1, "glTransformFeedbackVaryings", "uiSu", 5, 3, vary, 2, GL_SEPARATE_ATTRIBS);
    CHECK(sm_error_count(s) == before + 1);
    CHECK(p && p->n_tf_varyings == 3 && p->tf_buffer_mode == GL_INTERLEAVED_ATTRIBS);

    /* glCreateShaderProgramv: the strings are the one linked shader's source. */
    CHECK(tcall(s, 1, "glCreateShaderProgramv", "uiSr", GL_VERTEX_SHADER, 2, vs_parts, 2, (uint64_t)6));
    const struct sm_program *sp = sm_get_program(c, 6);
    CHECK(sp && sp->separable && sp->n_linked == 1 && sp->linked[0].type == GL_VERTEX_SHADER &&
          !strncmp(sp->linked[0].source, "#version 330 core\nvoid main()", 29));
    CHECK(sm_error_count(s) == before + 1);
    sm_state_free(s);
}

static void test_uniform_names(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    build_core_frame(s, 1);   /* asks for "tint" (location 2) and "missing" (-1) */
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_program *p = sm_get_program(c, 5);
    CHECK(p && p->n_uniform_names == 1 && !strcmp(p->uniform_names[0].name, "tint") &&
          p->uniform_names[0].index == 2);
    char *json = sm_query_json(s, 1);
    CHECK(json && strstr(json, "\"name\":\t\"tint\""));
    free(json);
    CHECK(sm_cmd_class((uint32_t)glr_cmd_find("glGetUniformLocation")) == SM_CMD_APPLIED);
    /* Locations belong to a link: relinking forgets the names. */
    tcall(s, 1, "glLinkProgram", "u", 5);
    CHECK(p && p->n_uniform_names == 0);
    sm_state_free(s);
}

static void test_arrays_and_names(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    uint32_t bufs[3] = { 41, 42, 43 };
    CHECK(tcall(s, 1, "glGenBuffers", "ib", 3, bufs, sizeof bufs));
    const struct sm_context *c = sm_context_get(s, 1);
    CHECK(sm_get_buffer(c, 41) && sm_get_buffer(c, 42) && sm_get_buffer(c, 43));
    /* GLintptr / GLsizeiptr arrays: 8 bytes per element. */
    int64_t offs[2] = { 256, 512 }, sizes[2] = { 64, 128 };
    CHECK(tcall(s, 1, "glBindBuffersRange", "uuibbb", GL_UNIFORM_BUFFER, 4, 2, bufs + 1, 8, offs,
                sizeof offs, sizes, sizeof sizes));
    const struct sm_context_state *st = sm_context_state(c);
    CHECK(st->ubo[4].buffer == 42 && st->ubo[4].offset == 256 && st->ubo[4].size == 64);
    CHECK(st->ubo[5].buffer == 43 && st->ubo[5].offset == 512 && st->ubo[5].size == 128);
    CHECK(sm_error_count(s) == 0);
    /* A size blob shorter than count * 8: an error, no crash. */
    uint64_t before = sm_error_count(s);
    tcall(s, 1, "glBindBuffersRange", "uuibbb", GL_UNIFORM_BUFFER, 6, 2, bufs, 8, offs, sizeof offs,
          sizes, (size_t)12);
    CHECK(sm_error_count(s) == before + 1);
    sm_state_free(s);
}

/* Blobs of a decoded stream point into the stream bytes, at any address: typed reads must not
 * assume alignment (the sanitizer build checks). */
static void test_misaligned_blobs(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    static uint64_t store[16];
    uint8_t *odd = (uint8_t *)store + 1;
    uint32_t names[2] = { 61, 62 };
    memcpy(odd, names, sizeof names);
    CHECK(tcall(s, 1, "glGenBuffers", "ib", 2, odd, sizeof names));
    tcall(s, 1, "glCreateProgram", "r", (uint64_t)7);
    tcall(s, 1, "glLinkProgram", "u", 7);
    tcall(s, 1, "glUseProgram", "u", 7);
    float v[4] = { 1.5f, 2.5f, 3.5f, 4.5f };
    memcpy(odd, v, sizeof v);
    CHECK(tcall(s, 1, "glUniform4fv", "iib", 3, 1, odd, sizeof v));
    int64_t offs[1] = { 64 }, sizes[1] = { 16 };
    uint8_t *odd2 = (uint8_t *)store + 33, *odd3 = (uint8_t *)store + 49;
    memcpy(odd2, offs, 8);
    memcpy(odd3, sizes, 8);
    memcpy(odd, names, 4);
    CHECK(tcall(s, 1, "glBindBuffersRange", "uuibbb", GL_UNIFORM_BUFFER, 1, 1, odd, 4, odd2, 8, odd3, 8));
    const struct sm_context *c = sm_context_get(s, 1);
    CHECK(sm_get_buffer(c, 61) && sm_get_buffer(c, 62));
    const struct sm_uniform *u = sm_program_uniform(sm_get_program(c, 7), 3);
    float got[4] = { 0 };
    if (u)
        memcpy(got, u->data, sizeof got);
    CHECK(u && got[0] == 1.5f && got[3] == 4.5f);
    CHECK(sm_context_state(c)->ubo[1].buffer == 61 && sm_context_state(c)->ubo[1].offset == 64 &&
          sm_context_state(c)->ubo[1].size == 16);
    CHECK(sm_error_count(s) == 0);
    sm_state_free(s);
}

static void test_pseudo_records(void)
{
    struct sm_state *s = sm_state_new();
    /* The metadata declared context 1 (core 4.5); its creation record must not change that. */
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    struct glr_call c1 = pseudo(GLR_PSEUDO_CONTEXT_CREATE, 1, 1, 1);
    struct glr_call c2 = pseudo(GLR_PSEUDO_CONTEXT_CREATE, 2, 1, 1);   /* shares with 1 */
    struct glr_call c3 = pseudo(GLR_PSEUDO_CONTEXT_CREATE, 3, 3, 2);   /* its own group */
    struct glr_call mc = pseudo(GLR_PSEUDO_MAKE_CURRENT, 0, 0, 0);
    struct glr_call sw = pseudo(GLR_PSEUDO_SWAP, 0, 0, 0);
    struct glr_call ca = pseudo(GLR_PSEUDO_CLIENT_ARRAY, 0, 0, 0);
    struct glr_call bad = pseudo(GLR_PSEUDO_CONTEXT_CREATE, 0, 0, 0);
    mc.ctx_id = sw.ctx_id = 2;
    CHECK(sm_apply(s, &c1) && sm_apply(s, &c2) && sm_apply(s, &c3));
    CHECK(sm_apply(s, &mc) && sm_apply(s, &sw) && sm_apply(s, &ca));
    CHECK(sm_cmd_class(GLR_PSEUDO_CONTEXT_CREATE) == SM_CMD_APPLIED);
    CHECK(sm_cmd_class(GLR_PSEUDO_SWAP) == SM_CMD_NO_STATE);
    CHECK(sm_cmd_class(GLR_PSEUDO_END) == SM_CMD_UNHANDLED);
    CHECK(sm_context_count(s) == 3);
    int major = 0, minor = 0;
    CHECK(sm_context_api(sm_context_get(s, 1), &major, &minor) == SM_API_GL_CORE && major == 4);
    CHECK(sm_context_share_id(sm_context_get(s, 2)) == sm_context_share_id(sm_context_get(s, 1)));
    CHECK(sm_context_share_id(sm_context_get(s, 3)) != sm_context_share_id(sm_context_get(s, 1)));
    CHECK(sm_unhandled_calls(s) == 0 && sm_error_count(s) == 0);
    CHECK(sm_apply(s, &bad) && sm_error_count(s) == 1);
    struct glr_call beyond = pseudo(GLR_PSEUDO_END, 0, 0, 0);
    CHECK(!sm_apply(s, &beyond));
    /* A buffer made on context 2 is visible on 1 (same share group). */
    uint32_t b = 9;
    tcall(s, 2, "glGenBuffers", "ib", 1, &b, sizeof b);
    CHECK(sm_get_buffer(sm_context_get(s, 1), 9) != NULL);
    sm_state_free(s);
}

/* Decodes a string-array blob the way the dispatcher does (u32 count, u32 length + bytes). */
/* glGen*-shaped commands (n, names): their second parameter receives new object names (registry
 * object classes, not the command's name). */
static bool creates_names(uint32_t cmd)
{
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    const struct glr_param_info *p = &glr_params[ci->params + 1];
    return ci->nparams == 2 && p->obj_class && p->is_pointer && !p->is_const;
}

static int decode_strings(const struct glr_blob *b, char out[][256], int max)
{
    const uint8_t *p = b->data, *end = p + b->size;
    if (b->size < 4)
        return -1;
    uint32_t n;
    memcpy(&n, p, 4);
    p += 4;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len;
        if (end - p < 4 || (int)i >= max)
            return -1;
        memcpy(&len, p, 4);
        p += 4;
        if (len > (size_t)(end - p) || len >= 256)
            return -1;
        memcpy(out[i], p, len);
        out[i][len] = 0;
        p += len;
    }
    return p == end ? (int)n : -1;
}

static void test_restore_layouts(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    build_core_frame(s, 1);
    tcall(s, 1, "glCreateProgram", "r", (uint64_t)50);
    static const char *const vary[] = { "a", "bb" };
    tcall(s, 1, "glTransformFeedbackVaryings", "uiSu", 50, 2, vary, 2, GL_SEPARATE_ATTRIBS);
    tcall(s, 1, "glCreateShaderProgramv", "uiSr", GL_VERTEX_SHADER, 2, vs_parts, 2, (uint64_t)51);
    CHECK(sm_error_count(s) == 0);
    struct sm_call_list l = { 0 };
    CHECK(sm_restore_calls(s, &l));
    int sources = 0, varyings = 0, gens = 0;
    char strs[8][256];
    for (size_t i = 0; i < l.count; i++) {
        const struct glr_call *c = &l.calls[i];
        if (c->cmd == GLR_CMD_glShaderSource) {
            /* The dispatcher passes args[1] as the count and the decoded strings. */
            int n = decode_strings(&c->blobs[2], strs, 8);
            CHECK(n == 1 && (int64_t)c->args[1] == n);
            CHECK(c->blobs[3].size == 0 && c->args[3] == 0);   /* lengths come from blob 2 */
            sources++;
        } else if (c->cmd == GLR_CMD_glTransformFeedbackVaryings) {
            int n = decode_strings(&c->blobs[2], strs, 8);
            CHECK(n == 2 && c->args[1] == 2 && !strcmp(strs[0], "a") && !strcmp(strs[1], "bb"));
            varyings++;
        } else if (c->cmd == GLR_CMD_glBindAttribLocation || c->cmd == GLR_CMD_glBindFragDataLocation) {
            /* Plain strings carry their NUL. */
            const char *z = c->blobs[2].data;
            CHECK(c->blobs[2].size > 1 && z[c->blobs[2].size - 1] == 0 &&
                  strlen(z) + 1 == c->blobs[2].size);
        } else if (creates_names(c->cmd)) {
            /* Output names: the captured names, which the dispatcher maps to the new ones. */
            CHECK(c->blobs[1].size == 4 * c->args[0]);
            gens++;
        }
    }
    CHECK(sources >= 3 && varyings == 1 && gens >= 6);
    uint32_t buf_name = 0;
    for (size_t i = 0; i < l.count && !buf_name; i++)
        if (l.calls[i].cmd == (uint32_t)glr_cmd_find("glGenBuffers"))
            memcpy(&buf_name, l.calls[i].blobs[1].data, 4);
    CHECK(buf_name == 1);
    /* Applying the restore calls rebuilds the same state. */
    struct sm_state *r = sm_state_new();
    CHECK(sm_context_create(r, 1, 0, SM_API_GL_CORE, 4, 5));
    for (size_t i = 0; i < l.count; i++)
        sm_apply(r, &l.calls[i]);
    CHECK(sm_error_count(r) == 0);
    if (sm_error_count(r))
        fprintf(stderr, "restore error: %s\n", sm_first_error(r));
    CHECK(sm_state_equal(s, r));
    sm_state_free(r);
    sm_call_list_free(&l);
    sm_state_free(s);
}

int main(void)
{
    test_shader_source();
    test_program_strings();
    test_arrays_and_names();
    test_uniform_names();
    test_misaligned_blobs();
    test_pseudo_records();
    test_restore_layouts();
    return sm_test_result("test_sm_blobs");
}
