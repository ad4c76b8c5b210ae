/* Private to gpu_model/fixedfunc: a growing text buffer for the generated GLSL. */
#ifndef GM_FF_TEXT_H
#define GM_FF_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ff_text {
    char *s;
    size_t len, cap;
    bool failed;   /* memory ran out: the text is dropped */
} ff_text;

static inline void ff_printf(ff_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void ff_printf(ff_text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *ns = realloc(t->s, cap);
        if (!ns) {
            t->failed = true;
            return;
        }
        t->s = ns;
        t->cap = cap;
    }
}

/* The text (the caller frees it), or NULL when memory ran out. */
static inline char *ff_finish(ff_text *t)
{
    if (t->failed || !t->s) {
        free(t->s);
        return NULL;
    }
    return t->s;
}

#endif
