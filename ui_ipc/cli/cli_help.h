/* `glreplay VERB --help` for the verbs without their own help text (cli_help.c). */
#ifndef GLR_CLI_HELP_H
#define GLR_CLI_HELP_H

#include <stdbool.h>

/* Prints VERB's help on stdout; false when VERB has no entry here (it prints its own). */
bool cli_help_print(const char *verb);

/* Whether --help or -h is among the arguments before `--`. */
bool cli_help_asked(int argc, char **argv);

#endif
