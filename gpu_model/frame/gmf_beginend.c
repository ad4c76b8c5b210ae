/* Commands GL accepts between glBegin and glEnd (GL 2.1 section 2.6.3): the vertex, colour,
 * secondary colour, normal, texture coordinate, fog coordinate, index, edge flag, material,
 * generic attribute and evaluator commands, glArrayElement and glCallList(s). Any other command
 * there is GL_INVALID_OPERATION and has no effect (Mesa's checks outside begin/end), so the runner
 * neither applies nor draws it: piglit gl-1.0-beginend-coverage calls glBitmap, glCopyPixels,
 * glDrawPixels, glDrawArrays, ... inside a pair and checks that nothing changes. The set is the
 * class BEGIN_END of registry/gl_annotations.txt (GLR_CF_BEGIN_END). */
#include "gmf_internal.h"

bool gmf_imm_rejects(const gmf_runner *r, const struct glr_call *call, uint32_t k)
{
    if (k >= GLR_CMD_COUNT || glr_cmds[k].api != GLR_API_GL || !gmf_imm_open(r, call->ctx_id))
        return false;
    return !(glr_cmds[k].flags & GLR_CF_BEGIN_END);
}
