/* GLSL source with comments (and, on request, preprocessor lines) blanked to spaces, keeping
 * every offset and line: the front end's source patches (gm_do_scope.c, gm_gs_layout.c,
 * gm_stub_functions.c) search the code without being fooled by commented-out text, then edit
 * the original at the same offsets. */
#include "gm_src_blank.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *gm_src_blank(const char *s, int directives)
{
    char *t = strdup(s);
    if (!t)
        return NULL;
    int line_start = 1;
    for (size_t i = 0; t[i];) {
        if (t[i] == '/' && t[i + 1] == '/') {
            while (t[i] && t[i] != '\n') t[i++] = ' ';
        } else if (t[i] == '/' && t[i + 1] == '*') {
            t[i] = t[i + 1] = ' ';
            i += 2;
            while (t[i] && !(t[i] == '*' && t[i + 1] == '/')) {
                if (t[i] != '\n') t[i] = ' ';
                i++;
            }
            if (t[i]) { t[i] = t[i + 1] = ' '; i += 2; }
        } else if (directives && line_start && t[i] == '#') {
            while (t[i] && t[i] != '\n') {
                /* a directive continued on the next line */
                if (t[i] == '\\' && t[i + 1] == '\n') { t[i] = ' '; i += 2; continue; }
                t[i++] = ' ';
            }
        } else {
            if (t[i] == '\n') line_start = 1;
            else if (!isspace((unsigned char)t[i])) line_start = 0;
            i++;
        }
    }
    return t;
}

char *gm_code_only(const char *s)
{
    return gm_src_blank(s, 1);
}
