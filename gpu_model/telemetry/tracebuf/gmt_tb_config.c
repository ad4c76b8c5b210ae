/* Configuration of the trace buffers (type list parsing), record sizes and the record order
 * key shared by the merge, the reference trace and the reader. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_internal.h"

/* The layouts are part of the file format: keep them hole-free and 8-byte multiples. */
_Static_assert(sizeof(gmt_tb_key) == 16, "key layout");
_Static_assert(sizeof(gmt_tb_flow) == 48, "flow record layout");
_Static_assert(sizeof(gmt_tb_mem) == 176, "mem record layout");
_Static_assert(sizeof(gmt_tb_tex) == 352, "tex record layout");
_Static_assert(sizeof(gmt_tb_reg) == 168, "reg record layout");

static const char *const type_names[GMT_TB_TYPE_COUNT] = {"flow", "mem", "tex", "reg"};

const char *gmt_tb_type_name(gmt_tb_type type)
{
    return (unsigned)type < GMT_TB_TYPE_COUNT ? type_names[type] : "unknown";
}

size_t gmt_tb_record_size(gmt_tb_type type)
{
    switch (type) {
    case GMT_TB_FLOW: return sizeof(gmt_tb_flow);
    case GMT_TB_MEM: return sizeof(gmt_tb_mem);
    case GMT_TB_TEX: return sizeof(gmt_tb_tex);
    case GMT_TB_REG: return sizeof(gmt_tb_reg);
    default: return 0;
    }
}

/* A GLSL identifier (the variable table names variables by their declared names). */
static int valid_var_name(const char *s, size_t n)
{
    if (n == 0 || n >= GMT_TB_VAR_NAME || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

int gmt_tracebuf_parse_types(const char *spec, gmt_tracebuf_config *cfg, char *err,
                             size_t err_size)
{
    if (!spec || !cfg) {
        snprintf(err, err_size, "trace buffers: no type list given");
        return -1;
    }
    uint32_t types = 0;
    int nvars = 0;
    char vars[GMT_TB_MAX_VARS][GMT_TB_VAR_NAME];
    const char *p = spec;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0) {
            snprintf(err, err_size, "trace buffers: empty item in '%s' (expected flow,mem,tex,reg:NAME)",
                     spec);
            return -1;
        }
        if ((n == 4 && !strncmp(p, "flow", 4)) || (n == 2 && !strncmp(p, "bb", 2)))
            types |= GMT_TB_BIT(GMT_TB_FLOW);
        else if (n == 3 && !strncmp(p, "mem", 3))
            types |= GMT_TB_BIT(GMT_TB_MEM);
        else if (n == 3 && !strncmp(p, "tex", 3))
            types |= GMT_TB_BIT(GMT_TB_TEX);
        else if (n == 3 && !strncmp(p, "all", 3))
            types |= GMT_TB_BIT(GMT_TB_FLOW) | GMT_TB_BIT(GMT_TB_MEM) | GMT_TB_BIT(GMT_TB_TEX);
        else if (n >= 4 && !strncmp(p, "reg:", 4)) {
            if (!valid_var_name(p + 4, n - 4)) {
                snprintf(err, err_size, "trace buffers: '%.*s' is not a variable name (reg:NAME)",
                         (int)(n - 4), p + 4);
                return -1;
            }
            if (nvars == GMT_TB_MAX_VARS) {
                snprintf(err, err_size, "trace buffers: more than %d reg: variables", GMT_TB_MAX_VARS);
                return -1;
            }
            memcpy(vars[nvars], p + 4, n - 4);
            vars[nvars][n - 4] = 0;
            nvars++;
            types |= GMT_TB_BIT(GMT_TB_REG);
        } else if (n == 3 && !strncmp(p, "reg", 3)) {
            snprintf(err, err_size, "trace buffers: 'reg' needs a variable: reg:NAME");
            return -1;
        } else {
            snprintf(err, err_size, "trace buffers: unknown type '%.*s' (expected flow, mem, tex, "
                     "reg:NAME or all)", (int)n, p);
            return -1;
        }
        if (!e)
            break;
        p = e + 1;
    }
    cfg->types = types;
    cfg->var_count = nvars;
    memcpy(cfg->vars, vars, sizeof vars);
    return 0;
}

void gmt_tb_fail(gmt_tracebuf *t, const char *fmt, ...)
{
    if (t->error[0])
        return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->error, sizeof t->error, fmt, ap);
    va_end(ap);
}

int gmt_tb_key_cmp(const gmt_tb_key *a, const gmt_tb_key *b)
{
    if (a->warp_seq != b->warp_seq)
        return a->warp_seq < b->warp_seq ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
    return gmt_tb_key_cmp(*(const gmt_tb_key *const *)a, *(const gmt_tb_key *const *)b);
}

void gmt_tb_sort_keys(const gmt_tb_key **v, size_t n)
{
    /* Keys are unique (one per-warp number per record), so an unstable sort is exact. */
    qsort(v, n, sizeof *v, cmp_ptr);
}
