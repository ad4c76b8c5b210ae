/* A small strict JSON reader (RFC 8259) for the METADATA section of a capture. It lives with the
 * container, in C with no library, because the preloaded shim reads metadata too (the in-process
 * replay loop loads the capture it just wrote) and must not link cJSON, which a program may carry
 * in another version. Input is untrusted: nesting is bounded, strings with NUL are refused, numbers
 * are read independently of the program's locale. */
#ifndef GLCAP_JSON_H
#define GLCAP_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum glcap_json_type {
    GLCAP_JSON_NULL, GLCAP_JSON_FALSE, GLCAP_JSON_TRUE, GLCAP_JSON_NUMBER, GLCAP_JSON_STRING,
    GLCAP_JSON_ARRAY, GLCAP_JSON_OBJECT
};

struct glcap_json {
    enum glcap_json_type type;
    char *key;                  /* member name inside an object, else NULL */
    char *str;                  /* GLCAP_JSON_STRING: the decoded UTF-8 text */
    double num;                 /* GLCAP_JSON_NUMBER */
    struct glcap_json *child;   /* first element or member of an array or object */
    struct glcap_json *next;    /* next sibling */
};

/* The document in text (NUL-terminated), or NULL when it is not one valid JSON value (or memory
 * runs out). */
struct glcap_json *glcap_json_parse(const char *text);
void glcap_json_free(struct glcap_json *v);
/* The first member named key of an object; NULL if v is not an object or has no such member. */
const struct glcap_json *glcap_json_get(const struct glcap_json *v, const char *key);
/* Whether v is non-NULL and of type t (true and false are both GLCAP_JSON_TRUE/FALSE). */
static inline bool glcap_json_is(const struct glcap_json *v, enum glcap_json_type t)
{
    return v && v->type == t;
}
/* Elements of an array (or members of an object). */
size_t glcap_json_count(const struct glcap_json *v);

#endif
