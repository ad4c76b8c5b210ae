/* Programs of SPIR-V shaders (GL_ARB_gl_spirv): the modules the application gave with
 * glShaderBinary, specialized as glSpecializeShader asked (gpu_model/spirv/gm_spirv_spec.c),
 * go straight to the decoder instead of the GLSL front end. Such a program has no names to go
 * by (OpName is optional and GL ignores it): its uniforms are set by location, its blocks, samplers
 * and atomic counters are bound by their Binding decorations, and its stages meet by location;
 * gmf_program.c asks gmf_prog.spirv where the GLSL path would go by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "spirv/gm_spirv_spec.h"

bool gmf_spirv_program(const struct sm_program *sp)
{
    for (uint32_t i = 0; sp && i < sp->n_linked; i++)
        if (sp->linked[i].spirv)
            return true;
    return false;
}

static uint32_t exec_model_of(uint32_t gl_type, gm_stage *stage)
{
    switch (gl_type) {
    case GL_VERTEX_SHADER: *stage = GM_STAGE_VERTEX; return 0;
    case GL_TESS_CONTROL_SHADER: *stage = GM_STAGE_TESS_CONTROL; return 1;
    case GL_TESS_EVALUATION_SHADER: *stage = GM_STAGE_TESS_EVALUATION; return 2;
    case GL_GEOMETRY_SHADER: *stage = GM_STAGE_GEOMETRY; return 3;
    case GL_FRAGMENT_SHADER: *stage = GM_STAGE_FRAGMENT; return 4;
    default: *stage = GM_STAGE_COMPUTE; return 5;
    }
}

static int log_error(gm_compile_result *cr, const char *fmt, const char *a, const char *b)
{
    char buf[600];
    snprintf(buf, sizeof buf, fmt, a, b);
    free(cr->log);
    cr->log = strdup(buf);
    cr->ok = 0;
    return -1;
}

int gmf_spirv_compile(const struct sm_program *sp, bool compute, gm_compile_result *cr)
{
    gm_compile_result_free(cr);
    memset(cr, 0, sizeof *cr);
    for (uint32_t i = 0; i < sp->n_linked; i++) {
        const struct sm_linked_shader *ls = &sp->linked[i];
        gm_stage stage;
        uint32_t model = exec_model_of(ls->type, &stage);
        if ((stage == GM_STAGE_COMPUTE) != compute)
            continue;
        const char *what = stage == GM_STAGE_VERTEX ? "vertex" : stage == GM_STAGE_FRAGMENT ? "fragment"
                           : stage == GM_STAGE_GEOMETRY ? "geometry"
                           : stage == GM_STAGE_TESS_CONTROL ? "tessellation control"
                           : stage == GM_STAGE_TESS_EVALUATION ? "tessellation evaluation" : "compute";
        /* GL links SPIR-V shaders only with SPIR-V shaders (GL 4.6 section 7.3). */
        if (!ls->spirv)
            return log_error(cr, "%s shader: GLSL source linked with SPIR-V shaders%s", what, "");
        if (!ls->spirv->entry)
            return log_error(cr, "%s shader: SPIR-V binary never specialized (glSpecializeShader)%s",
                             what, "");
        if (cr->shader_count >= GM_STAGE_COUNT)
            return log_error(cr, "%s shader: more SPIR-V shaders than stages%s", what, "");
        char err[256] = "";
        size_t words = 0;
        const struct sm_spirv *s = ls->spirv;
        uint32_t *w = gm_spirv_specialize(s->binary, s->size, s->entry, model, s->spec_ids,
                                          s->spec_values, s->n_spec, &words, err, sizeof err);
        if (!w)
            return log_error(cr, "%s shader: %s", what, err);
        gm_compiled_shader *cs = &cr->shaders[cr->shader_count++];
        cs->stage = stage;
        cs->spirv = w;
        cs->word_count = words;
    }
    cr->log = strdup("");
    cr->ok = cr->log != NULL;
    return cr->ok ? 0 : -1;
}

/* Sets, in one stage, the uniform element at `loc` from the state model's value. */
static void set_at(gm_program *gp, const struct sm_uniform *su, gmf_event *ev)
{
    for (int i = 0; gp && i < gm_program_uniform_count(gp); i++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, i);
        if (ui->location < 0 || su->location < ui->location ||
            su->location >= ui->location + ui->array_size)
            continue;
        int e = su->location - ui->location;
        if (ui->is_opaque) {
            int32_t unit;
            memcpy(&unit, su->data, 4);
            gm_program_set_uniform(gp, i, e, 1, &unit);
            return;
        }
        uint32_t words[32];
        if (!gmf_uniform_words(gp, ui->type, su, words, 32)) {
            gmf_note(ev, "uniform location %d: value of another shape", su->location);
            return;
        }
        gm_program_set_uniform(gp, i, e, 1, words);
        return;
    }
}

void gmf_spirv_upload_uniforms(const struct sm_program *sp, gmf_prog *p, gmf_event *ev)
{
    gm_program *st[] = { p->vs, p->fs, p->gs, p->tcs, p->tes, p->cs };
    /* A location no stage declares is a GL error: the value goes nowhere in the driver either. */
    for (uint32_t i = 0; sp && i < sp->n_uniforms; i++)
        for (size_t s = 0; s < sizeof st / sizeof *st; s++)
            set_at(st[s], &sp->uniforms[i], ev);
}
