/* Serialization: binary and JSON round trips are exact; corrupt or truncated input is refused. */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"

static struct sm_state *make_state(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_CORE, 4, 5));
    CHECK(sm_context_create(s, 2, 1, SM_API_GL_CORE, 4, 5));   /* shares with 1 */
    CHECK(sm_context_create(s, 3, 0, SM_API_GL_COMPAT, 2, 1));
    build_core_frame(s, 1);
    build_legacy_frame(s, 3);
    tcall(s, 2, "glViewport", "iiii", 5, 6, 7, 8);
    /* A query result an earlier frame left (format version 3). */
    CHECK(sm_set_query_result(s, 1, 41, GL_SAMPLES_PASSED, UINT64_C(5000000000)));
    /* ARB assembly programs (format version 5) on the compatibility context. */
    static const char vp[] = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";
    CHECK(tcall(s, 3, "glBindProgramARB", "uu", GL_VERTEX_PROGRAM_ARB, 9));
    CHECK(tcall(s, 3, "glProgramStringARB", "uuib", GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB,
                (int)strlen(vp), vp, strlen(vp)));
    CHECK(tcall(s, 3, "glProgramLocalParameter4fARB", "uuffff", GL_VERTEX_PROGRAM_ARB, 2, 1.0, 2.0, 3.0, 4.0));
    CHECK(tcall(s, 3, "glProgramEnvParameter4fARB", "uuffff", GL_FRAGMENT_PROGRAM_ARB, 7, 5.0, 6.0, 7.0, 8.0));
    /* SPIR-V shaders (format version 7): one specialized and linked, one with its module only. */
    const uint32_t names[2] = { 31, 32 }, module[5] = { 0x07230203u, 0x10000u, 0, 8, 0 };
    const uint32_t ids[2] = { 3, 4 }, vals[2] = { 7, 9 };
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_VERTEX_SHADER, (uint64_t)31));
    CHECK(tcall(s, 1, "glCreateShader", "ur", GL_FRAGMENT_SHADER, (uint64_t)32));
    CHECK(tcall(s, 1, "glCreateProgram", "r", (uint64_t)33));
    CHECK(tcall(s, 1, "glShaderBinary", "ibubi", 2, names, sizeof names, GL_SHADER_BINARY_FORMAT_SPIR_V,
                module, sizeof module, (int)sizeof module));
    CHECK(tcall(s, 1, "glSpecializeShader", "uzubb", 32, "main", 2, ids, sizeof ids, vals, sizeof vals));
    CHECK(tcall(s, 1, "glAttachShader", "uu", 33, 32));
    CHECK(tcall(s, 1, "glLinkProgram", "u", 33));
    /* A texture uploaded under glPixelTransfer scale and bias (format version 9): the model applies
     * them to the kept bytes, so they travel with the image. */
    static const uint8_t px[8] = { 200, 100, 50, 255, 10, 20, 30, 40 };
    CHECK(tcall(s, 3, "glBindTexture", "uu", GL_TEXTURE_2D, 12));
    CHECK(tcall(s, 3, "glPixelTransferf", "uf", GL_RED_SCALE, 0.5));
    CHECK(tcall(s, 3, "glPixelTransferf", "uf", GL_GREEN_BIAS, 0.25));
    CHECK(tcall(s, 3, "glTexImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, GL_RGBA, 2, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                px, sizeof px));
    CHECK(tcall(s, 3, "glPixelTransferf", "uf", GL_RED_SCALE, 1.0));
    CHECK(tcall(s, 3, "glPixelTransferf", "uf", GL_GREEN_BIAS, 0.0));
    return s;
}

/* Pixel transfer of texture images: kept with the upload, serialized, and dropped with the bytes
 * when an upload without it or the snapshot's read-back (already transferred) replaces them. */
static void test_pixel_transfer(struct sm_state *s)
{
    const struct sm_texture *t = sm_get_texture(sm_context_get(s, 3), 12);
    const struct sm_tex_image *im = t ? &t->image[0][0] : NULL;
    CHECK(im && im->xfer && im->xfer_scale[0] == 0.5f && im->xfer_bias[1] == 0.25f && im->xfer_scale[1] == 1.0f);
    size_t n = 0;
    uint8_t *bin = sm_serialize(s, &n);
    char err[200] = "";
    struct sm_state *b = bin ? sm_deserialize(bin, n, err, sizeof err) : NULL;
    t = b ? sm_get_texture(sm_context_get(b, 3), 12) : NULL;
    im = t ? &t->image[0][0] : NULL;
    CHECK(im && im->xfer && im->xfer_scale[0] == 0.5f && im->xfer_bias[1] == 0.25f && im->xfer_bias[0] == 0.0f);
    static const uint8_t back[8] = { 100, 164, 50, 255, 5, 84, 30, 40 };
    CHECK(b && sm_set_texture_image_data(b, 3, 12, 0, 0, GL_RGBA, GL_UNSIGNED_BYTE, 4, back, sizeof back));
    CHECK(im && !im->xfer);
    struct sm_state *c = sm_state_clone(s);
    CHECK(c && tcall(c, 3, "glTexSubImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE,
                     back, (size_t)4));
    CHECK(c && tcall(c, 3, "glTexImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, GL_RGBA, 2, 1, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, back, sizeof back));
    t = c ? sm_get_texture(sm_context_get(c, 3), 12) : NULL;
    CHECK(t && t->image[0][0].data && !t->image[0][0].xfer);
    sm_state_free(c);
    sm_state_free(b);
    free(bin);
}

static void test_round_trips(struct sm_state *s)
{
    size_t n = 0;
    uint8_t *bin = sm_serialize(s, &n);
    CHECK(bin && n > 100);
    char err[200] = "";
    struct sm_state *b = sm_deserialize(bin, n, err, sizeof err);
    CHECK(b != NULL);
    if (!b)
        fprintf(stderr, "deserialize: %s\n", err);
    CHECK(b && sm_state_equal(s, b));
    CHECK(b && sm_context_count(b) == 3);
    CHECK(b && sm_context_share_id(sm_context_get(b, 1)) == sm_context_share_id(sm_context_get(b, 2)));
    CHECK(b && sm_get_texture(sm_context_get(b, 2), 7) != NULL);
    const struct sm_arb_program *ap = b ? sm_get_arb_program(sm_context_get(b, 3), 9) : NULL;
    CHECK(ap && ap->target == GL_VERTEX_PROGRAM_ARB && ap->source && !strncmp(ap->source, "!!ARBvp1.0\nMOV ", 15) &&
          ap->length == strlen(ap->source) && ap->generation == 1 && ap->n_local == 3 && ap->local[2][3] == 4.0f);
    const struct sm_context_state *bst = b ? sm_context_state(sm_context_get(b, 3)) : NULL;
    CHECK(bst && bst->arb_program[0] == 9 && bst->arb_env[1][7][0] == 5.0f && bst->arb_env[1][7][3] == 8.0f &&
          bst->arb_env[1][6][0] == 0.0f);
    const struct sm_query *q = b ? sm_get_query(sm_context_get(b, 1), 41) : NULL;
    CHECK(q && q->target == GL_SAMPLES_PASSED && q->has_result && q->result == UINT64_C(5000000000));
    const struct sm_shader *sv = b ? sm_get_shader(sm_context_get(b, 1), 31) : NULL;
    const struct sm_shader *sf = b ? sm_get_shader(sm_context_get(b, 1), 32) : NULL;
    const struct sm_program *sp = b ? sm_get_program(sm_context_get(b, 1), 33) : NULL;
    CHECK(sv && sv->spirv && sv->spirv->size == 20 && !sv->spirv->entry && !sv->compiled &&
          sv->spirv->binary && sv->spirv->binary[0] == 0x03 && sv->spirv->binary[3] == 0x07);
    CHECK(sf && sf->spirv && sf->compiled && sf->spirv->entry && !strcmp(sf->spirv->entry, "main") &&
          sf->spirv->n_spec == 2 && sf->spirv->spec_ids[1] == 4 && sf->spirv->spec_values[1] == 9);
    CHECK(sp && sp->n_linked == 1 && sp->linked[0].spirv && sp->linked[0].spirv->size == 20 &&
          sp->linked[0].spirv->n_spec == 2);

    char *json = sm_to_json(s);
    CHECK(json && strstr(json, "\"GL_LINEAR_MIPMAP_LINEAR\""));
    struct sm_state *j = json ? sm_from_json(json, err, sizeof err) : NULL;
    if (!j)
        fprintf(stderr, "from_json: %s\n", err);
    CHECK(j && sm_state_equal(s, j));
    char *json2 = j ? sm_to_json(j) : NULL;
    CHECK(json2 && !strcmp(json, json2));

    struct sm_state *cl = sm_state_clone(s);
    CHECK(cl && sm_state_equal(s, cl) && sm_unhandled_calls(cl) == sm_unhandled_calls(s));
    /* A change makes them differ. */
    tcall(cl, 1, "glDepthMask", "u", 0);
    CHECK(!sm_state_equal(s, cl));
    /* Beginning the query again drops the kept result: the frame makes its own. */
    tcall(cl, 1, "glBeginQuery", "uu", GL_SAMPLES_PASSED, 41);
    const struct sm_query *cq = sm_get_query(sm_context_get(cl, 1), 41);
    CHECK(cq && cq->active && !cq->has_result);

    free(json2);
    free(json);
    sm_state_free(cl);
    sm_state_free(j);
    sm_state_free(b);
    free(bin);
}

static void test_corrupt_binary(struct sm_state *s)
{
    size_t n = 0;
    uint8_t *bin = sm_serialize(s, &n);
    char err[200];
    /* Every truncation is refused with a message. */
    for (size_t len = 0; len < n; len += 1 + n / 4000) {
        err[0] = 0;
        struct sm_state *t = sm_deserialize(bin, len, err, sizeof err);
        CHECK(t == NULL);
        CHECK(err[0] != 0);
        sm_state_free(t);
    }
    /* Trailing garbage, bad magic, a newer version. */
    uint8_t *longer = malloc(n + 1);
    memcpy(longer, bin, n);
    longer[n] = 0;
    CHECK(sm_deserialize(longer, n + 1, err, sizeof err) == NULL && strstr(err, "unexpected"));
    longer[0] = 'X';
    CHECK(sm_deserialize(longer, n, err, sizeof err) == NULL && strstr(err, "magic"));
    memcpy(longer, bin, n);
    longer[4] = SM_FORMAT_VERSION + 1;
    CHECK(sm_deserialize(longer, n, err, sizeof err) == NULL && strstr(err, "version"));
    free(longer);
    /* Random corruption: refused or accepted, never a crash or a leak (ASan/UBSan run). */
    uint8_t *m = malloc(n);
    uint32_t rng = 12345;
    int refused = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(m, bin, n);
        for (int k = 0; k < 1 + iter % 4; k++) {
            rng = rng * 1103515245u + 12345u;
            size_t pos = 4 + (rng >> 8) % (n - 4);
            rng = rng * 1103515245u + 12345u;
            m[pos] = (uint8_t)(rng >> 16);
        }
        struct sm_state *t = sm_deserialize(m, n, err, sizeof err);
        refused += t == NULL;
        if (t) {
            size_t n2;
            uint8_t *again = sm_serialize(t, &n2);   /* whatever it accepted is a usable state */
            CHECK(again != NULL);
            free(again);
        }
        sm_state_free(t);
    }
    CHECK(refused > 0);
    free(m);
    free(bin);
    CHECK(sm_deserialize(NULL, 0, err, sizeof err) == NULL);
}

static char *replace(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    if (!p)
        return NULL;
    size_t a = (size_t)(p - s), fl = strlen(from), tl = strlen(to), sl = strlen(s);
    char *out = malloc(sl - fl + tl + 1);
    memcpy(out, s, a);
    memcpy(out + a, to, tl);
    memcpy(out + a + tl, p + fl, sl - a - fl + 1);
    return out;
}

/* A version 1 document (before the matrix stacks) reads with GL's default stacks, not zeros. */
static void test_version1(struct sm_state *s)
{
    char *json = sm_to_json(s);
    char current[32];
    snprintf(current, sizeof current, "\"version\":%u", SM_FORMAT_VERSION);
    char *old = json ? replace(json, current, "\"version\":1") : NULL;
    char err[200] = "";
    struct sm_state *v1 = old ? sm_from_json(old, err, sizeof err) : NULL;
    if (!v1)
        fprintf(stderr, "version 1: %s\n", err);
    CHECK(v1 != NULL);
    const struct sm_context *c = v1 ? sm_context_get(v1, 3) : NULL;
    const struct sm_context_state *st = c ? sm_context_state(c) : NULL;
    CHECK(st && st->matrix_mode == GL_MODELVIEW && st->modelview.depth == 0 &&
          st->modelview.m[0][0] == 1.0f && st->modelview.m[0][5] == 1.0f && st->projection.m[0][15] == 1.0f);
    sm_state_free(v1);
    free(old);
    free(json);
}

#define STR_(x) #x
#define STR(x) STR_(x)
/* The JSON member of the version this build writes (SM_FORMAT_VERSION is 7u: the digits only). */
#define VERSION_NOW "\"version\":" STR(SM_FORMAT_VERSION_NUMBER)

static void test_corrupt_json(struct sm_state *s)
{
    char *json = sm_to_json(s);
    char err[200];
    size_t n = strlen(json);
    /* Truncations at a spread of points. */
    for (size_t len = 0; len < n; len += 1 + n / 300) {
        char *t = strndup(json, len);
        CHECK(sm_from_json(t, err, sizeof err) == NULL);
        free(t);
    }
    static const char *const edits[][2] = {
        { VERSION_NOW, "\"version\":\"one\"" },
        { VERSION_NOW, "\"version\":99" },
        { "\"format\":\"glreplay-statemodel\"", "\"format\":\"other\"" },
        { "\"GL_LINEAR_MIPMAP_LINEAR\"", "\"GL_NO_SUCH_ENUM\"" },
        { "\"share_groups\"", "\"share_grupos\"" },
        { "\"active_texture\":3", "\"active_texture\":4000" },
        { "\"active_texture\":3", "\"active_texture\":-1" },
        { "\"active_texture\":3", "\"active_texture\":1.5" },
        { "\"name\":7", "\"name\":0" },
        { "\"kind\":0", "\"kind\":9" },
        { "\"n_draw_buffers\":1", "\"n_draw_buffers\":9" },
        { "\"data_known\":true", "\"data_known\":1" },
        { "\"share_group\":1", "\"share_group\":42" },
        { "\"index\":7,", "\"index\":700," },
        { "\"n_local\":3", "\"n_local\":5000" },
        { "\"spec_values\":[7,9]", "\"spec_values\":[7]" },
        { "\"spec_ids\":[3,4]", "\"spec_ids\":[3,-4]" },
        { "\"entry\":\"main\"", "\"entry\":5" },
    };
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char *bad = replace(json, edits[i][0], edits[i][1]);
        CHECK(bad != NULL);
        if (!bad) {
            fprintf(stderr, "edit %zu: pattern not found: %s\n", i, edits[i][0]);
            continue;
        }
        err[0] = 0;
        struct sm_state *t = sm_from_json(bad, err, sizeof err);
        CHECK(t == NULL && err[0]);
        if (t)
            fprintf(stderr, "edit %zu accepted: %s\n", i, edits[i][1]);
        sm_state_free(t);
        free(bad);
    }
    CHECK(sm_from_json("[]", err, sizeof err) == NULL);
    CHECK(sm_from_json(NULL, err, sizeof err) == NULL);
    free(json);
}

int main(void)
{
    struct sm_state *s = make_state();
    test_round_trips(s);
    test_pixel_transfer(s);
    test_corrupt_binary(s);
    test_corrupt_json(s);
    test_version1(s);
    sm_state_free(s);
    return sm_test_result("test_sm_serialize");
}
