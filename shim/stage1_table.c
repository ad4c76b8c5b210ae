/* Stage 1's one shared variable (shim/stage_abi.h): read by every generated trampoline, written
 * once by the loader (stage1_load.c). A file of its own so that neither depends on the other. */
#include "shim/stage_abi.h"

/* Stage 2's wrapper table, NULL until stage 2 is loaded and started. */
__attribute__((visibility("hidden"))) const glr_stage_fn *glr_s1_table;
