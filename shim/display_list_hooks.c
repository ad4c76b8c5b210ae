/* The glNewList / glEndList / glDeleteLists hooks (shim/hooks.txt): the driver's call (the generated
 * glr_call_ body), then the recorder's list buffer opened or closed (recorder.c) and the kept
 * lists told (display_lists.c). Above both: they call neither back here. */
#include "shim/shim_internal.h"
#include "shim/display_lists.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

void glr_hook_glNewList(GLuint list, GLenum mode)
{
    glr_call_glNewList(list, mode);
    /* What GL refuses opens no list: name 0, a bad mode, a list already open (GL_INVALID_*). */
    if (glr_disabled || list == 0 || (mode != GL_COMPILE && mode != GL_COMPILE_AND_EXECUTE) || glr_rec_list_is_open())
        return;
    struct glr_context *c = glr_ctx_current();
    if (!c)
        return;
    glr_dl_opening();
    if (!glr_rec_list_open()) {
        glr_log(GLR_LOG_WARN, "display list %u: out of memory opening its record; it is not kept", list);
        return;
    }
    glr_dl_opened(list, glr_ctx_share_group(c), glr_ctx_id(c));
}

void glr_hook_glEndList(void)
{
    if (glr_rec_list_is_open()) {
        size_t size = 0, reserved = 0;
        bool failed = false;
        uint8_t *buf = glr_rec_list_close(&size, &reserved, &failed);
        glr_dl_closed(buf, size, reserved, failed);
    }
    glr_call_glEndList();
}

void glr_hook_glDeleteLists(GLuint list, GLsizei range)
{
    glr_call_glDeleteLists(list, range);
    struct glr_context *c = glr_ctx_current();
    if (glr_disabled || !c || range <= 0)
        return;
    glr_dl_deleted(glr_ctx_share_group(c), list, (uint32_t)range);
}
