/* The in-process replay loop (docs/REPLAY.md, "In-process replay loop"): right after the program's
 * swap that ended a capture, the program is paused and the captured frame is replayed N times on
 * the driver, in the program's own process and window, then the program continues exactly as if
 * nothing happened.
 *
 * Isolation: the passes run on contexts of their own (one per captured context the frame uses:
 * same API, version, profile and drawable config, sharing objects among themselves and nothing
 * with the program's contexts); the one that swapped is current on the program's drawable, the
 * others on pbuffers. Every GL/GLX/EGL call of the loop goes to the driver's real functions (never
 * the shim's wrappers), so nothing is recorded or tracked. The first pass restores the capture's
 * initial state (replay/restore.c) on fresh loop contexts; later passes keep them and set back only
 * what the frame changed (replay/player/pass_reset.h), or start afresh when that cannot be done.
 * Each pass re-issues the command stream through the replay dispatcher and swaps (the window shows
 * the replayed frame). Afterwards the loop contexts are destroyed and the program's context is
 * made current again on its draw/read drawables exactly as before. The program's GL state is never
 * touched; only its window's back buffer is (undefined after any swap anyway).
 *
 * Live sessions (keep_going) on GLX: a pass on fresh contexts runs on a thread of its own, on a
 * pbuffer standing in for the window, and the render thread only shows its image (blit, swap), so a
 * session that ends during the pass's slow driver calls lets the program go on at once
 * (replay_loop_prep.c, docs/SHIM.md).
 *
 * Failure never disturbs the program: any error logs one line and abandons the loop.
 *
 * Triggers:
 *  - GLREPLAY_REPLAY_LOOP=N with GLREPLAY_CAPTURE_FRAMES: N passes after the capture's last swap.
 *  - the socket requests `loop N [PATH]` and `capture COUNT PATH loop N` (shim/ipc.c).
 *  - glr_replay_loop_run() below, for the live debugger (ui_ipc/dap).
 * Options: GLREPLAY_REPLAY_LOOP_VERIFY=1 reads the back buffer before each replayed swap and
 * compares it with the capture's reference image ("pass i: identical to reference" / "differs");
 * GLREPLAY_REPLAY_LOOP_DELAY_MS=D sleeps D ms after each pass (to watch it);
 * GLREPLAY_REPLAY_LOOP_TEST_VERSION=M.N forces the loop context's version (tests of the failure
 * path); GLREPLAY_REPLAY_LOOP_TEST_SKIP_DRAWS=1 replays the frame without its draws (tests that the
 * verification and the window see a wrong frame); GLREPLAY_REPLAY_LOOP_TEST_KEEP_GOING=1 runs the
 * GLREPLAY_REPLAY_LOOP passes as passes == 0 with a keep_going callback (the debugger's way). */
#ifndef GLR_SHIM_REPLAY_LOOP_H
#define GLR_SHIM_REPLAY_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A capture that just ended at a swap of the calling thread. */
struct glr_capture_result {
    const char *path;   /* the .glcap file written (read by the loop; the caller keeps it) */
    int api;            /* enum glr_ctx_api (shim_internal.h): GLR_CTX_GLX 1 or GLR_CTX_EGL 2 */
    void *display;      /* Display * or EGLDisplay of that swap */
    void *surface;      /* the swapped drawable: GLXDrawable (as an integer) or EGLSurface */
};

/* Called before every pass with the passes completed so far; non-zero runs another pass. It runs
 * on the render thread between passes, with a loop context (not the program's) current: it must
 * make no GL calls. It may block or sleep to pace the passes (each pass swaps the window). The
 * first call (passes_done 0) comes before the capture is loaded or any loop context exists (the
 * program's context is still current): a 0 there ends the loop having done no GL work at all. */
typedef int (*glr_replay_loop_keep_going_fn)(void *user, unsigned passes_done);

/* Runs the loop on the calling thread, which must be the program's render thread right after the
 * swap that ended the capture, with the program's context still current (as at any point between
 * two of its frames). passes > 0: at most that many passes; passes == 0: until keep_going returns
 * 0 (keep_going is required then) — the live debugger pauses the program this way while a client
 * is attached, e.g. keep_going drains its request queue and returns 0 on `continue`/disconnect.
 * keep_going may be NULL when passes > 0. Returns the number of passes run (>= 0), or -1 when the
 * loop could not start or stopped on an error (one log line; the program's context is current
 * again and its state untouched in every case). Not re-entrant; one loop at a time per process. */
int glr_replay_loop_run(const struct glr_capture_result *cap, unsigned passes, glr_replay_loop_keep_going_fn keep_going,
                        void *user) __attribute__((visibility("hidden")));

/* Arms a loop for the next capture that ends at a swap (of any thread): that swap's thread runs
 * glr_replay_loop_run(result, passes, keep_going, user) right after the real swap, keep_going
 * being called there, on the render thread, before every pass. For the live debugger:
 *     uint64_t s = glr_replay_loop_arm(0, my_keep_going, session);
 *     if (glr_capture_request(1, path, msg, sizeof msg) != 0 || glr_replay_loop_disarm(s))
 *         ... no capture, or it did not end at a swap: no loop ...
 *     glr_replay_loop_wait(s, timeout, &passes);   // optional, from a non-render thread
 * Returns a serial (> 0), or 0 when another armed request waits or the arguments are bad
 * (passes == 0 needs keep_going). */
uint64_t glr_replay_loop_arm(unsigned passes, glr_replay_loop_keep_going_fn keep_going, void *user)
    __attribute__((visibility("hidden")));
/* Cancels an armed request that no capture took yet; true if it was still armed (then its waiters
 * see the result -1). */
bool glr_replay_loop_disarm(uint64_t serial) __attribute__((visibility("hidden")));
/* From any thread: the loop running now (if any) stops its current pass at the next call; its
 * keep_going then decides whether another pass runs (a live session that ended says no). */
void glr_replay_loop_interrupt(void) __attribute__((visibility("hidden")));
/* CLOCK_MONOTONIC nanoseconds of the running (or last) loop's first interrupt, 0 if none. */
uint64_t glr_replay_loop_interrupted_at(void) __attribute__((visibility("hidden")));
/* At exit: waits up to timeout_ms for the threads that still finish a first pass a live session
 * left (replay_loop_prep.c), so the driver is not torn down under them. */
void glr_replay_loop_drain(unsigned timeout_ms) __attribute__((visibility("hidden")));
/* Waits (never on the render thread) until the loop of request `serial` ended: 0 with *result the
 * passes run (or -1: abandoned), -1 on timeout. */
int glr_replay_loop_wait(uint64_t serial, unsigned timeout_s, int *result) __attribute__((visibility("hidden")));

/* ---- Hooks for shim/capture.c and shim/ipc.c ---- */

/* Whether a replay loop may be wanted when the capture ends (a socket request is armed, or
 * GLREPLAY_REPLAY_LOOP is set): the capture's file is then written before the swap returns,
 * not on the writer thread, as the loop replays it. */
bool glr_replay_loop_pending(void) __attribute__((visibility("hidden")));
/* In the swap hook, before the real swap, when the capture's file `path` was just written: if a
 * loop is wanted (GLREPLAY_REPLAY_LOOP, or a socket request), remember it for this thread. */
void glr_replay_loop_capture_written(int api, void *display, void *surface, const char *path)
    __attribute__((visibility("hidden")));
/* In the swap hook, after the real swap: runs the loop remembered above, if any. */
void glr_replay_loop_after_swap(void) __attribute__((visibility("hidden")));
/* Socket request (on the server thread): capture the next `count` frames into `path` and loop
 * `passes` times at the swap that ends them; replies "ok loop P passes PATH" once the passes ran,
 * or "error ...". Never blocks the program. */
int glr_replay_loop_request(unsigned passes, unsigned count, const char *path, char *msg, size_t n)
    __attribute__((visibility("hidden")));

#endif
