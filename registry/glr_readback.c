/* Sizes of what read-backs write (glr_readback.h): one rule for the recorder (what it hashes) and
 * the replayer (what it reads again, and the memory it reads into). */
#include <string.h>
#include "registry/glr_registry.h"
#include "registry/glr_readback.h"
#include "glr_gl_enums.h"   /* generated from gl.xml (gen_enums.py) */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int64_t glr_readback_size(const struct glr_readback_env *e, int cmd, const uint64_t *a)
{
    if (cmd < 0 || cmd >= GLR_CMD_COUNT)
        return -1;
    const char *n = glr_cmds[cmd].name;
    int64_t size = -1, buf_size = -1;
    if (strcmp(n, "glReadPixels") == 0 || starts(n, "glReadnPixels")) {
        size = glr_pack_size(e->env, (uint32_t)a[4], (uint32_t)a[5], (int32_t)a[2], (int32_t)a[3], 1, 2);
        if (starts(n, "glReadnPixels"))
            buf_size = (int32_t)a[6];
    } else if (strcmp(n, "glGetTexImage") == 0 || strcmp(n, "glGetnTexImage") == 0 ||
               strcmp(n, "glGetnTexImageARB") == 0) {
        int64_t d[3];
        if (!e->tex_dims || !e->tex_dims(e->user, (uint32_t)a[0], (int32_t)a[1], d))
            return -1;
        uint32_t t = (uint32_t)a[0];
        bool deep = t == GL_TEXTURE_3D || t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_CUBE_MAP_ARRAY;   /* a depth */
        size = glr_pack_size(e->env, (uint32_t)a[2], (uint32_t)a[3], d[0], d[1] > 0 ? d[1] : 1,
                             deep && d[2] > 0 ? d[2] : 1, deep ? 3 : 2);
        if (strcmp(n, "glGetTexImage") != 0)
            buf_size = (int32_t)a[4];
    } else if (starts(n, "glGetBufferSubData") || starts(n, "glGetNamedBufferSubData")) {
        size = (int64_t)a[2];
    } else if (starts(n, "glGetQueryObjecti64v") || starts(n, "glGetQueryObjectui64v")) {
        size = 8;
    } else if (starts(n, "glGetQueryObjectiv") || starts(n, "glGetQueryObjectuiv")) {
        size = 4;
    }
    if (size < 0 || (buf_size >= 0 && size > buf_size))
        return -1;
    return size;
}
