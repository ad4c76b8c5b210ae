/* Installing a program's compiled runs (gm_native.h): generate, build, look each run up. */
#include "gm_native.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int enabled = -1;
static pthread_once_t enabled_once = PTHREAD_ONCE_INIT;
static pthread_once_t warned_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t error_lock = PTHREAD_MUTEX_INITIALIZER;
static char first_error[256];

static void read_enabled(void)
{
    const char *e = getenv("GLREPLAY_MODEL_COMPILE");
    enabled = e && *e && strcmp(e, "0") != 0;
}

int gm_native_enabled(void)
{
    pthread_once(&enabled_once, read_enabled);
    return enabled;
}

static void warn_once(void)
{
    fprintf(stderr, "glreplay: compiled shader runs are off for this process (%s); the model interprets\n",
            first_error);
}

void gm_native_attach(gm_program *p)
{
    if (!p || !gm_native_enabled() || p->native)
        return;
    int *starts = NULL, *lens = NULL, count = 0;
    uint8_t *flow_entry = NULL;
    char *src = gm_native_source(p, &starts, &lens, &count, &flow_entry);
    if (!src)
        return; /* nothing worth compiling */
    char err[256] = "";
    void *lib = gm_native_build(src, err, sizeof err);
    free(src);
    gm_native_fn *fn = NULL;
    uint16_t *len = NULL;
    if (lib) {
        fn = calloc((size_t)p->code_count, sizeof *fn);
        len = calloc((size_t)p->code_count, sizeof *len);
    }
    int ok = lib && fn && len;
    for (int i = 0; ok && i < count; i++) {
        char name[32];
        snprintf(name, sizeof name, "glr_run_%d", starts[i]);
        void *sym = dlsym(lib, name);
        if (!sym) {
            snprintf(err, sizeof err, "the compiled object lacks %s", name);
            ok = 0;
            break;
        }
        /* POSIX: a dlsym result converts to a function pointer */
        memcpy(&fn[starts[i]], &sym, sizeof sym);
        len[starts[i]] = (uint16_t)lens[i];
    }
    free(starts);
    free(lens);
    gm_native_flow_fn flow = NULL;
    if (ok && flow_entry) {
        void *sym = dlsym(lib, "glr_flow");
        if (!sym) {
            snprintf(err, sizeof err, "the compiled object lacks glr_flow");
            ok = 0;
        } else {
            memcpy(&flow, &sym, sizeof sym);
        }
    }
    if (!ok) {
        free(flow_entry);
        free(fn);
        free(len);
        if (lib)
            dlclose(lib);
        pthread_mutex_lock(&error_lock);
        if (err[0] && !first_error[0])
            snprintf(first_error, sizeof first_error, "%s", err);
        const int say = first_error[0] != 0;
        pthread_mutex_unlock(&error_lock);
        if (say)
            pthread_once(&warned_once, warn_once);
        return;
    }
    p->native = fn;
    p->native_len = len;
    p->native_lib = lib;
    p->native_flow = flow_entry ? flow : NULL;
    p->native_flow_entry = flow_entry;
}

void gm_native_release(gm_program *p)
{
    if (!p)
        return;
    free(p->native);
    free(p->native_len);
    free(p->native_flow_entry);
    p->native_flow = NULL;
    p->native_flow_entry = NULL;
    if (p->native_lib)
        dlclose(p->native_lib);
    p->native = NULL;
    p->native_len = NULL;
    p->native_lib = NULL;
}
