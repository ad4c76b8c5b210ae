/* Test helpers: building glr_call records from a compact format string. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"

int sm_test_failures;
static uint64_t next_seq;

/* Blobs the helpers encode; freed by sm_test_result so the sanitizer build sees no leak. */
static void **held;
static size_t n_held;

static void *hold(size_t size)
{
    void *p = malloc(size ? size : 1), **h = realloc(held, (n_held + 1) * sizeof *held);
    if (!p || !h) {
        fprintf(stderr, "test bug: out of memory\n");
        abort();
    }
    held = h;
    held[n_held++] = p;
    return p;
}

/* The recorder's string-array layout, written here independently of the model's encoder:
 * u32 count, then per string u32 length and the bytes, little-endian. */
static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

struct glr_blob tstrings(const char *const *strs, int n)
{
    size_t total = 4;
    for (int i = 0; i < n; i++)
        total += 4 + strlen(strs[i]);
    uint8_t *b = hold(total), *o = b + 4;
    put32(b, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(strs[i]);
        put32(o, (uint32_t)l);
        memcpy(o + 4, strs[i], l);
        o += 4 + l;
    }
    return (struct glr_blob){ b, total };
}

static struct glr_call vmake(uint32_t ctx, const char *name, const char *fmt, va_list ap)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    int id = glr_cmd_find(name);
    if (id < 0) {
        fprintf(stderr, "test bug: no command %s\n", name);
        abort();
    }
    c.cmd = (uint32_t)id;
    c.ctx_id = ctx;
    c.seq = next_seq++;
    int i = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f == 'r') {
            c.ret = va_arg(ap, uint64_t);
            c.flags |= GLR_CALL_HAS_RET;
            continue;
        }
        switch (*f) {
        case 'i': c.args[i] = (uint64_t)(int64_t)va_arg(ap, int); break;
        case 'u': c.args[i] = va_arg(ap, unsigned); break;
        case 'f': { float x = (float)va_arg(ap, double); uint32_t b; memcpy(&b, &x, 4); c.args[i] = b; break; }
        case 'd': { double x = va_arg(ap, double); memcpy(&c.args[i], &x, 8); break; }
        case 'p': c.args[i] = va_arg(ap, uint64_t); break;
        case 'b':
            c.blobs[i].data = va_arg(ap, const void *);
            c.blobs[i].size = va_arg(ap, size_t);
            c.args[i] = (uint64_t)(uintptr_t)c.blobs[i].data;
            break;
        case 'z': {   /* a plain string: its bytes with the NUL */
            const char *z = va_arg(ap, const char *);
            c.blobs[i] = (struct glr_blob){ z, strlen(z) + 1 };
            c.args[i] = (uint64_t)(uintptr_t)z;
            break;
        }
        case 's': {   /* an array of one string */
            const char *one = va_arg(ap, const char *);
            c.blobs[i] = tstrings(&one, 1);
            c.args[i] = 0x1000;   /* an address in the captured process: meaningless here */
            break;
        }
        case 'S': {   /* an array of n strings */
            const char *const *strs = va_arg(ap, const char *const *);
            int n = va_arg(ap, int);
            c.blobs[i] = tstrings(strs, n);
            c.args[i] = 0x1000;
            break;
        }
        default:
            fprintf(stderr, "test bug: bad format %c\n", *f);
            abort();
        }
        i++;
    }
    if (i != glr_cmds[id].nparams) {
        fprintf(stderr, "test bug: %s takes %d parameters, format gives %d\n", name,
                glr_cmds[id].nparams, i);
        abort();
    }
    return c;
}

struct glr_call tmake(uint32_t ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct glr_call c = vmake(ctx, name, fmt, ap);
    va_end(ap);
    return c;
}

bool tcall(struct sm_state *s, uint32_t ctx, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct glr_call c = vmake(ctx, name, fmt, ap);
    va_end(ap);
    return sm_apply(s, &c);
}

int sm_test_result(const char *name)
{
    for (size_t i = 0; i < n_held; i++)
        free(held[i]);
    free(held);
    held = NULL;
    n_held = 0;
    if (sm_test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, sm_test_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}
