/* One input primitive for all the units of a geometry shader (gm_gs_layout.c). Internal to
 * gpu_model/frontend. */
#ifndef GM_GS_LAYOUT_H
#define GM_GS_LAYOUT_H

/* texts[0..n): the units of one geometry shader (malloc'ed). Units without an input layout
 * get the others' appended after their last line. 1 when any did, 0 when none, -1 when out of
 * memory (texts stay valid). */
int gm_gs_share_input_layout(char **texts, int n);

#endif
