/* The program-side socket server: one background thread, poll() over the listening socket and the
 * connections; line requests handed to a handler; nothing here ever runs on the program's threads,
 * so a slow, silent or malicious client cannot stall rendering.
 *
 * Bounds (issue 14): each request line runs on a short-lived worker thread of its own (at most one
 * per connection), so a `capture` that waits for frames never delays `status` on another
 * connection; a connection that sends nothing for GLREPLAY_IPC_IDLE_S seconds (default 30) is
 * closed, and when every slot is taken the connection idle the longest makes room for a new one,
 * so idle clients cannot fill the socket. A DAP connection is handed off only once its first
 * message is complete (a header alone, or a stalled client, never reaches the debugger). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "shim/server/socket_server.h"
#include "shim/server/socket_server_dap.h"

#define MAX_CONNS 16

struct conn {
    int fd;
    int line_proto;     /* 1 once the first bytes showed a line client (not DAP) */
    int busy;           /* a worker is answering its request (under mu): not read, not closed */
    long long last_ms;  /* CLOCK_MONOTONIC ms of its last request or reply */
    size_t len;
    char buf[GLR_IPC_MAX_LINE + 1];
};

struct glr_ipc_server {
    int listen_fd;
    int wake[2];        /* a worker finished, or stop */
    pthread_mutex_t mu; /* busy flags, workers, stopping */
    int workers;        /* running workers: the last one frees a stopped server */
    int stopping;
    int abandoned;      /* stopped while workers ran: the last one frees the server */
    long long idle_ms;
    pthread_t thread;
    glr_ipc_handler handler;
    glr_ipc_dap_handler dap;
    void *user;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    struct conn conns[MAX_CONNS];
};

int glr_ipc_default_path(char *buf, size_t size, int pid)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n = xdg && *xdg ? snprintf(buf, size, "%s/glreplay/%d.sock", xdg, pid)
                        : snprintf(buf, size, "/tmp/glreplay-%u/%d.sock", (unsigned)getuid(), pid);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

static void set_err(char *err, size_t n, const char *what, const char *path)
{
    if (n)
        snprintf(err, n, "%s %s: %s", what, path, strerror(errno));
}

/* The socket's directory must be ours and private: create it 0700, or accept an existing one only
 * if it is a real directory owned by us with no group/other access. */
static int make_private_dir(const char *sock_path, char *err, size_t n)
{
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(dir, sizeof dir, "%s", sock_path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = 0;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        set_err(err, n, "cannot create", dir);
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
        if (n)
            snprintf(err, n, "refusing socket directory %s: not a private directory owned by uid %u", dir,
                     (unsigned)getuid());
        return -1;
    }
    return 0;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_conn(struct conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->len = 0;
    c->line_proto = 0;
}

static void reply_line(int fd, const char *text)
{
    char out[GLR_IPC_MAX_LINE + 2];
    int n = snprintf(out, sizeof out, "%s\n", text);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof out ? (size_t)n : sizeof out - 1;
    /* Non-blocking: a client that does not read its replies loses them, nothing else. */
    ssize_t w = send(fd, out, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
}

static void accept_one(struct glr_ipc_server *s)
{
    int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0)
        return;
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 || cred.uid != getuid()) {
        reply_line(fd, "error permission denied: peer uid differs from the program's");
        close(fd);
        return;
    }
    int slot = -1, oldest = -1;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < MAX_CONNS && slot < 0; i++) {
        if (s->conns[i].fd < 0)
            slot = i;
        else if (!s->conns[i].busy && (oldest < 0 || s->conns[i].last_ms < s->conns[oldest].last_ms))
            oldest = i;
    }
    if (slot < 0 && oldest >= 0) {
        /* Full: the connection idle the longest makes room, so idle clients cannot lock others out. */
        reply_line(s->conns[oldest].fd, "error closed: too many connections and this one was idle the longest");
        close_conn(&s->conns[oldest]);
        slot = oldest;
    }
    pthread_mutex_unlock(&s->mu);
    if (slot < 0) {
        reply_line(fd, "error too many connections");
        close(fd);
        return;
    }
    s->conns[slot].fd = fd;
    s->conns[slot].len = 0;
    s->conns[slot].line_proto = 0;
    s->conns[slot].last_ms = now_ms();
}

/* The length of the first DAP frame in buf when it is complete ("Content-Length: N" header block
 * and N bytes of body), 0 while more is needed; a malformed header block counts as complete (the
 * DAP side reports it). A frame larger than the buffer is handed off once the buffer is full. */
static size_t dap_first_frame(const char *buf, size_t len)
{
    const char *end = NULL;
    for (size_t i = 0; i + 4 <= len; i++)
        if (!memcmp(buf + i, "\r\n\r\n", 4)) {
            end = buf + i + 4;
            break;
        }
    if (!end)
        return len > GLR_IPC_MAX_LINE ? len : 0;
    size_t head = (size_t)(end - buf);
    char *e;
    unsigned long n = strtoul(buf + 15, &e, 10);
    if (e == buf + 15 || n > GLR_IPC_MAX_LINE)
        return len;   /* not a frame we can hold: let the DAP side answer */
    if (head + n > len)
        return len > GLR_IPC_MAX_LINE ? len : 0;
    return head + n;
}

struct worker_job {
    struct glr_ipc_server *s;
    struct conn *c;
    char line[];
};

static void server_free(struct glr_ipc_server *s)
{
    close(s->wake[0]);
    close(s->wake[1]);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* A request on its own thread: the handler may wait (a capture waits for frames). */
static void *worker_main(void *arg)
{
    struct worker_job *j = arg;
    struct glr_ipc_server *s = j->s;
    char reply[GLR_IPC_MAX_LINE];
    reply[0] = 0;
    s->handler(s->user, j->line, reply, sizeof reply);
    reply_line(j->c->fd, reply[0] ? reply : "error no reply");
    pthread_mutex_lock(&s->mu);
    j->c->busy = 0;
    j->c->last_ms = now_ms();
    bool last = --s->workers == 0 && s->abandoned;
    if (s->stopping) {
        close_conn(j->c);
    } else {
        ssize_t w = write(s->wake[1], "r", 1);   /* the server thread reads its next line */
        (void)w;
    }
    pthread_mutex_unlock(&s->mu);
    if (last)
        server_free(s);
    free(j);
    return NULL;
}

/* Starts the worker for one request line; the connection is busy until it replies. */
static void run_request(struct glr_ipc_server *s, struct conn *c, const char *line)
{
    size_t n = strlen(line);
    struct worker_job *j = malloc(sizeof *j + n + 1);
    if (j) {
        j->s = s;
        j->c = c;
        memcpy(j->line, line, n + 1);
        pthread_mutex_lock(&s->mu);
        c->busy = 1;
        s->workers++;
        pthread_mutex_unlock(&s->mu);
        pthread_attr_t attr;
        pthread_t t;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, worker_main, j);
        pthread_attr_destroy(&attr);
        if (rc == 0)
            return;
        pthread_mutex_lock(&s->mu);
        c->busy = 0;
        s->workers--;
        pthread_mutex_unlock(&s->mu);
        free(j);
    }
    /* No thread: answer here, as before. */
    char reply[GLR_IPC_MAX_LINE];
    reply[0] = 0;
    s->handler(s->user, line, reply, sizeof reply);
    reply_line(c->fd, reply[0] ? reply : "error no reply");
}

/* Answers the next complete request line in the connection's buffer (one at a time: the next
 * waits for this one's reply). */
static void next_request(struct glr_ipc_server *s, struct conn *c)
{
    char *nl = memchr(c->buf, '\n', c->len);
    if (!nl) {
        if (c->len > GLR_IPC_MAX_LINE) {
            reply_line(c->fd, "error request line too long");
            close_conn(c);
        }
        return;
    }
    *nl = 0;
    if (nl > c->buf && nl[-1] == '\r')
        nl[-1] = 0;
    char line[GLR_IPC_MAX_LINE + 1];
    snprintf(line, sizeof line, "%s", c->buf);
    size_t used = (size_t)(nl - c->buf) + 1;
    memmove(c->buf, nl + 1, c->len - used);
    c->len -= used;
    run_request(s, c, line);
}

static void serve_conn(struct glr_ipc_server *s, struct conn *c)
{
    ssize_t r = recv(c->fd, c->buf + c->len, GLR_IPC_MAX_LINE + 1 - c->len, 0);
    if (r <= 0) {
        if (r == 0 || (errno != EAGAIN && errno != EINTR))
            close_conn(c);
        return;
    }
    c->len += (size_t)r;
    c->last_ms = now_ms();
    if (s->dap && !c->line_proto) {
        /* DAP frames start with their header; a line request never does. */
        static const char dap_head[] = "Content-Length:";
        size_t k = c->len < sizeof dap_head - 1 ? c->len : sizeof dap_head - 1;
        if (memcmp(c->buf, dap_head, k) != 0) {
            c->line_proto = 1;
        } else {
            /* Handed off only with its first message complete: the session (which pauses the
             * program) starts on a whole `initialize`, never on a header a client stalls after. */
            size_t frame = k < sizeof dap_head - 1 ? 0 : dap_first_frame(c->buf, c->len);
            if (!frame)
                return;
            int fd = c->fd;
            size_t len = c->len;
            c->fd = -1;
            c->len = 0;
            s->dap(s->user, fd, c->buf, len);
            return;
        }
    }
    next_request(s, c);
}

static void *server_main(void *arg)
{
    struct glr_ipc_server *s = arg;
    /* The program's signal handlers must run on its own threads, never here. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    for (;;) {
        struct pollfd pf[MAX_CONNS + 2];
        int map[MAX_CONNS + 2];
        int n = 0;
        pf[n] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
        map[n++] = -2;
        pf[n] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
        map[n++] = -1;
        long long now = now_ms(), wait_ms = -1;
        pthread_mutex_lock(&s->mu);
        if (s->stopping) {
            pthread_mutex_unlock(&s->mu);
            break;
        }
        for (int i = 0; i < MAX_CONNS; i++) {
            struct conn *c = &s->conns[i];
            if (c->fd < 0 || c->busy)
                continue;
            if (c->line_proto && memchr(c->buf, '\n', c->len)) {
                /* A line that arrived while the previous request was answered. */
                pthread_mutex_unlock(&s->mu);
                next_request(s, c);
                pthread_mutex_lock(&s->mu);
                if (c->fd < 0 || c->busy)
                    continue;
            }
            long long left = c->last_ms + s->idle_ms - now;
            if (left <= 0) {
                reply_line(c->fd, "error closed: idle connection");
                close_conn(c);
                continue;
            }
            if (wait_ms < 0 || left < wait_ms)
                wait_ms = left;
            pf[n] = (struct pollfd){ .fd = c->fd, .events = POLLIN };
            map[n++] = i;
        }
        pthread_mutex_unlock(&s->mu);
        if (wait_ms > INT32_MAX)
            wait_ms = INT32_MAX;
        if (poll(pf, (nfds_t)n, (int)wait_ms) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pf[0].revents) {
            char buf[64];
            ssize_t r = read(s->wake[0], buf, sizeof buf);
            (void)r;
        }
        for (int k = 1; k < n; k++) {
            if (!pf[k].revents)
                continue;
            if (map[k] == -1)
                accept_one(s);
            else
                serve_conn(s, &s->conns[map[k]]);
        }
    }
    return NULL;
}

struct glr_ipc_server *glr_ipc_server_start(const char *path, glr_ipc_handler handler, void *user, char *err,
                                            size_t err_size)
{
    return glr_ipc_server_start_dap(path, handler, NULL, user, err, err_size);
}

struct glr_ipc_server *glr_ipc_server_start_dap(const char *path, glr_ipc_handler handler, glr_ipc_dap_handler dap,
                                                void *user, char *err, size_t err_size)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (!path || !*path || strlen(path) >= sizeof addr.sun_path) {
        if (err_size)
            snprintf(err, err_size, "socket path %s is empty or longer than %zu bytes", path ? path : "(null)",
                     sizeof addr.sun_path - 1);
        return NULL;
    }
    if (make_private_dir(path, err, err_size) != 0)
        return NULL;
    struct glr_ipc_server *s = calloc(1, sizeof *s);
    if (!s) {
        if (err_size)
            snprintf(err, err_size, "out of memory");
        return NULL;
    }
    for (int i = 0; i < MAX_CONNS; i++)
        s->conns[i].fd = -1;
    pthread_mutex_init(&s->mu, NULL);
    const char *idle = getenv("GLREPLAY_IPC_IDLE_S");
    double idle_s = idle && atof(idle) > 0 ? atof(idle) : 30.0;
    s->idle_ms = (long long)(idle_s * 1000.0);
    s->handler = handler;
    s->dap = dap;
    s->user = user;
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s->listen_fd < 0 || pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        set_err(err, err_size, "cannot create socket", path);
        goto fail;
    }
    /* A socket file left by a process that died (no one accepts on it) is replaced. */
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe >= 0) {
        if (connect(probe, (struct sockaddr *)&addr, sizeof addr) != 0 && errno == ECONNREFUSED)
            unlink(path);
        close(probe);
    }
    /* Bind under a temporary name and rename into place once listening: a client that sees the
     * path can always connect (no window between bind and listen where it would be refused). */
    struct sockaddr_un tmp_addr = { .sun_family = AF_UNIX };
    int tn = snprintf(tmp_addr.sun_path, sizeof tmp_addr.sun_path, "%s.%d.tmp", path, (int)getpid());
    if (tn < 0 || (size_t)tn >= sizeof tmp_addr.sun_path) {
        if (err_size)
            snprintf(err, err_size, "socket path %s is too long", path);
        goto fail;
    }
    unlink(tmp_addr.sun_path);
    mode_t old = umask(0177);
    int b = bind(s->listen_fd, (struct sockaddr *)&tmp_addr, sizeof tmp_addr);
    umask(old);
    if (b != 0 || chmod(tmp_addr.sun_path, 0600) != 0 || listen(s->listen_fd, 32) != 0 ||
        rename(tmp_addr.sun_path, path) != 0) {
        set_err(err, err_size, "cannot listen on", path);
        unlink(tmp_addr.sun_path);
        goto fail;
    }
    if (pthread_create(&s->thread, NULL, server_main, s) != 0) {
        if (err_size)
            snprintf(err, err_size, "cannot start the server thread");
        unlink(path);
        goto fail;
    }
    return s;
fail:
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    if (s->wake[0] > 0) {
        close(s->wake[0]);
        close(s->wake[1]);
    }
    pthread_mutex_destroy(&s->mu);
    free(s);
    return NULL;
}

void glr_ipc_server_stop(struct glr_ipc_server *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->mu);
    s->stopping = 1;
    pthread_mutex_unlock(&s->mu);
    ssize_t w = write(s->wake[1], "x", 1);
    (void)w;
    pthread_join(s->thread, NULL);
    close(s->listen_fd);
    unlink(s->path);
    /* A worker still answering (a capture waiting for frames at exit) closes its connection and
     * frees the server when it returns; every other connection is closed now. */
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < MAX_CONNS; i++)
        if (!s->conns[i].busy)
            close_conn(&s->conns[i]);
    bool free_now = s->workers == 0;
    s->abandoned = !free_now;
    pthread_mutex_unlock(&s->mu);
    if (free_now)
        server_free(s);
}
