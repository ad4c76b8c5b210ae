/* `glreplay state F.glcap --event K [--json] [--context ID]`: the API state at an event of a
 * capture, from the state model (cli_state.c). */
#ifndef GLR_CLI_STATE_H
#define GLR_CLI_STATE_H

int cli_state(int argc, char **argv);

#endif
