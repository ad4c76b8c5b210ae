/* One DAP session (one connection): the protocol state machine and request handlers. The server
 * calls in with its lock held; passes of the GPU model run on the session's worker thread, which
 * takes the same lock to publish their results. */
#ifndef GLR_DAP_SESSION_H
#define GLR_DAP_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "ui_ipc/dap/dap.h"

struct dap_session;

struct dap_session_host {
    pthread_mutex_t *lock;
    /* Queue bytes for the connection (lock held). */
    void (*send)(void *conn, const char *data, size_t len);
    /* Close the connection once its queued output is written (lock held). */
    void (*close_after_flush)(void *conn);
    /* Wake the I/O thread after the worker queued output (lock held). */
    void (*wake)(void *server);
    /* The session is freed (lock held): the server may end once all are. */
    void (*gone)(void *server);
    void *server;
};

struct dap_session *dap_session_new(struct dbg_capture *cap, struct dbg_runner *runner,
                                    const struct glr_dap_options *opt, const struct dap_session_host *host,
                                    void *conn);
/* A request, response or event from the client (lock held). Takes ownership of msg. */
void dap_session_message(struct dap_session *s, cJSON *msg);
/* A frame whose body was not valid JSON (lock held): answered with an error response. */
void dap_session_bad_message(struct dap_session *s, const char *why);
/* A pass (or another job) of the session is running (lock held). */
bool dap_session_busy(const struct dap_session *s);
/* configurationDone was received (lock held). */
bool dap_session_configured(const struct dap_session *s);
/* The server ends the session for `why` (lock held): an output event and `terminated` are queued. */
void dap_session_timeout(struct dap_session *s, const char *why);
/* The connection is gone (lock held): the session ends now, or when its pass finishes. */
void dap_session_release(struct dap_session *s);

#endif
