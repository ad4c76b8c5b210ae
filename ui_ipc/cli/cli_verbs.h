/* The capture verbs of the glreplay CLI: capture, info, replay. */
#ifndef GLR_CLI_VERBS_H
#define GLR_CLI_VERBS_H

int cli_capture(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_replay(int argc, char **argv);
/* GPU model telemetry of a capture (cli_profile.c). */
int cli_profile(int argc, char **argv);
/* A self-contained HTML page of a capture (cli_report.c). */
int cli_report(int argc, char **argv);
/* Pixel history of a capture (cli_pixel.c). */
int cli_pixel(int argc, char **argv);

#endif
