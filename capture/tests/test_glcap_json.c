/* glcap_json: the metadata reader accepts what cJSON wrote before it (every JSON value form, escapes,
 * UTF-16 surrogates) and refuses what is not one JSON value (truncation, trailing bytes, bad
 * escapes, NUL in a string, leading zeros, nesting deeper than its bound), whatever the locale. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_json.h"

#include "tests/support/glr_check.h"

static void check_invalid(const char *text)
{
    struct glcap_json *v = glcap_json_parse(text);
    if (v)
        fprintf(stderr, "accepted invalid JSON: %s\n", text);
    CHECK(!v);
    glcap_json_free(v);
}

static void test_document(void)
{
    const char *text = " {\"format\":\"glreplay capture\",\"first_frame\":3,\"neg\":-2.5e2,\"big\":9007199254740992,"
                       "\"es\":false,\"t\":true,\"n\":null,\"esc\":\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\","
                       "\"contexts\":[{\"id\":1},{\"id\":2},[]],\"empty\":{},\"format\":\"second\"}\n";
    struct glcap_json *root = glcap_json_parse(text);
    CHECK(root && root->type == GLCAP_JSON_OBJECT);
    const struct glcap_json *f = glcap_json_get(root, "format");
    CHECK(glcap_json_is(f, GLCAP_JSON_STRING) && !strcmp(f->str, "glreplay capture"));   /* the first wins */
    CHECK(glcap_json_is(glcap_json_get(root, "first_frame"), GLCAP_JSON_NUMBER));
    CHECK(glcap_json_get(root, "first_frame")->num == 3.0);
    CHECK(glcap_json_get(root, "neg")->num == -250.0);
    CHECK(glcap_json_get(root, "big")->num == 9007199254740992.0);
    CHECK(glcap_json_is(glcap_json_get(root, "es"), GLCAP_JSON_FALSE));
    CHECK(glcap_json_is(glcap_json_get(root, "t"), GLCAP_JSON_TRUE));
    CHECK(glcap_json_is(glcap_json_get(root, "n"), GLCAP_JSON_NULL));
    const struct glcap_json *e = glcap_json_get(root, "esc");
    CHECK(e && !strcmp(e->str, "a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80"));
    const struct glcap_json *ctxs = glcap_json_get(root, "contexts");
    CHECK(glcap_json_is(ctxs, GLCAP_JSON_ARRAY) && glcap_json_count(ctxs) == 3);
    CHECK(glcap_json_get(ctxs->child, "id")->num == 1.0);
    CHECK(!glcap_json_get(ctxs, "id"));                                  /* not an object */
    CHECK(glcap_json_count(glcap_json_get(root, "empty")) == 0);
    CHECK(!glcap_json_get(root, "missing"));
    glcap_json_free(root);
}

static void test_invalid(void)
{
    const char *bad[] = {
        "", " ", "{", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{1:2}", "{\"a\":1} x", "01",
        "1.", ".5", "-", "1e", "+1", "0x10", "tru", "nul", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\u0000\"",
        "\"\\udc00\"", "\"\\ud800x\"", "\"tab\there\"", "NaN", "Infinity", "[1]]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        check_invalid(bad[i]);
    /* Nesting far past the bound is refused, not a stack overflow. */
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = 0;
    check_invalid(deep);
    /* Within the bound it is accepted. */
    memset(deep, 0, 2 * depth + 1);
    memset(deep, '[', 40);
    memset(deep + 40, ']', 40);
    struct glcap_json *v = glcap_json_parse(deep);
    CHECK(v != NULL);
    glcap_json_free(v);
    free(deep);
    CHECK(!glcap_json_parse(NULL));
}

/* A program that set a locale with a decimal comma still reads "0.5" as one half. */
static void test_locale(void)
{
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
        printf("no comma locale installed: locale case not run\n");
        return;
    }
    struct glcap_json *v = glcap_json_parse("[0.5]");
    CHECK(v && v->child && v->child->num == 0.5);
    glcap_json_free(v);
    setlocale(LC_NUMERIC, "C");
}

int main(void)
{
    test_document();
    test_invalid();
    test_locale();
    if (failures)
        return 1;
    printf("glcap_json: ok\n");
    return 0;
}
