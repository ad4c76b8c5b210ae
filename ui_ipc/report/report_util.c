/* Small helpers of the report: script-safe JSON files, running a glreplay verb as a child process,
 * downscaled PNG thumbnails. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ui_ipc/report/report.h"
#include "replay/player/image_util.h"

extern char **environ;

int glrr_write_js(const char *path, const char *prefix, const cJSON *json, char *err, size_t err_size)
{
    char *text = cJSON_PrintUnformatted(json);
    if (!text) {
        snprintf(err, err_size, "out of memory writing %s", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        free(text);
        return -1;
    }
    fputs(prefix, f);
    fputc('(', f);
    /* Capture text (shader sources, names) must never end the script or open markup: the JSON is
     * valid JavaScript with these characters as escapes, and the page puts strings into the DOM
     * as text only. U+2028/U+2029 are line terminators in older JavaScript string literals. */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
            fprintf(f, "\\u%04x", p[2] == 0xA8 ? 0x2028 : 0x2029);
            p += 2;
        } else
            fputc(*p, f);
    }
    fputs(");\n", f);
    free(text);
    bool ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok) {
        snprintf(err, err_size, "cannot write %s", path);
        return -1;
    }
    return 0;
}

/* Reads fd to its end into a growing buffer; NULL on memory failure. */
static char *read_all(int fd, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        if (cap - n < 4096) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                return NULL;
            }
            buf = b;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - n - 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *glrr_run_capture_stdout(const char *const *argv, char *err, size_t err_size)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        goto sys;
    /* stderr goes to a temporary file, so a child that writes much on both cannot block on a
     * pipe this process is not reading yet. */
    FILE *errf = tmpfile();
    if (!errf) {
        close(out[0]);
        close(out[1]);
        goto sys;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fileno(errf), 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        fclose(errf);
        snprintf(err, err_size, "cannot run %s: %s", argv[0], strerror(rc));
        return NULL;
    }
    size_t len = 0;
    char *text = read_all(out[0], &len);
    close(out[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    bool ok = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
    if (!ok || !text) {
        /* The child's last stderr line says why. */
        char line[512] = "", cur[512];
        rewind(errf);
        while (fgets(cur, sizeof cur, errf))
            if (cur[0] != '\n')
                memcpy(line, cur, sizeof line);
        line[strcspn(line, "\n")] = 0;
        if (!text)
            snprintf(err, err_size, "out of memory reading the output of %s %s", argv[0], argv[1]);
        else if (WIFSIGNALED(status))
            snprintf(err, err_size, "%s %s was killed by signal %d%s%s", argv[0], argv[1], WTERMSIG(status),
                     line[0] ? ": " : "", line);
        else
            snprintf(err, err_size, "%s %s failed (exit %d)%s%s", argv[0], argv[1], WEXITSTATUS(status),
                     line[0] ? ": " : "", line);
        free(text);
        text = NULL;
    }
    fclose(errf);
    return text;
sys:
    snprintf(err, err_size, "cannot start a child process: %s", strerror(errno));
    return NULL;
}

int glrr_write_thumb_png(const char *path, const uint8_t *rgba, unsigned w, unsigned h, unsigned max_side,
                         char *err, size_t err_size)
{
    if (!w || !h) {
        snprintf(err, err_size, "%s: empty image", path);
        return -1;
    }
    unsigned tw, th;
    uint8_t *small = glrh_thumb_rgba(rgba, w, h, max_side, &tw, &th);
    if (!small) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    int rc = glrh_write_png(path, small, tw, th, err, err_size);
    free(small);
    return rc;
}
