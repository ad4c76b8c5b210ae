/* The debugger verbs of the glreplay CLI: `dap` (a DAP server for a capture file) and `debug`
 * (one breakpoint stop printed on the terminal or as JSON). */
#ifndef GLR_CLI_DAP_H
#define GLR_CLI_DAP_H

int cli_dap(int argc, char **argv);
/* `dap --stdio` (cli_dap_stdio.c): serve a capture on stdin/stdout, or relay stdin/stdout to the
 * DAP socket of a running program or server. Exit status of the verb. */
int cli_dap_stdio_serve(const char *capture_path);
int cli_dap_stdio_connect(const char *socket_path);
int cli_debug(int argc, char **argv);

#endif
