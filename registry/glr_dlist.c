/* Which commands GL compiles into a display list (glr_registry.h), shared by the shim's list
 * recorder and the GPU model's lists compiled inside a captured frame. */
#include <stdbool.h>
#include "registry/glr_registry.h"

/* GL executes some commands at once even between glNewList and glEndList (OpenGL 4.6
 * compatibility profile, 21.4.1 "Commands Not Usable In Display Lists"): the class
 * GLR_CF_LIST_EXEC, generated from the registry (registry/gl_annotations.txt). */
bool glr_cmd_compiled_into_list(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && glr_cmds[cmd].api == GLR_API_GL && !(glr_cmds[cmd].flags & GLR_CF_LIST_EXEC);
}
