/* The texture-size cache of the environment wrapper: texture line computation (tm_tex_lines)
 * asks a level's size for every request, the caller answers through the sampler callback. One
 * function for the model's per-batch cache (gm_timing.c) and gm_timing_pre.c's per-run one; a
 * leaf, so neither calls the other. */
#include "gm_timing_ahead.h"

#include <stdlib.h>
#include <string.h>

int tm_size_cached(tm_texsize **sizes, int *n, int *cap, const gm_env *env, gm_sample_request *q,
                   gm_texel_out *qout, uint32_t unit, int level, int32_t size[3])
{
    for (int i = 0; i < *n; i++)
        if ((*sizes)[i].unit == unit && (*sizes)[i].level == level) {
            memcpy(size, (*sizes)[i].size, sizeof (*sizes)[i].size);
            return 0;
        }
    if (!env->sample)
        return -1;
    memset(q, 0, sizeof *q);
    q->op = level < 0 ? GM_TEX_QUERY_LEVELS : GM_TEX_QUERY_SIZE;
    q->mask = 1;
    q->unit = unit;
    q->has_lod = 1;
    q->lod[0] = (float)(level < 0 ? 0 : level);
    memset(qout, 0, sizeof *qout);
    env->sample(env->ctx, q, qout);
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 8;
        tm_texsize *ns = realloc(*sizes, (size_t)c * sizeof *ns);
        if (!ns)
            return -1;
        *sizes = ns;
        *cap = c;
    }
    tm_texsize *e = &(*sizes)[(*n)++];
    e->unit = unit;
    e->level = level;
    for (int k = 0; k < 3; k++)
        e->size[k] = qout->i[k][0];
    memcpy(size, e->size, sizeof e->size);
    return 0;
}
