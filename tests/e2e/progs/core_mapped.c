/* Where the shim's stage 2 (libglreplay-core.so, shim/stage_abi.h) gets loaded, seen from inside
 * the program through /proc/self/maps: at the start of main (this program links libEGL, so stage
 * 1 loads stage 2 in its constructor, before any GL call could come from a signal handler), and
 * after a few EGL calls (with GLREPLAY_DISABLE=1 never: stage 1 forwards to the driver alone).
 *
 * Prints "core at start: yes|no", the EGL answers (the same with and without the shim) and
 * "core after calls: yes|no"; check_stages.py compares them with what each run must show. */
#include <EGL/egl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool core_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, "/libglreplay-core.so") != NULL;
    fclose(f);
    return found;
}

int main(void)
{
    printf("core at start: %s\n", core_mapped() ? "yes" : "no");
    const char *client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    printf("client extensions: %s\n", client_ext ? "listed" : "none");
    printf("eglGetProcAddress(eglGetPlatformDisplayEXT): %s\n",
           eglGetProcAddress("eglGetPlatformDisplayEXT") ? "found" : "missing");
    printf("eglGetError: 0x%x\n", (unsigned)eglGetError());
    printf("core after calls: %s\n", core_mapped() ? "yes" : "no");
    return 0;
}
