/* GPU model telemetry over a capture (gpu_model/telemetry/profile): the loader shared by
 * `glreplay profile` and the DAP request glreplay/profile, and that request. Each profile run
 * belongs to the session (connection) that asked for it: its result is kept under an id in that
 * session only; another connection asking for that id is refused. */
#ifndef GLR_DAP_PROFILE_H
#define GLR_DAP_PROFILE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "gmt_profile.h"

struct dbg_capture;
struct dap_session;

/* Runs a profile of the capture's frame. NULL with a one-line message. */
gmt_profile *dap_profile_capture(const struct dbg_capture *cap, const gmt_profile_options *opt, char *err,
                                 size_t err_size);

/* Source text of a captured program's stage (a gmt_profile_source_fn; ctx: the dbg_capture). */
const char *dap_profile_source(void *cap, uint32_t ctx_id, uint32_t program, gm_stage stage, const char *file);

/* glreplay/profile arguments -> options: counters (bool), counterMask, pcSampling (P),
 * pcMode ("round-robin" | "all"), seed, edges (B), edgesExact (bool), traceBuffers ("bb,mem,tex,reg").
 * 0, or -1 with a message. */
int dap_profile_parse_args(const cJSON *args, gmt_profile_options *opt, char *err, size_t err_size);

/* The request (lock held): {..options} runs a profile and answers {id, profile, lines[, chromeTrace]};
 * {id: N} answers a result this session made, and refuses another session's. */
void dap_profile_request(struct dap_session *s, const cJSON *req, const cJSON *args);
/* The session ends: its results are dropped. */
void dap_profile_session_end(struct dap_session *s);

#endif
