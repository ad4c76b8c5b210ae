/* Query results at the frame start (part of the per-context snapshot, shim/snapshot.h).
 *
 * Programs commonly issue an occlusion query in one frame and test it in the next one, with
 * conditional rendering or by copying the result into a buffer (GL_QUERY_BUFFER). A capture that
 * starts at such a frame needs the result the previous frame left in the object, or its replay
 * draws differently. The driver reports it (glGetQueryObjectui64v); what it cannot report before
 * GL 4.5 is the query's target (GL_QUERY_TARGET, direct state access), which the replay needs to
 * make the same result again (replay/restore_queries.c). Results of timer queries are not kept:
 * they measure the program's run and a replay cannot make a given one. */
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "registry/glr_gl_enums.h"

/* Targets whose result a replay can make again: sample counts and primitives generated. */
static bool result_kept(GLint target)
{
    return target == GL_SAMPLES_PASSED || target == GL_ANY_SAMPLES_PASSED ||
           target == GL_ANY_SAMPLES_PASSED_CONSERVATIVE || target == GL_PRIMITIVES_GENERATED;
}

void glr_snap_query_results(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 1, 5, 3, 0))
        return;
    const struct sm_context *c = sm_context_get(sn->s, sn->ctx);
    size_t n = c ? sm_object_count(c, SM_OBJ_QUERY) : 0;
    uint32_t *names = n ? malloc(n * sizeof *names) : NULL;
    if (!names)
        return;
    n = sm_object_names(c, SM_OBJ_QUERY, names, n);
    bool know_target = glr_snap_has(sn, 4, 5, -1, 0);
    unsigned kept = 0, unknown = 0;
    /* With a query buffer bound, a result read goes into it at the pointer's value: read into
     * client memory, and put the program's binding back. */
    GLint query_buffer = 0;
    if (glr_snap_has(sn, 4, 4, -1, 0)) {
        GLR_REAL(glGetIntegerv)(GL_QUERY_BUFFER_BINDING, &query_buffer);
        if (query_buffer)
            GLR_REAL(glBindBuffer)(GL_QUERY_BUFFER, 0);
    }
    for (size_t i = 0; i < n; i++) {
        const struct sm_query *q = sm_get_query(c, names[i]);
        /* A name never begun has no object, and an active query no result yet (begun again by
         * the restore instead). */
        if (!GLR_REAL(glIsQuery)(names[i]) || (q && q->active))
            continue;
        GLint target = 0;
        if (know_target)
            GLR_REAL(glGetQueryObjectiv)(names[i], GL_QUERY_TARGET, &target);
        GLuint available = 0;
        GLR_REAL(glGetQueryObjectuiv)(names[i], GL_QUERY_RESULT_AVAILABLE, &available);
        if (!available)
            continue;   /* not ended yet (or the driver refused): nothing a frame can read */
        if (!know_target) {
            unknown++;
            continue;
        }
        if (!result_kept(target))
            continue;
        GLuint64 result = 0;
        GLR_REAL(glGetQueryObjectui64v)(names[i], GL_QUERY_RESULT, &result);
        if (sm_set_query_result(sn->s, sn->ctx, names[i], (uint32_t)target, result))
            kept++;
    }
    free(names);
    if (query_buffer)
        GLR_REAL(glBindBuffer)(GL_QUERY_BUFFER, (GLuint)query_buffer);
    if (unknown)
        glr_snap_warn(sn, "context %u: %u query results not kept (the driver reports a query's target only "
                      "from GL 4.5 on); a frame testing them may replay differently", sn->ctx, unknown);
    if (kept)
        glr_log(GLR_LOG_DEBUG, "snapshot: context %u: %u query results kept", sn->ctx, kept);
}
