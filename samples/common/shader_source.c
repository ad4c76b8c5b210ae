/* Shader file loading, see shader_source.h. */
#include "shader_source.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

char *shader_source_read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        set_err(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - 1 - len, f);
        len += n;
        if (n == 0)
            break;
    }
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (!buf) {
        set_err(err, errlen, "out of memory reading %s", path);
        return NULL;
    }
    if (read_error) {
        set_err(err, errlen, "error reading %s", path);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        set_err(err, errlen, "%s contains a NUL byte (not a text shader)", path);
        free(buf);
        return NULL;
    }
    return buf;
}

char *shader_source_load(const char *shader_dir, const char *sample, const char *file, char *err,
                         size_t errlen)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s/%s", shader_dir, sample, file);
    if (n < 0 || (size_t)n >= sizeof path) {
        set_err(err, errlen, "shader path too long: %s/%s/%s", shader_dir, sample, file);
        return NULL;
    }
    return shader_source_read_file(path, err, errlen);
}

char *shader_source_concat(const char *prefix, const char *body)
{
    size_t a = strlen(prefix), b = strlen(body);
    char *s = malloc(a + b + 1);
    if (!s)
        return NULL;
    memcpy(s, prefix, a);
    memcpy(s + a, body, b + 1);
    return s;
}

int shader_source_prefix_lines(const char *prefix)
{
    int n = 0;
    for (const char *p = prefix; *p; ++p)
        n += *p == '\n';
    return n;
}
