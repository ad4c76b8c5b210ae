/* Shared output of the loader-route test programs (see tests/e2e/README.md).
 *
 * A route program prints to stdout only what must be identical with and without the shim, and it
 * states on stdout what the shim's exit summary must show ("expect ..." lines), so the count lives
 * next to the code that makes the calls. Facts that differ by design between a native run and a
 * shim run (e.g. what GetProcAddress answers for an unknown name) go to stderr as "shimcheck:"
 * lines, which the driver checks only in the shim run. */
#ifndef ROUTE_REPORT_H
#define ROUTE_REPORT_H

#include <stdbool.h>

/* "expect call NAME N": the summary must count exactly N calls of NAME. */
void route_expect_call(const char *name, unsigned n);
/* "expect WHAT N" for WHAT in frames, contexts, alive, threads. */
void route_expect(const char *what, unsigned n);
/* Compares an RGBA pixel read back from the driver with the colour the program cleared to; on a
 * mismatch prints why to stderr. True when equal: the program got a real, working GL. */
bool route_pixel_is(const char *route, const unsigned char got[4], const unsigned char want[4]);
/* Prints "route NAME: FRAMES frames ok" on success, or a failure line to stderr; returns the exit
 * status to use (0 or 1). */
int route_finish(const char *route, unsigned frames, bool ok);

#endif
