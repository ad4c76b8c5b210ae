/* The shim's socket: started when the program creates its first context (not at load time, so
 * programs that never use GL get no extra thread), at GLREPLAY_SOCKET or the default per-pid path.
 * Requests (one line each; replies are one line starting "ok" or "error"):
 *   capture [COUNT [PATH]]   capture the next COUNT frames (default 1) into PATH, reply when written
 *   status                   frames swapped so far; while a live debug session holds the program
 *                            paused, also "paused N" (passes of its frame replayed so far)
 *   loop N [PATH]            capture the next frame (into PATH, else a private file removed after)
 *                            and replay it N times in the program's window at its swap (the
 *                            in-process replay loop, shim/replay_loop.h); reply when the passes ran
 *   capture COUNT PATH loop N   the same for COUNT frames into PATH
 * A connection whose first bytes are "Content-Length:" is a Debug Adapter Protocol session (live
 * attach): once its first message (a complete `initialize`) has arrived, its own thread captures
 * the program's next frame into a private file next to the socket (directory 0700, the file
 * removed when the session ends), then serves the debugger (ui_ipc/dap, in the engine library loaded
 * at the first attach: shim/engine_load.c) over that capture until
 * the client disconnects or a timeout ends it (GLREPLAY_LIVE_HANDSHAKE_S, _IDLE_S, _WRITE_S; one
 * session at a time; docs/SHIM.md). Meanwhile the program is paused at the swap that ended the frame: its render
 * thread replays the captured frame in its window in a loop (shim/replay_loop.h), so the window
 * keeps showing the frame being debugged, and continues exactly where it stopped when the client
 * disconnects (or after GLREPLAY_LIVE_PAUSE_MAX_S seconds, default 3600). GLREPLAY_LIVE_PAUSE=0
 * keeps the program running instead. The render thread never waits on the client itself: between
 * passes it only reads the session's "attached" flag. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <poll.h>
#include <stdatomic.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/replay_loop.h"
#include "shim/server/socket_server.h"
#include "shim/server/socket_server_dap.h"
#include "shim/engine_load.h"

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_ipc_server *server;
static pid_t server_pid;
static char server_path[256];

/* ---- live DAP sessions ---- */

struct live_session {
    int fd;
    size_t len;
    char path[300];     /* the private capture file */
    atomic_int attached; /* the client is still connected: the paused program keeps looping */
    int watch_fd;        /* a dup of fd: its hang-up releases the program at once, even while the
                            session thread is still finishing a pass */
    double pause_until;  /* CLOCK_MONOTONIC seconds: the pause never outlasts this */
    int model_pass;      /* set by the engine when the session starts a pass of the GPU model */
    char initial[];
};

/* Passes replayed by the live pause in progress (-1: the program is not paused), for `status`. */
static atomic_long live_paused_passes = -1;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* GLREPLAY_LIVE_FIRST_PASS_MS: the longest a live pause waits before its first replayed pass
 * (0..60000, default 2000; see live_keep_going). */
static unsigned live_first_pass_ms(void)
{
    const char *v = getenv("GLREPLAY_LIVE_FIRST_PASS_MS");
    char *end;
    unsigned long ms = v && *v ? strtoul(v, &end, 10) : 2000;
    return v && *v && (*end || ms > 60000) ? 2000 : (unsigned)ms;
}

/* On the render thread between two replayed passes (a loop context current; no GL here). Passes
 * are paced at about 30 per second so the loop leaves the CPU to the debugger's model passes. */
static int live_keep_going(void *user, unsigned passes_done)
{
    struct live_session *ls = user;
    /* 33 ms between passes, in 1 ms slices: a session that ends meanwhile resumes the program
     * at once (the 50-cycle test measures it).
     * Before the first pass: the window already shows the captured frame (the loop starts after
     * the program's own swap), and the first pass's fresh contexts make the driver compile and
     * set up for tens to hundreds of ms in single calls no interrupt can cut short (llvmpipe: the
     * restore's first blit). So it waits until the session starts its first pass of the GPU
     * model (the client then waits for a stop: the session is least likely to end meanwhile),
     * or GLREPLAY_LIVE_FIRST_PASS_MS: a session that ends before (a terminate right after the
     * handshake, a quick look) resumes the program within a millisecond or two. */
    if (!passes_done)
        atomic_store(&live_paused_passes, 0);   /* paused from here (`status`), first pass or not */
    unsigned slices = passes_done ? 33 : live_first_pass_ms();
    for (unsigned i = 0; i < slices && atomic_load(&ls->attached); i++) {
        if (!passes_done && __atomic_load_n(&ls->model_pass, __ATOMIC_ACQUIRE))
            break;
        usleep(1000);
        if (!passes_done && ls->watch_fd >= 0 && i % 5 == 4) {
            struct pollfd p = { .fd = ls->watch_fd, .events = POLLRDHUP };
            if (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
                break;   /* the client is gone: the check below ends the pause */
        }
    }
    bool go = atomic_load(&ls->attached) && mono_s() < ls->pause_until;
    if (go && ls->watch_fd >= 0) {
        struct pollfd p = { .fd = ls->watch_fd, .events = POLLRDHUP };
        if (poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
            go = false;
    }
    atomic_store(&live_paused_passes, go ? (long)passes_done : -1);
    return go;
}

/* While a paused session is served: the client's socket is watched, and when the client is
 * gone (it closed, was killed, or its peer hung up) the paused program resumes at once (the
 * replay pass in progress stops at its next call), without waiting for the debugger engine to
 * finish the session's teardown (a model pass it must abort first). */
static void *live_watch(void *arg)
{
    struct live_session *ls = arg;
    while (atomic_load(&ls->attached)) {
        struct pollfd p = { .fd = ls->watch_fd, .events = POLLRDHUP };
        if (poll(&p, 1, 20) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) {
            atomic_store(&ls->attached, 0);
            glr_replay_loop_interrupt();
            break;
        }
    }
    return NULL;
}

static bool live_pause_wanted(void)
{
    const char *v = getenv("GLREPLAY_LIVE_PAUSE");
    return !v || strcmp(v, "0") != 0;
}

/* One debugger engine at a time: the engine (glslang, the GPU model's caches) is not made for two
 * sessions running at once. A session holds it from before its capture until the paused program
 * has resumed, so the next session always finds the program running and can pause it again. */
static pthread_mutex_t live_engine_lock = PTHREAD_MUTEX_INITIALIZER;

/* A session holding the engine serves a client right now (not only letting the program resume). */
static atomic_int live_serving;

/* Session threads alive (each one connection): a cap, so clients cannot pile up threads. */
#define LIVE_MAX_THREADS 4
static atomic_int live_threads;

/* The capture files of the sessions in progress, removed by glr_ipc_stop if the program exits
 * meanwhile (a program killed by a signal leaves them: the next program started with the same
 * directory removes them, see remove_stale). Under live_files_lock. */
static pthread_mutex_t live_files_lock = PTHREAD_MUTEX_INITIALIZER;
static char live_files[LIVE_MAX_THREADS][300];

static void live_file_track(const char *path, bool add)
{
    pthread_mutex_lock(&live_files_lock);
    for (int i = 0; i < LIVE_MAX_THREADS; i++) {
        if (add && !live_files[i][0]) {
            snprintf(live_files[i], sizeof live_files[i], "%s", path);
            break;
        }
        if (!add && !strcmp(live_files[i], path)) {
            live_files[i][0] = 0;
            break;
        }
    }
    pthread_mutex_unlock(&live_files_lock);
}

static unsigned env_ms(const char *name, double default_s)
{
    const char *v = getenv(name);
    double sec = v && atof(v) > 0 ? atof(v) : default_s;
    return sec > 4e6 ? 4000000000u : (unsigned)(sec * 1000.0);
}

static void *live_main(void *arg)
{
    struct live_session *ls = arg;
    char msg[512] = "";
    int rc = -1;
    uint64_t loop = 0;
    const char *max_s = getenv("GLREPLAY_LIVE_PAUSE_MAX_S");
    ls->pause_until = mono_s() + (max_s && atof(max_s) > 0 ? atof(max_s) : 3600.0);
    ls->watch_fd = dup(ls->fd);
    atomic_store(&ls->attached, 1);
    /* The debugger engine (GPU model, glslang) is loaded now, at the first attach, never before
     * (shim/engine_load.c); without it the client gets the reason and the program goes on. */
    char why[600];
    const struct glr_engine *engine = glr_engine_get(why, sizeof why);
    if (!engine) {
        char text[700];
        snprintf(text, sizeof text, "live attach: %s", why);
        glr_log(GLR_LOG_WARN, "%s", text);
        glr_engine_refuse_fd(ls->fd, ls->initial, ls->len, text);
        goto done;
    }
    char first[64];
    engine->first_command(ls->initial, ls->len, first, sizeof first);
    if (strcmp(first, "initialize") != 0) {
        /* Nothing is captured and the program is not paused for a client that does not start
         * with a complete initialize request (at most 4 KiB). */
        glr_engine_refuse_fd(ls->fd, ls->initial, ls->len,
                          "live attach: the first message must be a complete 'initialize' request of at most 4 KiB");
        goto done;
    }
    /* One session at a time: refused at once while another client is attached; a session whose
     * client is gone may still be letting the program resume: wait a little for that one. */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 3;
    if (pthread_mutex_trylock(&live_engine_lock) != 0 &&
        (atomic_load(&live_serving) || pthread_mutex_timedlock(&live_engine_lock, &until) != 0)) {
        glr_engine_refuse_fd(ls->fd, ls->initial, ls->len,
                          "live attach: another debugger is attached to this program (one live session at a time)");
        goto done;
    }
    atomic_store(&live_serving, 1);
    live_file_track(ls->path, true);
    /* One capture at a time in the program: wait a little while another client's runs. */
    for (int tries = 0; tries < 100; tries++) {
        /* The program pauses at the swap that ends the captured frame (one armed loop at a time:
         * while a `loop` request holds it, the session debugs without pausing). */
        if (!loop && live_pause_wanted())
            loop = glr_replay_loop_arm(0, live_keep_going, ls);
        rc = glr_capture_request(1, ls->path, msg, sizeof msg);
        if (rc == 0 || !strstr(msg, "already in progress"))
            break;
        usleep(100000);
    }
    if (loop && (rc != 0 || glr_replay_loop_disarm(loop)))
        loop = 0; /* no capture, or it did not end at a swap: nothing loops */
    if (rc != 0) {
        const char *why = strncmp(msg, "error ", 6) == 0 ? msg + 6 : msg;
        char text[600];
        snprintf(text, sizeof text, "live attach: cannot capture the next frame: %s", why);
        glr_log(GLR_LOG_WARN, "%s", text);
        glr_engine_refuse_fd(ls->fd, ls->initial, ls->len, text);
    } else {
        glr_log(GLR_LOG_INFO, "live attach: serving the captured frame %s", ls->path);
        /* A silent client holds the paused program for a bounded time only (README, "Live
         * debugging"): the handshake, idle and write timeouts end its session. */
        struct glr_engine_live_limits opt = {
            .handshake_timeout_ms = env_ms("GLREPLAY_LIVE_HANDSHAKE_S", 30),
            .idle_timeout_ms = loop ? env_ms("GLREPLAY_LIVE_IDLE_S", 600) : 0,
            .write_timeout_ms = env_ms("GLREPLAY_LIVE_WRITE_S", 10),
            .model_pass_started = &ls->model_pass,
        };
        char err[512];
        pthread_t watcher;
        sigset_t all, old_mask;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old_mask);   /* the program's signals never reach it */
        bool watching = loop && ls->watch_fd >= 0 && pthread_create(&watcher, NULL, live_watch, ls) == 0;
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
        int src = engine->serve_capture_fd(ls->fd, ls->initial, ls->len, ls->path, &opt, err, sizeof err);
        atomic_store(&ls->attached, 0);
        if (watching)
            pthread_join(watcher, NULL);
        if (src != 0)
            glr_log(GLR_LOG_WARN, "live attach: %s", err);
        glr_log(GLR_LOG_INFO, "live attach: session ended");
    }
    /* The client is gone: the paused program continues after its current pass. */
    atomic_store(&live_serving, 0);
    atomic_store(&ls->attached, 0);
    if (loop)
        glr_replay_loop_interrupt();   /* the pass in progress stops: the program resumes now */
    if (loop) {
        int passes = 0;
        if (glr_replay_loop_wait(loop, 120, &passes) != 0) {
            /* The render thread still holds the session: leave it (and the file) to it. */
            glr_log(GLR_LOG_WARN, "live attach: the paused program did not resume within 120 s");
            pthread_mutex_unlock(&live_engine_lock);
            atomic_fetch_sub(&live_threads, 1);
            return NULL;
        }
        /* Not paused any more (`status`), also when the loop ended without asking keep_going again
         * (a pass the session's end left to its own thread). */
        atomic_store(&live_paused_passes, -1);
        glr_log(GLR_LOG_INFO, "live attach: the program was paused for %d replayed passes", passes);
    }
    unlink(ls->path);
    live_file_track(ls->path, false);
    pthread_mutex_unlock(&live_engine_lock);
done:
    if (ls->watch_fd >= 0)
        close(ls->watch_fd);
    free(ls);
    atomic_fetch_sub(&live_threads, 1);
    return NULL;
}

/* On the line server's thread, once the connection's first DAP message is complete: start the
 * session's own thread (it inherits the server thread's all-signals-blocked mask) so the server
 * keeps answering other clients. */
static void start_live(void *user, int fd, const char *initial, size_t len)
{
    (void)user;
    static unsigned serial;
    if (atomic_fetch_add(&live_threads, 1) >= LIVE_MAX_THREADS) {
        atomic_fetch_sub(&live_threads, 1);
        glr_engine_refuse_fd(fd, initial, len, "live attach: too many debugger connections to this program");
        return;
    }
    struct live_session *ls = malloc(sizeof *ls + len + 1);
    if (!ls) {
        atomic_fetch_sub(&live_threads, 1);
        close(fd);
        return;
    }
    ls->fd = fd;
    ls->len = len;
    ls->model_pass = 0;
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
        glr_engine_refuse_fd(fd, initial, len, "live attach: cannot start a session thread");
        free(ls);
        atomic_fetch_sub(&live_threads, 1);
    }
}

/* `loop N [PATH]`: without PATH the capture goes to a private file next to the socket. */
static void handle_loop(const char *args, char *reply, size_t n)
{
    static unsigned serial;
    char *end;
    unsigned long passes = strtoul(args, &end, 10);
    if (end == args || (*end && *end != ' ') || args[0] == '-') {
        snprintf(reply, n, "error usage: loop N [PATH]");
        return;
    }
    while (*end == ' ')
        end++;
    char path[4096];
    bool private_file = !*end;
    if (private_file) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s", server_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        snprintf(path, sizeof path, "%s/loop-%d-%u.glcap", dir, (int)getpid(),
                 __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
    } else {
        snprintf(path, sizeof path, "%s", end);
    }
    glr_replay_loop_request(passes > 100000 ? 0 : (unsigned)passes, 1, path, reply, n);
    if (private_file)
        unlink(path);
}

static void handle(void *user, const char *req, char *reply, size_t n)
{
    (void)user;
    while (*req == ' ')
        req++;
    if (strncmp(req, "loop ", 5) == 0) {
        handle_loop(req + 5, reply, n);
    } else if (strncmp(req, "capture", 7) == 0 && (req[7] == 0 || req[7] == ' ')) {
        unsigned count = 1;
        char path[4096] = "";
        const char *p = req + 7;
        while (*p == ' ')
            p++;
        if (*p) {
            char *end;
            errno = 0;
            unsigned long c = strtoul(p, &end, 10);
            if (end == p || (*end && *end != ' ') || p[0] < '0' || p[0] > '9') {
                snprintf(reply, n, "error usage: capture [COUNT [PATH]]");
                return;
            }
            if (errno || c > UINT32_MAX) {   /* 4294967297 would wrap to 1 */
                snprintf(reply, n, "error capture: COUNT %.32s is out of range", p);
                return;
            }
            count = (unsigned)c;
            while (*end == ' ')
                end++;
            snprintf(path, sizeof path, "%s", end);
        }
        /* `capture COUNT PATH loop N`: the trailing words ask for the in-process replay loop. */
        char *lw = NULL;
        for (char *f = strstr(path, " loop "); f; f = strstr(f + 1, " loop "))
            lw = f;   /* the last one: a path may contain the word */
        size_t plen = strlen(path);
        if ((plen >= 5 && strcmp(path + plen - 5, " loop") == 0) || strncmp(path, "loop ", 5) == 0) {
            snprintf(reply, n, "error usage: capture COUNT PATH loop N");
            return;
        }
        if (lw && path[0]) {
            char *e;
            unsigned long passes = strtoul(lw + 6, &e, 10);
            if (e == lw + 6 || *e || lw[6] == '-') {
                snprintf(reply, n, "error usage: capture COUNT PATH loop N");
                return;
            }
            *lw = 0;
            glr_replay_loop_request(passes > 100000 ? 0 : (unsigned)passes, count, path, reply, n);
            return;
        }
        glr_capture_request(count, path, reply, n);
    } else if (strcmp(req, "status") == 0) {
        long paused = atomic_load(&live_paused_passes);
        int k = snprintf(reply, n, "ok pid %d frames %llu", (int)getpid(), (unsigned long long)glr_frame_index());
        if (paused >= 0 && k > 0 && (size_t)k < n)
            snprintf(reply + k, n - (size_t)k, " paused %ld", paused);
    } else {
        snprintf(reply, n, "error unknown request (known: capture [COUNT [PATH [loop N]]], loop N [PATH], status)");
    }
}

/* Files a program killed by a signal left in the socket directory: sockets nobody accepts on
 * (`<pid>.sock`, connect() refused) and the private capture files (`live-<pid>-N.glcap`,
 * `loop-<pid>-N.glcap`) of pids that no longer exist. Only our own names, only in the directory
 * the server just accepted as private (0700, ours). */
static void remove_stale(const char *sock_path)
{
    char dir[256];
    snprintf(dir, sizeof dir, "%s", sock_path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return;
    *slash = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char full[600];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        char *end;
        long pid;
        if (isdigit((unsigned char)e->d_name[0]) && (pid = strtol(e->d_name, &end, 10)) > 0 && !strcmp(end, ".sock")) {
            struct stat st;
            struct sockaddr_un a = { .sun_family = AF_UNIX };
            if (lstat(full, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != getuid() ||
                strlen(full) >= sizeof a.sun_path || !strcmp(full, sock_path))
                continue;
            memcpy(a.sun_path, full, strlen(full) + 1);   /* its length was checked above */
            int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
            if (fd < 0)
                continue;
            /* Refused: nobody listens (its program died); a live one accepts (or is busy: EAGAIN). */
            if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 && errno == ECONNREFUSED) {
                unlink(full);
                glr_log(GLR_LOG_INFO, "removed the stale socket %s", full);
            }
            close(fd);
        } else if ((!strncmp(e->d_name, "live-", 5) || !strncmp(e->d_name, "loop-", 5)) &&
                   (pid = strtol(e->d_name + 5, &end, 10)) > 0 && *end == '-' && strlen(end) > 6 &&
                   !strcmp(end + strlen(end) - 6, ".glcap")) {
            if (pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
                unlink(full);
                glr_log(GLR_LOG_INFO, "removed the stale capture %s", full);
            }
        }
    }
    closedir(d);
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
        if (server) {
            glr_log(GLR_LOG_INFO, "listening on %s", path);
            remove_stale(path);
        } else
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
    /* Sessions still running at exit: their capture files go with the program. */
    pthread_mutex_lock(&live_files_lock);
    for (int i = 0; i < LIVE_MAX_THREADS; i++)
        if (live_files[i][0])
            unlink(live_files[i]);
    pthread_mutex_unlock(&live_files_lock);
    /* A first replayed pass a session left still finishing on its own thread: not under exit's
     * teardown of the driver (it takes a few hundred ms at most). */
    glr_replay_loop_drain(2000);
}
