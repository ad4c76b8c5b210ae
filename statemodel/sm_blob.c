/* Blob layouts of string parameters (see sm_blob.h). */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_blob.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

int64_t sm_strings_begin(const struct glr_blob *b, struct sm_str_iter *it)
{
    memset(it, 0, sizeof *it);
    if (!b->data || b->size < 4)
        return -1;
    const uint8_t *p = b->data, *end = p + b->size;
    uint32_t n = rd32(p);
    /* Each string takes at least its 4-byte length: bound the count before walking. */
    if (n > (b->size - 4) / 4)
        return -1;
    const uint8_t *q = p + 4;
    for (uint32_t i = 0; i < n; i++) {
        if (end - q < 4)
            return -1;
        uint32_t len = rd32(q);
        q += 4;
        if (len > (uint64_t)(end - q))
            return -1;
        q += len;
    }
    if (q != end)
        return -1;
    it->p = p + 4;
    it->end = end;
    it->left = n;
    return n;
}

bool sm_strings_next(struct sm_str_iter *it, const char **s, uint32_t *len)
{
    if (!it->left)
        return false;
    *len = rd32(it->p);
    *s = (const char *)it->p + 4;
    it->p += 4 + *len;
    it->left--;
    return true;
}

char *sm_strings_join(const struct glr_blob *b, uint32_t *count)
{
    struct sm_str_iter it;
    int64_t n = sm_strings_begin(b, &it);
    if (n < 0)
        return NULL;
    char *out = malloc((size_t)b->size + 1);   /* the text is shorter than the blob */
    if (!out)
        return NULL;
    size_t o = 0;
    const char *s;
    uint32_t len;
    while (sm_strings_next(&it, &s, &len))
        for (uint32_t k = 0; k < len; k++)
            if (s[k])
                out[o++] = s[k];
    out[o] = 0;
    if (count)
        *count = (uint32_t)n;
    return out;
}

char **sm_strings_split(const struct glr_blob *b, uint32_t *count)
{
    struct sm_str_iter it;
    int64_t n = sm_strings_begin(b, &it);
    if (n <= 0)
        return NULL;
    char **v = calloc((size_t)n, sizeof *v);
    if (!v)
        return NULL;
    const char *s;
    uint32_t len, i = 0;
    while (sm_strings_next(&it, &s, &len)) {
        const char *z = memchr(s, 0, len);   /* GL reads a string up to its NUL */
        size_t l = z ? (size_t)(z - s) : len;
        if (!(v[i] = malloc(l + 1))) {
            while (i)
                free(v[--i]);
            free(v);
            return NULL;
        }
        memcpy(v[i], s, l);
        v[i++][l] = 0;
    }
    *count = (uint32_t)n;
    return v;
}

uint8_t *sm_strings_encode(const char *const *strs, uint32_t n, size_t *size)
{
    size_t total = 4;
    for (uint32_t i = 0; i < n; i++)
        total += 4 + strlen(strs[i]);
    uint8_t *buf = malloc(total), *o = buf;
    if (!buf)
        return NULL;
    wr32(o, n);
    o += 4;
    for (uint32_t i = 0; i < n; i++) {
        size_t l = strlen(strs[i]);
        wr32(o, (uint32_t)l);
        memcpy(o + 4, strs[i], l);
        o += 4 + l;
    }
    *size = total;
    return buf;
}

char *sm_blob_cstr(const struct glr_blob *b)
{
    if (!b->data || !b->size)
        return NULL;
    const char *z = memchr(b->data, 0, (size_t)b->size);
    size_t l = z ? (size_t)(z - (const char *)b->data) : (size_t)b->size;
    char *s = malloc(l + 1);
    if (!s)
        return NULL;
    memcpy(s, b->data, l);
    s[l] = 0;
    return s;
}
