/* Shared output of the loader-route test programs (see route_report.h). */
#include "route_report.h"

#include <stdio.h>

void route_expect_call(const char *name, unsigned n)
{
    printf("expect call %s %u\n", name, n);
}

void route_expect(const char *what, unsigned n)
{
    printf("expect %s %u\n", what, n);
}

bool route_pixel_is(const char *route, const unsigned char got[4], const unsigned char want[4])
{
    /* Alpha is skipped: a window without alpha bits reads back 255 whatever was cleared. */
    if (got[0] == want[0] && got[1] == want[1] && got[2] == want[2])
        return true;
    fprintf(stderr, "route %s: read back %u,%u,%u, expected the clear colour %u,%u,%u\n", route,
            got[0], got[1], got[2], want[0], want[1], want[2]);
    return false;
}

int route_finish(const char *route, unsigned frames, bool ok)
{
    if (!ok) {
        fprintf(stderr, "route %s: FAILED\n", route);
        return 1;
    }
    printf("route %s: %u frames ok\n", route, frames);
    return 0;
}
