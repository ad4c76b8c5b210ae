/* Finds and loads libglreplay-engine.so, the debugger engine and GPU model, the first time a
 * debugger attaches. It is never linked into the shim: its C++ (glslang, SPIRV-Tools) constructors,
 * libstdc++, cJSON and libpng would otherwise load into every program the shim is preloaded into.
 * RTLD_LOCAL keeps its symbols (its own copies of cJSON, libstdc++'s users) out of the program's
 * global scope; RTLD_NOW reports a missing dependency here, at attach, not later inside a pass. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/engine_load.h"

static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct glr_engine *_Atomic engine;

/* The directory the shim was loaded from. dlinfo's origin is fixed when the library is loaded, so
 * a relative LD_PRELOAD path still resolves after the program changed its working directory. */
static int shim_dir(char *dir, size_t n)
{
    Dl_info di;
    if (!dladdr((void *)glr_engine_get, &di) || !di.dli_fname)
        return -1;
    void *self = glr_real_dlopen(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    char origin[PATH_MAX] = "";
    int rc = self ? dlinfo(self, RTLD_DI_ORIGIN, origin) : -1;
    if (self)
        dlclose(self);
    if (rc != 0 || !origin[0])
        return -1;
    return (size_t)snprintf(dir, n, "%s", origin) < n ? 0 : -1;
}

static const struct glr_engine *load(char *err, size_t n)
{
    char path[PATH_MAX + 64];
    const char *env = getenv("GLREPLAY_ENGINE");
    if (env && *env) {
        snprintf(path, sizeof path, "%s", env);
    } else {
        char dir[PATH_MAX];
        if (shim_dir(dir, sizeof dir) != 0) {
            snprintf(err, n, "cannot find the directory of libglreplay.so to load %s (set GLREPLAY_ENGINE)",
                     GLR_ENGINE_FILE);
            return NULL;
        }
        snprintf(path, sizeof path, "%s/%s", dir, GLR_ENGINE_FILE);
    }
    /* The real dlopen: the shim's own dlopen redirects GL libraries only, but needs no detour. */
    void *h = glr_real_dlopen(path, RTLD_LOCAL | RTLD_NOW);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, n, "cannot load the debugger engine: %s", why ? why : path);
        return NULL;
    }
    glr_engine_entry_fn entry = (glr_engine_entry_fn)dlsym(h, GLR_ENGINE_ENTRY);
    const struct glr_engine *e = entry ? entry() : NULL;
    if (!e || e->abi != GLR_ENGINE_ABI || !e->first_command || !e->refuse_fd || !e->serve_capture_fd) {
        snprintf(err, n, "%s is not a glreplay engine of interface %d (installed from another version?)", path,
                 GLR_ENGINE_ABI);
        dlclose(h);
        return NULL;
    }
    glr_log(GLR_LOG_INFO, "loaded the debugger engine %s", path);
    return e;   /* the handle stays open for the life of the program */
}

const struct glr_engine *glr_engine_get(char *err, size_t err_size)
{
    pthread_mutex_lock(&engine_lock);
    if (!engine)
        engine = load(err, err_size);
    const struct glr_engine *e = engine;
    pthread_mutex_unlock(&engine_lock);
    return e;
}

const struct glr_engine *glr_engine_loaded(void)
{
    return engine;
}

/* `s` as the body of a JSON string (quotes excluded) into out; control characters escaped. */
static void json_escape(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 7 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c < 0x20) {
            k += (size_t)snprintf(out + k, n - k, "\\u%04x", c);
        } else {
            out[k++] = (char)c;
        }
    }
    out[k] = 0;
}

static void send_framed(int fd, const char *body)
{
    char msg[1200];
    int len = snprintf(msg, sizeof msg, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
    if (len > 0 && (size_t)len < sizeof msg) {
        ssize_t w = send(fd, msg, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT);   /* best effort */
        (void)w;
    }
}

void glr_engine_refuse_fd(int fd, const char *initial, size_t initial_len, const char *why)
{
    const struct glr_engine *e = glr_engine_loaded();
    if (e) {
        e->refuse_fd(fd, initial, initial_len, why);
        return;
    }
    /* Without the engine there is no JSON parser here to answer the request itself: the client
     * gets the reason as debug-console output, then the session ends. */
    char text[700], body[1000];
    snprintf(text, sizeof text, "glreplay: %s\n", why);
    char esc[800];
    json_escape(text, esc, sizeof esc);
    snprintf(body, sizeof body,
             "{\"seq\":1,\"type\":\"event\",\"event\":\"output\",\"body\":{\"category\":\"stderr\",\"output\":\"%s\"}}",
             esc);
    send_framed(fd, body);
    send_framed(fd, "{\"seq\":2,\"type\":\"event\",\"event\":\"terminated\"}");
    close(fd);
}
