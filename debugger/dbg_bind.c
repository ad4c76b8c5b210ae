/* Breakpoint binding by text containment (see dbg_bind.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debugger/dbg_bind.h"
#include "debugger/dbg_capture.h"

static int lines_before(const char *start, const char *at)
{
    int n = 0;
    for (const char *p = start; p < at; p++)
        n += *p == '\n';
    return n;
}

static int count_lines(const char *t)
{
    int n = 0;
    for (const char *p = t; *p; p++)
        n += *p == '\n';
    return n + (t[0] && t[strlen(t) - 1] != '\n');
}

int dbg_bind_text(const struct dbg_capture *c, const char *text, struct dbg_binding *out, int max)
{
    /* Surrounding blank lines or a missing final newline should not prevent a match: compare the
     * text without trailing whitespace, and require it to start at the beginning of a line. */
    size_t len = strlen(text);
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (!len)
        return 0;
    int found = 0;
    for (int i = 0; i < c->n_shaders; i++) {
        const char *src = c->shaders[i].source, *end = src + strlen(src), *p = src, *q;
        while ((q = memmem(p, (size_t)(end - p), text, len)) != NULL) {
            if (q == src || q[-1] == '\n') {
                if (found < max)
                    out[found] = (struct dbg_binding){ c->shaders[i].id, lines_before(src, q), count_lines(text) };
                found++;
                break;
            }
            p = q + 1;
        }
    }
    return found;
}

int dbg_bind_line(const struct dbg_shader *s, int line, int limit, char *msg, size_t msg_size)
{
    if (line < 1 || line > s->line_count) {
        snprintf(msg, msg_size, "line %d is outside %s (%d lines)", line, s->name, s->line_count);
        return 0;
    }
    if (!s->has_code) {
        snprintf(msg, msg_size, "the GPU model cannot compile this shader: %.200s",
                 s->compile_error ? s->compile_error : "unknown error");
        return 0;
    }
    if (limit > s->line_count)
        limit = s->line_count;
    for (int l = line; l <= limit; l++)
        if (s->has_code[l])
            return l;
    snprintf(msg, msg_size, "no code on this line or below it");
    return 0;
}

/* Breakpoint paths come from the client: a FIFO, a device or a huge file must not block or exhaust
 * the server (it reads under the server lock, on its only I/O thread). The file is opened
 * non-blocking (opening a FIFO without a writer would otherwise wait for one), checked to be a
 * regular file of at most DBG_SOURCE_MAX bytes, then read: reads of a local regular file do not
 * wait on anyone, and the size bounds the work. */
char *dbg_read_source(const char *path, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_size, "cannot open the source file: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "the source path is not a regular file");
        close(fd);
        return NULL;
    }
    if (st.st_size > DBG_SOURCE_MAX) {
        snprintf(why, why_size, "the source file is larger than %d MiB", DBG_SOURCE_MAX >> 20);
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        snprintf(why, why_size, "out of memory");
        close(fd);
        return NULL;
    }
    /* The file may grow or shrink meanwhile: read at most what fstat said. */
    while (len + 1 < cap) {
        ssize_t r = read(fd, buf + len, cap - 1 - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(why, why_size, "cannot read the source file: %s", strerror(errno));
            free(buf);
            close(fd);
            return NULL;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = 0;
    if (strlen(buf) != len) {
        snprintf(why, why_size, "the source file contains NUL bytes: not a shader");
        free(buf);
        return NULL;
    }
    return buf;
}

char *dbg_read_file(const char *path)
{
    char why[200];
    return dbg_read_source(path, why, sizeof why);
}
