/* `glreplay info`: draws inside the display lists a capture's frames call (cli_info_lists.c). */
#ifndef CLI_INFO_LISTS_H
#define CLI_INFO_LISTS_H

#include <stddef.h>
#include <stdint.h>
#include "replay/player/player.h"

struct cli_list_draws {
    uint64_t calls;     /* glCallList / glCallLists records of the stream */
    uint64_t draws;     /* draws they execute (nested lists included, 64 levels at most) */
    uint64_t missing;   /* list names called that the capture does not hold */
};

/* 0, or -1 with err set (the snapshot cannot be read, out of memory). */
int cli_info_list_draws(const char *path, const struct glrh_capture *cap, struct cli_list_draws *out, char *err,
                        size_t err_size);

#endif
