/* ARB assembly program objects and state (GL_ARB_vertex_program / GL_ARB_fragment_program, and
 * the EXT_gpu_program_parameters / EXT_direct_state_access forms): names, binding per target,
 * the program string, environment parameters (per context and target) and local parameters
 * (per program object). The enables (GL_VERTEX_PROGRAM_ARB, GL_FRAGMENT_PROGRAM_ARB,
 * GL_VERTEX_PROGRAM_POINT_SIZE_ARB, GL_VERTEX_PROGRAM_TWO_SIDE_ARB) are ordinary caps. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"

int sm_arb_target_index(uint32_t target)
{
    return target == GL_VERTEX_PROGRAM_ARB ? 0 : target == GL_FRAGMENT_PROGRAM_ARB ? 1 : -1;
}

const struct sm_arb_program *sm_get_arb_program(const struct sm_context *c, uint32_t name)
{
    return c && name ? sm_map_get(&c->share->arb_programs, name) : NULL;
}

const struct sm_arb_program *sm_bound_arb_program(const struct sm_context *c, int t)
{
    if (!c || t < 0 || t > 1)
        return NULL;
    uint32_t name = c->st.arb_program[t];
    return sm_get_arb_program(c, name ? name : SM_ARB_DEFAULT_NAME(t));
}

size_t sm_arb_program_names(const struct sm_context *c, uint32_t *names, size_t max)
{
    size_t n = 0;
    uint32_t *keys = c ? sm_map_sorted_keys(&c->share->arb_programs, &n) : NULL;
    for (size_t i = 0; keys && i < n && i < max; i++)
        names[i] = keys[i];
    free(keys);
    return keys ? n : 0;
}

static struct sm_arb_program *get_or_create(struct sm_ap *a, uint32_t name)
{
    if (!name)
        return NULL;
    struct sm_arb_program *p = sm_map_get(&a->c->share->arb_programs, name);
    if (p)
        return p;
    p = calloc(1, sizeof *p);
    if (p)
        p->name = name;
    if (!p || !sm_map_put(&a->c->share->arb_programs, name, p)) {
        free(p);
        ap_error(a, "out of memory");
        return NULL;
    }
    return p;
}

static int target_arg(struct sm_ap *a, int i)
{
    int t = sm_arb_target_index(ap_u(a, i));
    if (t < 0)
        ap_error(a, "invalid program target");
    return t;
}

/* The program bound to the target of argument i (created on first use; with 0 bound, GL's
 * default program object of the target, kept as SM_ARB_DEFAULT_NAME). */
static struct sm_arb_program *bound(struct sm_ap *a, int i)
{
    int t = target_arg(a, i);
    if (t < 0)
        return NULL;
    uint32_t name = a->c->st.arb_program[t];
    struct sm_arb_program *p = get_or_create(a, name ? name : SM_ARB_DEFAULT_NAME(t));
    if (p)
        p->target = ap_u(a, i);
    return p;
}

static void h_gen(struct sm_ap *a)
{
    int32_t n = ap_i(a, 0);
    const uint32_t *names = ap_names(a, 1, n);
    for (int32_t i = 0; names && i < n; i++)
        get_or_create(a, names[i]);
}

static void h_delete(struct sm_ap *a)
{
    int32_t n = ap_i(a, 0);
    const uint32_t *names = ap_names(a, 1, n);
    for (int32_t i = 0; names && i < n; i++) {
        if (!names[i])
            continue;
        sm_arb_program_free(sm_map_remove(&a->c->share->arb_programs, names[i]));
        /* deleting a bound program binds 0 (in this context; others keep the name) */
        for (int t = 0; t < 2; t++)
            if (a->c->st.arb_program[t] == names[i])
                a->c->st.arb_program[t] = 0;
    }
}

static void h_bind(struct sm_ap *a)
{
    int t = target_arg(a, 0);
    uint32_t name = ap_u(a, 1);
    if (t < 0)
        return;
    struct sm_arb_program *p = name ? get_or_create(a, name) : NULL;
    if (p)
        p->target = ap_u(a, 0);
    a->c->st.arb_program[t] = name;
}

static void set_string(struct sm_ap *a, struct sm_arb_program *p, int len_arg, int str_arg)
{
    int32_t len = ap_i(a, len_arg);
    const char *s = len > 0 ? ap_bytes(a, str_arg, (uint64_t)len) : NULL;
    if (len < 0 || (len > 0 && !s)) {
        ap_error(a, "program string missing from the recorded call");
        return;
    }
    char *copy = malloc((size_t)len + 1);
    if (!copy) {
        ap_error(a, "out of memory");
        return;
    }
    if (len)
        memcpy(copy, s, (size_t)len);
    copy[len] = 0;
    free(p->source);
    p->source = copy;
    p->length = (uint32_t)len;
    p->generation++;
}

/* glProgramStringARB(target, format, len, string) */
static void h_string(struct sm_ap *a)
{
    struct sm_arb_program *p = bound(a, 0);
    if (p)
        set_string(a, p, 2, 3);
}

/* glNamedProgramStringEXT(program, target, format, len, string) */
static void h_named_string(struct sm_ap *a)
{
    struct sm_arb_program *p = get_or_create(a, ap_u(a, 0));
    if (p && sm_arb_target_index(ap_u(a, 1)) >= 0) {
        p->target = ap_u(a, 1);
        set_string(a, p, 3, 4);
    }
}

static bool grow_local(struct sm_ap *a, struct sm_arb_program *p, uint32_t n)
{
    if (n <= p->n_local)
        return true;
    float (*l)[4] = realloc(p->local, (size_t)n * sizeof *l);
    if (!l) {
        ap_error(a, "out of memory");
        return false;
    }
    memset(l + p->n_local, 0, (size_t)(n - p->n_local) * sizeof *l);
    p->local = l;
    p->n_local = n;
    return true;
}

/* Reads `count` vec4s of the call's values starting at argument `first`: four scalar arguments
 * (count 1), or a float / double array blob. */
static bool values(struct sm_ap *a, int first, bool is_double, bool vector, uint32_t count, float (*out)[4])
{
    if (!vector) {
        for (int c = 0; c < 4; c++)
            out[0][c] = is_double ? (float)ap_d(a, first + c) : ap_f(a, first + c);
        return true;
    }
    uint64_t need = (uint64_t)count * 4 * (is_double ? 8 : 4);
    const void *v = ap_blob(a, first, need);
    if (!v) {
        ap_error(a, "parameter values missing from the recorded call");
        return false;
    }
    for (uint32_t i = 0; i < count; i++)
        for (int c = 0; c < 4; c++)
            out[i][c] = is_double ? (float)((const double *)v)[i * 4 + c] : ((const float *)v)[i * 4 + c];
    return true;
}

/* Command shape: Env or Local, one vector or Parameters4fvEXT (count), f or d, scalar arguments
 * or a pointer, DSA (program name first). Generated from the registry (glr_cmd_info.form,
 * registry/gl_annotations.txt), no name compared here. */
struct shape { bool env, multi, is_double, vector, named; };

static struct shape shape_of(uint32_t cmd)
{
    unsigned f = glr_cmds[cmd].form;
    struct shape s = { 0 };
    s.named = f & GLR_FORM_NAMED_FIRST;
    s.env = f & GLR_FORM_ENV;
    s.multi = f & GLR_FORM_PARAMETERS4;
    s.is_double = f & GLR_FORM_DOUBLE4;
    s.vector = f & GLR_FORM_VECTOR4;
    return s;
}

static void h_param(struct sm_ap *a)
{
    struct shape s = shape_of(a->cmd);
    int arg = 0;
    struct sm_arb_program *p = NULL;
    if (s.named) {
        p = get_or_create(a, ap_u(a, arg++));
        if (!p)
            return;
    }
    int t = target_arg(a, arg);
    if (t < 0)
        return;
    if (!s.named && !s.env && !(p = bound(a, arg)))
        return;
    arg++;
    uint32_t index = ap_u(a, arg++);
    uint32_t count = 1;
    if (s.multi) {
        int32_t c = ap_i(a, arg++);
        if (c < 0) {
            ap_error(a, "negative count");
            return;
        }
        count = (uint32_t)c;
    }
    uint32_t limit = s.env ? SM_ARB_MAX_ENV : SM_ARB_MAX_LOCAL;
    if (index >= limit || count > limit - index) {
        ap_error(a, "parameter index out of range");
        return;
    }
    if (!count)
        return;
    float (*v)[4] = malloc((size_t)count * sizeof *v);
    if (!v) {
        ap_error(a, "out of memory");
        return;
    }
    if (values(a, arg, s.is_double, s.vector || s.multi, count, v)) {
        if (s.env) {
            memcpy(a->c->st.arb_env[t][index], v, (size_t)count * sizeof *v);
        } else if (grow_local(a, p, index + count)) {
            p->target = ap_u(a, s.named ? 1 : 0);
            memcpy(p->local[index], v, (size_t)count * sizeof *v);
        }
    }
    free(v);
}

void sm_register_arb_program(sm_apply_fn *t)
{
    t[GLR_CMD_glGenProgramsARB] = h_gen;
    t[GLR_CMD_glDeleteProgramsARB] = h_delete;
    t[GLR_CMD_glBindProgramARB] = h_bind;
    t[GLR_CMD_glProgramStringARB] = h_string;
    t[GLR_CMD_glNamedProgramStringEXT] = h_named_string;
    static const uint32_t params[] = {
        GLR_CMD_glProgramEnvParameter4fARB, GLR_CMD_glProgramEnvParameter4fvARB,
        GLR_CMD_glProgramEnvParameter4dARB, GLR_CMD_glProgramEnvParameter4dvARB,
        GLR_CMD_glProgramEnvParameters4fvEXT,
        GLR_CMD_glProgramLocalParameter4fARB, GLR_CMD_glProgramLocalParameter4fvARB,
        GLR_CMD_glProgramLocalParameter4dARB, GLR_CMD_glProgramLocalParameter4dvARB,
        GLR_CMD_glProgramLocalParameters4fvEXT,
        GLR_CMD_glNamedProgramLocalParameter4fEXT, GLR_CMD_glNamedProgramLocalParameter4fvEXT,
        GLR_CMD_glNamedProgramLocalParameter4dEXT, GLR_CMD_glNamedProgramLocalParameter4dvEXT,
        GLR_CMD_glNamedProgramLocalParameters4fvEXT,
    };
    for (size_t i = 0; i < sizeof params / sizeof *params; i++)
        t[params[i]] = h_param;
}
