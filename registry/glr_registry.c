/* Lookups over the generated tables: by name (the command table is sorted by name by the
 * generator), for names that come from outside the program (GetProcAddress, capture files, the
 * CLI) and for tests; and a command's value family. */
#include <string.h>
#include "registry/glr_registry.h"

int glr_cmd_find(const char *name)
{
    if (!name)
        return -1;
    int lo = 0, hi = GLR_CMD_COUNT - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int c = strcmp(name, glr_cmd_name((uint32_t)mid));
        if (c == 0)
            return mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

int glr_cmd_param_index(const struct glr_cmd_info *ci, const char *name)
{
    const struct glr_param_info *p = glr_cmd_params(ci);
    for (int i = 0; i < ci->nparams; i++)
        if (strcmp(glr_param_name(&p[i]), name) == 0)
            return i;
    return -1;
}

const struct glr_cmd_values *glr_cmd_values_of(uint32_t cmd)
{
    unsigned lo = 0, hi = glr_values_count;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (glr_values[mid].cmd == cmd)
            return &glr_values[mid];
        if (glr_values[mid].cmd < cmd)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
