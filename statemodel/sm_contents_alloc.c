/* Memory for object contents of 4 MiB or more (buffer data, texture images): whole 2 MiB pages with
 * transparent huge pages asked for (THP is "madvise" on Debian). The snapshot copies hundreds of
 * MiB of live contents into the state model on the program's thread at capture start; with 4 KiB
 * pages most of that time was one page fault per 4 KiB of fresh memory (issue 17 §5). Freed
 * with free(). */
#include <stdlib.h>
#include <sys/mman.h>
#include "statemodel/sm_internal.h"

#define HUGE_PAGE (2u << 20)

void *sm_contents_alloc(size_t size)
{
    if (size < 2 * HUGE_PAGE)   /* the rounding up wastes at most a third */
        return malloc(size);
    size_t rounded = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    if (rounded < size)
        return NULL;
    void *p = aligned_alloc(HUGE_PAGE, rounded);
    if (p)
        madvise(p, rounded, MADV_HUGEPAGE);
    return p;
}
