/* `glreplay state F.glcap --event K [--json] [--context ID]`: the API state at an event of a
 * capture, from the state model (statemodel/) applied to the recorded command stream; no GL
 * driver is involved. Event K is the point just before the K-th record of the stream (records
 * count from 0 and include the shim's context/swap events), so --event 0 is the start of the
 * capture and --event N (N records) is its end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "capture/glcap_file.h"
#include "statemodel/statemodel.h"
#include "registry/glr_call_codec.h"
#include "statemodel/sm_lists.h"
#include "replay/replay.h"
#include "replay/restore_reset.h"
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_state.h"

#define USAGE "usage: glreplay state F.glcap --event K [--json] [--context ID]"

static void help(void)
{
    printf(USAGE "\n\n"
           "Prints the GL state at event K of a capture as the state model computes it: the bound\n"
           "program and its uniform values, the vertex array, textures and samplers per unit, the\n"
           "framebuffer, viewport, scissor, blend, depth, stencil and raster state.\n\n"
           "  --event K     the state just before the K-th record of the command stream (records\n"
           "                count from 0 and include context, make-current and swap events);\n"
           "                0 is the start of the capture, N (the record count) its end\n"
           "  --json        strict JSON on stdout\n"
           "  --context ID  show this context (default: the one the K-th record runs on)\n\n"
           "Calls the model does not handle are counted and named in a note on stderr.\n");
}

struct options {
    const char *path;
    uint64_t event;
    bool have_event, json;
    uint32_t ctx;
};

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* --event's value (dest: struct options). */
static bool parse_event(const char *s, void *dest)
{
    struct options *o = dest;
    o->have_event = parse_u64(s, &o->event);
    return o->have_event;
}

/* --context's value (dest: uint32_t), a context id from 1. */
static bool parse_context(const char *s, void *dest)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v == 0 || v > UINT32_MAX)
        return false;
    *(uint32_t *)dest = (uint32_t)v;
    return true;
}

/* 0: parsed; 1: --help printed; 2: usage error printed. */
static int parse_args(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    bool help_asked = false;
    const struct cli_opt opts[] = {
        { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "-h", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "--json", .flag = &o->json, .set_to = true },
        { .name = "--event", .parse = parse_event, .dest = o, .needs = "a non-negative event number" },
        { .name = "--context", .parse = parse_context, .dest = &o->ctx, .needs = "a context id number" },
    };
    const struct cli_verb v = { .verb = "state", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .extra = "%v: unexpected argument '%a' (%u)" };
    int rc = cli_parse(&v, argc, argv, &o->path, NULL);
    if (rc == 1)
        help();
    if (rc != 0)
        return rc;
    if (!o->path || !o->have_event) {
        cli_error("state: %s (" USAGE ")", !o->path ? "no capture file given" : "--event K is required");
        return 2;
    }
    return 0;
}

/* Loads section (type, 0); NULL with *missing set when the capture has none. */
static void *load_section(glcap_reader *r, uint16_t type, size_t *size, bool *missing)
{
    *missing = false;
    int64_t idx = glcap_reader_find(r, type, 0);
    if (idx < 0) {
        *missing = true;
        return NULL;
    }
    void *data = NULL;
    if (glcap_reader_load(r, (uint32_t)idx, &data, size) != 0) {
        cli_error("%s", glcap_reader_error(r));
        return NULL;
    }
    return data;
}

/* The starting state: the capture's INITIAL_STATE if it has one, else an empty model with the
 * contexts of the metadata declared. */
static struct sm_state *initial_state(glcap_reader *r, const char *path, bool *state_known)
{
    size_t size;
    bool missing;
    struct sm_state *s = NULL;
    *state_known = false;
    void *init = load_section(r, GLCAP_SECTION_INITIAL_STATE, &size, &missing);
    if (!init && !missing)
        return NULL;
    if (init) {
        char err[256];
        s = sm_deserialize(init, size, err, sizeof err);
        free(init);
        if (!s) {
            cli_error("%s: initial state: %s", path, err);
            return NULL;
        }
        *state_known = true;
    } else if (!(s = sm_state_new())) {
        cli_error("out of memory");
        return NULL;
    }
    char *meta = load_section(r, GLCAP_SECTION_METADATA, &size, &missing);
    if (!meta && !missing) {
        sm_state_free(s);
        return NULL;
    }
    if (meta) {
        char err[256];
        bool dflt = false;
        if (sm_declare_capture_contexts(s, meta, &dflt, err, sizeof err) < 0) {
            cli_error("%s: section METADATA: %s", path, err);
            free(meta);
            sm_state_free(s);
            return NULL;
        }
        *state_known |= dflt;
        free(meta);
    }
    return s;
}

/* The display lists a snapshot capture kept (RESOURCE_BLOB kind 4), so glCallList applies their
 * state changes; lists compiled in the stream are added by the walk. NULL: out of memory. */
static struct sm_lists *load_lists(const char *path, const struct sm_state *s, bool snapshot)
{
    struct sm_lists *L = sm_lists_new();
    if (!L || !snapshot)
        return L;
    char err[256];
    struct glr_restore *snap = glr_restore_load(path, err, sizeof err);
    if (!snap) {
        cli_error("state: the snapshot's display lists are not applied: %s", err);
        return L;
    }
    for (size_t i = 0; i < glr_restore_content_count(snap); i++) {
        struct glr_restore_saved c;
        const struct sm_context *ctx;
        if (glr_restore_content_at(snap, i, &c) && c.kind == 4 && c.data && (ctx = sm_context_get(s, c.ctx_id)))
            sm_lists_keep(L, sm_context_share_id(ctx), c.name, c.data, (size_t)c.size);
    }
    glr_restore_free(snap);
    return L;
}

/* Applies records [0, event) and finds the context to show. */
struct walk {
    uint64_t records;       /* records applied */
    bool reached;           /* the event's record exists (event < record count) */
    struct glr_call at;     /* the record at the event, when reached */
    uint32_t last_ctx;      /* the last context a record before the event ran on */
};

static int walk_stream(struct sm_state *s, struct sm_lists *L, const void *data, size_t size, uint64_t event,
                       struct walk *w, uint64_t *total, const char *path)
{
    struct glr_stream st;
    struct glr_call c;
    glr_stream_init(&st, data, size);
    memset(w, 0, sizeof *w);
    int rc;
    while ((rc = glr_stream_next(&st, &c)) == 1) {
        if (st.index - 1 == event) {
            w->reached = true;
            w->at = c;
        }
        if (st.index - 1 < event) {
            sm_apply_listed(s, L, &c);   /* display lists: applied when called (sm_lists.h) */
            w->records++;
            if (c.ctx_id)
                w->last_ctx = c.ctx_id;
            else if (c.cmd == GLR_PSEUDO_CONTEXT_CREATE && !w->last_ctx)
                w->last_ctx = (uint32_t)c.args[0];
        }
    }
    *total = st.index;
    if (rc < 0) {
        /* The whole stream is read so a corrupt capture is reported whatever the event. */
        cli_error("%s: %s", path, st.err);
        return -1;
    }
    return 0;
}

/* One line on stderr naming the calls the model did not apply (they may change state). */
static void note_unhandled(const struct sm_state *s, uint64_t event)
{
    uint64_t calls = sm_unhandled_calls(s);
    if (!calls)
        return;
    uint32_t cmds[64];
    uint64_t counts[64];
    size_t n = sm_unhandled_list(s, cmds, counts, 64);
    size_t shown = n < 64 ? n : 64;
    /* Most frequent first: they are the likeliest to matter. */
    for (size_t i = 1; i < shown; i++)
        for (size_t k = i; k > 0 && counts[k] > counts[k - 1]; k--) {
            uint64_t tc = counts[k];
            uint32_t tm = cmds[k];
            counts[k] = counts[k - 1];
            cmds[k] = cmds[k - 1];
            counts[k - 1] = tc;
            cmds[k - 1] = tm;
        }
    fprintf(stderr, "glreplay: note: %llu call%s before event %llu not modelled (state they set is "
            "missing):", (unsigned long long)calls, calls == 1 ? "" : "s", (unsigned long long)event);
    for (size_t i = 0; i < shown && i < 5; i++)
        fprintf(stderr, "%s %s x%llu", i ? "," : "", glr_call_name(cmds[i]),
                (unsigned long long)counts[i]);
    fprintf(stderr, "%s\n", n > 5 ? ", ..." : "");
}

static int print_state(const struct sm_state *s, const struct options *o, uint32_t ctx,
                       const struct walk *w, uint64_t total)
{
    const char *next = w->reached ? glr_call_name(w->at.cmd) : NULL;
    if (o->json) {
        char *state = sm_query_json(s, ctx);
        cJSON *st = state ? cJSON_Parse(state) : NULL;
        free(state);
        cJSON *root = cJSON_CreateObject();
        if (!st || !root) {
            cJSON_Delete(st);
            cJSON_Delete(root);
            cli_error("out of memory");
            return 1;
        }
        cJSON_AddNumberToObject(root, "event", (double)o->event);
        cJSON_AddNumberToObject(root, "events", (double)total);
        if (next)
            cJSON_AddStringToObject(root, "next_call", next);
        else
            cJSON_AddNullToObject(root, "next_call");
        cJSON_AddNumberToObject(root, "context", ctx);
        cJSON_AddItemToObject(root, "state", st);
        char *out = cJSON_Print(root);
        cJSON_Delete(root);
        if (!out) {
            cli_error("out of memory");
            return 1;
        }
        puts(out);
        free(out);
    } else {
        printf("event %llu of %llu: before %s, context %u\n", (unsigned long long)o->event,
               (unsigned long long)total, next ? next : "the end of the capture", ctx);
        if (!sm_query_text(s, ctx, stdout)) {
            cli_error("cannot print the state of context %u", ctx);
            return 1;
        }
    }
    if (fflush(stdout) != 0) {
        cli_error("writing the output: %s", strerror(errno));
        return 1;
    }
    return 0;
}

int cli_state(int argc, char **argv)
{
    struct options o;
    int prc = parse_args(argc, argv, &o);
    if (prc)
        return prc == 1 ? 0 : 2;
    char err[512];
    glcap_reader *r = glcap_reader_open(o.path, NULL, err, sizeof err);
    if (!r) {
        cli_error("%s", err);
        return 1;
    }
    int rc = 1;
    bool known = false, missing;
    size_t size = 0;
    void *stream = NULL;
    struct sm_state *s = initial_state(r, o.path, &known);
    if (!s)
        goto out;
    stream = load_section(r, GLCAP_SECTION_COMMAND_STREAM, &size, &missing);
    if (!stream) {
        if (missing)
            cli_error("%s: no COMMAND_STREAM section (not a capture of calls)", o.path);
        goto out;
    }
    struct walk w;
    uint64_t total;
    struct sm_lists *lists = load_lists(o.path, s, glcap_reader_find(r, GLCAP_SECTION_INITIAL_STATE, 0) >= 0);
    int wrc = walk_stream(s, lists, stream, size, o.event, &w, &total, o.path);
    sm_lists_free(lists);
    if (wrc != 0)
        goto out;
    if (o.event > total) {
        cli_error("%s: event %llu out of range (the capture has %llu records: events 0..%llu)",
                  o.path, (unsigned long long)o.event, (unsigned long long)total,
                  (unsigned long long)total);
        goto out;
    }
    uint32_t ctx = o.ctx ? o.ctx : (w.reached && w.at.ctx_id) ? w.at.ctx_id : w.last_ctx;
    if (!ctx && sm_context_count(s))
        ctx = sm_context_id(sm_context_at(s, 0));
    if (!ctx || !sm_context_get(s, ctx)) {
        if (o.ctx)
            cli_error("%s: no context %u at event %llu", o.path, o.ctx, (unsigned long long)o.event);
        else
            cli_error("%s: no GL context exists at event %llu", o.path, (unsigned long long)o.event);
        goto out;
    }
    if (!known)
        fprintf(stderr, "glreplay: note: the capture does not start at context creation and has no "
                "saved initial state: only state set by the captured calls is shown\n");
    note_unhandled(s, o.event);
    rc = print_state(s, &o, ctx, &w, total);
out:
    free(stream);
    sm_state_free(s);
    glcap_reader_close(r);
    return rc;
}
