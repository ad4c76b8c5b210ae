/* Breakpoint binding by text containment (see dap_bind.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_bind.h"
#include "ui_ipc/dap/dap_capture.h"

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

int dap_bind_text(const struct dap_capture *c, const char *text, struct dap_binding *out, int max)
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
                    out[found] = (struct dap_binding){ c->shaders[i].id, lines_before(src, q), count_lines(text) };
                found++;
                break;
            }
            p = q + 1;
        }
    }
    return found;
}

int dap_bind_line(const struct dap_shader *s, int line, int limit, char *msg, size_t msg_size)
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

char *dap_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            if (cap >= (16u << 20)) {
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + len, 1, cap - 1 - len, f);
        if (!r)
            break;
        len += r;
    }
    fclose(f);
    if (buf) {
        buf[len] = 0;
        if (strlen(buf) != len) { /* NUL bytes: not a shader */
            free(buf);
            return NULL;
        }
    }
    return buf;
}
