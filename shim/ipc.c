/* The shim's socket: started when the program creates its first context (not at load time, so
 * programs that never use GL get no extra thread), at GLREPLAY_SOCKET or the default per-pid path.
 * Requests (one line each; replies are one line starting "ok" or "error"):
 *   capture [COUNT [PATH]]   capture the next COUNT frames (default 1) into PATH, reply when written
 *   status                   frames swapped so far and whether a capture is running
 * The Debug Adapter Protocol will be served on the same socket (issue: shader debugger). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "ui_ipc/ui_ipc.h"

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_ipc_server *server;
static pid_t server_pid;

static void handle(void *user, const char *req, char *reply, size_t n)
{
    (void)user;
    while (*req == ' ')
        req++;
    if (strncmp(req, "capture", 7) == 0 && (req[7] == 0 || req[7] == ' ')) {
        unsigned count = 1;
        char path[4096] = "";
        const char *p = req + 7;
        while (*p == ' ')
            p++;
        if (*p) {
            char *end;
            unsigned long c = strtoul(p, &end, 10);
            if (end == p || (*end && *end != ' ')) {
                snprintf(reply, n, "error usage: capture [COUNT [PATH]]");
                return;
            }
            count = (unsigned)c;
            while (*end == ' ')
                end++;
            snprintf(path, sizeof path, "%s", end);
        }
        glr_capture_request(count, path, reply, n);
    } else if (strcmp(req, "status") == 0) {
        snprintf(reply, n, "ok pid %d frames %llu", (int)getpid(), (unsigned long long)glr_frame_index());
    } else {
        snprintf(reply, n, "error unknown request (known: capture [COUNT [PATH]], status)");
    }
}

void glr_ipc_ensure_started(void)
{
    if (glr_disabled)
        return;
    pid_t me = getpid();
    pthread_mutex_lock(&ipc_lock);
    if (server && server_pid != me)
        server = NULL; /* inherited across fork: the thread is the parent's; start our own */
    if (!server) {
        char path[256];
        const char *env = getenv("GLREPLAY_SOCKET");
        if (env && *env)
            snprintf(path, sizeof path, "%s", env);
        else if (glr_ipc_default_path(path, sizeof path, (int)me) != 0)
            path[0] = 0;
        char err[512];
        server = glr_ipc_server_start(path, handle, NULL, err, sizeof err);
        server_pid = me;
        if (server)
            glr_log(GLR_LOG_INFO, "listening on %s", path);
        else
            glr_log(GLR_LOG_WARN, "no socket: %s (the program continues)", err);
        if (!server)
            server = (struct glr_ipc_server *)(uintptr_t)1; /* do not retry on every context */
    }
    pthread_mutex_unlock(&ipc_lock);
}

void glr_ipc_stop(void)
{
    pthread_mutex_lock(&ipc_lock);
    if (server && server != (struct glr_ipc_server *)(uintptr_t)1 && server_pid == getpid())
        glr_ipc_server_stop(server);
    server = NULL;
    pthread_mutex_unlock(&ipc_lock);
}
