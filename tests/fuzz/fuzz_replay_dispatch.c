/* Fuzz target: replaying a crafted capture on the real driver (EGL surfaceless, Mesa llvmpipe),
 * as `glreplay replay` does: every record's pointers, sizes, counts, names and mappings go
 * through the dispatcher's checks (replay/dispatch.c) before anything reaches the driver, so no
 * input may crash, corrupt memory (ASan) or hang. Input: one mode byte, then a .glcap image;
 * mode bit 0 recomputes the stored checksums first. Leaks inside the driver are not findings
 * (run_fuzz.sh runs this target with detect_leaks=0). */
#include "fuzz_target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/player/player.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024];
    int fd = fuzz_capture_image(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (cap) {
        FILE *devnull = fopen("/dev/null", "w");
        struct glrh_options opt = { .loops = 1, .verify = true, .out = devnull ? devnull : stdout };
        struct glrh_result res;
        glrh_replay(cap, &opt, &res, err, sizeof err);
        if (devnull)
            fclose(devnull);
        glrh_capture_close(cap);
    }
    close(fd);
    return 0;
}
