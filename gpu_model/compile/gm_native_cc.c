/* Compiling a generated source into a loaded shared object, through a cache on disk
 * (gm_native.h).
 *
 * The compiler is GLREPLAY_MODEL_CC or `cc` from PATH, run without a shell (posix_spawnp), with
 * a time limit. The cache is GLREPLAY_MODEL_COMPILE_CACHE=DIR, else $XDG_CACHE_HOME/glreplay/compiled,
 * else ~/.cache/glreplay/compiled (0700); `0` keeps nothing (a private temporary folder per
 * build). An entry is named by a hash of the source, the flags and the compiler's identity (its
 * resolved file's size, time and inode), so a changed compiler or source misses; an entry that
 * fails to load is compiled again. Entries are written under a temporary name and renamed, so
 * two processes compiling the same source never load half a file. */
#include "gm_native.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

extern char **environ;

#define COMPILE_LIMIT_S 60

/* The compiler's flags. No contraction into FMA and no fast-math: each lane must compute the
 * interpreter's IEEE operations exactly. -fno-trapping-math and -fno-math-errno change no value:
 * they let the compiler compute both sides of a select and use the vector rounding and square
 * root instructions (nothing in glreplay reads the floating-point exception flags or errno from
 * generated code). AVX2 only where this CPU has it (the key includes it). */
static int compile_flags(const char **argv, int max)
{
    static const char *const base[] = {"-std=c11", "-O2", "-fPIC", "-shared", "-ffp-contract=off",
                                       "-fno-strict-aliasing", "-fno-fast-math", "-fno-trapping-math", "-fno-math-errno", "-w"};
    int n = 0;
    for (size_t i = 0; i < sizeof base / sizeof *base && n < max; i++)
        argv[n++] = base[i];
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && n < max)
        argv[n++] = "-mavx2";
#endif
    return n;
}

static const char *compiler(void)
{
    const char *cc = getenv("GLREPLAY_MODEL_CC");
    return cc && *cc ? cc : "cc";
}

/* The compiler's file found as posix_spawnp would find it: its identity goes into the key. */
static int compiler_identity(const char *cc, uint64_t id[3])
{
    struct stat st;
    if (strchr(cc, '/'))
        return stat(cc, &st) == 0 ? (id[0] = (uint64_t)st.st_size, id[1] = (uint64_t)st.st_mtime,
                                     id[2] = (uint64_t)st.st_ino, 0)
                                  : -1;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        char full[PATH_MAX];
        if (len > 0 && snprintf(full, sizeof full, "%.*s/%s", (int)len, path, cc) < (int)sizeof full &&
            stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) {
            id[0] = (uint64_t)st.st_size;
            id[1] = (uint64_t)st.st_mtime;
            id[2] = (uint64_t)st.st_ino;
            return 0;
        }
        path += len + (end ? 1 : 0);
    }
    return -1;
}

/* mkdir -p of base's sub-folders (0700), base's parent existing. */
static int make_dir(char *dir, size_t n, const char *base, const char *const *subs)
{
    if (snprintf(dir, n, "%s", base) >= (int)n || dir[0] != '/' || (mkdir(dir, 0700) != 0 && errno != EEXIST))
        return -1;
    for (; *subs; subs++) {
        size_t len = strlen(dir);
        if (snprintf(dir + len, n - len, "/%s", *subs) >= (int)(n - len) ||
            (mkdir(dir, 0700) != 0 && errno != EEXIST))
            return -1;
    }
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

/* The cache folder into dir; 0 when found, 1 when the cache is off (dir: a new temporary
 * folder the caller removes), -1 when neither is possible. */
static int cache_dir(char *dir, size_t n)
{
    static const char *const none[] = {NULL}, *const xdg_subs[] = {"glreplay", "compiled", NULL},
                             *const home_subs[] = {".cache", "glreplay", "compiled", NULL};
    const char *env = getenv("GLREPLAY_MODEL_COMPILE_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (!(env && strcmp(env, "0") == 0)) {
        if (env && *env ? make_dir(dir, n, env, none) == 0
            : xdg && xdg[0] == '/' ? make_dir(dir, n, xdg, xdg_subs) == 0
                                   : home && make_dir(dir, n, home, home_subs) == 0)
            return 0;
    }
    const char *tmp = getenv("TMPDIR");
    if (snprintf(dir, n, "%s/glreplay-cc.XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp") >= (int)n)
        return -1;
    return mkdtemp(dir) ? 1 : -1;
}

/* Runs the compiler on src_path into so_path; its messages go to log_path. 0, or -1 with err. */
static int run_compiler(const char *cc, const char *src_path, const char *so_path, const char *log_path,
                        char *err, size_t err_size)
{
    const char *argv[32];
    int n = 0;
    argv[n++] = cc;
    n += compile_flags(argv + n, 20);
    argv[n++] = "-o";
    argv[n++] = so_path;
    argv[n++] = src_path;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, cc, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        snprintf(err, err_size, "cannot run the C compiler '%.100s': %s", cc, strerror(rc));
        return -1;
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int status = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR) {
            snprintf(err, err_size, "waiting for the C compiler: %s", strerror(errno));
            return -1;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > COMPILE_LIMIT_S) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(err, err_size, "the C compiler took more than %d s", COMPILE_LIMIT_S);
            return -1;
        }
        struct timespec nap = {0, 2 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char line[160] = "";
        FILE *log = fopen(log_path, "r");
        if (log) {
            if (!fgets(line, sizeof line, log))
                line[0] = 0;
            fclose(log);
        }
        line[strcspn(line, "\n")] = 0;
        snprintf(err, err_size, "the C compiler failed (%s%d)%s%s", WIFEXITED(status) ? "exit " : "signal ",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), line[0] ? ": " : "", line);
        return -1;
    }
    return 0;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return -1;
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return close(fd);
}

void *gm_native_build(const char *src, char *err, size_t err_size)
{
    const char *cc = compiler();
    uint64_t id[3];
    if (compiler_identity(cc, id) != 0) {
        snprintf(err, err_size, "no C compiler '%.100s' on PATH", cc);
        return NULL;
    }
    const char *flags[24];
    int nflags = compile_flags(flags, 24);
    XXH3_state_t *x = XXH3_createState();
    if (!x) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    XXH3_128bits_reset(x);
    XXH3_128bits_update(x, src, strlen(src));
    XXH3_128bits_update(x, cc, strlen(cc) + 1);
    XXH3_128bits_update(x, id, sizeof id);
    for (int i = 0; i < nflags; i++)
        XXH3_128bits_update(x, flags[i], strlen(flags[i]) + 1);
    XXH128_hash_t h = XXH3_128bits_digest(x);
    XXH3_freeState(x);

    char dir[PATH_MAX / 2];
    int temp = cache_dir(dir, sizeof dir);
    if (temp < 0) {
        snprintf(err, err_size, "no folder to compile in");
        return NULL;
    }
    char so[PATH_MAX / 2 + 64], tmp_so[PATH_MAX], tmp_c[PATH_MAX], log[PATH_MAX];
    snprintf(so, sizeof so, "%s/%016llx%016llx.so", dir, (unsigned long long)h.high64, (unsigned long long)h.low64);
    void *lib = temp ? NULL : dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (lib)
        return lib;
    unsigned long long salt = (unsigned long long)getpid() ^ ((unsigned long long)(uintptr_t)&h << 16);
    snprintf(tmp_c, sizeof tmp_c, "%s.%llx.c", so, salt);
    snprintf(tmp_so, sizeof tmp_so, "%s.%llx.tmp", so, salt);
    snprintf(log, sizeof log, "%s.%llx.log", so, salt);
    if (write_file(tmp_c, src) != 0) {
        snprintf(err, err_size, "cannot write %.200s: %s", tmp_c, strerror(errno));
    } else if (run_compiler(cc, tmp_c, tmp_so, log, err, err_size) == 0) {
        if (rename(tmp_so, so) != 0)
            snprintf(err, err_size, "cannot rename into %.200s: %s", so, strerror(errno));
        else if (!(lib = dlopen(so, RTLD_NOW | RTLD_LOCAL)))
            snprintf(err, err_size, "cannot load the compiled runs: %.200s", dlerror());
    }
    unlink(tmp_c);
    unlink(tmp_so);
    unlink(log);
    if (temp) { /* nothing kept: the loaded object stays mapped after its file is gone */
        unlink(so);
        rmdir(dir);
    }
    return lib;
}
