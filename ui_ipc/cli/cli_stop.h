/* Stopping a long model run from the CLI: `--timeout S` and Ctrl-C end `glreplay model`, `debug`
 * and `profile` cleanly (the run stops at its next warp, the verb reports what it did and exits
 * 1) instead of running on for ever on a runaway or hostile capture. A second Ctrl-C kills as
 * usual. */
#ifndef GLR_CLI_STOP_H
#define GLR_CLI_STOP_H

#include <signal.h>
#include <stdbool.h>

/* Installs the Ctrl-C handler and, when seconds > 0, a timer; returns the flag they set (give it
 * to gmf_set_abort / dbg_runner_set_abort). */
const volatile sig_atomic_t *cli_stop_arm(double seconds);
/* Cancels the timer and restores Ctrl-C's default action. */
void cli_stop_disarm(void);
/* What stopped the run ("the --timeout of 5 s", "Ctrl-C"), or NULL when nothing did. */
const char *cli_stop_reason(void);
/* A --timeout value: a positive number of seconds up to a day. false on anything else. */
bool cli_parse_timeout(const char *s, double *seconds);

#endif
