/* Shared helpers of the glreplay CLI verbs: errors, locating the shim, socket paths. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include "cli_common.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("glreplay: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static bool readable(const char *p)
{
    return access(p, R_OK) == 0;
}

const char *cli_find_shim(void)
{
    static char path[PATH_MAX];
    const char *env = getenv("GLREPLAY_SHIM");
    if (env && *env) {
        if (!realpath(env, path)) {
            cli_error("GLREPLAY_SHIM=%s: no such file", env);
            return NULL;
        }
        return path;
    }
    /* Relative to this executable: an installed tree (bin/glreplay -> lib/<triplet>/glreplay/
     * libglreplay.so, the path from bindir computed at build time from meson's libdir), the
     * build tree (ui_ipc/cli/glreplay -> shim/libglreplay.so), or a copy next to it. */
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = 0;
        /* Its own constant: a literal joined inside an array initializer reads as a missing comma
         * to clang (-Wstring-concatenation). */
        static const char installed[] = "/" GLR_SHIM_FROM_BINDIR;
        static const char *const rel[] = { installed, "/../../shim/libglreplay.so", "/libglreplay.so" };
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            char cand[PATH_MAX * 2];
            snprintf(cand, sizeof cand, "%s%s", self, rel[i]);
            if (readable(cand) && realpath(cand, path))
                return path;
        }
    }
    if (readable(GLR_INSTALLED_SHIM))
        return GLR_INSTALLED_SHIM;
    cli_error("cannot find libglreplay.so (set GLREPLAY_SHIM to its path)");
    return NULL;
}

bool cli_default_socket_path(char *buf, unsigned long size, int pid)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    if (xdg && *xdg)
        n = snprintf(buf, size, "%s/glreplay/%d.sock", xdg, pid);
    else
        n = snprintf(buf, size, "/tmp/glreplay-%u/%d.sock", (unsigned)getuid(), pid);
    return n > 0 && (unsigned long)n < size;
}
