/* The input primitive of a geometry shader made of several compilation units.
 *
 * GL links the units of one stage into one shader: an input array declared unsized in a unit
 * without `layout(triangles) in;` gets its size from the primitive another unit declares
 * (piglit gs-input-sizing-layout-larger-than-static-usage; Mesa sizes it at link time).
 * glslang sizes it per unit, from the largest constant index used there, and then refuses
 * the link ("Not all array sizes match across all geometry shaders"). Repeating the input
 * layout in every unit, after its last line (line numbers stay), makes glslang size them all
 * as Mesa does; GL requires the units that declare it to agree, so the copy is the same. */
#include "gm_gs_layout.h"
#include "gm_src_blank.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static size_t skip_space(const char *c, size_t i)
{
    while (c[i] && isspace((unsigned char)c[i])) i++;
    return i;
}

/* The primitive of the unit's `layout(...) in;`, or NULL. */
static const char *input_primitive(const char *src)
{
    static const char *const prims[] = {"triangles_adjacency", "lines_adjacency", "triangles",
                                        "lines", "points"};
    char *c = gm_code_only(src);
    if (!c)
        return NULL;
    const char *found = NULL;
    for (char *p = strstr(c, "layout"); p && !found; p = strstr(p + 1, "layout")) {
        if ((p > c && ident_char(p[-1])) || ident_char(p[6]))
            continue;
        size_t k = skip_space(c, (size_t)(p - c) + 6);
        if (c[k] != '(')
            continue;
        size_t open = k;
        while (c[k] && c[k] != ')' && c[k] != ';') k++;
        if (c[k] != ')')
            continue;
        size_t close = k;
        k = skip_space(c, k + 1);
        if (strncmp(c + k, "in", 2) || ident_char(c[k + 2]) || c[skip_space(c, k + 2)] != ';')
            continue;
        for (size_t m = 0; m < sizeof prims / sizeof prims[0] && !found; m++) {
            size_t n = strlen(prims[m]);
            for (size_t q = open + 1; q + n <= close; q++)
                if (!strncmp(c + q, prims[m], n) && !ident_char(c[q - 1]) && !ident_char(c[q + n])) {
                    found = prims[m];
                    break;
                }
        }
    }
    free(c);
    return found;
}

int gm_gs_share_input_layout(char **texts, int n)
{
    const char *prim = NULL;
    int missing = 0;
    for (int i = 0; i < n; i++) {
        const char *p = input_primitive(texts[i]);
        if (p && !prim)
            prim = p;
        missing += !p;
    }
    if (!prim || !missing)
        return 0;
    for (int i = 0; i < n; i++) {
        if (input_primitive(texts[i]))
            continue;
        size_t len = strlen(texts[i]);
        char *t = realloc(texts[i], len + strlen(prim) + 20);
        if (!t)
            return -1;
        sprintf(t + len, "\nlayout(%s) in;", prim);
        texts[i] = t;
    }
    return 1;
}
