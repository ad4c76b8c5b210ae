/* The program sources cache (issue 13 §4): programs that cache their linked programs as binaries
 * (Qt 5's QOpenGLProgramBinaryCache, many engines) load them with glProgramBinary from their
 * second run on, and a binary has no GLSL for the GPU model, the debugger or a replay on another
 * driver. So when a program linked from source is read back with glGetProgramBinary (that is how
 * such caches get their binaries), the shim keeps its link inputs in a file named by the binary's
 * hash; when that binary is loaded again, in this run or a later one, the tracking state gets the
 * sources back (a capture's snapshot then holds them) and a capture recording at that moment keeps
 * the entry in its SHADER_SOURCES section.
 *
 * Where: GLREPLAY_PROGRAM_CACHE=DIR, else $XDG_CACHE_HOME/glreplay/programs, else
 * ~/.cache/glreplay/programs; GLREPLAY_PROGRAM_CACHE=0 turns it off. Directories are made 0700 and
 * files 0600 (sources are the program's own), written to a temporary name and renamed, so a
 * reader never sees half a file. A file read back is untrusted: regular files only, at most
 * 16 MiB, and its entry must name the same binary hash and pass the state model's checks.
 * Cost: only at glGetProgramBinary and glProgramBinary, which programs call once per program. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/program_cache.h"
#include "shim/track.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

#define MAX_ENTRY_BYTES (16u << 20)

static char cache_dir[PATH_MAX];
static int cache_state = -1;   /* -1: not resolved yet; 0: off; 1: on */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* mkdir -p of an absolute path, each new directory 0700. */
static bool make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        int rc = mkdir(path, 0700);
        *p = '/';
        if (rc != 0 && errno != EEXIST)
            return false;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST;
}

static bool resolve_dir(void)
{
    pthread_mutex_lock(&cache_lock);
    if (cache_state < 0) {
        const char *env = getenv("GLREPLAY_PROGRAM_CACHE");
        const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        int n = -1;
        if (env && *env)
            n = strcmp(env, "0") == 0 ? -1 : snprintf(cache_dir, sizeof cache_dir, "%s", env);
        else if (xdg && xdg[0] == '/')
            n = snprintf(cache_dir, sizeof cache_dir, "%s/glreplay/programs", xdg);
        else if (home && home[0] == '/')
            n = snprintf(cache_dir, sizeof cache_dir, "%s/.cache/glreplay/programs", home);
        cache_state = n > 0 && (size_t)n < sizeof cache_dir - 32 && cache_dir[0] == '/';
        if (cache_state && !make_dirs(cache_dir)) {
            glr_log(GLR_LOG_WARN, "program cache: cannot use %s (%s); off", cache_dir, strerror(errno));
            cache_state = 0;
        }
    }
    bool on = cache_state == 1;
    pthread_mutex_unlock(&cache_lock);
    return on && !glr_disabled;
}

static void entry_path(char *out, size_t n, uint64_t hash)
{
    snprintf(out, n, "%s/%016llx.glps", cache_dir, (unsigned long long)hash);
}

void glr_program_cache_store(uint32_t program, const void *binary, int64_t length)
{
    if (!binary || length <= 0 || !resolve_dir())
        return;
    uint64_t hash = sm_program_sources_hash(binary, (size_t)length);
    char path[PATH_MAX + 32], tmp[PATH_MAX + 48];
    entry_path(path, sizeof path, hash);
    if (access(path, F_OK) == 0)
        return;   /* the same binary's sources are kept already */
    size_t size;
    uint8_t *entry = glr_track_program_entry(program, hash, &size);
    if (!entry)
        return;   /* loaded from a binary itself, or SPIR-V: no GLSL to keep */
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);   /* 0600 */
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < size;) {
        ssize_t w = write(fd, entry + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        done += ok ? (size_t)w : 0;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        glr_log(GLR_LOG_WARN, "program cache: could not write %s (%s)", path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
    } else {
        glr_log(GLR_LOG_INFO, "program cache: kept the sources of program %u (%s)", program, path);
    }
    free(entry);
}

/* The entry file for a binary, read with the checks an untrusted file needs (NULL: none). */
static uint8_t *read_entry(uint64_t hash, size_t *size)
{
    char path[PATH_MAX + 32];
    entry_path(path, sizeof path, hash);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    uint8_t *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= MAX_ENTRY_BYTES)
        buf = malloc((size_t)st.st_size);
    size_t done = 0;
    while (buf && done < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + done, (size_t)st.st_size - done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        done += (size_t)r;
    }
    close(fd);
    uint64_t named;
    if (buf && (done != (size_t)st.st_size || !sm_program_sources_entry_hash(buf, done, &named) || named != hash)) {
        glr_log(GLR_LOG_WARN, "program cache: %s is not an entry for that binary; ignored", path);
        free(buf);
        buf = NULL;
    }
    *size = done;
    return buf;
}

void glr_program_cache_load(uint32_t program, const void *binary, int64_t length)
{
    if (!binary || length <= 0 || !resolve_dir() || !glr_track_program_linked_from_binary(program))
        return;
    /* The driver may have refused the binary (another driver version): then the program is not
     * linked, and the program will link it from source itself. The name is a live program (the
     * tracking state has it), so the query raises no GL error the program could see. */
    GLint linked = 0;
    GLR_REAL(glGetProgramiv)(program, GL_LINK_STATUS, &linked);
    if (!linked)
        return;
    uint64_t hash = sm_program_sources_hash(binary, (size_t)length);
    size_t size;
    uint8_t *entry = read_entry(hash, &size);
    if (!entry) {
        glr_log(GLR_LOG_INFO, "program cache: program %u was loaded from a binary whose sources are not kept "
                "(made without glreplay); GLREPLAY_NO_PROGRAM_BINARY=1 makes it compile from source", program);
        return;
    }
    char err[200];
    if (glr_track_program_sources(program, entry, size, err, sizeof err))
        glr_capture_keep_program_sources(entry, size);
    else
        glr_log(GLR_LOG_WARN, "program cache: program %u: %s", program, err);
    free(entry);
}
