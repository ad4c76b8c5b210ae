/* ARB assembly programs at the frame start (GL_ARB_vertex_program / GL_ARB_fragment_program):
 * each program object's target, text and local parameters (shared part), and each context's
 * bound programs, environment parameters and program enables (per-context part), read back from
 * the driver into the snapshot's state model, which serializes them (format version 5) and
 * restores them at replay (statemodel/sm_restore_arb.c).
 *
 * Names: those the tracking state saw created (glGenProgramsARB is tracked) plus a probe of small
 * names with glIsProgramARB, which is true only for names a glBindProgramARB made into programs
 * (programs may be bound without glGenProgramsARB). Reading a program binds it to its own target
 * (binding it to the other target fails with GL_INVALID_OPERATION and changes nothing); every
 * binding is put back and the read-back's errors are drained by the snapshot (snapshot.c). */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "registry/glr_gl_enums.h"

#define PROBE_NAMES 256u   /* names 1..PROBE_NAMES are probed besides the tracked ones */

/* Whether the context has ARB programs of target t (0 vertex, 1 fragment) and the entry points
 * the read-back uses. */
static bool available(const struct glr_snap *sn, int t)
{
    if (sn->es || sn->core || !GLR_REAL(glGetProgramivARB) || !GLR_REAL(glIsProgramARB) ||
        !GLR_REAL(glBindProgramARB) || !GLR_REAL(glGetProgramStringARB) ||
        !GLR_REAL(glGetProgramLocalParameterfvARB) || !GLR_REAL(glGetProgramEnvParameterfvARB))
        return false;
    return glr_snap_has_extension(sn, t ? "GL_ARB_fragment_program" : "GL_ARB_vertex_program");
}

static const GLenum targets[2] = { GL_VERTEX_PROGRAM_ARB, GL_FRAGMENT_PROGRAM_ARB };

static GLint prog_iv(GLenum target, GLenum pname)
{
    GLint v = 0;
    GLR_REAL(glGetProgramivARB)(target, pname, &v);
    return v;
}

static void drain_errors(void)
{
    for (int i = 0; i < 64 && GLR_REAL(glGetError)() != GL_NO_ERROR; i++)
        ;
}

/* Reads program `name` bound to target t (bound by the caller) into the state model. */
static void read_program(struct glr_snap *sn, int t, uint32_t name)
{
    GLenum target = targets[t];
    glr_snap_apply(sn, GLR_CMD_glBindProgramARB, -1, NULL, 0, 2, SNAP_U(target), SNAP_U(name));
    GLint len = prog_iv(target, GL_PROGRAM_LENGTH_ARB);
    if (len > 0 && len < (64 << 20)) {
        char *text = malloc((size_t)len + 1);
        if (text) {
            text[0] = 0;
            GLR_REAL(glGetProgramStringARB)(target, GL_PROGRAM_STRING_ARB, text);
            glr_snap_apply(sn, GLR_CMD_glProgramStringARB, 3, text, (uint64_t)len, 4, SNAP_U(target),
                           SNAP_U(GL_PROGRAM_FORMAT_ASCII_ARB), SNAP_I(len));
            sn->bytes_read += (uint64_t)len;
            free(text);
        }
    }
    GLint max = prog_iv(target, GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB);
    if (max > SM_ARB_MAX_LOCAL)
        max = SM_ARB_MAX_LOCAL;
    if (max <= 0)
        return;
    GLfloat (*v)[4] = calloc((size_t)max, sizeof *v);
    if (!v)
        return;
    int used = 0;
    for (GLint i = 0; i < max; i++) {
        GLR_REAL(glGetProgramLocalParameterfvARB)(target, (GLuint)i, v[i]);
        if (v[i][0] != 0 || v[i][1] != 0 || v[i][2] != 0 || v[i][3] != 0)
            used = i + 1;
    }
    if (used)
        glr_snap_apply(sn, GLR_CMD_glProgramLocalParameters4fvEXT, 3, v, (uint64_t)used * sizeof *v, 3,
                       SNAP_U(target), SNAP_U(0), SNAP_I(used));
    free(v);
}

void glr_snap_arb_programs(struct glr_snap *sn)
{
    bool avail[2] = { available(sn, 0), available(sn, 1) };
    if (!avail[0] && !avail[1])
        return;
    const struct sm_context *c = sm_context_get(sn->s, sn->ctx);
    GLint bound[2] = { 0, 0 };
    for (int t = 0; t < 2; t++)
        if (avail[t])
            bound[t] = prog_iv(targets[t], GL_PROGRAM_BINDING_ARB);
    /* Candidates: tracked names (sorted) and the probe range, each once. */
    size_t n_tracked = sm_arb_program_names(c, NULL, 0);
    uint32_t *names = calloc(n_tracked + PROBE_NAMES, sizeof *names);
    if (!names)
        return;
    n_tracked = sm_arb_program_names(c, names, n_tracked);
    if (n_tracked > 0 && !names[0])
        n_tracked = 0;
    size_t n = n_tracked;
    for (uint32_t k = 1; k <= PROBE_NAMES; k++) {
        bool seen = false;
        for (size_t i = 0; i < n_tracked && !seen; i++)
            seen = names[i] == k;
        if (!seen)
            names[n++] = k;
    }
    drain_errors();
    unsigned read = 0;
    /* GL's default objects (0): bound while no program is, they may hold a string too */
    for (int t = 0; t < 2; t++) {
        if (!avail[t])
            continue;
        GLR_REAL(glBindProgramARB)(targets[t], 0);
        if (GLR_REAL(glGetError)() == GL_NO_ERROR && prog_iv(targets[t], GL_PROGRAM_LENGTH_ARB) > 0) {
            read_program(sn, t, 0);
            read++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (names[i] >= SM_ARB_DEFAULT_NAME(0) || !GLR_REAL(glIsProgramARB)(names[i]))
            continue;   /* never bound: no target, nothing to read (a generated name stays tracked) */
        for (int t = 0; t < 2; t++) {
            if (!avail[t])
                continue;
            GLR_REAL(glBindProgramARB)(targets[t], names[i]);
            if (GLR_REAL(glGetError)() != GL_NO_ERROR)
                continue;   /* a program of the other target */
            read_program(sn, t, names[i]);
            read++;
            break;
        }
    }
    for (int t = 0; t < 2; t++)
        if (avail[t]) {
            GLR_REAL(glBindProgramARB)(targets[t], (GLuint)bound[t]);
            glr_snap_apply(sn, GLR_CMD_glBindProgramARB, -1, NULL, 0, 2, SNAP_U(targets[t]), SNAP_U(bound[t]));
        }
    free(names);
    if (read)
        glr_log(GLR_LOG_DEBUG, "snapshot: %u ARB program(s) read", read);
}

void glr_snap_arb_context(struct glr_snap *sn)
{
    static const GLenum caps[] = { GL_VERTEX_PROGRAM_ARB, GL_FRAGMENT_PROGRAM_ARB,
                                   GL_VERTEX_PROGRAM_POINT_SIZE_ARB, GL_VERTEX_PROGRAM_TWO_SIDE_ARB };
    for (int t = 0; t < 2; t++) {
        if (!available(sn, t))
            continue;
        GLenum target = targets[t];
        GLint bound = prog_iv(target, GL_PROGRAM_BINDING_ARB);
        glr_snap_apply(sn, GLR_CMD_glBindProgramARB, -1, NULL, 0, 2, SNAP_U(target), SNAP_U(bound));
        GLint max = prog_iv(target, GL_MAX_PROGRAM_ENV_PARAMETERS_ARB);
        if (max > SM_ARB_MAX_ENV)
            max = SM_ARB_MAX_ENV;
        for (GLint i = 0; i < max; i++) {
            GLfloat v[4] = { 0, 0, 0, 0 };
            GLR_REAL(glGetProgramEnvParameterfvARB)(target, (GLuint)i, v);
            if (v[0] != 0 || v[1] != 0 || v[2] != 0 || v[3] != 0)
                glr_snap_apply(sn, GLR_CMD_glProgramEnvParameter4fvARB, 2, v, sizeof v, 2, SNAP_U(target),
                               SNAP_U(i));
        }
        /* the enables of this target (point size and two-side belong to vertex programs) */
        for (size_t k = 0; k < sizeof caps / sizeof *caps; k++) {
            if ((t == 1) != (caps[k] == GL_FRAGMENT_PROGRAM_ARB))
                continue;
            bool on = GLR_REAL(glIsEnabled)(caps[k]);
            glr_snap_apply(sn, on ? GLR_CMD_glEnable : GLR_CMD_glDisable, -1, NULL, 0, 1, SNAP_U(caps[k]));
        }
    }
}
