/* Destructors of what the appliers and program-source table add to the model (ARB programs,
 * SPIR-V modules, named strings, program sources). They sit below sm_state.c and
 * sm_serialize.c, which free whole states, and below the appliers, which replace these objects:
 * kept in the appliers' files they made sm_state.c call up into them. */
#include <stdlib.h>
#include "statemodel/sm_internal.h"

void sm_arb_program_free(void *ptr)
{
    struct sm_arb_program *p = ptr;
    if (p) {
        free(p->source);
        free(p->local);
        free(p);
    }
}

void sm_spirv_free(struct sm_spirv *s)
{
    if (!s)
        return;
    free(s->binary);
    free(s->entry);
    free(s->spec_ids);
    free(s->spec_values);
    free(s);
}

void sm_named_strings_free(struct sm_share_group *g)
{
    for (uint32_t i = 0; i < g->n_named_strings; i++) {
        free(g->named_strings[i].name);
        free(g->named_strings[i].text);
    }
    free(g->named_strings);
    g->named_strings = NULL;
    g->n_named_strings = g->cap_named_strings = 0;
}

void sm_program_sources_free(struct sm_state *s)
{
    for (size_t i = 0; i < s->n_prog_sources; i++)
        free(s->prog_sources[i].entry);
    free(s->prog_sources);
    s->prog_sources = NULL;
    s->n_prog_sources = 0;
}
