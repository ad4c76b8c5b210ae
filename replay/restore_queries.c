/* Query results at the frame start (restore_reset.h): the snapshot kept the result each query
 * object held when the capture began (shim/snapshot_queries.c, statemodel sm_query.has_result);
 * here the replay makes the same result again in the replay's object, so conditional rendering
 * and query-buffer copies in the frame see what the program saw.
 *
 * A result is made, not written: GL has no call that sets one. Sample counts come from drawing a
 * rectangle into a private 1024x1024 framebuffer with scissor boxes that cover exactly N pixels
 * (whole 1M-pixel passes, then whole rows, then part of a row); primitives generated from N
 * points drawn with rasterizer discard. Every binding, switch and box the drawing touches is saved
 * and put back, so the restored state is unchanged; the private objects stay on the context for
 * the next pass (glr_query_maker_forget when the contexts go). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/dispatch_internal.h"
#include "glr_dispatch_pfn.h"
#include "statemodel/statemodel.h"
#include "replay/restore_reset.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define PROC(d, name) ((glr_pfn_##name)glr_dispatch_proc(d, GLR_CMD_##name))

#define SIDE 1024
/* Largest result made again: 4096 full passes of the private framebuffer (2^32 samples or
 * primitives), beyond what a frame of the largest framebuffers produces. */
#define RESULT_MAX (UINT64_C(1) << 32)

/* The private objects made on one context (driver names). */
struct qm_ctx {
    uint32_t ctx_id;
    GLuint program, vao, fbo, rb;
};

struct glr_query_maker {
    struct qm_ctx *ctx;
    size_t n, cap;
};

struct glr_query_maker *glr_query_maker_new(void)
{
    return calloc(1, sizeof(struct glr_query_maker));
}

void glr_query_maker_free(struct glr_query_maker *m)
{
    if (m)
        free(m->ctx);
    free(m);
}

void glr_query_maker_forget(struct glr_query_maker *m)
{
    if (m)
        m->n = 0;
}

/* Whether a context has a kept result to make. */
static bool context_has_results(const struct sm_context *c, uint32_t **names, size_t *n)
{
    *n = sm_object_count(c, SM_OBJ_QUERY);
    *names = *n ? malloc(*n * sizeof **names) : NULL;
    if (!*names)
        return false;
    *n = sm_object_names(c, SM_OBJ_QUERY, *names, *n);
    for (size_t i = 0; i < *n; i++) {
        const struct sm_query *q = sm_get_query(c, (*names)[i]);
        if (q && q->has_result)
            return true;
    }
    free(*names);
    *names = NULL;
    return false;
}

static GLuint compile(struct glr_dispatch *d, GLenum type, const char *src)
{
    GLuint s = PROC(d, glCreateShader)(type);
    PROC(d, glShaderSource)(s, 1, &src, NULL);
    PROC(d, glCompileShader)(s);
    return s;
}

/* The program, vertex array and framebuffer of ctx (made once per context). NULL if they cannot
 * be made (a driver without what they need: the kept results are then not made). */
static struct qm_ctx *scratch(struct glr_query_maker *m, struct glr_dispatch *d, uint32_t ctx_id, bool es)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->ctx[i].ctx_id == ctx_id)
            return m->ctx[i].program ? &m->ctx[i] : NULL;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 4;
        struct qm_ctx *n = realloc(m->ctx, cap * sizeof *n);
        if (!n)
            return NULL;
        m->ctx = n;
        m->cap = cap;
    }
    struct qm_ctx *q = &m->ctx[m->n++];
    memset(q, 0, sizeof *q);
    q->ctx_id = ctx_id;
    if (!PROC(d, glCreateShader) || !PROC(d, glShaderSource) || !PROC(d, glCompileShader) ||
        !PROC(d, glCreateProgram) || !PROC(d, glAttachShader) || !PROC(d, glLinkProgram) ||
        !PROC(d, glGetProgramiv) || !PROC(d, glDeleteShader) || !PROC(d, glGenVertexArrays) ||
        !PROC(d, glGenFramebuffers) || !PROC(d, glGenRenderbuffers) || !PROC(d, glBindRenderbuffer) ||
        !PROC(d, glRenderbufferStorage) || !PROC(d, glBindFramebuffer) ||
        !PROC(d, glFramebufferRenderbuffer) || !PROC(d, glCheckFramebufferStatus))
        return NULL;
    /* A rectangle over the viewport from gl_VertexID alone (no attributes to set up). */
    const char *vs = es ? "#version 300 es\nvoid main() { int i = gl_VertexID & 3;\n"
                          "gl_Position = vec4(float(i & 1) * 2.0 - 1.0, float(i >> 1) * 2.0 - 1.0, 0.0, 1.0); }\n"
                        : "#version 330 core\nvoid main() { int i = gl_VertexID & 3;\n"
                          "gl_Position = vec4(float(i & 1) * 2.0 - 1.0, float(i >> 1) * 2.0 - 1.0, 0.0, 1.0); }\n";
    const char *fs = es ? "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"
                        : "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    GLuint v = compile(d, GL_VERTEX_SHADER, vs), f = compile(d, GL_FRAGMENT_SHADER, fs);
    GLuint p = PROC(d, glCreateProgram)();
    PROC(d, glAttachShader)(p, v);
    PROC(d, glAttachShader)(p, f);
    PROC(d, glLinkProgram)(p);
    PROC(d, glDeleteShader)(v);
    PROC(d, glDeleteShader)(f);
    GLint ok = 0;
    PROC(d, glGetProgramiv)(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        PROC(d, glDeleteProgram)(p);
        return NULL;
    }
    GLint rb_saved = 0, fb_saved = 0;
    PROC(d, glGetIntegerv)(GL_RENDERBUFFER_BINDING, &rb_saved);
    PROC(d, glGetIntegerv)(GL_DRAW_FRAMEBUFFER_BINDING, &fb_saved);
    PROC(d, glGenVertexArrays)(1, &q->vao);
    PROC(d, glGenRenderbuffers)(1, &q->rb);
    PROC(d, glBindRenderbuffer)(GL_RENDERBUFFER, q->rb);
    PROC(d, glRenderbufferStorage)(GL_RENDERBUFFER, GL_RGBA8, SIDE, SIDE);
    PROC(d, glGenFramebuffers)(1, &q->fbo);
    PROC(d, glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, q->fbo);
    PROC(d, glFramebufferRenderbuffer)(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, q->rb);
    bool complete = PROC(d, glCheckFramebufferStatus)(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    PROC(d, glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, (GLuint)fb_saved);
    PROC(d, glBindRenderbuffer)(GL_RENDERBUFFER, (GLuint)rb_saved);
    if (!complete) {
        PROC(d, glDeleteProgram)(p);
        return NULL;
    }
    q->program = p;
    return q;
}

/* What the drawing changes, saved and put back. */
struct qm_saved {
    GLint fbo, program, vao, viewport[4], scissor[4], polygon_mode[2];
    bool scissor_on, discard_on, cull_on, alpha_on, clip_on[8];
};

static void save_and_set(struct glr_dispatch *d, const struct qm_ctx *q, struct qm_saved *s, bool es, bool compat)
{
    glr_pfn_glGetIntegerv get = PROC(d, glGetIntegerv);
    glr_pfn_glIsEnabled is_on = PROC(d, glIsEnabled);
    glr_pfn_glDisable off = PROC(d, glDisable);
    get(GL_DRAW_FRAMEBUFFER_BINDING, &s->fbo);
    get(GL_CURRENT_PROGRAM, &s->program);
    get(GL_VERTEX_ARRAY_BINDING, &s->vao);
    get(GL_VIEWPORT, s->viewport);
    get(GL_SCISSOR_BOX, s->scissor);
    s->scissor_on = is_on(GL_SCISSOR_TEST);
    s->discard_on = is_on(GL_RASTERIZER_DISCARD);
    s->cull_on = is_on(GL_CULL_FACE);
    s->alpha_on = compat && is_on(GL_ALPHA_TEST);
    if (!es) {
        get(GL_POLYGON_MODE, s->polygon_mode);
        for (int i = 0; i < 8; i++)
            s->clip_on[i] = is_on((GLenum)(GL_CLIP_DISTANCE0 + i));
    }
    PROC(d, glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, q->fbo);
    PROC(d, glUseProgram)(q->program);
    PROC(d, glBindVertexArray)(q->vao);
    PROC(d, glViewport)(0, 0, SIDE, SIDE);
    PROC(d, glEnable)(GL_SCISSOR_TEST);
    if (s->cull_on)
        off(GL_CULL_FACE);
    if (s->alpha_on)
        off(GL_ALPHA_TEST);
    if (!es) {
        PROC(d, glPolygonMode)(GL_FRONT_AND_BACK, GL_FILL);
        for (int i = 0; i < 8; i++)
            if (s->clip_on[i])
                off((GLenum)(GL_CLIP_DISTANCE0 + i));
    }
}

static void put_back(struct glr_dispatch *d, const struct qm_saved *s, bool es, bool compat)
{
    glr_pfn_glEnable on = PROC(d, glEnable);
    glr_pfn_glDisable off = PROC(d, glDisable);
    PROC(d, glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, (GLuint)s->fbo);
    PROC(d, glUseProgram)((GLuint)s->program);
    PROC(d, glBindVertexArray)((GLuint)s->vao);
    PROC(d, glViewport)(s->viewport[0], s->viewport[1], s->viewport[2], s->viewport[3]);
    PROC(d, glScissor)(s->scissor[0], s->scissor[1], s->scissor[2], s->scissor[3]);
    (s->scissor_on ? on : off)(GL_SCISSOR_TEST);
    (s->discard_on ? on : off)(GL_RASTERIZER_DISCARD);
    if (s->cull_on)
        on(GL_CULL_FACE);
    if (compat && s->alpha_on)
        on(GL_ALPHA_TEST);
    if (!es) {
        /* Compatibility contexts keep a front and a back mode; core ones one for both. */
        if (compat && s->polygon_mode[0] != s->polygon_mode[1]) {
            PROC(d, glPolygonMode)(GL_FRONT, (GLenum)s->polygon_mode[0]);
            PROC(d, glPolygonMode)(GL_BACK, (GLenum)s->polygon_mode[1]);
        } else {
            PROC(d, glPolygonMode)(GL_FRONT_AND_BACK, (GLenum)s->polygon_mode[0]);
        }
        for (int i = 0; i < 8; i++)
            if (s->clip_on[i])
                on((GLenum)(GL_CLIP_DISTANCE0 + i));
    }
}

/* Draws exactly `count` samples (one per pixel of the single-sample framebuffer). */
static void draw_samples(struct glr_dispatch *d, uint64_t count)
{
    glr_pfn_glScissor scissor = PROC(d, glScissor);
    glr_pfn_glDrawArrays draw = PROC(d, glDrawArrays);
    const uint64_t whole = (uint64_t)SIDE * SIDE;
    scissor(0, 0, SIDE, SIDE);
    for (uint64_t k = count / whole; k > 0; k--)
        draw(GL_TRIANGLE_STRIP, 0, 4);
    uint64_t rest = count % whole;
    if (rest >= SIDE) {
        scissor(0, 0, SIDE, (GLsizei)(rest / SIDE));
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    if (rest % SIDE) {
        scissor(0, (GLint)(rest / SIDE), (GLsizei)(rest % SIDE), 1);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
}

static bool target_made(uint32_t t)
{
    return t == GL_SAMPLES_PASSED || t == GL_ANY_SAMPLES_PASSED || t == GL_ANY_SAMPLES_PASSED_CONSERVATIVE ||
           t == GL_PRIMITIVES_GENERATED;
}

int glr_restore_query_results(struct glr_query_maker *m, const struct sm_state *s, struct glr_dispatch *d,
                              glr_make_current_fn make_current, void *user, glr_restore_query_want_fn want,
                              void *want_user, struct glr_restore_stats *st)
{
    int rc = 0;
    if (!m || !s)
        return 0;
    for (size_t ci = 0; ci < sm_context_count(s); ci++) {
        const struct sm_context *c = sm_context_at(s, ci);
        uint32_t ctx_id = sm_context_id(c), *names = NULL;
        size_t n = 0;
        if (!context_has_results(c, &names, &n))
            continue;
        enum sm_api api = sm_context_api(c, NULL, NULL);
        bool es = api == SM_API_GLES, compat = api == SM_API_GL_COMPAT;
        struct qm_ctx *q = NULL;
        struct qm_saved saved;
        bool set = false;
        for (size_t i = 0; i < n; i++) {
            const struct sm_query *sq = sm_get_query(c, names[i]);
            if (!sq || !sq->has_result || (want && !want(want_user, ctx_id, names[i])))
                continue;
            if (!set) {
                q = make_current(user, ctx_id) == 0 && PROC(d, glBeginQuery) && PROC(d, glEndQuery) &&
                            PROC(d, glGetQueryiv) && (es || PROC(d, glPolygonMode)) && PROC(d, glBindVertexArray)
                        ? scratch(m, d, ctx_id, es) : NULL;
                if (q)
                    save_and_set(d, q, &saved, es, compat);
                set = true;
            }
            GLint active = 0;
            if (q && target_made(sq->target))
                PROC(d, glGetQueryiv)(sq->target, GL_CURRENT_QUERY, &active);
            /* Another query of the target active at the frame start would count these samples. A
             * result no frame can reach (from a corrupt file) is refused rather than drawn. */
            if (!q || !target_made(sq->target) || active || sq->result > RESULT_MAX) {
                fprintf(stderr, "glreplay: warning: context %u query %u: its result (%llu) is not made again: %s\n",
                        ctx_id, names[i], (unsigned long long)sq->result,
                        !q ? "the replay cannot build its private program or framebuffer"
                        : !target_made(sq->target) ? "its target has no result to make"
                        : active ? "another query of its target is active" : "larger than any frame makes");
                st->contents_failed++;
                rc = -1;
                continue;
            }
            GLuint name = (GLuint)glr_dispatch_lookup(d, ctx_id, GLR_OBJ_QUERY, names[i]);
            PROC(d, glBeginQuery)(sq->target, name);
            if (sq->target == GL_PRIMITIVES_GENERATED) {
                PROC(d, glEnable)(GL_RASTERIZER_DISCARD);
                for (uint64_t left = sq->result; left > 0;) {
                    GLsizei k = left > 0x40000000u ? 0x40000000 : (GLsizei)left;
                    PROC(d, glDrawArrays)(GL_POINTS, 0, k);
                    left -= (uint64_t)k;
                }
                PROC(d, glDisable)(GL_RASTERIZER_DISCARD);
            } else {
                draw_samples(d, sq->target == GL_SAMPLES_PASSED ? sq->result : sq->result != 0);
            }
            PROC(d, glEndQuery)(sq->target);
            st->contents_restored++;
        }
        if (q)
            put_back(d, &saved, es, compat);
        free(names);
    }
    return rc;
}
