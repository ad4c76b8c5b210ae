/* The capture's C libraries (libzstd, libxxhash) and libm, loaded at their first use instead of at
 * program start: the shim defines, hidden, the few functions it calls from them, each resolving the
 * real one with dlopen/dlsym on its first call. A program that never captures never maps them
 * (docs/BENCHMARKS.md, "Exec overhead of the preloaded shim": ~0.5 MiB resident and the loader's
 * work for three libraries in every preloaded process). The link is --as-needed, so a function
 * called from the shim that is not defined here links the library at start again, as before
 * (tests/unit/check_shim_deps.py says so). A library that cannot be loaded makes its functions
 * answer an error (NULL contexts, error codes, NaN) with one logged line; the program goes on. */
#define ZSTDLIB_VISIBLE   /* these definitions stay hidden (the shim's -fvisibility=hidden) */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <xxhash.h>
#include <zstd.h>
#include "shim/shim_internal.h"

enum { LIB_ZSTD, LIB_XXHASH, LIB_M, LIB_COUNT };
static const char *const lib_names[LIB_COUNT] = { "libzstd.so.1", "libxxhash.so.0", "libm.so.6" };
static void *lib_handles[LIB_COUNT];
static bool lib_failed[LIB_COUNT];
static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;

typedef void (*lazy_fn)(void);

/* The real function `name` of library lib, or NULL (logged once per library). */
static lazy_fn lazy_resolve(int lib, const char *name)
{
    pthread_mutex_lock(&lib_lock);
    if (!lib_handles[lib] && !lib_failed[lib]) {
        lib_handles[lib] = glr_real_dlopen(lib_names[lib], RTLD_NOW | RTLD_LOCAL);
        lib_failed[lib] = !lib_handles[lib];
        if (lib_failed[lib])
            glr_log(GLR_LOG_ERROR, "cannot load %s (%s): captures fail; the program continues", lib_names[lib],
                    dlerror());
    }
    void *h = lib_handles[lib];
    pthread_mutex_unlock(&lib_lock);
    void *p = h ? dlsym(h, name) : NULL;
    lazy_fn f = NULL;
    memcpy(&f, &p, sizeof f);
    return f;
}

/* One forwarding definition: the resolved pointer is cached (a race resolves it twice, same value). */
#define LAZY(lib, ret, name, params, args, fail)                                  \
    ret name params                                                               \
    {                                                                             \
        static lazy_fn real;                                                      \
        lazy_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);                     \
        if (!f) {                                                                 \
            f = lazy_resolve(lib, #name);                                         \
            if (!f)                                                               \
                return fail;                                                      \
            __atomic_store_n(&real, f, __ATOMIC_RELEASE);                         \
        }                                                                         \
        return ((ret(*) params)f) args;                                           \
    }

#define ZSTD_FAIL ((size_t)-1)  /* an error code: ZSTD_isError answers true for it */

LAZY(LIB_ZSTD, ZSTD_CCtx *, ZSTD_createCCtx, (void), (), NULL)
LAZY(LIB_ZSTD, ZSTD_DCtx *, ZSTD_createDCtx, (void), (), NULL)
LAZY(LIB_ZSTD, size_t, ZSTD_freeCCtx, (ZSTD_CCtx *c), (c), 0)
LAZY(LIB_ZSTD, size_t, ZSTD_freeDCtx, (ZSTD_DCtx *d), (d), 0)
LAZY(LIB_ZSTD, size_t, ZSTD_CCtx_reset, (ZSTD_CCtx *c, ZSTD_ResetDirective r), (c, r), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_DCtx_reset, (ZSTD_DCtx *d, ZSTD_ResetDirective r), (d, r), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_CCtx_setParameter, (ZSTD_CCtx *c, ZSTD_cParameter p, int v), (c, p, v), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_DCtx_setParameter, (ZSTD_DCtx *d, ZSTD_dParameter p, int v), (d, p, v), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_CCtx_setPledgedSrcSize, (ZSTD_CCtx *c, unsigned long long n), (c, n), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_compressStream2,
     (ZSTD_CCtx *c, ZSTD_outBuffer *o, ZSTD_inBuffer *i, ZSTD_EndDirective e), (c, o, i, e), ZSTD_FAIL)
LAZY(LIB_ZSTD, size_t, ZSTD_decompressStream, (ZSTD_DCtx *d, ZSTD_outBuffer *o, ZSTD_inBuffer *i), (d, o, i),
     ZSTD_FAIL)
LAZY(LIB_ZSTD, unsigned long long, ZSTD_getFrameContentSize, (const void *src, size_t n), (src, n),
     ZSTD_CONTENTSIZE_ERROR)
LAZY(LIB_ZSTD, unsigned, ZSTD_isError, (size_t code), (code), 1)
LAZY(LIB_ZSTD, const char *, ZSTD_getErrorName, (size_t code), (code), "libzstd could not be loaded")
LAZY(LIB_ZSTD, int, ZSTD_minCLevel, (void), (), 1)
LAZY(LIB_ZSTD, int, ZSTD_maxCLevel, (void), (), 1)

LAZY(LIB_XXHASH, XXH3_state_t *, XXH3_createState, (void), (), NULL)
LAZY(LIB_XXHASH, XXH_errorcode, XXH3_freeState, (XXH3_state_t *s), (s), XXH_ERROR)
LAZY(LIB_XXHASH, XXH_errorcode, XXH3_64bits_reset, (XXH3_state_t *s), (s), XXH_ERROR)
LAZY(LIB_XXHASH, XXH_errorcode, XXH3_64bits_update, (XXH3_state_t *s, const void *p, size_t n), (s, p, n),
     XXH_ERROR)
LAZY(LIB_XXHASH, XXH64_hash_t, XXH3_64bits_digest, (const XXH3_state_t *s), (s), 0)
LAZY(LIB_XXHASH, XXH64_hash_t, XXH3_64bits, (const void *p, size_t n), (p, n), 0)

LAZY(LIB_M, float, cosf, (float x), (x), NAN)
LAZY(LIB_M, float, powf, (float x, float y), (x, y), NAN)
LAZY(LIB_M, double, sqrt, (double x), (x), NAN)
LAZY(LIB_M, float, sqrtf, (float x), (x), NAN)
LAZY(LIB_M, double, ldexp, (double x, int e), (x, e), NAN)
LAZY(LIB_M, long, lrintf, (float x), (x), 0)
/* what clang emits where gcc combines sin and cos into sincos, and its floor */
LAZY(LIB_M, double, sin, (double x), (x), NAN)
LAZY(LIB_M, double, cos, (double x), (x), NAN)
LAZY(LIB_M, double, floor, (double x), (x), NAN)

void sincos(double x, double *s, double *c)
{
    static lazy_fn real;
    lazy_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!f) {
        f = lazy_resolve(LIB_M, "sincos");
        if (!f) {
            *s = *c = NAN;
            return;
        }
        __atomic_store_n(&real, f, __ATOMIC_RELEASE);
    }
    ((void (*)(double, double *, double *))f)(x, s, c);
}
