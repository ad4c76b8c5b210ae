/* The sample count of each context's window (default framebuffer), from the capture's METADATA
 * contexts ("samples", written by the shim since multisampled windows are modelled; absent: 1).
 * gmf_images.c allocates the default framebuffer with it; reads resolve (gmf_runner.c). */
#include <stdlib.h>
#include <cJSON.h>
#include "gmf_internal.h"

int gmf_window_samples_parse(gmf_runner *r, const char *metadata_json)
{
    r->win = NULL;
    r->n_win = 0;
    if (!metadata_json)
        return 0;
    cJSON *root = cJSON_Parse(metadata_json);
    const cJSON *ctxs = root ? cJSON_GetObjectItemCaseSensitive(root, "contexts") : NULL;
    int n = cJSON_IsArray(ctxs) ? cJSON_GetArraySize(ctxs) : 0;
    if (n > 0 && !(r->win = calloc((size_t)n, sizeof *r->win))) {
        cJSON_Delete(root);
        return -1;
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, ctxs) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(c, "id");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(c, "samples");
        if (cJSON_IsNumber(id) && cJSON_IsNumber(s) && s->valuedouble > 1 && s->valuedouble <= 64) {
            r->win[r->n_win].ctx_id = (uint32_t)id->valuedouble;
            r->win[r->n_win].samples = (int)s->valuedouble;
            r->n_win++;
        }
    }
    cJSON_Delete(root);
    return 0;
}

int gmf_window_samples(const gmf_runner *r, uint32_t ctx_id)
{
    for (int i = 0; i < r->n_win; i++)
        if (r->win[i].ctx_id == ctx_id)
            return r->win[i].samples;
    return 1;
}
