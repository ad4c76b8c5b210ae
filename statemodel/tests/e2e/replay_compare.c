/* replay_compare: the state the model reports at an event equals what the driver reports at that
 * point of a replay.
 *
 *   replay_compare CAPTURE.glcap [--draws] [--events K,K,..] [--end] [--restore] [--perturb]
 *   replay_compare CAPTURE.glcap --list-draws
 *
 * Replays the capture's command stream on EGL surfaceless contexts (one per captured context,
 * created from the METADATA section) through the replay dispatcher, and applies the same records
 * to the state model. At each chosen event (before the K-th record) it reads a set of fields with
 * glGet* and compares them with the model's values for the context the replay has current
 * (gl_fields.c), object names through the dispatcher's mapping. --restore also recreates the
 * model's state at each event on a fresh context from sm_restore_calls, executed by a second
 * dispatcher, and compares that context the same way. --perturb changes the model (only) before
 * the first comparison, so the run must report a mismatch: the comparison can fail.
 * Exit status: 0 all fields agree, 1 mismatches (or nothing compared), 2 usage or setup error. */
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "gl_fields.h"

#define MAX_CTX 16

struct rctx {
    uint32_t id, group;
    bool es;
    int major, minor, profile_mask;
    EGLContext egl;
};

struct app {
    EGLDisplay dpy;
    EGLConfig cfg;
    struct rctx ctx[MAX_CTX];
    int n_ctx;
    uint32_t current;            /* the captured context the replay has current (0: none) */
};

static struct app app;

static void *get_proc(void *user, const char *name)
{
    (void)user;
    return (void *)eglGetProcAddress(name);
}

static struct rctx *ctx_of(uint32_t id)
{
    for (int i = 0; i < app.n_ctx; i++)
        if (app.ctx[i].id == id)
            return &app.ctx[i];
    return NULL;
}

/* Shared objects live in the share group's namespace, per-context ones in the context's. */
static uint32_t name_space(void *user, uint32_t ctx_id, int obj_class)
{
    (void)user;
    if (glr_obj_class_per_context(obj_class))
        return ctx_id;
    struct rctx *c = ctx_of(ctx_id);
    return c ? c->group : ctx_id;
}

static bool egl_init(void)
{
    EGLint major, minor;
    /* epoxy only offers the core eglGetPlatformDisplay once a display says EGL 1.5: use the
     * client extension, or EGL_PLATFORM=surfaceless with the default display. */
    if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base"))
        app.dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    else
        app.dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (app.dpy == EGL_NO_DISPLAY || !eglInitialize(app.dpy, &major, &minor)) {
        fprintf(stderr, "replay_compare: no EGL surfaceless display (0x%x)\n", (unsigned)eglGetError());
        return false;
    }
    static const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT | EGL_OPENGL_ES3_BIT, EGL_NONE };
    EGLint n = 0;
    if (!eglChooseConfig(app.dpy, attribs, &app.cfg, 1, &n) || n < 1) {
        fprintf(stderr, "replay_compare: no EGL config for GL and GLES 3 (0x%x)\n", (unsigned)eglGetError());
        return false;
    }
    return true;
}

static EGLContext make_context(const struct rctx *c, EGLContext share)
{
    EGLint attribs[16], n = 0;
    attribs[n++] = EGL_CONTEXT_MAJOR_VERSION;
    attribs[n++] = c->major;
    attribs[n++] = EGL_CONTEXT_MINOR_VERSION;
    attribs[n++] = c->minor;
    if (!c->es) {
        attribs[n++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attribs[n++] = (c->profile_mask & 1) ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                             : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    attribs[n] = EGL_NONE;
    eglBindAPI(c->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    return eglCreateContext(app.dpy, app.cfg, share, attribs);
}

/* One EGL context per captured context, with the captured share relations. */
static bool create_contexts(const char *meta)
{
    cJSON *root = cJSON_Parse(meta);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "contexts"), *e;
    cJSON_ArrayForEach(e, list) {
        if (app.n_ctx == MAX_CTX)
            break;
        struct rctx *c = &app.ctx[app.n_ctx];
        const cJSON *v;
        c->id = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "id"));
        v = cJSON_GetObjectItemCaseSensitive(e, "share_group");
        c->group = cJSON_IsNumber(v) ? (uint32_t)v->valuedouble : c->id;
        c->es = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "es"));
        v = cJSON_GetObjectItemCaseSensitive(e, "major");
        c->major = cJSON_IsNumber(v) && v->valueint > 0 ? v->valueint : 2;
        v = cJSON_GetObjectItemCaseSensitive(e, "minor");
        c->minor = cJSON_IsNumber(v) && v->valueint >= 0 && c->major > 2 ? v->valueint : (c->major == 2 ? 1 : 0);
        v = cJSON_GetObjectItemCaseSensitive(e, "profile_mask");
        c->profile_mask = cJSON_IsNumber(v) ? v->valueint : 0;
        struct rctx *first = ctx_of(c->group);
        c->egl = make_context(c, first && first != c ? first->egl : EGL_NO_CONTEXT);
        if (c->egl == EGL_NO_CONTEXT) {
            fprintf(stderr, "replay_compare: cannot create context %u (%s %d.%d): 0x%x\n", c->id,
                    c->es ? "GLES" : "GL", c->major, c->minor, (unsigned)eglGetError());
            cJSON_Delete(root);
            return false;
        }
        app.n_ctx++;
    }
    cJSON_Delete(root);
    if (!app.n_ctx)
        fprintf(stderr, "replay_compare: the capture's metadata lists no context\n");
    return app.n_ctx > 0;
}

static EGLSurface ctx_surface[MAX_CTX];

/* A make-current record carries the captured draw surface's size: give the context a pbuffer of that
 * size the first time, so its initial viewport and scissor box are the captured ones. */
static bool make_current_sized(uint32_t id, uint64_t w, uint64_t h)
{
    struct rctx *c = ctx_of(id);
    if (!c)
        return false;
    size_t k = (size_t)(c - app.ctx);
    if (!ctx_surface[k] && w && h && w <= 16384 && h <= 16384) {
        const EGLint pb[] = { EGL_WIDTH, (EGLint)w, EGL_HEIGHT, (EGLint)h, EGL_NONE };
        ctx_surface[k] = eglCreatePbufferSurface(app.dpy, app.cfg, pb);
    }
    EGLSurface surf = ctx_surface[k] ? ctx_surface[k] : EGL_NO_SURFACE;
    eglBindAPI(c->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    if (!eglMakeCurrent(app.dpy, surf, surf, c->egl))
        return false;
    app.current = id;
    return true;
}

static bool make_current(uint32_t id)
{
    struct rctx *c = ctx_of(id);
    if (!c)
        return false;
    size_t k = (size_t)(c - app.ctx);
    EGLSurface surf = ctx_surface[k] ? ctx_surface[k] : EGL_NO_SURFACE;
    eglBindAPI(c->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    if (!eglMakeCurrent(app.dpy, surf, surf, c->egl))
        return false;
    app.current = id;
    return true;
}

/* A CLIENT_ARRAY record (attrib index, size, type, normalized, integer, stride, first vertex,
 * captured pointer; blob: the data from the first vertex on): point the attribute at the recorded
 * bytes for the draw that follows. The replay's pointer then differs from the captured address the
 * model keeps; gl_fields.c does not compare pointers of client arrays. */
static void client_array(const struct glr_call *c)
{
    GLuint index = (GLuint)c->args[0];
    GLint size = (GLint)c->args[1];
    GLenum type = (GLenum)c->args[2];
    GLsizei stride = (GLsizei)c->args[5];
    uint64_t first = c->args[6];
    if (!c->blobs[0].size)
        return;
    GLint eff = stride;
    if (!eff) {
        int bytes = type == GL_DOUBLE ? 8 : (type == GL_SHORT || type == GL_UNSIGNED_SHORT ||
                                             type == GL_HALF_FLOAT) ? 2
                  : (type == GL_BYTE || type == GL_UNSIGNED_BYTE) ? 1 : 4;
        eff = size == GL_BGRA ? 4 * bytes : size * bytes;
    }
    /* The driver reads from vertex `first` on, which is where the recorded bytes start. */
    uintptr_t base = (uintptr_t)c->blobs[0].data - (uintptr_t)(first * (uint64_t)eff);
    if (c->args[4])
        glVertexAttribIPointer(index, size, type, stride, (const void *)base);
    else
        glVertexAttribPointer(index, size, type, c->args[3] ? GL_TRUE : GL_FALSE, stride,
                              (const void *)base);
}

/* ------------------------------------------------------------------ options */

struct opts {
    const char *path;
    bool draws, end, restore, perturb, list_draws;
    uint64_t *events;
    size_t n_events;
};

/* A draw by the registry's command classes (gl_annotations.txt class DRAW), not by its name. */
static bool is_draw(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && (glr_cmds[cmd].flags & GLR_CF_DRAW);
}

static bool parse_opts(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--draws"))
            o->draws = true;
        else if (!strcmp(a, "--end"))
            o->end = true;
        else if (!strcmp(a, "--restore"))
            o->restore = true;
        else if (!strcmp(a, "--perturb"))
            o->perturb = true;
        else if (!strcmp(a, "--list-draws"))
            o->list_draws = true;
        else if (!strcmp(a, "--events") && i + 1 < argc) {
            char *s = argv[++i], *end;
            while (*s) {
                uint64_t v = strtoull(s, &end, 10);
                if (end == s)
                    return false;
                uint64_t *p = realloc(o->events, (o->n_events + 1) * sizeof *p);
                if (!p)
                    return false;
                o->events = p;
                o->events[o->n_events++] = v;
                s = *end == ',' ? end + 1 : end;
                if (*end && *end != ',')
                    return false;
            }
        } else if (a[0] != '-' && !o->path)
            o->path = a;
        else
            return false;
    }
    return o->path != NULL;
}

static bool wanted(const struct opts *o, uint64_t index, const struct glr_call *next)
{
    for (size_t i = 0; i < o->n_events; i++)
        if (o->events[i] == index)
            return true;
    return (o->draws && next && is_draw(next->cmd)) || (o->end && !next);
}

/* ------------------------------------------------------------------ the checks */

struct totals {
    unsigned events, skipped_events, fields, mismatches, restores;
    unsigned dispatched, skipped, missing, bad, client_arrays;
};

static void dispatch_note(struct totals *t, int r, const struct glr_call *c)
{
    if (r == GLR_DISPATCH_OK)
        t->dispatched++;
    else if (r == GLR_DISPATCH_SKIPPED)
        t->skipped++;
    else if (r == GLR_DISPATCH_MISSING && t->missing++ < 5)
        fprintf(stderr, "replay_compare: note: the driver lacks %s\n", glr_call_name(c->cmd));
    else if (r == GLR_DISPATCH_BAD && t->bad++ < 5)
        fprintf(stderr, "replay_compare: note: %s (seq %llu) has malformed recorded data\n",
                glr_call_name(c->cmd), (unsigned long long)c->seq);
}

/* Recreates the model's state on a fresh context with sm_restore_calls and compares it. Calls for
 * other contexts than the compared one and its share group's first context are left out. */
static void restore_check(struct totals *t, const struct sm_state *s, uint32_t ctx, const char *where)
{
    struct rctx *c = ctx_of(ctx);
    EGLContext fresh = c ? make_context(c, EGL_NO_CONTEXT) : EGL_NO_CONTEXT;
    if (fresh == EGL_NO_CONTEXT || !eglMakeCurrent(app.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, fresh)) {
        printf("%s [restore] cannot create a fresh context\n", where);
        t->mismatches++;
        return;
    }
    struct sm_call_list l = { 0 };
    struct glr_dispatch *d = glr_dispatch_create(get_proc, name_space, NULL);
    if (!d || !sm_restore_calls(s, &l)) {
        printf("%s [restore] out of memory making the restore calls\n", where);
        t->mismatches++;
    } else {
        uint32_t group_first = c->group;
        for (size_t i = 0; i < l.count; i++)
            if (l.calls[i].ctx_id == ctx || l.calls[i].ctx_id == group_first)
                dispatch_note(t, glr_dispatch_call(d, &l.calls[i]), &l.calls[i]);
        char w[256];
        snprintf(w, sizeof w, "%s [restore]", where);
        struct field_check k = { .d = d, .ctx = ctx, .where = w };
        compare_fields(&k, sm_context_get(s, ctx));
        t->fields += k.fields;
        t->mismatches += k.mismatches;
        t->restores++;
    }
    sm_call_list_free(&l);
    glr_dispatch_destroy(d);
    eglMakeCurrent(app.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(app.dpy, fresh);
    make_current(app.current);
}

static void compare_event(struct totals *t, const struct opts *o, struct sm_state *s,
                          struct glr_dispatch *d, uint64_t index, const struct glr_call *next)
{
    const struct sm_context *mc = app.current ? sm_context_get(s, app.current) : NULL;
    if (!mc) {
        printf("event %llu: no context current in the replay: not compared\n", (unsigned long long)index);
        t->skipped_events++;
        return;
    }
    if (o->perturb && t->events == 0) {
        /* The model alone gets a depth function the replay never saw. */
        struct glr_call c;
        memset(&c, 0, sizeof c);
        c.cmd = (uint32_t)glr_cmd_find("glDepthFunc");
        c.ctx_id = app.current;
        c.args[0] = GL_NOTEQUAL;
        sm_apply(s, &c);
    }
    char where[160];
    snprintf(where, sizeof where, "event %llu (before %s)", (unsigned long long)index,
             next ? glr_call_name(next->cmd) : "the end");
    char w[200];
    snprintf(w, sizeof w, "%s [replay]", where);
    struct field_check k = { .d = d, .ctx = app.current, .where = w };
    compare_fields(&k, mc);
    t->events++;
    t->fields += k.fields;
    t->mismatches += k.mismatches;
    if (o->restore)
        restore_check(t, s, app.current, where);
}

static int run(const struct opts *o, const void *stream, size_t size, const char *meta)
{
    if (o->list_draws) {
        struct glr_stream st;
        struct glr_call c;
        glr_stream_init(&st, stream, size);
        int rc;
        while ((rc = glr_stream_next(&st, &c)) == 1)
            if (is_draw(c.cmd))
                printf("%llu\n", (unsigned long long)(st.index - 1));
        if (rc < 0)
            fprintf(stderr, "replay_compare: %s\n", st.err);
        return rc < 0 ? 2 : 0;
    }
    if (!egl_init() || !create_contexts(meta))
        return 2;
    struct sm_state *s = sm_state_new();
    char err[256];
    if (!s || sm_declare_capture_contexts(s, meta, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "replay_compare: metadata: %s\n", s ? err : "out of memory");
        sm_state_free(s);
        return 2;
    }
    struct glr_dispatch *d = glr_dispatch_create(get_proc, name_space, NULL);
    struct totals t = { 0 };
    struct glr_stream st;
    struct glr_call c;
    glr_stream_init(&st, stream, size);
    int rc;
    uint64_t index = 0;
    while ((rc = glr_stream_next(&st, &c)) == 1) {
        index = st.index - 1;
        if (wanted(o, index, &c))
            compare_event(&t, o, s, d, index, &c);
        sm_apply(s, &c);
        if (c.cmd == GLR_PSEUDO_MAKE_CURRENT) {
            if (c.ctx_id && !make_current_sized(c.ctx_id, c.args[0], c.args[1]))
                fprintf(stderr, "replay_compare: note: cannot make context %u current\n", c.ctx_id);
        } else if (c.cmd == GLR_PSEUDO_CLIENT_ARRAY) {
            if (c.ctx_id && c.ctx_id != app.current)
                make_current(c.ctx_id);
            client_array(&c);
            t.client_arrays++;
        } else if (c.cmd < GLR_CMD_COUNT) {
            if (c.ctx_id && c.ctx_id != app.current)
                make_current(c.ctx_id);
            dispatch_note(&t, glr_dispatch_call(d, &c), &c);
        }
    }
    if (rc == 0 && wanted(o, st.index, NULL))
        compare_event(&t, o, s, d, st.index, NULL);
    if (rc < 0)
        fprintf(stderr, "replay_compare: %s\n", st.err);
    printf("replay_compare: %llu records, %u calls dispatched (replay and restores), %u skipped (queries), %u missing, %u malformed, "
           "%u client arrays; %u events compared (%u skipped), %u restores, %u fields, %u mismatches\n",
           (unsigned long long)st.index, t.dispatched, t.skipped, t.missing, t.bad, t.client_arrays,
           t.events, t.skipped_events, t.restores, t.fields, t.mismatches);
    if (sm_unhandled_calls(s))
        printf("replay_compare: note: %llu calls not modelled\n", (unsigned long long)sm_unhandled_calls(s));
    glr_dispatch_destroy(d);
    sm_state_free(s);
    eglMakeCurrent(app.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    for (int i = 0; i < app.n_ctx; i++)
        eglDestroyContext(app.dpy, app.ctx[i].egl);
    eglTerminate(app.dpy);
    if (rc < 0)
        return 2;
    return (t.mismatches || !t.events) ? 1 : 0;
}

int main(int argc, char **argv)
{
    struct opts o;
    if (!parse_opts(argc, argv, &o)) {
        fprintf(stderr, "usage: replay_compare CAPTURE.glcap [--draws] [--events K,K,..] [--end] "
                        "[--restore] [--perturb] | --list-draws\n");
        return 2;
    }
    char err[512];
    glcap_reader *r = glcap_reader_open(o.path, NULL, err, sizeof err);
    if (!r) {
        fprintf(stderr, "replay_compare: %s\n", err);
        return 2;
    }
    int64_t si = glcap_reader_find(r, GLCAP_SECTION_COMMAND_STREAM, 0);
    int64_t mi = glcap_reader_find(r, GLCAP_SECTION_METADATA, 0);
    void *stream = NULL, *meta = NULL;
    size_t size = 0, msize = 0;
    int rc = 2;
    if (si < 0 || mi < 0)
        fprintf(stderr, "replay_compare: %s: no command stream or metadata\n", o.path);
    else if (glcap_reader_load(r, (uint32_t)si, &stream, &size) != 0 ||
             glcap_reader_load(r, (uint32_t)mi, &meta, &msize) != 0)
        fprintf(stderr, "replay_compare: %s\n", glcap_reader_error(r));
    else
        rc = run(&o, stream, size, meta);
    free(stream);
    free(meta);
    free(o.events);
    glcap_reader_close(r);
    return rc;
}
