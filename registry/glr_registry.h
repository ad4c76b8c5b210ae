/* glreplay command registry: one entry per GL/GLX/EGL command of the Khronos registry.
 *
 * The tables are generated at build time from gl.xml, glx.xml and egl.xml (gen_registry.py);
 * this header declares their shape. Used by the shim (wrappers, GetProcAddress), the recorder
 * (argument kinds and lengths) and the state model (command names).
 *
 * The tables hold no pointers: strings are offsets into one blob (glr_strings, read with
 * glr_str), a command's parameters a range of glr_params (glr_cmd_params). So they are plain
 * .rodata, shared between processes, that the dynamic loader neither relocates nor dirties when
 * the shim is preloaded (docs/BENCHMARKS.md, "Exec overhead of the preloaded shim").
 */
#ifndef GLR_REGISTRY_H
#define GLR_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "glr_commands.h"

/* Which registry file a command comes from. */
enum glr_api { GLR_API_GL = 1, GLR_API_GLX = 2, GLR_API_EGL = 3 };

/* How a value of a parameter's C type is stored in a recorded call (one 64-bit slot). */
enum glr_kind {
    GLR_KIND_VOID = 0,
    GLR_KIND_I32,   /* signed integers up to 32 bits, sign-extended */
    GLR_KIND_U32,   /* unsigned integers up to 32 bits, enums, booleans, bitfields */
    GLR_KIND_I64,
    GLR_KIND_U64,   /* also X11 XIDs */
    GLR_KIND_F32,   /* stored as its bit pattern in the low 32 bits */
    GLR_KIND_F64,
    GLR_KIND_PTR,   /* pointers and opaque handles (GLsync, EGLDisplay, function pointers) */
};

/* Every string of the tables, NUL-terminated, back to back; offset 0 is "" (no string). */
extern const char glr_strings[];

static inline const char *glr_str(uint32_t off)
{
    return glr_strings + off;
}

struct glr_param_info {
    uint32_t name;       /* offsets into glr_strings */
    uint32_t ctype;      /* C type text from the registry */
    uint32_t len;        /* registry "len" attribute (e.g. "count*4", "COMPSIZE(pname)"); 0: none */
    uint8_t kind;        /* enum glr_kind */
    uint8_t is_pointer;
    uint8_t is_const;    /* pointer to const data: the command reads client memory */
    uint8_t obj_class;   /* enum glr_obj_class: the kind of object name this holds (or points to) */
    uint8_t role;        /* enum glr_role: what the parameter is, GLR_ROLE_NONE for the rest */
    uint8_t flags;       /* GLR_PF_* */
};

struct glr_cmd_info {
    uint32_t name;       /* offset into glr_strings */
    uint32_t ret_ctype;  /* offset into glr_strings */
    uint32_t params;     /* index of the first parameter in glr_params */
    int32_t alias;       /* command this one aliases, or -1 */
    uint8_t api;         /* enum glr_api */
    uint8_t ret_kind;    /* enum glr_kind */
    uint8_t nparams;
    uint8_t ret_class;   /* enum glr_obj_class of the returned name (glCreateProgram, glFenceSync) */
    uint32_t flags;      /* GLR_CF_* command classes */
    uint8_t writes;      /* enum glr_writes */
    uint8_t info;        /* enum glr_info_class: `glreplay info`'s counter */
    uint8_t readback;    /* enum glr_readback_call: the call replay --verify repeats it with */
    uint8_t gpu_copy;    /* enum glr_gpu_copy_kind: what the frame model's copies run it as */
    uint16_t form;       /* GLR_FORM_*: its form within its family (sub-image, multisample, ...) */
    int16_t unsuffixed;  /* the command named like it less its vendor suffix, or -1 */
};

/* A command of a value family (registry/gl_annotations.txt "family" lines): the shape of the
 * values it sets, for the readers that handle a family with one function. */
struct glr_cmd_values {
    uint16_t cmd;        /* enum glr_cmd_id */
    uint8_t family;      /* enum glr_value_family */
    uint8_t cols, rows;  /* of one value: 1 x 4 for a vec4, 2 x 3 for a mat2x3 */
    uint8_t type;        /* enum glr_value_type: as the call passes them */
    uint8_t store;       /* enum glr_value_type: as GL keeps them */
    uint8_t flags;       /* GLR_VF_* */
};

/* Every command with a value family, in command order. */
extern const struct glr_cmd_values glr_values[];
extern const unsigned glr_values_count;

/* The value family of a command, or NULL (a binary search of glr_values). */
const struct glr_cmd_values *glr_cmd_values_of(uint32_t cmd);

extern const char glr_obj_class_names[GLR_OBJ_COUNT][32];
extern const char glr_role_names[GLR_ROLE_COUNT_][32];   /* for tests and messages */

extern const struct glr_param_info glr_params[];
extern const struct glr_cmd_info glr_cmds[GLR_CMD_COUNT];

/* A command's name ("glDrawArrays"); cmd must be below GLR_CMD_COUNT. */
static inline const char *glr_cmd_name(uint32_t cmd)
{
    return glr_str(glr_cmds[cmd].name);
}

/* A command's parameters, nparams of them. */
static inline const struct glr_param_info *glr_cmd_params(const struct glr_cmd_info *ci)
{
    return &glr_params[ci->params];
}

static inline const char *glr_param_name(const struct glr_param_info *p)
{
    return glr_str(p->name);
}

/* The registry len of a parameter, or NULL when it has none. */
static inline const char *glr_param_len(const struct glr_param_info *p)
{
    return p->len ? glr_str(p->len) : NULL;
}

/* Index of the command's parameter with that role, or -1 (no name compared). */
static inline int glr_cmd_param_role(const struct glr_cmd_info *ci, enum glr_role role)
{
    const struct glr_param_info *p = glr_cmd_params(ci);
    for (int i = 0; i < ci->nparams; i++)
        if (p[i].role == role)
            return i;
    return -1;
}

/* Index of a command by exact name, or -1. Names are sorted, so this is a binary search. For
 * names that come from outside (GetProcAddress, capture files' unsized lists, the CLI). */
int glr_cmd_find(const char *name);

/* Index of a command's parameter by its registry name ("count", "indices"), or -1. Tests and
 * tools only: run-time code asks by role (glr_cmd_param_role). */
int glr_cmd_param_index(const struct glr_cmd_info *ci, const char *name);

/* Whether GL compiles the command into a display list open with glNewList (false: GL executes
 * it at once, OpenGL 4.6 compatibility 21.4.1; also false for non-GL commands). */
bool glr_cmd_compiled_into_list(uint32_t cmd);

#endif
