/* Notes: what an event uses that the model does not do (gmf_note), kept on the event and counted
 * per distinct text for the runner's summary. A leaf of the frame runner: every file that finds
 * something unsupported calls it, and it calls nothing of theirs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

/* Every note is also counted per distinct text (digits folded so per-object notes group). */
static gmf_runner *note_runner;

void gmf_note_runner_set(gmf_runner *r) { note_runner = r; }

static void count_unsupported(gmf_runner *r, const char *text)
{
    char key[160];
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof key; p++) {
        if (*p >= '0' && *p <= '9') {
            if (k == 0 || key[k - 1] != 'N')
                key[k++] = 'N';
            while (p[1] >= '0' && p[1] <= '9')
                p++;
        } else {
            key[k++] = *p;
        }
    }
    key[k] = 0;
    for (int i = 0; i < r->n_unsup; i++)
        if (!strcmp(r->unsup_names[i], key)) {
            r->unsup_counts[i]++;
            return;
        }
    if (r->n_unsup == r->cap_unsup) {
        int cap = r->cap_unsup ? 2 * r->cap_unsup : 16;
        char **n = realloc(r->unsup_names, (size_t)cap * sizeof *n);
        uint64_t *c = n ? realloc(r->unsup_counts, (size_t)cap * sizeof *c) : NULL;
        if (n)
            r->unsup_names = n;
        if (!c)
            return;
        r->unsup_counts = c;
        r->cap_unsup = cap;
    }
    char *dup = strdup(key);
    if (!dup)
        return;
    r->unsup_names[r->n_unsup] = dup;
    r->unsup_counts[r->n_unsup++] = 1;
}

void gmf_note(gmf_event *ev, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (int i = 0; i < ev->n_unsupported; i++)
        if (!strcmp(ev->unsupported[i], buf))
            return; /* once per event */
    if (ev->n_unsupported < GMF_MAX_NOTES)
        memcpy(ev->unsupported[ev->n_unsupported], buf, sizeof buf);
    if (ev->n_unsupported <= GMF_MAX_NOTES)
        ev->n_unsupported++;
    if (note_runner)
        count_unsupported(note_runner, buf);
}
