/* compare/: the model-vs-driver comparison engine (the public header of the folder).
 *
 * Runs a capture's records through the GPU model (gpu_model/frame) and, with `compare`, replays
 * the same records on the driver (EGL surfaceless, through the replay dispatcher) in lock step:
 * after every draw and clear each render target of the bound draw framebuffer is read from both
 * and compared (colour: a pixel agrees when every channel is within +-1/255; depth: within
 * 1/65536, desktop GL only), at every swap the default framebuffer; after a compute dispatch every
 * bound shader storage buffer, after a draw with transform feedback active its buffers (share of
 * 32-bit words equal, or as floats within 1e-5 relative). Every swap's model image is also
 * compared with the capture's reference image of it, and so are the reference images of the
 * framebuffer object bound for drawing at a swap. The verdict (mcmp_fail_reasons) names every
 * reason a comparison cannot pass.
 *
 * The engine prints nothing: what a user interface shows goes through mcmp_hooks (`glreplay
 * model`, ui_ipc/cli/cli_model.c, prints text lines and the JSON document the engine fills).
 * It sits beside debugger/ in the data flow (over gpu_model, replay and statemodel), so the report
 * and the debugger may use it as the CLI does. */
#ifndef GLR_MODEL_COMPARE_H
#define GLR_MODEL_COMPARE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_model/frame/gmf_frame.h"
#include "replay/player/player.h"

/* A comparison passes at this share of agreeing pixels (or buffer words). */
#define MCMP_PASS_FRACTION 0.999

struct mcmp_run;
struct mcmp_driver;   /* the driver side (compare/mcmp_driver.c) */

/* What a user interface does with the run's output. All but `stopped` are called when set. */
struct mcmp_hooks {
    void *user;
    /* A draw, clear, dispatch or note event (not with json), and its comparisons as text
     * (" TARGET 99.9876%" for each). */
    void (*event)(const struct mcmp_run *r, const gmf_event *ev, const char *cmp_text);
    /* One line of a swap's or the capture end's comparisons (not with json). */
    void (*line)(void *user, const char *line);
    /* Every 256 records while `progress` is set; done once after the last record. */
    void (*progress)(struct mcmp_run *r, uint64_t record, bool done);
    /* A warning (a PNG that could not be written; once per process). */
    void (*warn)(void *user, const char *message);
    /* Why the run was asked to stop (timeout, Ctrl-C), NULL if it was not. */
    const char *(*stopped)(void);
};

/* Per render target (or buffer) statistics over the run. */
struct mcmp_target_stat {
    char name[64];
    uint64_t compared;
    double min_agreement, last_agreement;
    uint64_t min_record;
};

/* One run. The caller zeroes it, sets cap, m, the options, the hooks, root/events/swaps/frames (JSON output, filled by
 * the engine) and image_used (one flag per capture image, zeroed), then calls mcmp_run_stream. */
struct mcmp_run {
    const struct glrh_capture *cap;
    gmf_runner *m;
    struct mcmp_driver *drv;  /* allocated by mcmp_init */
    struct mcmp_hooks hooks;
    bool compare, json, benchmark, progress, trace;
    bool no_timing;           /* --no-timing */
    bool timing;              /* the runner uses the timing model (per-draw cycles) */
    uint64_t trace_hash, trace_count, trace_reads;
    uint64_t stopped_record;   /* --timeout / Ctrl-C: the record the run stopped at */
    const char *png_dir;
    cJSON *root, *events, *swaps;
    struct mcmp_target_stat *targets;
    size_t n_targets;
    uint64_t comparisons, failing;
    /* Reference images of the capture that could not be compared with the model (size differs,
     * the attachment is not bound in the model): each one is a failure of --compare. */
    uint64_t uncompared;
    char first_uncompared[160];
    double worst;
    char worst_name[96];
    bool passed;              /* --compare's verdict (report) */
    /* benchmark */
    double model_frame_s, driver_frame_s, last_progress;
    cJSON *frames;
    unsigned frame_index;
    bool *image_used;
};

/* Allocates the (closed) driver side of a zero-initialised run; -1 out of memory. */
int mcmp_init(struct mcmp_run *r);
/* Frees what the engine allocated: the driver side (closed first) and the target statistics. */
void mcmp_close(struct mcmp_run *r);

/* Opens the driver side: an EGL context per captured context, surfaces as planned. */
int mcmp_driver_open(struct mcmp_run *r, const struct glrh_capture *cap, const gmf_surface_desc *surf,
                     int n_surf, char *err, size_t n);
/* Restores a capture's initial snapshot on the driver side (glr_restore_run). */
int mcmp_driver_restore(struct mcmp_run *r, struct glr_restore *snapshot, struct glr_restore_stats *st,
                        char *err, size_t n);
/* Records the driver side could not replay (its image is then not the program's). */
uint64_t mcmp_driver_skipped(const struct mcmp_run *r);

/* Default framebuffer of each context: the same rule as `glreplay replay` (glrh_plan_surface).
 * Caller frees; NULL out of memory. */
gmf_surface_desc *mcmp_plan_surfaces(const struct glrh_capture *cap, int *n);

/* Feeds every record to the model (and the driver), comparing after each event. -1 with err set
 * when the model runs out of memory or the stream is malformed. */
int mcmp_run_stream(struct mcmp_run *r, char *err, size_t err_size);
/* After the last record: the reference images no swap matched. */
void mcmp_compare_end_references(struct mcmp_run *r, uint64_t record);
/* Why --compare fails, one phrase per reason (empty: it passes). */
void mcmp_fail_reasons(struct mcmp_run *r, const gmf_totals *t, int n_unsupported, char *out, size_t n);

/* --trace-hash: a gmf observer (ctx = the run) hashing every issued instruction's identity into
 * trace_hash (start it at the FNV-1a offset basis) and reading a variable at a sample of them. */
int mcmp_trace_observer(void *ctx, gm_warp *w, const gmf_issue *is);

#endif
