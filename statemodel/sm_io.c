/* The four directions of sm_io: binary writer/reader and JSON writer/reader. The JSON directions
 * call cJSON only through io->cj, installed by their initializers in sm_json.c: this file links no
 * cJSON symbol, so the preloaded shim (binary only) does not need libcjson. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_io.h"
#include "statemodel/statemodel.h"

bool io_fail(struct sm_io *io, const char *fmt, ...)
{
    if (!io->failed) {
        io->failed = true;
        char msg[160];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (io->mode == SM_IO_READ_BIN)
            snprintf(io->err, sizeof io->err, "at byte %zu: %s", (size_t)(io->p - io->start), msg);
        else
            snprintf(io->err, sizeof io->err, "%s", msg);
    }
    return false;
}

void io_init_write_bin(struct sm_io *io)
{
    memset(io, 0, sizeof *io);
    io->mode = SM_IO_WRITE_BIN;
}

void io_init_read_bin(struct sm_io *io, const void *data, size_t size)
{
    memset(io, 0, sizeof *io);
    io->mode = SM_IO_READ_BIN;
    io->p = io->start = data;
    io->end = io->p + size;
}

/* ------------------------------------------------------------------ binary primitives */

static void put(struct sm_io *io, const void *d, size_t n)
{
    if (io->failed)
        return;
    if (io->cap - io->len < n) {
        size_t nc = io->cap ? io->cap : 256;
        while (nc - io->len < n)
            nc *= 2;
        uint8_t *b = realloc(io->buf, nc);
        if (!b) {
            io_fail(io, "out of memory");
            return;
        }
        io->buf = b;
        io->cap = nc;
    }
    memcpy(io->buf + io->len, d, n);
    io->len += n;
}

static const uint8_t *get(struct sm_io *io, size_t n, const char *what)
{
    if (io->failed)
        return NULL;
    if ((size_t)(io->end - io->p) < n) {
        io_fail(io, "truncated: %s needs %zu bytes, %zu left", what, n, (size_t)(io->end - io->p));
        return NULL;
    }
    const uint8_t *r = io->p;
    io->p += n;
    return r;
}

static void put_uvar(struct sm_io *io, uint64_t v)
{
    uint8_t b[10];
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    put(io, b, n);
}

static uint64_t get_uvar(struct sm_io *io)
{
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        const uint8_t *b = get(io, 1, "varint");
        if (!b)
            return 0;
        if (i == 9 && *b > 1) {
            io_fail(io, "varint overflows 64 bits");
            return 0;
        }
        v |= (uint64_t)(*b & 0x7F) << (7 * i);
        if (!(*b & 0x80))
            return v;
    }
    io_fail(io, "varint longer than 10 bytes");
    return 0;
}

static void put_le(struct sm_io *io, uint64_t v, int n)
{
    uint8_t b[8];
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    put(io, b, (size_t)n);
}

static uint64_t get_le(struct sm_io *io, int n)
{
    const uint8_t *b = get(io, (size_t)n, n == 4 ? "f32" : "f64");
    uint64_t v = 0;
    for (int i = 0; b && i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

/* ------------------------------------------------------------------ JSON primitives */

static cJSON *top(struct sm_io *io) { return io->stack[io->depth]; }

/* Adds item to the current container (under key, or appended to an array). */
static void jadd(struct sm_io *io, const char *key, cJSON *item)
{
    if (!item) {
        io_fail(io, "out of memory");
        return;
    }
    if (key)
        io->cj->AddItemToObject(top(io), key, item);
    else
        io->cj->AddItemToArray(top(io), item);
}

/* The item named key in the current object, or the next element of the current array. */
static cJSON *jget(struct sm_io *io, const char *key)
{
    if (io->failed)
        return NULL;
    cJSON *c = top(io);
    cJSON *it;
    if (key) {
        it = io->cj->IsObject(c) ? io->cj->GetObjectItemCaseSensitive(c, key) : NULL;
        if (!it)
            io_fail(io, "missing member \"%s\"", key);
    } else {
        it = io->cj->IsArray(c) ? io->cj->GetArrayItem(c, io->next[io->depth]++) : NULL;
        if (!it)
            io_fail(io, "missing array element");
    }
    return it;
}

static bool jnumber(struct sm_io *io, const char *key, double *out)
{
    cJSON *it = jget(io, key);
    if (!it)
        return false;
    if (io->cj->IsNumber(it)) {
        *out = it->valuedouble;
        return true;
    }
    if (io->cj->IsString(it)) {
        const char *s = it->valuestring;
        if (!strcmp(s, "nan")) { *out = NAN; return true; }
        if (!strcmp(s, "inf")) { *out = INFINITY; return true; }
        if (!strcmp(s, "-inf")) { *out = -INFINITY; return true; }
    }
    return io_fail(io, "\"%s\": expected a number", key ? key : "[]");
}

static cJSON *jnum_item(struct sm_io *io, double v)
{
    if (isnan(v))
        return io->cj->CreateString("nan");
    if (isinf(v))
        return io->cj->CreateString(v > 0 ? "inf" : "-inf");
    return io->cj->CreateNumber(v);
}

static bool jinteger(struct sm_io *io, const char *key, double lo, double hi, double *out)
{
    if (!jnumber(io, key, out))
        return false;
    if (!(*out >= lo && *out <= hi) || floor(*out) != *out)
        return io_fail(io, "\"%s\": integer out of range", key ? key : "[]");
    return true;
}

/* ------------------------------------------------------------------ scalars */

void io_u32(struct sm_io *io, const char *key, uint32_t *v)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: put_uvar(io, *v); break;
    case SM_IO_READ_BIN: {
        uint64_t x = get_uvar(io);
        if (x > UINT32_MAX)
            io_fail(io, "value does not fit 32 bits");
        *v = (uint32_t)x;
        break;
    }
    case SM_IO_WRITE_JSON: jadd(io, key, io->cj->CreateNumber(*v)); break;
    case SM_IO_READ_JSON: {
        double d = 0;
        if (jinteger(io, key, 0, 4294967295.0, &d))
            *v = (uint32_t)d;
        break;
    }
    }
}

void io_i32(struct sm_io *io, const char *key, int32_t *v)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: put_uvar(io, ((uint64_t)(int64_t)*v << 1) ^ (uint64_t)((int64_t)*v >> 63)); break;
    case SM_IO_READ_BIN: {
        uint64_t u = get_uvar(io);
        int64_t x = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        if (x < INT32_MIN || x > INT32_MAX)
            io_fail(io, "value does not fit 32 bits");
        *v = (int32_t)x;
        break;
    }
    case SM_IO_WRITE_JSON: jadd(io, key, io->cj->CreateNumber(*v)); break;
    case SM_IO_READ_JSON: {
        double d = 0;
        if (jinteger(io, key, -2147483648.0, 2147483647.0, &d))
            *v = (int32_t)d;
        break;
    }
    }
}

void io_u64(struct sm_io *io, const char *key, uint64_t *v)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: put_uvar(io, *v); break;
    case SM_IO_READ_BIN: *v = get_uvar(io); break;
    case SM_IO_WRITE_JSON:
        if (*v <= (1ull << 53)) {
            jadd(io, key, io->cj->CreateNumber((double)*v));
        } else {
            /* Beyond a double's exact integers (handles, client addresses): a hex string. */
            char s[24];
            snprintf(s, sizeof s, "0x%llx", (unsigned long long)*v);
            jadd(io, key, io->cj->CreateString(s));
        }
        break;
    case SM_IO_READ_JSON: {
        cJSON *it = jget(io, key);
        if (!it)
            return;
        if (io->cj->IsString(it)) {
            const char *s = it->valuestring;
            char *end = NULL;
            if (strncmp(s, "0x", 2) != 0 || !s[2]) {
                io_fail(io, "\"%s\": expected a hex string", key ? key : "[]");
                return;
            }
            unsigned long long x = strtoull(s + 2, &end, 16);
            if (*end || strlen(s) > 18)
                io_fail(io, "\"%s\": bad hex string", key ? key : "[]");
            *v = x;
        } else if (io->cj->IsNumber(it) && it->valuedouble >= 0 && it->valuedouble <= 9007199254740992.0 &&
                   floor(it->valuedouble) == it->valuedouble) {
            *v = (uint64_t)it->valuedouble;
        } else {
            io_fail(io, "\"%s\": expected an unsigned integer", key ? key : "[]");
        }
        break;
    }
    }
}

void io_bool(struct sm_io *io, const char *key, bool *v)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: { uint8_t b = *v ? 1 : 0; put(io, &b, 1); break; }
    case SM_IO_READ_BIN: {
        const uint8_t *b = get(io, 1, "bool");
        if (b && *b > 1)
            io_fail(io, "bool is neither 0 nor 1");
        *v = b && *b == 1;
        break;
    }
    case SM_IO_WRITE_JSON: jadd(io, key, io->cj->CreateBool(*v)); break;
    case SM_IO_READ_JSON: {
        cJSON *it = jget(io, key);
        if (it && !io->cj->IsBool(it))
            io_fail(io, "\"%s\": expected true or false", key ? key : "[]");
        *v = it && io->cj->IsTrue(it);
        break;
    }
    }
}

void io_f32(struct sm_io *io, const char *key, float *v)
{
    if (io->failed)
        return;
    uint32_t bits;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: memcpy(&bits, v, 4); put_le(io, bits, 4); break;
    case SM_IO_READ_BIN: bits = (uint32_t)get_le(io, 4); memcpy(v, &bits, 4); break;
    case SM_IO_WRITE_JSON: jadd(io, key, jnum_item(io, *v)); break;
    case SM_IO_READ_JSON: { double d = 0; if (jnumber(io, key, &d)) *v = (float)d; break; }
    }
}

void io_f64(struct sm_io *io, const char *key, double *v)
{
    if (io->failed)
        return;
    uint64_t bits;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: memcpy(&bits, v, 8); put_le(io, bits, 8); break;
    case SM_IO_READ_BIN: bits = get_le(io, 8); memcpy(v, &bits, 8); break;
    case SM_IO_WRITE_JSON: jadd(io, key, jnum_item(io, *v)); break;
    case SM_IO_READ_JSON: jnumber(io, key, v); break;
    }
}

void io_enum(struct sm_io *io, const char *key, uint32_t *v)
{
    if (io->failed)
        return;
    if (io->mode == SM_IO_WRITE_JSON) {
        /* Small values (0, 1, GL_POINTS.. GL_ONE..) are ambiguous between groups: keep numbers. */
        const char *n = *v >= 0x100 ? sm_enum_name(*v) : NULL;
        jadd(io, key, n ? io->cj->CreateString(n) : io->cj->CreateNumber(*v));
        return;
    }
    if (io->mode == SM_IO_READ_JSON) {
        cJSON *it = jget(io, key);
        if (!it)
            return;
        if (io->cj->IsString(it)) {
            if (!sm_enum_value(it->valuestring, v))
                io_fail(io, "\"%s\": unknown enum name \"%.60s\"", key ? key : "[]", it->valuestring);
            return;
        }
        if (io->cj->IsNumber(it) && it->valuedouble >= 0 && it->valuedouble <= 4294967295.0 &&
            floor(it->valuedouble) == it->valuedouble)
            *v = (uint32_t)it->valuedouble;
        else
            io_fail(io, "\"%s\": expected an enum name or number", key ? key : "[]");
        return;
    }
    io_u32(io, key, v);
}

void io_u32_below(struct sm_io *io, const char *key, uint32_t *v, uint32_t limit)
{
    io_u32(io, key, v);
    if (io_reading(io) && !io->failed && *v >= limit)
        io_fail(io, "\"%s\" = %u is out of range (limit %u)", key ? key : "[]", *v, limit);
}

void io_str(struct sm_io *io, const char *key, char **s)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN: {
        uint8_t present = *s != NULL;
        put(io, &present, 1);
        if (*s) {
            size_t n = strlen(*s);
            put_uvar(io, n);
            put(io, *s, n);
        }
        break;
    }
    case SM_IO_READ_BIN: {
        *s = NULL;
        const uint8_t *present = get(io, 1, "string flag");
        if (!present || !*present)
            return;
        if (*present != 1) {
            io_fail(io, "bad string flag");
            return;
        }
        uint64_t n = get_uvar(io);
        if (io->failed)
            return;
        if (n > (uint64_t)(io->end - io->p)) {
            io_fail(io, "truncated: string of %llu bytes, %zu left", (unsigned long long)n,
                    (size_t)(io->end - io->p));
            return;
        }
        const uint8_t *d = get(io, (size_t)n, "string");
        if (!d)
            return;
        if (memchr(d, 0, (size_t)n)) {
            io_fail(io, "string contains a NUL byte");
            return;
        }
        *s = malloc((size_t)n + 1);
        if (!*s) {
            io_fail(io, "out of memory");
            return;
        }
        memcpy(*s, d, (size_t)n);
        (*s)[n] = 0;
        break;
    }
    case SM_IO_WRITE_JSON:
        jadd(io, key, *s ? io->cj->CreateString(*s) : io->cj->CreateNull());
        break;
    case SM_IO_READ_JSON: {
        *s = NULL;
        cJSON *it = jget(io, key);
        if (!it || io->cj->IsNull(it))
            return;
        if (!io->cj->IsString(it)) {
            io_fail(io, "\"%s\": expected a string", key ? key : "[]");
            return;
        }
        *s = strdup(it->valuestring);
        if (!*s)
            io_fail(io, "out of memory");
        break;
    }
    }
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *b64_encode(const uint8_t *d, size_t n)
{
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        *o++ = b64[v >> 18];
        *o++ = b64[(v >> 12) & 63];
        *o++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *o = 0;
    return out;
}

static int b64_val(char c)
{
    const char *p = c ? strchr(b64, c) : NULL;
    return p ? (int)(p - b64) : -1;
}

/* Decodes strict padded base64; NULL (and *n 0) on bad input. */
static uint8_t *b64_decode(const char *s, size_t *n)
{
    size_t len = strlen(s);
    *n = 0;
    if (len % 4)
        return NULL;
    uint8_t *out = malloc(len / 4 * 3 + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < len; i += 4) {
        int v[4];
        bool last = i + 4 == len;
        for (int j = 0; j < 4; j++) {
            v[j] = b64_val(s[i + j]);
            if (v[j] < 0 && !(last && j >= 2 && s[i + j] == '=' && (j == 3 || s[i + 3] == '='))) {
                free(out);
                return NULL;
            }
        }
        uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                     (uint32_t)(v[2] < 0 ? 0 : v[2]) << 6 | (uint32_t)(v[3] < 0 ? 0 : v[3]);
        out[k++] = (uint8_t)(x >> 16);
        if (v[2] >= 0)
            out[k++] = (uint8_t)(x >> 8);
        if (v[3] >= 0)
            out[k++] = (uint8_t)x;
    }
    *n = k;
    return out;
}

void io_bytes(struct sm_io *io, const char *key, uint8_t **data, uint64_t *size)
{
    if (io->failed)
        return;
    switch (io->mode) {
    case SM_IO_WRITE_BIN:
        put_uvar(io, *data ? *size : 0);
        if (*data)
            put(io, *data, (size_t)*size);
        break;
    case SM_IO_READ_BIN: {
        *data = NULL;
        *size = 0;
        uint64_t n = get_uvar(io);
        if (io->failed || !n)
            return;
        if (n > (uint64_t)(io->end - io->p)) {
            io_fail(io, "truncated: %llu bytes of data, %zu left", (unsigned long long)n,
                    (size_t)(io->end - io->p));
            return;
        }
        *data = malloc((size_t)n);
        if (!*data) {
            io_fail(io, "out of memory");
            return;
        }
        memcpy(*data, get(io, (size_t)n, "bytes"), (size_t)n);
        *size = n;
        break;
    }
    case SM_IO_WRITE_JSON: {
        char *s = b64_encode(*data ? *data : (const uint8_t *)"", *data ? (size_t)*size : 0);
        jadd(io, key, s ? io->cj->CreateString(s) : NULL);
        free(s);
        break;
    }
    case SM_IO_READ_JSON: {
        *data = NULL;
        *size = 0;
        cJSON *it = jget(io, key);
        if (!it)
            return;
        size_t n = 0;
        uint8_t *d = io->cj->IsString(it) ? b64_decode(it->valuestring, &n) : NULL;
        if (!d) {
            io_fail(io, "\"%s\": expected base64 data", key ? key : "[]");
            return;
        }
        if (!n) {
            free(d);
            return;
        }
        *data = d;
        *size = n;
        break;
    }
    }
}

/* ------------------------------------------------------------------ containers */

static bool push(struct sm_io *io, cJSON *c)
{
    if (io->depth + 1 >= SM_IO_MAX_DEPTH)
        return io_fail(io, "nesting too deep");
    io->stack[++io->depth] = c;
    io->next[io->depth] = 0;
    return true;
}

/* Container begin shared by objects and arrays; JSON only. On failure pushes a dummy level so
 * the matching end stays balanced. */
static void jbegin(struct sm_io *io, const char *key, bool array)
{
    cJSON *c = NULL;
    if (io->failed) {
        push(io, NULL);
        return;
    }
    if (io->mode == SM_IO_WRITE_JSON) {
        c = array ? io->cj->CreateArray() : io->cj->CreateObject();
        jadd(io, key, c);
    } else {
        c = jget(io, key);
        if (c && (array ? !io->cj->IsArray(c) : !io->cj->IsObject(c))) {
            io_fail(io, "\"%s\": expected %s", key ? key : "[]", array ? "an array" : "an object");
            c = NULL;
        }
    }
    if (!push(io, c))
        io->depth++;   /* keep begin/end balanced even past the limit */
}

static void jend(struct sm_io *io)
{
    if (io->depth > 0)
        io->depth--;
}

void io_obj_begin(struct sm_io *io, const char *key)
{
    if (io->mode == SM_IO_WRITE_JSON || io->mode == SM_IO_READ_JSON)
        jbegin(io, key, false);
}

void io_obj_end(struct sm_io *io)
{
    if (io->mode == SM_IO_WRITE_JSON || io->mode == SM_IO_READ_JSON)
        jend(io);
}

void io_arr_begin(struct sm_io *io, const char *key, uint32_t *count, uint32_t max,
                  size_t min_bytes)
{
    switch (io->mode) {
    case SM_IO_WRITE_BIN:
        put_uvar(io, *count);
        break;
    case SM_IO_READ_BIN: {
        uint64_t n = get_uvar(io);
        *count = 0;
        if (io->failed)
            return;
        if (n > max)
            io_fail(io, "\"%s\": %llu elements, at most %u allowed", key, (unsigned long long)n, max);
        else if (min_bytes && n > (uint64_t)(io->end - io->p) / min_bytes)
            io_fail(io, "\"%s\": %llu elements cannot fit in %zu bytes", key,
                    (unsigned long long)n, (size_t)(io->end - io->p));
        else
            *count = (uint32_t)n;
        break;
    }
    case SM_IO_WRITE_JSON:
        jbegin(io, key, true);
        break;
    case SM_IO_READ_JSON:
        jbegin(io, key, true);
        *count = 0;
        if (!io->failed) {
            int n = io->cj->GetArraySize(top(io));
            if (n < 0 || (uint32_t)n > max)
                io_fail(io, "\"%s\": %d elements, at most %u allowed", key, n, max);
            else
                *count = (uint32_t)n;
        }
        break;
    }
}

void io_fixed_begin(struct sm_io *io, const char *key, uint32_t n)
{
    if (io->mode == SM_IO_WRITE_BIN || io->mode == SM_IO_READ_BIN)
        return;   /* the size is implied by the format version */
    jbegin(io, key, true);
    if (io->mode == SM_IO_READ_JSON && !io->failed &&
        io->cj->GetArraySize(top(io)) != (int)n)
        io_fail(io, "\"%s\": expected %u elements", key, n);
}

void io_arr_end(struct sm_io *io)
{
    if (io->mode == SM_IO_WRITE_JSON || io->mode == SM_IO_READ_JSON)
        jend(io);
}

#define FIXED_N(fn, type, elem)                                            \
    void fn(struct sm_io *io, const char *key, type *v, uint32_t n)        \
    {                                                                      \
        io_fixed_begin(io, key, n);                                        \
        for (uint32_t i = 0; i < n && !io->failed; i++)                    \
            elem(io, NULL, &v[i]);                                         \
        io_arr_end(io);                                                    \
    }

FIXED_N(io_f32_n, float, io_f32)
FIXED_N(io_f64_n, double, io_f64)
FIXED_N(io_i32_n, int32_t, io_i32)
FIXED_N(io_u32_n, uint32_t, io_u32)
FIXED_N(io_enum_n, uint32_t, io_enum)
FIXED_N(io_bool_n, bool, io_bool)
