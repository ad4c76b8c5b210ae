/* Mesa (math/m_matrix.c) keeps with each legacy matrix a set of flags saying what kind of
 * transform it is (translation, rotation, uniform or general scale, perspective, "general"); the
 * matrix's inverse (gl_ModelViewMatrixInverse, gl_NormalMatrix, fixed-function normals, sphere-map
 * texgen) is computed by a routine chosen from them, and each routine rounds differently.
 * glTranslate/glRotate/glScale/glOrtho/glFrustum add their flag; glLoadIdentity sets the identity
 * but KEEPS the flags; only loading a whole matrix (glLoadMatrix*, glMultMatrix*) marks it
 * "general, to be classified from its contents", which the next state validation (any draw)
 * does. A program that starts each frame with glLoadIdentity; glTranslatef; glRotatef therefore
 * has "translation|rotation" flags and gets the affine inverse. The restore loads the modelview
 * with glLoadMatrixf; if the frame's first matrix call is glLoadIdentity (before any draw), the
 * "general" mark survives it and every later matrix of the frame is inverted by the general 4x4
 * routine: other low bits than the program got (Chromium B.S.U.: 6 pixels off by 1; the e2e test
 * `replay keeps the matrix classification`: thousands).
 *
 * So right after the restore loads a modelview level, the driver is made to classify it, as the
 * draws of the program's previous frame had. glPushAttrib(GL_LIGHTING_BIT), a change in that
 * group (the other shade model) and glPopAttrib() do exactly that in Mesa (restoring the
 * lighting group classifies the modelview, whose inverse transforms light positions; Mesa skips
 * groups that did not change since the push) and nothing else visible: the group is put back as
 * it was, and no error is possible below the attribute stack's limit (checked). A zero-vertex draw would do
 * it too but can raise GL_INVALID_OPERATION/GL_INVALID_FRAMEBUFFER_OPERATION on a half-restored
 * context. On drivers without such flags both calls change nothing.
 *
 * What stays different: the flags a program accumulated over its whole run (e.g. a rotation
 * flag left from an earlier frame whose modelview is now a pure translation) are not visible
 * through GL; the classification from the contents is their subset, and the one every program
 * whose matrices come from glLoadIdentity + transforms has after its first frame (a program that
 * loads its modelview whole after its last draw and starts the next frame with glLoadIdentity had
 * "general" flags: that rarer case is now the one that differs). The projection
 * and texture stacks keep the "general" mark (Mesa classifies the projection only with clip
 * planes enabled; their inverses reach only gl_ProjectionMatrixInverse/gl_TextureMatrixInverse
 * and clip planes). */
#include "replay/restore_matrix_class.h"
#include "replay/dispatch_internal.h"
#include "glr_dispatch_pfn.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define PROC(d, name) ((glr_pfn_##name)glr_dispatch_proc(d, GLR_CMD_##name))

static bool loads_whole_matrix(uint32_t cmd)
{
    return cmd == GLR_CMD_glLoadMatrixf || cmd == GLR_CMD_glLoadMatrixd || cmd == GLR_CMD_glLoadTransposeMatrixf ||
           cmd == GLR_CMD_glLoadTransposeMatrixd || cmd == GLR_CMD_glMultMatrixf || cmd == GLR_CMD_glMultMatrixd ||
           cmd == GLR_CMD_glMultTransposeMatrixf || cmd == GLR_CMD_glMultTransposeMatrixd;
}

void glr_restore_matrix_loaded(struct glr_dispatch *d, const struct glr_call *c)
{
    if (!loads_whole_matrix(c->cmd))
        return;
    glr_pfn_glGetIntegerv get = PROC(d, glGetIntegerv);
    glr_pfn_glPushAttrib push = PROC(d, glPushAttrib);
    glr_pfn_glPopAttrib pop = PROC(d, glPopAttrib);
    glr_pfn_glShadeModel shade_model = PROC(d, glShadeModel);
    if (!get || !push || !pop || !shade_model)
        return;
    GLint mode = 0, depth = 0, max_depth = 0, shade = 0;
    get(GL_MATRIX_MODE, &mode);
    get(GL_SHADE_MODEL, &shade);
    get(GL_ATTRIB_STACK_DEPTH, &depth);
    get(GL_MAX_ATTRIB_STACK_DEPTH, &max_depth);
    if (mode != GL_MODELVIEW || depth >= max_depth)
        return;
    push(GL_LIGHTING_BIT);
    shade_model(shade == GL_FLAT ? GL_SMOOTH : GL_FLAT);
    pop();
}
