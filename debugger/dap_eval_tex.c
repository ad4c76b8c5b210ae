/* Sampler type names <-> image descriptions (see dap_eval_tex.h). */
#include <stdio.h>
#include <string.h>
#include "debugger/dap_eval_tex.h"

static const struct { gm_tex_dim dim; const char *name; int dims; } dims[] = {
    { GM_DIM_1D, "1D", 1 }, { GM_DIM_2D, "2D", 2 }, { GM_DIM_3D, "3D", 3 }, { GM_DIM_CUBE, "Cube", 3 },
    { GM_DIM_RECT, "2DRect", 2 }, { GM_DIM_BUFFER, "Buffer", 1 },
};

bool dap_sampler_glsl_name(int dim, int arrayed, int depth, int ms, int scalar, char *buf, size_t size)
{
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if ((int)dims[i].dim == dim) {
            snprintf(buf, size, "%ssampler%s%s%s%s", scalar == 1 ? "i" : scalar == 2 ? "u" : "", dims[i].name,
                     ms ? "MS" : "", arrayed ? "Array" : "", depth == 1 ? "Shadow" : "");
            return true;
        }
    snprintf(buf, size, "sampler");
    return false;
}

bool dap_sampler_kind_parse(const char *name, struct dap_sampler_kind *k)
{
    memset(k, 0, sizeof *k);
    k->result = GM_TEX_RESULT_FLOAT;
    if (*name == 'i' || *name == 'u') {
        k->result = *name == 'i' ? GM_TEX_RESULT_INT : GM_TEX_RESULT_UINT;
        name++;
    }
    if (strncmp(name, "sampler", 7))
        return false;
    name += 7;
    /* Longest dimension name first: "2DRect" before "2D". */
    int best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        size_t n = strlen(dims[i].name);
        if (!strncmp(name, dims[i].name, n) && n > best_len) {
            best = (int)i;
            best_len = n;
        }
    }
    if (best < 0)
        return false;
    name += best_len;
    k->dim = dims[best].dim;
    if (!strncmp(name, "MS", 2)) {
        k->ms = 1;
        name += 2;
    }
    if (!strncmp(name, "Array", 5)) {
        k->arrayed = 1;
        name += 5;
    }
    if (!strcmp(name, "Shadow"))
        k->shadow = 1;
    else if (*name)
        return false;
    k->coords = dims[best].dims + k->arrayed;
    k->size_comps = (k->dim == GM_DIM_CUBE ? 2 : dims[best].dims) + k->arrayed;
    return true;
}
