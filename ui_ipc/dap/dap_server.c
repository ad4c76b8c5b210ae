/* The DAP socket server: one I/O thread polls the listening socket and every connection; bytes
 * are framed (dap_wire) and handed to the connection's session under the server lock. Writes are
 * non-blocking from a per-connection queue: a client that does not read is dropped when its queue
 * passes the limit, so no client can stall the server or another client. */
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
#include "ui_ipc/dap/dap.h"
#include "ui_ipc/dap/dap_session.h"
#include "ui_ipc/dap/dap_wire.h"

#define MAX_CONNS 16

struct conn {
    int fd;
    struct glr_dap_server *srv;
    char *in;
    size_t in_len, in_cap;
    char *out;
    size_t out_len, out_cap;
    bool close_after_flush, dead;
    struct dap_session *session;
    long long last_rx_ms;    /* CLOCK_MONOTONIC ms of the last bytes from the client (or of accept) */
    long long stuck_since_ms; /* output pending and no byte written since then (0: nothing pending) */
};

struct glr_dap_server {
    pthread_mutex_t lock;
    int listen_fd;
    int wake[2];
    bool stop;
    bool single;         /* glr_dap_serve_fd: no listening socket; ends with its connection */
    pthread_t thread;
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    struct dbg_capture *cap;
    struct dbg_runner *runner;
    struct glr_dap_options opt;
    struct conn *conns[MAX_CONNS];
    int live_sessions;   /* sessions not freed yet (a closed one lives until its pass ends) */
};

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void wake_io(void *server)
{
    struct glr_dap_server *s = server;
    ssize_t w = write(s->wake[1], "w", 1);
    (void)w;
}

static void conn_send(void *c_, const char *data, size_t len)
{
    struct conn *c = c_;
    if (c->dead)
        return;
    if (c->out_len + len > c->srv->opt.max_output) {
        /* The client stopped reading: drop it rather than grow without bound. */
        c->dead = true;
        return;
    }
    if (c->out_len + len > c->out_cap) {
        size_t nc = (c->out_len + len) * 2;
        char *n = realloc(c->out, nc);
        if (!n) {
            c->dead = true;
            return;
        }
        c->out = n;
        c->out_cap = nc;
    }
    memcpy(c->out + c->out_len, data, len);
    c->out_len += len;
}

static void session_gone(void *server)
{
    ((struct glr_dap_server *)server)->live_sessions--;
}

static void conn_close_after_flush(void *c_)
{
    ((struct conn *)c_)->close_after_flush = true;
}

/* Lock held. */
static void conn_free(struct glr_dap_server *s, int i)
{
    struct conn *c = s->conns[i];
    if (!c)
        return;
    if (c->session)
        dap_session_release(c->session);
    close(c->fd);
    free(c->in);
    free(c->out);
    free(c);
    s->conns[i] = NULL;
}

static int add_conn(struct glr_dap_server *s, int fd)
{
    struct conn *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->fd = fd;
    c->srv = s;
    c->last_rx_ms = now_ms();
    struct dap_session_host host = { &s->lock, conn_send, conn_close_after_flush, wake_io, session_gone, s };
    c->session = dap_session_new(s->cap, s->runner, &s->opt, &host, c);
    if (!c->session) {
        free(c);
        return -1;
    }
    s->live_sessions++;
    for (int i = 0; i < MAX_CONNS; i++)
        if (!s->conns[i]) {
            s->conns[i] = c;
            return 0;
        }
    dap_session_release(c->session);
    free(c);
    return -1;
}

static void refuse(int fd, const char *why)
{
    char body[300], msg[400];
    snprintf(body, sizeof body,
             "{\"seq\":1,\"type\":\"event\",\"event\":\"output\",\"body\":{\"category\":\"stderr\",\"output\":\"%s\\n\"}}",
             why);
    int n = snprintf(msg, sizeof msg, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    ssize_t w = send(fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
    close(fd);
}

static void accept_one(struct glr_dap_server *s)
{
    int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0)
        return;
    struct ucred cred;
    socklen_t cl = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) != 0 || cred.uid != getuid()) {
        refuse(fd, "glreplay: permission denied: the peer's uid differs from the server's");
        return;
    }
    pthread_mutex_lock(&s->lock);
    int rc = add_conn(s, fd);
    pthread_mutex_unlock(&s->lock);
    if (rc != 0)
        refuse(fd, "glreplay: too many connections");
}

/* Lock held. Parses every complete message in the input buffer. */
static void process_input(struct conn *c)
{
    size_t off = 0;
    while (!c->dead && !c->close_after_flush) {
        cJSON *msg;
        size_t used;
        char err[200];
        enum dap_wire_status st = dap_wire_parse(c->in + off, c->in_len - off, c->srv->opt.max_message, &msg, &used,
                                                 err, sizeof err);
        if (st == DAP_WIRE_NEED_MORE)
            break;
        if (st == DAP_WIRE_FATAL) {
            /* The stream cannot be resynchronised: say why, then close. */
            dap_session_bad_message(c->session, err);
            c->close_after_flush = true;
            break;
        }
        off += used;
        if (st == DAP_WIRE_BAD_JSON)
            dap_session_bad_message(c->session, err);
        else
            dap_session_message(c->session, msg);
    }
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
}

static void read_conn(struct glr_dap_server *s, int i)
{
    struct conn *c = s->conns[i];
    size_t limit = s->opt.max_message + DAP_MAX_HEADER + 8;
    if (c->in_cap - c->in_len < 65536 && c->in_cap < limit) {
        size_t nc = c->in_cap ? c->in_cap * 2 : 65536;
        if (nc > limit)
            nc = limit;
        char *n = realloc(c->in, nc);
        if (!n) {
            c->dead = true;
            return;
        }
        c->in = n;
        c->in_cap = nc;
    }
    if (c->in_len == c->in_cap) {
        c->dead = true;   /* cannot happen: the parser rejects frames above the limit first */
        return;
    }
    ssize_t r = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, 0);
    if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
        c->dead = true;
        return;
    }
    if (r < 0)
        return;
    c->last_rx_ms = now_ms();
    c->in_len += (size_t)r;
    process_input(c);
}

static void write_conn(struct conn *c)
{
    while (c->out_len) {
        ssize_t w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno != EAGAIN && errno != EINTR)
                c->dead = true;
            else if (!c->stuck_since_ms)
                c->stuck_since_ms = now_ms();
            return;
        }
        c->stuck_since_ms = 0;
        memmove(c->out, c->out + w, c->out_len - (size_t)w);
        c->out_len -= (size_t)w;
    }
    c->stuck_since_ms = 0;
}

/* Lock held. The timeouts of glr_dap_options: a client that stopped reading for write_timeout_ms
 * with output pending is dropped; one that sent nothing for handshake_timeout_ms before
 * configurationDone, or for idle_timeout_ms after it while no pass runs, is told why and closed.
 * Returns the ms until the next deadline of this connection (-1: none). */
static long long check_timeouts(struct glr_dap_server *s, struct conn *c, long long now)
{
    const struct glr_dap_options *o = &s->opt;
    long long next = -1;
    if (c->out_len && c->stuck_since_ms && o->write_timeout_ms) {
        long long left = c->stuck_since_ms + o->write_timeout_ms - now;
        if (left <= 0) {
            c->dead = true;   /* nothing more can be said: it does not read */
            return -1;
        }
        next = left;
    }
    if (dap_session_busy(c->session))
        c->last_rx_ms = now;   /* a pass of ours runs: the client is waiting, not idle */
    if (c->close_after_flush || dap_session_busy(c->session))
        return next;
    bool configured = dap_session_configured(c->session);
    unsigned limit = configured ? o->idle_timeout_ms : o->handshake_timeout_ms;
    if (!limit)
        return next;
    long long left = c->last_rx_ms + limit - now;
    if (left <= 0) {
        char why[200];
        snprintf(why, sizeof why,
                 configured ? "no request for %u s while the program is held: the session ends"
                            : "the client did not complete the DAP handshake within %u s: the session ends",
                 (limit + 999) / 1000);
        dap_session_timeout(c->session, why);
        write_conn(c);
        c->dead = true;   /* what was queued is in the socket: the client can still read it */
        return -1;
    }
    return next < 0 || left < next ? left : next;
}

static void *io_main(void *arg)
{
    struct glr_dap_server *s = arg;
    for (;;) {
        struct pollfd pf[MAX_CONNS + 2];
        int map[MAX_CONNS + 2], n = 0;
        pthread_mutex_lock(&s->lock);
        bool any = false;
        for (int i = 0; i < MAX_CONNS; i++)
            any |= s->conns[i] != NULL;
        if (s->stop || (s->single && !any)) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        pf[n] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
        map[n++] = -2;
        pf[n] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
        map[n++] = -1;
        long long now = now_ms(), wait_ms = -1;
        for (int i = 0; i < MAX_CONNS; i++) {
            struct conn *c = s->conns[i];
            if (!c)
                continue;
            write_conn(c);
            long long left = c->dead ? -1 : check_timeouts(s, c, now);
            if (c->dead || (c->close_after_flush && !c->out_len)) {
                conn_free(s, i);
                continue;
            }
            if (left >= 0 && (wait_ms < 0 || left < wait_ms))
                wait_ms = left;
            short ev = c->close_after_flush ? 0 : POLLIN;
            if (c->out_len)
                ev |= POLLOUT;
            pf[n] = (struct pollfd){ .fd = c->fd, .events = ev };
            map[n++] = i;
        }
        /* One connection only (live attach): once it is gone the loop ends, so the caller can
         * wait for the session's pass and return (polling the wake pipe alone would never end). */
        if (s->single && n == 2) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        pthread_mutex_unlock(&s->lock);
        if (wait_ms > INT32_MAX)
            wait_ms = INT32_MAX;
        if (poll(pf, (nfds_t)n, (int)wait_ms) < 0 && errno != EINTR)
            break;
        pthread_mutex_lock(&s->lock);
        for (int k = 0; k < n; k++) {
            if (!pf[k].revents)
                continue;
            if (map[k] == -2) {
                char buf[64];
                ssize_t r = read(s->wake[0], buf, sizeof buf);
                (void)r;
            } else if (map[k] == -1) {
                pthread_mutex_unlock(&s->lock);
                accept_one(s);
                pthread_mutex_lock(&s->lock);
            } else if (s->conns[map[k]]) {
                struct conn *c = s->conns[map[k]];
                if (pf[k].revents & (POLLIN | POLLHUP | POLLERR))
                    read_conn(s, map[k]);
                if (!c->dead && (pf[k].revents & POLLOUT))
                    write_conn(c);
            }
        }
        pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < MAX_CONNS; i++)
        conn_free(s, i);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int private_dir(const char *sock_path, char *err, size_t n)
{
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(dir, sizeof dir, "%s", sock_path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = 0;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, n, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077)) {
        snprintf(err, n, "refusing socket directory %s: not a private (0700) directory owned by uid %u", dir,
                 (unsigned)getuid());
        return -1;
    }
    return 0;
}

struct glr_dap_server *glr_dap_server_start(const char *path, struct dbg_capture *cap, struct dbg_runner *runner,
                                            const struct glr_dap_options *opt, char *err, size_t err_size)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (!path || !*path || strlen(path) >= sizeof addr.sun_path) {
        snprintf(err, err_size, "socket path is empty or longer than %zu bytes", sizeof addr.sun_path - 1);
        return NULL;
    }
    if (private_dir(path, err, err_size) != 0)
        return NULL;
    struct glr_dap_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->cap = cap;
    s->runner = runner;
    if (opt)
        s->opt = *opt;
    if (!s->opt.max_message)
        s->opt.max_message = DAP_MAX_MESSAGE;
    if (!s->opt.max_output)
        s->opt.max_output = (size_t)64 << 20;
    s->wake[0] = s->wake[1] = -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s->listen_fd < 0 || pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, err_size, "cannot create a socket: %s", strerror(errno));
        goto fail;
    }
    /* A socket file nobody accepts on (a dead server's) is replaced; a live one is not. */
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (probe >= 0) {
        if (connect(probe, (struct sockaddr *)&addr, sizeof addr) == 0) {
            close(probe);
            snprintf(err, err_size, "%s: another server is listening there", path);
            goto fail;
        }
        if (errno == ECONNREFUSED)
            unlink(path);
        close(probe);
    }
    /* Bind under a temporary name in the same directory and rename into place once listening:
     * a client that sees the path can always connect (between bind and listen it would get
     * ECONNREFUSED). */
    struct sockaddr_un tmp_addr = { .sun_family = AF_UNIX };
    int tn = snprintf(tmp_addr.sun_path, sizeof tmp_addr.sun_path, "%s.%d.tmp", path, (int)getpid());
    if (tn < 0 || (size_t)tn >= sizeof tmp_addr.sun_path) {
        snprintf(err, err_size, "socket path %s is too long for its temporary name (at most %zu bytes)", path,
                 sizeof tmp_addr.sun_path - 1);
        goto fail;
    }
    unlink(tmp_addr.sun_path);
    mode_t old = umask(0177);
    int b = bind(s->listen_fd, (struct sockaddr *)&tmp_addr, sizeof tmp_addr);
    umask(old);
    if (b != 0 || chmod(tmp_addr.sun_path, 0600) != 0 || listen(s->listen_fd, 8) != 0 ||
        rename(tmp_addr.sun_path, path) != 0) {
        snprintf(err, err_size, "cannot listen on %s: %s", path, strerror(errno));
        if (b == 0)
            unlink(tmp_addr.sun_path);
        goto fail;
    }
    /* The I/O thread and the workers it starts take no signals: the main thread handles them. */
    sigset_t all, old_mask;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old_mask);
    int rc = pthread_create(&s->thread, NULL, io_main, s);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (rc != 0) {
        snprintf(err, err_size, "cannot start the server thread");
        unlink(path);
        goto fail;
    }
    return s;
fail:
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    if (s->wake[0] >= 0) {
        close(s->wake[0]);
        close(s->wake[1]);
    }
    pthread_mutex_destroy(&s->lock);
    free(s);
    return NULL;
}

/* Sessions whose pass still runs free themselves when it ends (under the lock): wait for them. */
static void wait_sessions(struct glr_dap_server *s)
{
    for (;;) {
        pthread_mutex_lock(&s->lock);
        int live = s->live_sessions;
        pthread_mutex_unlock(&s->lock);
        if (!live)
            break;
        usleep(20000);
    }
}

int glr_dap_serve_fd(int fd, const char *initial, size_t initial_len, struct dbg_capture *cap,
                     struct dbg_runner *runner, const struct glr_dap_options *opt, char *err, size_t err_size)
{
    struct glr_dap_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_size, "out of memory");
        close(fd);
        return -1;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->single = true;
    s->listen_fd = -1;   /* poll() ignores negative descriptors */
    s->cap = cap;
    s->runner = runner;
    if (opt)
        s->opt = *opt;
    if (!s->opt.max_message)
        s->opt.max_message = DAP_MAX_MESSAGE;
    if (!s->opt.max_output)
        s->opt.max_output = (size_t)64 << 20;
    int rc = -1;
    if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(err, err_size, "cannot create a pipe: %s", strerror(errno));
        close(fd);
        goto out;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    pthread_mutex_lock(&s->lock);
    if (add_conn(s, fd) != 0) {
        pthread_mutex_unlock(&s->lock);
        snprintf(err, err_size, "cannot start a DAP session");
        close(fd);
        goto out_pipe;
    }
    struct conn *c = s->conns[0];
    if (initial_len) {
        c->in = malloc(initial_len);
        if (c->in) {
            memcpy(c->in, initial, initial_len);
            c->in_len = c->in_cap = initial_len;
            process_input(c);
        } else {
            c->dead = true;
        }
    }
    pthread_mutex_unlock(&s->lock);
    io_main(s);
    wait_sessions(s);
    rc = 0;
out_pipe:
    close(s->wake[0]);
    close(s->wake[1]);
out:
    pthread_mutex_destroy(&s->lock);
    free(s);
    return rc;
}

void glr_dap_server_wait(struct glr_dap_server *s)
{
    (void)s;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    int sig;
    sigwait(&set, &sig);
}

void glr_dap_server_stop(struct glr_dap_server *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_mutex_unlock(&s->lock);
    wake_io(s);
    pthread_join(s->thread, NULL);
    close(s->listen_fd);
    close(s->wake[0]);
    close(s->wake[1]);
    unlink(s->path);
    wait_sessions(s);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
