/* SPIR-V shaders (GL_ARB_gl_spirv, core in GL 4.6): glShaderBinary with
 * GL_SHADER_BINARY_FORMAT_SPIR_V gives a shader its module instead of GLSL source, and
 * glSpecializeShader picks the entry point and the specialization constants and makes it
 * compiled. The state model keeps both (struct sm_spirv) so the GPU model can run the module
 * itself; glLinkProgram copies them into the link snapshot like a GLSL source. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_blob.h"

static void *dup_bytes(const void *src, size_t n)
{
    if (!n)
        return NULL;
    void *d = malloc(n);
    if (d)
        memcpy(d, src, n);
    return d;
}

struct sm_spirv *sm_spirv_dup(const struct sm_spirv *s, bool *oom)
{
    if (!s)
        return NULL;
    struct sm_spirv *d = calloc(1, sizeof *d);
    if (d) {
        d->size = s->size;
        d->n_spec = s->n_spec;
        d->binary = dup_bytes(s->binary, s->size);
        d->entry = s->entry ? strdup(s->entry) : NULL;
        d->spec_ids = dup_bytes(s->spec_ids, (size_t)s->n_spec * 4);
        d->spec_values = dup_bytes(s->spec_values, (size_t)s->n_spec * 4);
        if ((s->size && !d->binary) || (s->entry && !d->entry) ||
            (s->n_spec && (!d->spec_ids || !d->spec_values))) {
            sm_spirv_free(d);
            d = NULL;
        }
    }
    if (!d)
        *oom = true;
    return d;
}

bool sm_spirv_equal(const struct sm_spirv *a, const struct sm_spirv *b)
{
    if (!a || !b)
        return a == b;
    return a->size == b->size && a->n_spec == b->n_spec &&
           (!a->size || !memcmp(a->binary, b->binary, a->size)) &&
           !strcmp(a->entry ? a->entry : "", b->entry ? b->entry : "") && !a->entry == !b->entry &&
           (!a->n_spec || (!memcmp(a->spec_ids, b->spec_ids, (size_t)a->n_spec * 4) &&
                           !memcmp(a->spec_values, b->spec_values, (size_t)a->n_spec * 4)));
}

/* glShaderBinary(count, shaders, binaryFormat, binary, length): every listed shader gets the
 * same module (GL 4.6 section 7.2). Another format (none on Mesa) leaves the shader without
 * source or module: the GPU model then reports it has nothing to run. */
static void h_shader_binary(struct sm_ap *a)
{
    int32_t count = ap_i(a, 0);
    if (count <= 0)
        return;
    const uint32_t *names = ap_names(a, 1, count);
    if (!names)
        return;
    bool spirv = ap_u(a, 2) == GL_SHADER_BINARY_FORMAT_SPIR_V;
    int32_t length = ap_i(a, 4);
    const void *bytes = length > 0 ? ap_bytes(a, 3, (uint64_t)length) : NULL;
    if (spirv && !bytes) {
        ap_error(a, "SPIR-V binary missing or shorter than its length in the recorded call");
        return;
    }
    for (int32_t i = 0; i < count; i++) {
        struct sm_shader *sh = ap_shader(a, names[i]);
        if (!sh)
            continue;
        free(sh->source);
        sh->source = NULL;
        sm_spirv_free(sh->spirv);
        sh->spirv = NULL;
        sh->compiled = false;
        if (!spirv)
            continue;
        struct sm_spirv *s = calloc(1, sizeof *s);
        if (!s || !(s->binary = dup_bytes(bytes, (size_t)length))) {
            free(s);
            ap_error(a, "out of memory");
            return;
        }
        s->size = (uint32_t)length;
        sh->spirv = s;
    }
}

/* glSpecializeShader(shader, pEntryPoint, numSpecializationConstants, pConstantIndex,
 * pConstantValue): blob 1 is the entry point's name, blobs 3 and 4 the ids and values. */
static void h_specialize_shader(struct sm_ap *a)
{
    struct sm_shader *sh = ap_shader(a, ap_u(a, 0));
    if (!sh)
        return;
    if (!sh->spirv) {
        ap_error(a, "glSpecializeShader on a shader without a SPIR-V binary");
        return;
    }
    char *entry = sm_blob_cstr(&a->call->blobs[1]);
    if (!entry) {
        ap_error(a, "entry point name missing in the recorded call");
        return;
    }
    int32_t n = ap_i(a, 2);
    uint32_t *ids = NULL, *values = NULL;
    if (n > 0) {
        const uint32_t *bi = ap_blob(a, 3, (uint64_t)n * 4), *bv = ap_blob(a, 4, (uint64_t)n * 4);
        if (!bi || !bv) {
            free(entry);
            ap_error(a, "specialization constants missing in the recorded call");
            return;
        }
        ids = dup_bytes(bi, (size_t)n * 4);
        values = dup_bytes(bv, (size_t)n * 4);
        if (!ids || !values) {
            free(entry);
            free(ids);
            free(values);
            ap_error(a, "out of memory");
            return;
        }
    }
    struct sm_spirv *s = sh->spirv;
    free(s->entry);
    free(s->spec_ids);
    free(s->spec_values);
    s->entry = entry;
    s->n_spec = n > 0 ? (uint32_t)n : 0;
    s->spec_ids = ids;
    s->spec_values = values;
    sh->compiled = true;
}

void sm_register_spirv(sm_apply_fn *t)
{
    t[GLR_CMD_glShaderBinary] = h_shader_binary;
    t[GLR_CMD_glSpecializeShader] = h_specialize_shader;
}
