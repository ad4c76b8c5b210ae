/* `glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark]`: runs a captured
 * frame on the GPU model (gpu_model/frame) and, with --compare, checks every render target
 * after every draw against the driver's replay of the same frame (cli_model.c). */
#ifndef GLR_CLI_MODEL_H
#define GLR_CLI_MODEL_H

int cli_model(int argc, char **argv);

#endif
