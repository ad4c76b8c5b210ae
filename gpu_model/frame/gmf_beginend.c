/* Commands GL accepts between glBegin and glEnd (GL 2.1 section 2.6.3): the vertex, colour,
 * secondary colour, normal, texture coordinate, fog coordinate, index, edge flag, material,
 * generic attribute and evaluator commands, glArrayElement and glCallList(s). Any other command
 * there is GL_INVALID_OPERATION and has no effect (Mesa's checks outside begin/end), so the runner
 * neither applies nor draws it: piglit gl-1.0-beginend-coverage calls glBitmap, glCopyPixels,
 * glDrawPixels, glDrawArrays, ... inside a pair and checks that nothing changes. The set is
 * found once in the registry by name. */
#include <ctype.h>
#include <pthread.h>
#include <string.h>

#include "gmf_internal.h"

static uint8_t allowed[GLR_CMD_COUNT];
static pthread_once_t allowed_once = PTHREAD_ONCE_INIT;

/* `rest` (the name after a family prefix) is a form of that family: a component count
 * (glVertex3f, glColor4ubv, glVertexAttribI4iv, glColorP3ui), or one of the given suffixes. */
static bool counted(const char *rest)
{
    if (rest[0] == 'I' || rest[0] == 'L' || rest[0] == 'P')
        rest++;
    return isdigit((unsigned char)rest[0]) != 0;
}

static bool suffix_of(const char *rest, const char *const *forms)
{
    for (; *forms; forms++)
        if (!strcmp(rest, *forms))
            return true;
    return false;
}

static void find_allowed(void)
{
    static const char *const counted_families[] = { "glVertexAttrib", "glVertex", "glColor",
        "glSecondaryColor", "glNormal", "glTexCoord", "glMultiTexCoord" };
    static const char *const fog[] = { "f", "fv", "d", "dv", "fEXT", "fvEXT", "dEXT", "dvEXT", "hNV",
                                       "hvNV", NULL };
    static const char *const index[] = { "s", "sv", "i", "iv", "f", "fv", "d", "dv", "ub", "ubv", NULL };
    static const char *const edge[] = { "", "v", NULL };
    static const char *const material[] = { "f", "fv", "i", "iv", NULL };
    static const char *const exact[] = { "glArrayElement", "glArrayElementEXT", "glCallList", "glCallLists",
                                         "glEnd", NULL };
    for (uint32_t k = 0; k < GLR_CMD_COUNT; k++) {
        const char *n = glr_cmd_name(k);
        bool ok = suffix_of(n, exact) || !strncmp(n, "glEvalCoord", 11) || !strncmp(n, "glEvalPoint", 11);
        for (size_t i = 0; !ok && i < sizeof counted_families / sizeof *counted_families; i++) {
            size_t l = strlen(counted_families[i]);
            ok = !strncmp(n, counted_families[i], l) && counted(n + l);
        }
        if (!ok && !strncmp(n, "glFogCoord", 10))
            ok = suffix_of(n + 10, fog);
        if (!ok && !strncmp(n, "glIndex", 7))
            ok = suffix_of(n + 7, index);
        if (!ok && !strncmp(n, "glEdgeFlag", 10))
            ok = suffix_of(n + 10, edge);
        if (!ok && !strncmp(n, "glMaterial", 10))
            ok = suffix_of(n + 10, material);
        allowed[k] = ok;
    }
}

bool gmf_imm_rejects(const gmf_runner *r, const struct glr_call *call, uint32_t k)
{
    if (k >= GLR_CMD_COUNT || glr_cmds[k].api != GLR_API_GL || !gmf_imm_open(r, call->ctx_id))
        return false;
    pthread_once(&allowed_once, find_allowed);
    return !allowed[k];
}
