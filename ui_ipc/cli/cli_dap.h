/* The debugger verbs of the glreplay CLI: `dap` (a DAP server for a capture file) and `debug`
 * (one breakpoint stop printed on the terminal or as JSON). */
#ifndef GLR_CLI_DAP_H
#define GLR_CLI_DAP_H

int cli_dap(int argc, char **argv);
int cli_debug(int argc, char **argv);

#endif
