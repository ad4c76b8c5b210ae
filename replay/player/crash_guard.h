/* Crash safety net for code that hands recorded data to the GL driver outside the replayer (the
 * driver side of `glreplay model --compare`): a driver fault on a capture's data ends the process
 * with one line naming the record, as `glreplay replay` does, instead of a core dump. */
#pragma once
#include <stdint.h>

/* Installs the handlers (SIGSEGV, SIGBUS, SIGFPE, SIGILL); `what` (a static string) names the
 * side in the message, e.g. "the driver side of model --compare". */
void glrh_crash_guard_install(const char *what);
/* Puts back the handlers that were there before glrh_crash_guard_install. */
void glrh_crash_guard_remove(void);
/* Arms the guard for record `record` (command cmd, or -1): a fault until glrh_crash_guard_disarm
 * is reported as the driver's and exits with status 3. A fault while disarmed (in glreplay's own
 * code) is not masked: the handler returns and the default action runs. */
void glrh_crash_guard_arm(uint64_t record, int cmd);
#define GLRH_GUARD_RESTORE UINT64_MAX /* a record value: the fault is in the snapshot's restore */
void glrh_crash_guard_disarm(void);
/* Arms the guard again for the record last given to glrh_crash_guard_arm (driver read-backs). */
void glrh_crash_guard_rearm(void);
