/* Undeclared built-ins of a fragment or vertex lane, from the pipeline (see dbg_builtins.h). */
#include <string.h>
#include "gpu_model/pipeline/gm_pipeline.h"
#include "debugger/dbg_builtins.h"

/* SPIR-V BuiltIn values (spirv.h), as gm_program_find_builtin and sh_var.builtin name them. */
enum {
    BI_VERTEX_ID = 5, BI_INSTANCE_ID = 6, BI_PRIMITIVE_ID = 7, BI_FRAG_COORD = 15, BI_POINT_COORD = 16,
    BI_FRONT_FACING = 17, BI_SAMPLE_ID = 18, BI_SAMPLE_POSITION = 19, BI_HELPER_INVOCATION = 23,
    BI_VERTEX_INDEX = 42, BI_INSTANCE_INDEX = 43,
};

_Static_assert(GM_PIPE_WARP_LANES == SH_LANES, "the pipeline's fragment warps are the snapshot's lanes");

static bool declared(const gm_program *p, int builtin)
{
    int var, off;
    return gm_program_find_builtin(p, builtin, &var, &off) == 0;
}

/* One built-in of `comps` components of `scalar`, words[component * SH_LANES + lane]. */
static void add(sh_builder *b, int builtin, const char *name, sh_scalar scalar, int comps, const uint32_t *words)
{
    sh_type t = { .kind = comps == 1 ? SH_TYPE_SCALAR : SH_TYPE_VECTOR, .scalar = scalar, .rows = comps,
                  .columns = 1, .element = -1, .components = comps, .width = 32, .name = "" };
    int ti = sh_builder_add_type(b, &t);
    if (ti >= 0)
        sh_builder_add_var(b, &(sh_var){ .name = name, .klass = SH_VAR_BUILTIN, .type = ti, .builtin = builtin,
                                         .lanes = SH_LANES, .words = words });
}

static void fill(uint32_t *words, uint32_t v)
{
    for (int l = 0; l < SH_LANES; l++)
        words[l] = v;
}

static void fragment(sh_builder *b, const gm_program *p, const gm_pipe_fs_warp *fs, const gm_warp *w)
{
    uint32_t words[4 * SH_LANES];
    if (!declared(p, BI_FRAG_COORD)) {
        memcpy(words, fs->frag_coord, sizeof words);
        add(b, BI_FRAG_COORD, "gl_FragCoord", SH_SCALAR_FLOAT, 4, words);
    }
    if (!declared(p, BI_FRONT_FACING)) {
        fill(words, fs->front_facing ? 1u : 0u);
        add(b, BI_FRONT_FACING, "gl_FrontFacing", SH_SCALAR_BOOL, 1, words);
    }
    if (!declared(p, BI_PRIMITIVE_ID)) {
        fill(words, (uint32_t)fs->primitive_id);
        add(b, BI_PRIMITIVE_ID, "gl_PrimitiveID", SH_SCALAR_INT, 1, words);
    }
    /* gl_PointCoord is defined for point sprites only; elsewhere the pipeline keeps no value. */
    if (fs->point && !declared(p, BI_POINT_COORD)) {
        memcpy(words, fs->point_coord, 2 * SH_LANES * sizeof *words);
        add(b, BI_POINT_COORD, "gl_PointCoord", SH_SCALAR_FLOAT, 2, words);
    }
    /* The sample built-ins exist in per-sample passes only (a shader that does not read them is
     * shaded once per pixel unless GL_SAMPLE_SHADING asks otherwise). */
    if (fs->sample_id >= 0) {
        if (!declared(p, BI_SAMPLE_ID)) {
            fill(words, (uint32_t)fs->sample_id);
            add(b, BI_SAMPLE_ID, "gl_SampleID", SH_SCALAR_INT, 1, words);
        }
        if (!declared(p, BI_SAMPLE_POSITION)) {
            uint32_t x, y;
            memcpy(&x, &fs->sample_pos[0], 4);
            memcpy(&y, &fs->sample_pos[1], 4);
            fill(words, x);
            fill(words + SH_LANES, y);
            add(b, BI_SAMPLE_POSITION, "gl_SamplePosition", SH_SCALAR_FLOAT, 2, words);
        }
    }
    if (!declared(p, BI_HELPER_INVOCATION)) {
        gm_mask helper = gm_warp_helper_mask(w);
        for (int l = 0; l < SH_LANES; l++)
            words[l] = (helper >> l) & 1;
        add(b, BI_HELPER_INVOCATION, "gl_HelperInvocation", SH_SCALAR_BOOL, 1, words);
    }
}

void dbg_add_pipeline_builtins(sh_builder *b, const gm_program *p, const struct dbg_observe_info *info,
                               const gm_warp *w)
{
    if (info->stage == GM_STAGE_FRAGMENT && info->fs) {
        fragment(b, p, info->fs, w);
    } else if (info->stage == GM_STAGE_VERTEX && info->lane_x && info->lane_y) {
        /* The runner's per-lane vertex and instance ids (gmf_issue.lane_x / lane_y). */
        uint32_t words[SH_LANES];
        if (!declared(p, BI_VERTEX_ID) && !declared(p, BI_VERTEX_INDEX)) {
            memcpy(words, info->lane_x, sizeof words);
            add(b, BI_VERTEX_ID, "gl_VertexID", SH_SCALAR_INT, 1, words);
        }
        if (!declared(p, BI_INSTANCE_ID) && !declared(p, BI_INSTANCE_INDEX)) {
            memcpy(words, info->lane_y, sizeof words);
            add(b, BI_INSTANCE_ID, "gl_InstanceID", SH_SCALAR_INT, 1, words);
        }
    }
}
