/* Current legacy attribute values (sm_apply_current.c): every family, scalar and vector forms,
 * GL's integer conversions, glMultiTexCoord units, and the decoding the GPU model shares. */
#include <math.h>
#include <string.h>
#include "sm_test.h"
#include "statemodel/sm_current.h"
#include "registry/glr_registry.h"

static const float *cur(struct sm_state *s, int slot)
{
    return sm_context_state(sm_context_get(s, 1))->legacy_current[slot];
}

static bool near4(const float *v, float a, float b, float c, float d)
{
    return fabsf(v[0] - a) < 1e-6f && fabsf(v[1] - b) < 1e-6f && fabsf(v[2] - c) < 1e-6f &&
           fabsf(v[3] - d) < 1e-6f;
}

static void test_defaults_and_colors(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 2, 1));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, 1, 1, 1));
    CHECK(near4(cur(s, SM_LA_NORMAL), 0, 0, 1, 0));
    /* float and double scalars; 3 components leave alpha 1 */
    CHECK(tcall(s, 1, "glColor3f", "fff", 0.25, 0.5, 0.75));
    CHECK(near4(cur(s, SM_LA_COLOR), 0.25f, 0.5f, 0.75f, 1));
    CHECK(tcall(s, 1, "glColor4d", "dddd", 0.1, 0.2, 0.3, 0.4));
    CHECK(near4(cur(s, SM_LA_COLOR), 0.1f, 0.2f, 0.3f, 0.4f));
    /* unsigned: c / (2^b - 1) */
    CHECK(tcall(s, 1, "glColor4ub", "uuuu", 255u, 0u, 51u, 255u));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, 0, 0.2f, 1));
    CHECK(tcall(s, 1, "glColor3us", "uuu", 65535u, 0u, 13107u));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, 0, 0.2f, 1));
    CHECK(tcall(s, 1, "glColor3ui", "uuu", 4294967295u, 0u, 0u));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, 0, 0, 1));
    /* signed: (2c + 1) / (2^b - 1), as Mesa */
    CHECK(tcall(s, 1, "glColor3b", "iii", 127, -128, 0));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, -1, 1.0f / 255.0f, 1));
    CHECK(tcall(s, 1, "glColor4s", "iiii", 32767, -32768, 0, 32767));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, -1, 1.0f / 65535.0f, 1));
    CHECK(tcall(s, 1, "glColor3i", "iii", 2147483647, 0, 0));
    CHECK(near4(cur(s, SM_LA_COLOR), 1, (float)(1.0 / 4294967295.0), (float)(1.0 / 4294967295.0), 1));
    /* vector forms read the recorded memory */
    const uint8_t ub[4] = { 0, 255, 0, 128 };
    CHECK(tcall(s, 1, "glColor4ubv", "b", ub, sizeof ub));
    CHECK(near4(cur(s, SM_LA_COLOR), 0, 1, 0, 128.0f / 255.0f));
    const double dv[3] = { 0.5, 0.25, 0.125 };
    CHECK(tcall(s, 1, "glColor3dv", "b", dv, sizeof dv));
    CHECK(near4(cur(s, SM_LA_COLOR), 0.5f, 0.25f, 0.125f, 1));
    const int16_t sv[3] = { 32767, 0, -32768 };
    CHECK(tcall(s, 1, "glSecondaryColor3sv", "b", sv, sizeof sv));
    CHECK(near4(cur(s, SM_LA_SECONDARY_COLOR), 1, 1.0f / 65535.0f, -1, 1));
    CHECK(tcall(s, 1, "glSecondaryColor3ub", "uuu", 0u, 255u, 0u));
    CHECK(near4(cur(s, SM_LA_SECONDARY_COLOR), 0, 1, 0, 1));
    CHECK(sm_error_count(s) == 0);
    CHECK(sm_unhandled_calls(s) == 0);
    sm_state_free(s);
}

static void test_other_slots(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(sm_context_create(s, 1, 0, SM_API_GL_COMPAT, 2, 1));
    /* normals: integer forms normalized */
    CHECK(tcall(s, 1, "glNormal3b", "iii", 127, 0, -128));
    CHECK(near4(cur(s, SM_LA_NORMAL), 1, 1.0f / 255.0f, -1, 1));
    CHECK(tcall(s, 1, "glNormal3f", "fff", 0.0, 1.0, 0.0));
    CHECK(near4(cur(s, SM_LA_NORMAL), 0, 1, 0, 1));
    /* texture coordinates: integers convert directly; missing components (0, 0, 0, 1) */
    CHECK(tcall(s, 1, "glTexCoord2s", "ii", 3, -4));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0), 3, -4, 0, 1));
    CHECK(tcall(s, 1, "glTexCoord1i", "i", 7));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0), 7, 0, 0, 1));
    const float t4[4] = { 1, 2, 3, 4 };
    CHECK(tcall(s, 1, "glTexCoord4fv", "b", t4, sizeof t4));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0), 1, 2, 3, 4));
    CHECK(tcall(s, 1, "glMultiTexCoord2f", "uff", (unsigned)GL_TEXTURE3, 0.5, 0.25));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0 + 3), 0.5f, 0.25f, 0, 1));
    const int32_t iv3[3] = { 9, 8, 7 };
    CHECK(tcall(s, 1, "glMultiTexCoord3iv", "ub", (unsigned)GL_TEXTURE1, iv3, sizeof iv3));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0 + 1), 9, 8, 7, 1));
    CHECK(near4(cur(s, SM_LA_TEXCOORD0), 1, 2, 3, 4));   /* unit 0 untouched */
    CHECK(sm_error_count(s) == 0);
    /* a unit past the model's texture coordinate sets is an error, not a write elsewhere */
    CHECK(tcall(s, 1, "glMultiTexCoord1f", "uf", (unsigned)GL_TEXTURE0 + 30u, 1.0));
    CHECK(sm_error_count(s) == 1);
    /* fog coordinate, edge flag, colour index */
    CHECK(tcall(s, 1, "glFogCoordf", "f", 2.5));
    CHECK(cur(s, SM_LA_FOG_COORD)[0] == 2.5f);
    const double fd = 4.0;
    CHECK(tcall(s, 1, "glFogCoorddv", "b", &fd, sizeof fd));
    CHECK(cur(s, SM_LA_FOG_COORD)[0] == 4.0f);
    /* GL_NV_half_float forms: 0x3c00 is 1.0, 0xb800 -0.5, 0x0001 the smallest subnormal */
    CHECK(tcall(s, 1, "glFogCoordhNV", "u", 0x3c00u));
    CHECK(cur(s, SM_LA_FOG_COORD)[0] == 1.0f);
    const uint16_t h3[3] = { 0xb800, 0x0001, 0x4500 };
    CHECK(tcall(s, 1, "glColor3hvNV", "b", h3, sizeof h3));
    CHECK(near4(cur(s, SM_LA_COLOR), -0.5f, 5.9604645e-8f, 5.0f, 1));
    CHECK(tcall(s, 1, "glEdgeFlag", "u", 0u));
    CHECK(cur(s, SM_LA_EDGE_FLAG)[0] == 0.0f);
    const uint8_t on = 1;
    CHECK(tcall(s, 1, "glEdgeFlagv", "b", &on, sizeof on));
    CHECK(cur(s, SM_LA_EDGE_FLAG)[0] == 1.0f);
    CHECK(tcall(s, 1, "glIndexs", "i", -3));
    CHECK(cur(s, SM_LA_INDEX)[0] == -3.0f);
    CHECK(tcall(s, 1, "glIndexub", "u", 200u));
    CHECK(cur(s, SM_LA_INDEX)[0] == 200.0f);
    /* glVertex, glRect, glBegin/glEnd: no state, but handled (not counted unhandled) */
    CHECK(tcall(s, 1, "glBegin", "u", (unsigned)GL_TRIANGLES));
    CHECK(tcall(s, 1, "glVertex3f", "fff", 1.0, 2.0, 3.0));
    CHECK(tcall(s, 1, "glEnd", ""));
    CHECK(tcall(s, 1, "glRecti", "iiii", 0, 0, 1, 1));
    CHECK(sm_unhandled_calls(s) == 0);
    /* a vector form whose values were not recorded is an error */
    CHECK(tcall(s, 1, "glColor3fv", "b", (const void *)NULL, (size_t)0));
    CHECK(sm_error_count(s) == 2);
    sm_state_free(s);
}

/* The families are found from the registry, not by a list: every form GL 2.1 has is one of them,
 * and look-alike commands are not. */
static void test_families(void)
{
    static const char *const yes[] = {
        "glVertex2s", "glVertex4dv", "glColor4usv", "glColor3bv", "glNormal3iv", "glTexCoord3d",
        "glMultiTexCoord4sv", "glSecondaryColor3uiv", "glFogCoordd", "glEdgeFlagv", "glIndexfv",
        "glRectsv", "glRectd", "glMultiTexCoord1dv", "glFogCoordhNV", "glVertex2hNV", "glMultiTexCoord2hvNV",
    };
    static const char *const no[] = {
        "glColorMask", "glColorPointer", "glColorMaterial", "glVertexAttrib4f", "glVertexPointer",
        "glIndexMask", "glNormalPointer", "glTexCoordPointer", "glEdgeFlagPointer", "glColorP3ui",
        "glFogCoordPointer", "glColor3fVertex3fSUN", "glVertexArrayAttribFormat", "glColorTable",
    };
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        int c = glr_cmd_find(yes[i]);
        CHECK(c >= 0 && sm_imm_kind_of((uint32_t)c) != SM_IMM_NONE);
        if (c < 0 || sm_imm_kind_of((uint32_t)c) == SM_IMM_NONE)
            fprintf(stderr, "  not recognised: %s\n", yes[i]);
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        int c = glr_cmd_find(no[i]);
        CHECK(c < 0 || sm_imm_kind_of((uint32_t)c) == SM_IMM_NONE);
    }
    /* decoding shared with the GPU model */
    struct glr_call c = tmake(1, "glRectf", "ffff", 1.0, 2.0, 3.0, 4.0);
    struct sm_imm_value v;
    CHECK(sm_imm_decode(&c, &v) && v.kind == SM_IMM_RECT && near4(v.v, 1, 2, 3, 4));
    const int16_t r1[2] = { -1, -2 }, r2[2] = { 5, 6 };
    c = tmake(1, "glRectsv", "bb", r1, sizeof r1, r2, sizeof r2);
    CHECK(sm_imm_decode(&c, &v) && v.kind == SM_IMM_RECT && near4(v.v, -1, -2, 5, 6));
    c = tmake(1, "glVertex2i", "ii", 10, -20);
    CHECK(sm_imm_decode(&c, &v) && v.kind == SM_IMM_VERTEX && near4(v.v, 10, -20, 0, 1));
    c = tmake(1, "glEnable", "u", (unsigned)GL_BLEND);
    CHECK(!sm_imm_decode(&c, &v) && v.kind == SM_IMM_NONE);
}

int main(void)
{
    test_defaults_and_colors();
    test_other_slots();
    test_families();
    return sm_test_result("test_sm_current");
}
