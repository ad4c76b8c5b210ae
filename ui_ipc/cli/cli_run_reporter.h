/* `glreplay run --frame N --out F`: the check of the capture once the program (which replaces the
 * CLI's process) has ended, made by a detached helper process (cli_run_reporter.c). */
#ifndef GLR_CLI_RUN_REPORTER_H
#define GLR_CLI_RUN_REPORTER_H

#include <sys/types.h>
#include "cli_capture_check.h"

/* Starts the helper that waits for this process to end and then says what cli_capture_check says;
 * *helper_pid: its pid (a SIGTERM ends it without a word, for when the exec fails). To be called
 * right before exec. 0, or -1 (the helper could not be started: the error said). */
int cli_run_start_reporter(const struct cli_capture_plan *plan, pid_t *helper_pid);

#endif
