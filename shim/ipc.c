/* The shim's socket: started when the program creates its first context (not at load time, so
 * programs that never use GL get no extra thread), at GLREPLAY_SOCKET or the default per-pid path.
 * Requests (one line each; replies are one line starting "ok" or "error"):
 *   capture [COUNT [PATH]]   capture the next COUNT frames (default 1) into PATH, reply when written
 *   status                   frames swapped so far and whether a capture is running
 * A connection whose first bytes are "Content-Length:" is a Debug Adapter Protocol session (live
 * attach): its own thread captures the program's next frame into a private file next to the
 * socket (directory 0700), then serves the offline debugger (ui_ipc/dap) over that capture until
 * the client disconnects. The render thread only records that one frame; it never waits on the
 * session, and the program keeps running and swapping while the client debugs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "ui_ipc/ui_ipc.h"
#include "ui_ipc/server/socket_server_dap.h"
#include "ui_ipc/dap/dap.h"

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_ipc_server *server;
static pid_t server_pid;
static char server_path[256];

/* ---- live DAP sessions ---- */

struct live_session {
    int fd;
    size_t len;
    char path[300];     /* the private capture file */
    char initial[];
};

/* One debugger engine at a time: the engine (glslang, the GPU model's caches) is not made for two
 * sessions running at once, and a client that disconnects leaves its thread finishing a pass. */
static pthread_mutex_t live_engine_lock = PTHREAD_MUTEX_INITIALIZER;

static void *live_main(void *arg)
{
    struct live_session *ls = arg;
    char msg[512] = "";
    int rc = -1;
    /* One capture at a time in the program: wait a little while another client's runs. */
    for (int tries = 0; tries < 100; tries++) {
        rc = glr_capture_request(1, ls->path, msg, sizeof msg);
        if (rc == 0 || !strstr(msg, "already in progress"))
            break;
        usleep(100000);
    }
    if (rc != 0) {
        const char *why = strncmp(msg, "error ", 6) == 0 ? msg + 6 : msg;
        char text[600];
        snprintf(text, sizeof text, "live attach: cannot capture the next frame: %s", why);
        glr_log(GLR_LOG_WARN, "%s", text);
        glr_dap_refuse_fd(ls->fd, ls->initial, ls->len, text);
    } else {
        glr_log(GLR_LOG_INFO, "live attach: serving the captured frame %s", ls->path);
        char err[512];
        pthread_mutex_lock(&live_engine_lock);
        int src = glr_dap_serve_capture_fd(ls->fd, ls->initial, ls->len, ls->path, err, sizeof err);
        pthread_mutex_unlock(&live_engine_lock);
        if (src != 0)
            glr_log(GLR_LOG_WARN, "live attach: %s", err);
        glr_log(GLR_LOG_INFO, "live attach: session ended");
    }
    unlink(ls->path);
    free(ls);
    return NULL;
}

/* On the line server's thread: start the session's own thread (it inherits the server thread's
 * all-signals-blocked mask) so the server keeps answering other clients. */
static void start_live(void *user, int fd, const char *initial, size_t len)
{
    (void)user;
    static unsigned serial;
    struct live_session *ls = malloc(sizeof *ls + len + 1);
    if (!ls) {
        close(fd);
        return;
    }
    ls->fd = fd;
    ls->len = len;
    memcpy(ls->initial, initial, len);
    ls->initial[len] = 0;
    /* The socket's directory is private (0700, ours): the capture file lives there. */
    char dir[256];
    snprintf(dir, sizeof dir, "%s", server_path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(ls->path, sizeof ls->path, "%s/live-%d-%u.glcap", dir, (int)getpid(), ++serial);
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, live_main, ls);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        glr_dap_refuse_fd(fd, initial, len, "live attach: cannot start a session thread");
        free(ls);
    }
}

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
        snprintf(server_path, sizeof server_path, "%s", path);
        server = glr_ipc_server_start_dap(path, handle, start_live, NULL, err, sizeof err);
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
