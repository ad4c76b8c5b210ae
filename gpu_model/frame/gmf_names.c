/* The names the program asked the driver for (uniform and attribute locations, block indices...),
 * looked up by the stages and the uniform upload: a leaf under the runner that records them. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

const gmf_name_rec *gmf_find_name(const gmf_runner *r, uint32_t share, uint32_t program,
                                  uint32_t kind, const char *name)
{
    for (int i = r->n_names - 1; i >= 0; i--) {
        const gmf_name_rec *n = &r->names[i];
        if (n->share == share && n->program == program && n->kind == kind && !strcmp(n->name, name))
            return n;
    }
    return NULL;
}
