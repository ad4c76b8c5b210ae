/* report: `glreplay report F.glcap --out DIR` writes a self-contained HTML page of a captured frame
 * (docs/REPORT.md): DIR/index.html with its script and style, scripts in DIR/data/ (the frame's
 * events, per-event details, the model's agreement, the profile) and PNGs in DIR/thumbs/ (the
 * render target after every draw, clear and blit, downscaled). The page needs no server: data files are scripts
 * that call the window.glrReport collectors (a page opened from disk may not fetch() files next to it).
 *
 * The first part is the API the CLI verb uses; the rest is shared by the files of this folder. */
#ifndef GLR_REPORT_H
#define GLR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

struct glr_report_options {
    const char *capture;     /* the .glcap file */
    const char *out_dir;     /* created if missing; must be empty or hold an earlier report */
    const char *self_exe;    /* the glreplay executable: `model --compare` and `profile` run in it */
    bool model;              /* run the GPU model against the driver (per-draw agreement) */
    bool profile;            /* GPU model telemetry: hot lines, stall reasons, counter series */
    unsigned thumb_max;      /* longest side of a thumbnail in pixels */
    bool progress;           /* progress lines on stderr */
};

/* Writes the report. 0 on success; -1 with a one-line message in err. */
int glr_report_write(const struct glr_report_options *o, char *err, size_t err_size);

/* ---------------------------------------------------------------- internal to ui_ipc/report */

/* Writes `<prefix>(JSON);` to path: the JSON text is escaped so that it is inert inside a script
 * (every '<', '>', '&', U+2028 and U+2029 as \u escapes). 0 on success, -1 with err set. */
int glrr_write_js(const char *path, const char *prefix, const cJSON *json, char *err, size_t err_size);

/* The events pass (report_events.c): walks the command stream through the state model and writes
 * data/events.js, data/programs.js and data/d/<record>.js for every draw, clear and blit (API state,
 * program, textures read, buffers, vertex inputs) and PNGs of textures in data/tex/. */
struct glrr_events_summary {
    uint64_t records, draws, clears, blits;
};
int glrr_write_events(const char *capture, const char *out_dir, bool progress,
                      struct glrr_events_summary *sum, char *err, size_t err_size);

/* The state at every event (report_states.c): data/s/<chunk>.js, GLRR_STATE_CHUNK records each:
 * every context's state before the chunk and the changes each record made. Fed by the events pass:
 * _before ahead of applying record rec, _after once it is applied. */
#define GLRR_STATE_CHUNK 256
struct glrr_states;
struct sm_state;
struct glrr_states *glrr_states_new(const char *out_dir, const struct sm_state *initial);
int glrr_states_before(struct glrr_states *t, uint64_t rec, char *err, size_t err_size);
int glrr_states_after(struct glrr_states *t, uint64_t rec, const struct sm_state *s, char *err, size_t err_size);
/* The object (texture or buffer) record rec wrote, shown with its changes; takes obj (NULL: none). */
void glrr_states_object(struct glrr_states *t, uint64_t rec, cJSON *obj);
int glrr_states_finish(struct glrr_states *t, char *err, size_t err_size);
void glrr_states_free(struct glrr_states *t);

/* The thumbnails pass (report_thumbs.c): replays the capture on the driver (EGL surfaceless) and
 * writes thumbs/<record>.png after every draw, clear and blit. The number written in *written. */
int glrr_write_thumbs(const char *capture, const char *out_dir, unsigned max_side, bool progress,
                      uint64_t *written, uint64_t *texture_images, char *err, size_t err_size);

/* The textures each draw samples as the driver holds them right before it (report_textures.c):
 * PNGs in data/dtex/ and data/dtex.js. Fed from the thumbnails pass's driver replay. */
struct glrr_dtex;
struct glrh_context;
struct glrr_dtex *glrr_dtex_new(const char *out_dir);
void glrr_dtex_free(struct glrr_dtex *t);
void glrr_dtex_before_draw(struct glrr_dtex *t, uint64_t record, const struct glrh_context *ctx);
int glrr_dtex_finish(struct glrr_dtex *t, uint64_t *images, char *err, size_t err_size);

/* Runs `exe ARGS...` and returns its standard output (malloc'd, NUL-terminated) when it exits 0
 * or 1 (`model --compare` exits 1 when a comparison fails); NULL with err set (the last line
 * of its stderr) otherwise. */
char *glrr_run_capture_stdout(const char *const *argv, char *err, size_t err_size);

/* Writes an RGBA8 image (rows bottom-up) downscaled so that its longest side is at most max_side,
 * as a PNG (top row first). 0 or -1 with err set. */
int glrr_write_thumb_png(const char *path, const uint8_t *rgba, unsigned w, unsigned h, unsigned max_side,
                         char *err, size_t err_size);

/* The page's files (generated from assets/ at build time: report_assets.c). */
struct glrr_asset {
    const char *name;
    const unsigned char *data;
    size_t size;
};
extern const struct glrr_asset glrr_assets[];
extern const size_t glrr_n_assets;

#endif
