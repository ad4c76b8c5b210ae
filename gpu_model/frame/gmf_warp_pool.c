/* The warps a program keeps per stage (vertex, fragment, compute), created on first use and reused
 * across draws: a leaf under the shading, the threads and the timing model that take them. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

gm_warp *gmf_prog_pool_warp(gmf_prog *p, int stage, int k)
{
    gm_program *gp = stage ? p->fs : p->vs;
    if (!gp || k < 0)
        return NULL;
    if (k >= p->n_pool[stage]) {
        int n = k + 1 > 2 * p->n_pool[stage] ? k + 1 : 2 * p->n_pool[stage];
        gm_warp **np = realloc(p->pool[stage], (size_t)n * sizeof *np);
        if (!np)
            return NULL;
        memset(np + p->n_pool[stage], 0, (size_t)(n - p->n_pool[stage]) * sizeof *np);
        p->pool[stage] = np;
        p->n_pool[stage] = n;
    }
    /* ids: even for vertex warps, odd for fragment warps (slot 0 as the executor's) */
    if (!p->pool[stage][k])
        p->pool[stage][k] = gm_warp_create(gp, 2 * k + stage);
    return p->pool[stage][k];
}

gm_warp *gmf_prog_cs_warp(gmf_prog *p, int k)
{
    if (!p->cs || k < 0)
        return NULL;
    if (k >= p->n_cs_pool) {
        int n = k + 1 > 2 * p->n_cs_pool ? k + 1 : 2 * p->n_cs_pool;
        gm_warp **np = realloc(p->cs_pool, (size_t)n * sizeof *np);
        if (!np)
            return NULL;
        memset(np + p->n_cs_pool, 0, (size_t)(n - p->n_cs_pool) * sizeof *np);
        p->cs_pool = np;
        p->n_cs_pool = n;
        p->cs_pool[0] = p->vw;
    }
    if (!p->cs_pool[k])
        p->cs_pool[k] = gm_warp_create(p->cs, k);
    return p->cs_pool[k];
}
