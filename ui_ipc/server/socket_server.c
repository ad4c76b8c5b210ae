/* The program-side socket server: one background thread, poll() over the listening socket and the
 * connections; line requests handed to a handler; nothing here ever runs on the program's threads,
 * so a slow, silent or malicious client cannot stall rendering. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "ui_ipc/ui_ipc.h"
#include "ui_ipc/server/socket_server_dap.h"

#define MAX_CONNS 16

struct conn {
    int fd;
    int line_proto;     /* 1 once the first bytes showed a line client (not DAP) */
    size_t len;
    char buf[GLR_IPC_MAX_LINE + 1];
};

struct glr_ipc_server {
    int listen_fd;
    int wake[2];        /* stop request */
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
    for (int i = 0; i < MAX_CONNS; i++)
        if (s->conns[i].fd < 0) {
            s->conns[i].fd = fd;
            s->conns[i].len = 0;
            s->conns[i].line_proto = 0;
            return;
        }
    reply_line(fd, "error too many connections");
    close(fd);
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
    if (s->dap && !c->line_proto) {
        /* DAP frames start with their header; a line request never does. */
        static const char dap_head[] = "Content-Length:";
        size_t k = c->len < sizeof dap_head - 1 ? c->len : sizeof dap_head - 1;
        if (memcmp(c->buf, dap_head, k) != 0) {
            c->line_proto = 1;
        } else if (k < sizeof dap_head - 1) {
            return; /* a prefix of the header so far: wait for more */
        } else {
            int fd = c->fd;
            size_t len = c->len;
            c->fd = -1;
            c->len = 0;
            s->dap(s->user, fd, c->buf, len);
            return;
        }
    }
    for (;;) {
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
        char reply[GLR_IPC_MAX_LINE];
        reply[0] = 0;
        s->handler(s->user, c->buf, reply, sizeof reply);
        reply_line(c->fd, reply[0] ? reply : "error no reply");
        size_t used = (size_t)(nl - c->buf) + 1;
        memmove(c->buf, nl + 1, c->len - used);
        c->len -= used;
    }
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
        for (int i = 0; i < MAX_CONNS; i++)
            if (s->conns[i].fd >= 0) {
                pf[n] = (struct pollfd){ .fd = s->conns[i].fd, .events = POLLIN };
                map[n++] = i;
            }
        if (poll(pf, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (pf[0].revents)
            break;
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
    s->handler = handler;
    s->dap = dap;
    s->user = user;
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s->listen_fd < 0 || pipe2(s->wake, O_CLOEXEC) != 0) {
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
    if (b != 0 || chmod(tmp_addr.sun_path, 0600) != 0 || listen(s->listen_fd, 8) != 0 ||
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
    free(s);
    return NULL;
}

void glr_ipc_server_stop(struct glr_ipc_server *s)
{
    if (!s)
        return;
    ssize_t w = write(s->wake[1], "x", 1);
    (void)w;
    pthread_join(s->thread, NULL);
    for (int i = 0; i < MAX_CONNS; i++)
        close_conn(&s->conns[i]);
    close(s->listen_fd);
    close(s->wake[0]);
    close(s->wake[1]);
    unlink(s->path);
    free(s);
}
