/* Private state of a DAP session, shared by the router (dap_session.c), the pass engine (dap_pass.c)
 * and the request handlers (dap_inspect.c, dap_custom.c, ...). */
#ifndef GLR_DAP_SESSION_INTERNAL_H
#define GLR_DAP_SESSION_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <cjson/cJSON.h>
#include "shadow/shadow.h"
#include "debugger/dbg_bind.h"
#include "debugger/dbg_engine.h"
#include "ui_ipc/dap/dap_pixel.h"
#include "ui_ipc/dap/dap_session.h"

#define DAP_MAX_BINDINGS 16

/* One breakpoint as the client set it, with the shader locations it bound to. */
struct dap_src_bp {
    int id, line;
    char *condition, *log_message;
    enum dbg_hit_op hit_op;
    uint64_t hit_n;
    int n_locs;
    int loc_shader[DAP_MAX_BINDINGS], loc_line[DAP_MAX_BINDINGS];
};

/* The breakpoints of one source (setBreakpoints replaces them all). */
struct dap_src {
    char *key;         /* "path:<path>" or "ref:<id>" */
    char *path;        /* a file on disk, or NULL */
    struct dbg_binding binds[DAP_MAX_BINDINGS];
    int n_binds;
    struct dap_src_bp *bps;
    int n_bps;
};

/* A variablesReference handed to the client (valid until the next stop). */
enum dap_ref_kind {
    DAP_REF_LOCALS,     /* locals of frame `depth` for the focused lane */
    DAP_REF_WARP,       /* every variable, each expandable per lane */
    DAP_REF_UNIFORMS,
    DAP_REF_BUILTINS,
    DAP_REF_PIPELINE,   /* JSON subtree of the pipeline state */
    DAP_REF_VALUE,      /* an aggregate value: var, lane, type, word offset */
    DAP_REF_LANES,      /* one variable across the 32 lanes */
};

struct dap_ref {
    enum dap_ref_kind kind;
    int depth;
    int var, lane, type, offset;
    const cJSON *json;  /* into the session's parsed pipeline state */
    int thread;         /* 1: the stopped warp; 2..: a resident warp (dap_session.others) */
    char eval[80];      /* VALUE: the expression of the value for `evaluate` ("" if none) */
};

/* Frame ids: (thread - 1) * DAP_FRAME_STRIDE + depth + 1 (dap_inspect.c). */
#define DAP_FRAME_STRIDE 1024

struct dap_session;
struct dbg_exc_hit;
/* What the end of a pass and of the session mean to the request handlers above the pass engine
 * (dap_pass.c), installed by the router (dap_session.c) when the session is created, so that the
 * engine does not call up into the handlers that start its passes. */
struct dap_pass_hooks {
    void (*view_reset)(struct dap_session *s);            /* the view's references (dap_inspect_reset) */
    void (*history_clear)(struct dap_session *s);         /* the kept stops of step back */
    void (*park_done)(struct dap_session *s, const struct dbg_pass_res *r);   /* a park pass ended */
    bool (*is_function_bp)(const struct dap_session *s, int id);
    bool (*is_instruction_bp)(const struct dap_session *s, int id);
    /* a stop: kept for step back (dap_history_stopped) */
    void (*stopped)(struct dap_session *s, int kind, enum dbg_step step, const struct dbg_pass_res *r,
                    uint64_t snap_id, const uint64_t *other_ids, const char *desc);
    void (*exception_stopped)(struct dap_session *s, const struct dbg_exc_hit *x, cJSON *body);
    /* reverseContinue's pass (dap_history_reverse) */
    void (*reverse)(struct dbg_runner *r, struct dbg_pass_req *req, struct dbg_pass_res *res);
    void (*handlers_free)(struct dap_session *s);         /* the session ends */
    void (*redispatch)(struct dap_session *s, cJSON *msg);   /* a held message, handled again */
};

struct dap_session {
    struct dbg_capture *cap;
    struct dbg_runner *runner;
    struct dap_session_host host;
    struct dap_pass_hooks hooks;
    void *conn;
    int seq;
    bool initialized, attached, configured, terminated, closing;
    bool no_debug;      /* launch with noDebug: the frame runs without stopping */
    cJSON *pending_attach;
    struct dap_src *sources;
    int n_sources;
    int next_bp_id;
    int log_limit;
    /* passes */
    bool running, stopped;
    /* `running` is a job that leaves the stop as it is and reads only the capture (a replay of the
     * driver for glreplay/eventImages, glreplay/pixelHistory, finding debugPixel's invocation): the
     * stop stays inspectable meanwhile (the frame view asks for images right after a stop). */
    bool side_job;
    bool at_end;         /* the last pass ran to the end of the frame: stopped there, no snapshot */
    /* A breakpoint source file is being read off the I/O thread (dap_session.c, read_source_main):
     * the client's later messages wait in `held`, in order, until its setBreakpoints is answered. */
    bool reading;
    cJSON *held;
    /* A pass replays the frame to the shown stop so texture functions can sample there
     * (dap_park.c): later messages wait in `held` too. no_park: the session is ending. */
    bool parking, no_park;
    atomic_int pause;
    uint64_t pos_seq;    /* where the view is in the pass order: instruction index and lane */
    int pos_lane;
    /* pos_seq was counted by a run that left draws out (debug this pixel's earlier passes from the
     * driver): a continue or reverseContinue from it first parks a full run at the stop (dap_park.c) */
    bool pos_partial;
    struct dbg_stop_key key;
    bool have_key;
    sh_store *store;
    sh_snapshot *snap;   /* the current stop */
    int focus;           /* focused lane */
    /* The other warps resident at the stop (threads 2..n_others+1; thread 1 is snap). */
    sh_snapshot **others;
    int n_others;
    struct dbg_stop_key *other_keys;   /* per other warp: where a step of it starts */
    bool *other_key_ok;
    int step_thread;                   /* the thread the next step pass follows (1: snap's) */
    int view_thread;     /* the thread an inspection request is answered for (dap_inspect.c) */
    /* inspection */
    struct dap_ref *refs;
    int n_refs, cap_refs;
    /* refs by content (open addressing, index + 1; 0 empty): the same variable asked for again
     * within a stop gets the same reference (DAP: valid until the next resume). */
    int *ref_slots;
    int n_ref_slots;
    cJSON *pipeline;     /* parsed pipeline JSON of the current snapshot */
    bool in_process;     /* glr_dap_options.in_process: no driver replay in this process */
    int *model_pass_started;   /* glr_dap_options.model_pass_started */
    /* debug this pixel (dap_pixel.h): the next run pass stops at this invocation only */
    bool pixel_pending;
    struct dap_pixel_stop pixel;
    /* its history's earlier passes from the driver, for that pass's own run (NULL: it models them) */
    struct pxh_pass_feed *pixel_feed;
    /* stepping backwards (dap_history.c): the kept stops, and the call depth at the key */
    struct dap_history *hist;
    int key_depth;
    /* Exception breakpoints (dbg_exception.h, dap_feat_session.c): the filters set, and the
     * current stop's exception when it is one (exceptionInfo). */
    unsigned exc_filters;
    bool have_exc;
    struct dbg_exc_hit exc;
    /* Function breakpoints (dap_feat_session.c): their bound locations, passed like line ones. */
    struct dap_src_bp *fn_bps;
    int n_fn_bps;
    /* Instruction breakpoints (dap_feat_session.c): loc_shader[0], loc_line[0] the pc's line,
     * `line` holds the pc. */
    struct dap_src_bp *ins_bps;
    int n_ins_bps;
    /* setVariable values (dap_setvar.c): applied by every pass until a run from the start. */
    struct dbg_override *overrides;
    int n_overrides;
    /* glreplay/profile results of this session only (dap_profile.c) */
    struct dap_profile_store *profiles;
};

/* BACK and REVERSE: stepBack / reverseContinue through the model (dap_history.h); REFRESH: replay
 * to the current stop (setVariable: the new snapshot); PARK: the same, keeping the view (dap_park.c). */
enum dap_pass_kind { DAP_PASS_RUN, DAP_PASS_CONTINUE, DAP_PASS_STEP, DAP_PASS_BACK, DAP_PASS_REVERSE,
                     DAP_PASS_REFRESH, DAP_PASS_PARK };
/* Releases the resident warps' snapshots of the current stop. */
void dap_session_drop_others(struct dap_session *s);
/* dap_pass.c: frees the session (its handlers' parts through hooks.handlers_free). */
void dap_session_free(struct dap_session *s);
/* The client is told it is stopped at the frame's end (no invocation to show). */
void dap_stop_at_end(struct dap_session *s, const char *why, bool ran);
/* Nothing a pass could stop at or print (no bound breakpoint, no exception filter, no pixel). */
bool dap_nothing_to_stop(const struct dap_session *s);

void dap_respond(struct dap_session *s, const cJSON *req, bool ok, cJSON *body, const char *message);
void dap_event(struct dap_session *s, const char *name, cJSON *body);
void dap_output(struct dap_session *s, const char *category, const char *text);
int dap_start_pass(struct dap_session *s, enum dap_pass_kind kind, enum dbg_step step);
/* Another worker than a pass (dap_profile.c) set s->running and ended its job (lock held):
 * clears running, and frees the session if its connection went away meanwhile (true). */
bool dap_session_job_done(struct dap_session *s);
/* A `continued` event (thread 1, all threads): a pass starts that no request of the client's
 * implied (debugPixel, debugVertex, new breakpoints at the frame's end); DAP: ContinuedEvent. */
void dap_session_continued(struct dap_session *s);

/* dap_inspect.c: true if the command was one of its requests (answered). */
bool dap_inspect_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);
/* breakpointLocations, completions (dap_protocol_extra.c). */
bool dap_protocol_extra_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);
void dap_inspect_reset(struct dap_session *s);
/* The client-facing source of a shader (file path with line offset if a breakpoint file bound it). */
cJSON *dap_source_json(struct dap_session *s, int shader, int shader_line, int *client_line);
struct dbg_shader;
/* A shader as a DAP Source for loadedSources/loadedSource: its captured text by sourceReference,
 * with the path of the file on disk a breakpoint bound to it, if any. */
cJSON *dap_shader_source_json(struct dap_session *s, const struct dbg_shader *sh);
/* Sends loadedSource events with `reason` for every shader (shader 0) or one shader id. */
void dap_loaded_source_events(struct dap_session *s, const char *reason, int shader);

/* Debug this pixel (launch/attach argument "pixel", glreplay/debugPixel): resolves the stop and
 * makes it the next run pass's. false with err set. */
bool dap_session_set_pixel(struct dap_session *s, const cJSON *pixel, char *err, size_t err_size);
/* Debug this vertex (launch/attach argument "vertex", glreplay/debugVertex: dap_vertex_resolve). */
bool dap_session_set_vertex(struct dap_session *s, const cJSON *vertex, char *err, size_t err_size);

/* dap_feat_session.c: setExceptionBreakpoints, exceptionInfo, setFunctionBreakpoints (true if
 * the command was one of them, answered). */
bool dap_feat_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);
/* A pass ended in an exception stop: the stopped event's body fields (description, text). */
void dap_feat_exception_stopped(struct dap_session *s, const struct dbg_exc_hit *x, cJSON *body);
/* Whether a breakpoint id is a function breakpoint's (its stop's reason is "function breakpoint"). */
bool dap_feat_is_function_bp(const struct dap_session *s, int id);
/* Whether it is an instruction breakpoint's (reason "instruction breakpoint"). */
bool dap_feat_is_instruction_bp(const struct dap_session *s, int id);
/* Frees the function breakpoints (session end). */
void dap_feat_free(struct dap_session *s);

/* dap_warp_eval.c: glreplay/evaluateWarp and glreplay/heatmap (true if answered or started). */
bool dap_warp_eval_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);

/* PNG (base64) of an RGBA8 image whose rows are bottom-up (dap_custom.c); malloc'd, NULL when out
 * of memory. */
char *dap_png_base64(const uint8_t *px, unsigned w, unsigned h);

/* dap_setvar.c: setVariable (true if the command was it, answered). */
bool dap_setvar_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);
/* evaluate's texture functions at a stop (dap_inspect.c): a dbg_eval_env sample callback whose ctx
 * is a dap_sample_ctx (the session and the snapshot evaluated). */
struct dap_sample_ctx {
    struct dap_session *s;
    const sh_snapshot *snap;
    bool not_parked;   /* set when the model was not parked in the snapshot's draw */
};
int dap_sample_at_stop(void *ctx, const gm_sample_request *rq, gm_texel_out *out, char *err, size_t err_size);

/* dap_park.c. A request whose texture function found the model parked elsewhere (sc->not_parked):
 * true when it waits for a pass that parks the model at the shown stop, then is handled again
 * (the caller answers nothing); false: answer it now. */
bool dap_park_retry(struct dap_session *s, const cJSON *req, const struct dap_sample_ctx *sc);
/* A continue or reverseContinue from a stop whose position is partial (pos_partial): held, and a
 * park pass replays the whole frame to the stop to count it; true when held. */
bool dap_park_first(struct dap_session *s, const cJSON *req);
/* A message arrives while a park pass runs (it is held): a disconnect or terminate cuts it short. */
void dap_park_hold(struct dap_session *s, const cJSON *msg);
/* The park pass ended (lock held): the held messages are handled in order. */
void dap_park_done(struct dap_session *s, const struct dbg_pass_res *r);

/* dap_custom.c: glreplay/... requests. */
bool dap_custom_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);

/* dap_profile.c (built with the telemetry spine): glreplay/profile, and dropping the session's results. */
void dap_profile_request(struct dap_session *s, const cJSON *req, const cJSON *args);
void dap_profile_session_end(struct dap_session *s);

#endif
