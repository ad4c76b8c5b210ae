/* glreplay command registry: one entry per GL/GLX/EGL command of the Khronos registry.
 *
 * The tables are generated at build time from gl.xml, glx.xml and egl.xml (gen_registry.py);
 * this header declares their shape. Used by the shim (wrappers, GetProcAddress), the recorder
 * (argument kinds and lengths) and the state model (command names).
 */
#ifndef GLR_REGISTRY_H
#define GLR_REGISTRY_H

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

struct glr_param_info {
    const char *name;
    const char *ctype;   /* C type text from the registry */
    const char *len;     /* registry "len" attribute (e.g. "count*4", "COMPSIZE(pname)") or NULL */
    uint8_t kind;        /* enum glr_kind */
    uint8_t is_pointer;
    uint8_t is_const;    /* pointer to const data: the command reads client memory */
    uint8_t obj_class;   /* enum glr_obj_class: the kind of object name this holds (or points to) */
};

struct glr_cmd_info {
    const char *name;
    uint8_t api;         /* enum glr_api */
    const char *ret_ctype;
    uint8_t ret_kind;    /* enum glr_kind */
    uint8_t nparams;
    const struct glr_param_info *params;
    int32_t alias;       /* command this one aliases, or -1 */
    uint8_t ret_class;   /* enum glr_obj_class of the returned name (glCreateProgram, glFenceSync) */
};

extern const char *const glr_obj_class_names[GLR_OBJ_COUNT];

extern const struct glr_cmd_info glr_cmds[GLR_CMD_COUNT];

/* Index of a command by exact name, or -1. Names are sorted, so this is a binary search. */
int glr_cmd_find(const char *name);

/* Index of a command's parameter by its registry name ("count", "indices"), or -1. */
int glr_cmd_param_index(const struct glr_cmd_info *ci, const char *name);

/* Whether GL compiles the command into a display list open with glNewList (false: GL executes
 * it at once, OpenGL 4.6 compatibility 21.4.1; also false for non-GL commands). */
#include <stdbool.h>
bool glr_cmd_compiled_into_list(uint32_t cmd);

#endif
