/* The DAP server's socket appears only once it accepts connections: a client that connects the
 * moment the path shows up (inotify on the directory, no retry) must never get ECONNREFUSED.
 * Before the server bound under a temporary name and renamed it into place, the window between
 * bind() and listen() refused such clients (a flaky e2e test). Many starts in a row, each with a
 * watcher thread blocked in read() on inotify so it connects within microseconds of the name. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "ui_ipc/dap/dap.h"

enum { ROUNDS = 300 };

struct watch {
    int ino;                 /* inotify on the socket's directory, set up before the server starts */
    const char *name;        /* the socket's file name in it */
    const char *path;
    int result;              /* 0 connected, else the errno of the one connect() */
};

static void *watcher(void *arg)
{
    struct watch *w = arg;
    char buf[sizeof(struct inotify_event) + NAME_MAX + 1] __attribute__((aligned(8)));
    for (;;) {
        ssize_t n = read(w->ino, buf, sizeof buf);
        if (n <= 0) {
            w->result = n < 0 ? errno : EIO;
            return NULL;
        }
        for (char *p = buf; p < buf + n;) {
            struct inotify_event *ev = (struct inotify_event *)p;
            p += sizeof *ev + ev->len;
            if (ev->len == 0 || strcmp(ev->name, w->name) != 0)
                continue;
            /* The name is there: connect once, at once, as a client polling for it would. */
            struct sockaddr_un a = { .sun_family = AF_UNIX };
            snprintf(a.sun_path, sizeof a.sun_path, "%s", w->path);
            int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            w->result = fd < 0 ? errno : connect(fd, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno;
            if (fd >= 0)
                close(fd);
            return NULL;
        }
    }
}

int main(void)
{
    char dir[] = "/tmp/glr-dap-race-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/s.sock", dir);
    int refused = 0, other = 0;
    for (int i = 0; i < ROUNDS; i++) {
        struct watch w = { .name = "s.sock", .path = path, .result = -1 };
        w.ino = inotify_init1(IN_CLOEXEC);
        if (w.ino < 0 || inotify_add_watch(w.ino, dir, IN_CREATE | IN_MOVED_TO) < 0) {
            perror("inotify");
            return 1;
        }
        pthread_t t;
        if (pthread_create(&t, NULL, watcher, &w) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
        char err[256];
        struct glr_dap_server *s = glr_dap_server_start(path, NULL, NULL, NULL, err, sizeof err);
        if (!s) {
            fprintf(stderr, "round %d: server start failed: %s\n", i, err);
            return 1;
        }
        pthread_join(t, NULL);
        close(w.ino);
        glr_dap_server_stop(s);
        if (w.result == ECONNREFUSED)
            refused++;
        else if (w.result != 0) {
            fprintf(stderr, "round %d: connect: %s\n", i, strerror(w.result));
            other++;
        }
        /* Nothing but the socket is left behind (no temporary name). */
        if (rmdir(dir) != 0) {
            fprintf(stderr, "round %d: %s not empty after the server stopped\n", i, dir);
            return 1;
        }
        if (mkdir(dir, 0700) != 0) {
            perror("mkdir");
            return 1;
        }
    }
    rmdir(dir);
    printf("%d starts: %d connects refused, %d other errors\n", ROUNDS, refused, other);
    return refused || other ? 1 : 0;
}
