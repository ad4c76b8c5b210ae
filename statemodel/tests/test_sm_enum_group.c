/* Enum names by registry group (sm_enum_name_in, tables generated from gl.xml's group= attributes):
 * a value shared between groups gets the name of the group asked for, and the state query names an
 * enabled capability from EnableCap (GL_LIGHT0, not GL_COLOR_BUFFER_BIT: both are 0x4000). */
#include <stdlib.h>
#include <string.h>
#include "sm_test.h"

static bool is(const char *got, const char *want) { return got && strcmp(got, want) == 0; }

int main(void)
{
    CHECK(is(sm_enum_name_in("EnableCap", GL_LIGHT0), "GL_LIGHT0"));
    CHECK(is(sm_enum_name_in("LightName", GL_LIGHT0), "GL_LIGHT0"));
    CHECK(is(sm_enum_name_in("ClearBufferMask", GL_COLOR_BUFFER_BIT), "GL_COLOR_BUFFER_BIT"));
    CHECK(is(sm_enum_name_in("AttribMask", 4), "GL_LINE_BIT"));
    CHECK(is(sm_enum_name_in("PrimitiveType", 4), "GL_TRIANGLES"));
    CHECK(is(sm_enum_name_in("BlendingFactor", 0), "GL_ZERO"));
    CHECK(is(sm_enum_name_in("DrawBufferMode", 0), "GL_NONE"));
    CHECK(is(sm_enum_name_in("EnableCap", GL_LIGHTING), "GL_LIGHTING"));
    /* A value outside the group, or a group the registry does not have: no name. */
    CHECK(sm_enum_name_in("EnableCap", GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT) == NULL);
    CHECK(sm_enum_name_in("NoSuchGroup", GL_LIGHT0) == NULL);
    CHECK(sm_enum_name_in(NULL, GL_LIGHT0) == NULL);
    /* The value alone is ambiguous: whichever name sm_enum_name picks, the query must not use it. */
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 4, 5));
    CHECK(tcall(s, 1, "glEnable", "u", GL_LIGHTING));
    CHECK(tcall(s, 1, "glEnable", "u", GL_LIGHT0));
    char *json = sm_query_json(s, 1);
    CHECK(json && strstr(json, "\"GL_LIGHT0\"") && strstr(json, "\"GL_LIGHTING\""));
    CHECK(json && !strstr(json, "GL_COLOR_BUFFER_BIT"));
    free(json);
    sm_state_free(s);
    return sm_test_result("test_sm_enum_group");
}
