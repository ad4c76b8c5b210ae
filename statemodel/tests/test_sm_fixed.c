/* Unit tests of the fixed-function state (sm_apply_fixed.c): defaults, every command family,
 * eye-space transforms at the call (lights, spot directions, clip and eye planes), integer
 * colour conversion, per-unit environments and generation, and bad input counted as errors. */
#include <math.h>
#include <string.h>
#include "sm_test.h"
#include "statemodel/sm_pixel_index.h"

static bool near(float a, float b) { return fabsf(a - b) < 1e-5f; }

static const struct sm_fixed_state *ff_of(struct sm_state *s, uint32_t ctx)
{
    const struct sm_context *c = sm_context_get(s, ctx);
    return c ? &sm_context_state(c)->ff : NULL;
}

static void test_defaults(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glShadeModel", "u", GL_SMOOTH));
    const struct sm_fixed_state *ff = ff_of(s, 1);
    CHECK(ff != NULL);
    if (!ff) {
        sm_state_free(s);
        return;
    }
    CHECK(near(ff->light[0].diffuse[0], 1.0f) && near(ff->light[1].diffuse[0], 0.0f));
    CHECK(near(ff->light[3].position[2], 1.0f) && near(ff->light[3].spot_direction[2], -1.0f));
    CHECK(near(ff->light[0].spot_cutoff, 180.0f) && near(ff->light[0].attenuation[0], 1.0f));
    CHECK(near(ff->material[1].diffuse[0], 0.8f) && near(ff->material[0].ambient[3], 1.0f));
    CHECK(near(ff->light_model_ambient[0], 0.2f) && ff->color_control == GL_SINGLE_COLOR);
    CHECK(ff->fog_mode == GL_EXP && near(ff->fog_end, 1.0f) && ff->fog_coord_src == GL_FRAGMENT_DEPTH);
    CHECK(ff->alpha_func == GL_ALWAYS && ff->shade_model == GL_SMOOTH);
    CHECK(ff->unit[2].env_mode == GL_MODULATE && ff->unit[2].src_rgb[2] == GL_CONSTANT &&
          ff->unit[2].op_rgb[2] == GL_SRC_ALPHA && ff->unit[2].gen_mode[3] == GL_EYE_LINEAR);
    CHECK(near(ff->unit[0].object_plane[1][1], 1.0f) && near(ff->unit[0].eye_plane[2][2], 0.0f));
    sm_state_free(s);
}

static void test_lights_materials(void)
{
    struct sm_state *s = sm_state_new();
    /* modelview: translate (0,0,-5), then light position (1,2,3,1) lands at (1,2,-2,1) */
    CHECK(tcall(s, 1, "glTranslatef", "fff", 0.0, 0.0, -5.0));
    float pos[4] = { 1, 2, 3, 1 };
    CHECK(tcall(s, 1, "glLightfv", "uub", GL_LIGHT2, GL_POSITION, (const void *)pos, sizeof pos));
    CHECK(tcall(s, 1, "glRotatef", "ffff", 90.0, 0.0, 0.0, 1.0));
    float dir[3] = { 1, 0, 0 };   /* rotated 90 degrees about z: (0,1,0); translation ignored */
    CHECK(tcall(s, 1, "glLightfv", "uub", GL_LIGHT2, GL_SPOT_DIRECTION, (const void *)dir, sizeof dir));
    CHECK(tcall(s, 1, "glLightf", "uuf", GL_LIGHT2, GL_SPOT_CUTOFF, 30.0));
    CHECK(tcall(s, 1, "glLighti", "uui", GL_LIGHT2, GL_QUADRATIC_ATTENUATION, 2));
    int32_t amb[4] = { 0x7fffffff, 0, -0x7fffffff - 1, 0x7fffffff };
    CHECK(tcall(s, 1, "glLightiv", "uub", GL_LIGHT2, GL_AMBIENT, (const void *)amb, sizeof amb));
    float spec[4] = { 0.5f, 0.25f, 0.125f, 1 };
    CHECK(tcall(s, 1, "glMaterialfv", "uub", GL_BACK, GL_SPECULAR, (const void *)spec, sizeof spec));
    CHECK(tcall(s, 1, "glMaterialf", "uuf", GL_FRONT_AND_BACK, GL_SHININESS, 64.0));
    float ad[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
    CHECK(tcall(s, 1, "glMaterialfv", "uub", GL_FRONT, GL_AMBIENT_AND_DIFFUSE, (const void *)ad, sizeof ad));
    CHECK(tcall(s, 1, "glLightModeli", "ui", GL_LIGHT_MODEL_TWO_SIDE, 1));
    CHECK(tcall(s, 1, "glLightModelf", "uf", GL_LIGHT_MODEL_LOCAL_VIEWER, 1.0));
    CHECK(tcall(s, 1, "glLightModeli", "ui", GL_LIGHT_MODEL_COLOR_CONTROL, GL_SEPARATE_SPECULAR_COLOR));
    const struct sm_fixed_state *ff = ff_of(s, 1);
    if (ff) {
        const struct sm_ff_light *l = &ff->light[2];
        CHECK(near(l->position[0], 1) && near(l->position[1], 2) && near(l->position[2], -2) &&
              near(l->position[3], 1));
        CHECK(near(l->spot_direction[0], 0) && near(l->spot_direction[1], 1) && near(l->spot_direction[2], 0));
        CHECK(near(l->spot_cutoff, 30) && near(l->attenuation[2], 2));
        CHECK(near(l->ambient[0], 1.0f) && near(l->ambient[1], 0.0f) && near(l->ambient[2], -1.0f));
        CHECK(near(ff->material[1].specular[1], 0.25f) && near(ff->material[0].specular[1], 0.0f));
        CHECK(near(ff->material[0].shininess, 64) && near(ff->material[1].shininess, 64));
        CHECK(near(ff->material[0].ambient[2], 0.3f) && near(ff->material[0].diffuse[3], 0.4f) &&
              near(ff->material[1].diffuse[0], 0.8f));
        CHECK(ff->two_side && ff->local_viewer && ff->color_control == GL_SEPARATE_SPECULAR_COLOR);
    }
    /* colour material: the tracked material follows glColor while enabled; enabling it alone
     * leaves the material (llvmpipe: piglit's dlist-color-material) */
    CHECK(tcall(s, 1, "glColorMaterial", "uu", GL_BACK, GL_EMISSION));
    CHECK(tcall(s, 1, "glEnable", "u", GL_COLOR_MATERIAL));
    if (ff)
        CHECK(near(ff->material[1].emission[0], 0.0f) && near(ff->material[0].emission[0], 0.0f));
    CHECK(tcall(s, 1, "glColor3f", "fff", 1.0, 0.5, 0.25));
    if (ff)
        CHECK(near(ff->material[1].emission[1], 0.5f) && near(ff->material[0].emission[0], 0.0f));
    /* glEnable(GL_COLOR_ARRAY) is glEnableClientState's in compatibility contexts */
    CHECK(tcall(s, 1, "glEnable", "u", GL_COLOR_ARRAY));
    {
        const struct sm_context *c = sm_context_get(s, 1);
        const struct sm_vao *v = c ? sm_get_vao(c, 0) : NULL;
        CHECK(v && v->legacy[SM_LA_COLOR].enabled && !sm_is_enabled(c, GL_COLOR_ARRAY, 0));
    }
    uint64_t e = sm_error_count(s);
    CHECK(tcall(s, 1, "glLightf", "uuf", GL_LIGHT0 + 9, GL_SPOT_CUTOFF, 1.0));
    CHECK(tcall(s, 1, "glMaterialf", "uuf", GL_FRONT, GL_POSITION, 1.0));
    CHECK(tcall(s, 1, "glLightfv", "uub", GL_LIGHT0, GL_POSITION, (const void *)pos, (size_t)4));
    CHECK(sm_error_count(s) == e + 3);
    sm_state_free(s);
}

static void test_fog_alpha_planes_points(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glFogi", "ui", GL_FOG_MODE, GL_LINEAR));
    CHECK(ff_of(s, 1) && ff_of(s, 1)->fog_distance_mode == GL_EYE_PLANE_ABSOLUTE_NV);
    CHECK(tcall(s, 1, "glFogi", "ui", GL_FOG_DISTANCE_MODE_NV, GL_EYE_RADIAL_NV));
    CHECK(tcall(s, 1, "glFogf", "uf", GL_FOG_START, 2.0));
    CHECK(tcall(s, 1, "glFogf", "uf", GL_FOG_END, 9.0));
    CHECK(tcall(s, 1, "glFogf", "uf", GL_FOG_COORD_SRC, (double)GL_FOG_COORD));
    float fc[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    CHECK(tcall(s, 1, "glFogfv", "ub", GL_FOG_COLOR, (const void *)fc, sizeof fc));
    CHECK(tcall(s, 1, "glAlphaFunc", "uf", GL_GEQUAL, 1.5));
    CHECK(tcall(s, 1, "glShadeModel", "u", GL_FLAT));
    CHECK(tcall(s, 1, "glScalef", "fff", 2.0, 2.0, 2.0));
    double plane[4] = { 1, 0, 0, -1 };   /* x = 1 in object space: x = 2 in eye space */
    CHECK(tcall(s, 1, "glClipPlane", "ub", GL_CLIP_PLANE3, (const void *)plane, sizeof plane));
    CHECK(tcall(s, 1, "glPointParameterf", "uf", GL_POINT_SIZE_MIN, 2.0));
    float att[3] = { 1, 0.5f, 0.25f };
    CHECK(tcall(s, 1, "glPointParameterfv", "ub", GL_POINT_DISTANCE_ATTENUATION, (const void *)att, sizeof att));
    const struct sm_fixed_state *ff = ff_of(s, 1);
    if (ff) {
        CHECK(ff->fog_mode == GL_LINEAR && near(ff->fog_start, 2) && near(ff->fog_end, 9));
        CHECK(ff->fog_coord_src == GL_FOG_COORD && near(ff->fog_color[2], 0.75f));
        CHECK(ff->fog_distance_mode == GL_EYE_RADIAL_NV);
        CHECK(ff->alpha_func == GL_GEQUAL && near(ff->alpha_ref, 1.0f) && ff->shade_model == GL_FLAT);
        CHECK(near(ff->clip_plane[3][0], 0.5f) && near(ff->clip_plane[3][3], -1.0f));
        CHECK(near(ff->point_size_min, 2) && near(ff->point_attenuation[2], 0.25f));
    }
    uint64_t e = sm_error_count(s);
    CHECK(tcall(s, 1, "glShadeModel", "u", GL_LINEAR));
    CHECK(tcall(s, 1, "glClipPlane", "ub", GL_CLIP_PLANE0 + 8, (const void *)plane, sizeof plane));
    CHECK(sm_error_count(s) == e + 2);
    sm_state_free(s);
}

static void test_units(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glActiveTexture", "u", GL_TEXTURE1));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_DOT3_RGB));
    CHECK(tcall(s, 1, "glTexEnvf", "uuf", GL_TEXTURE_ENV, GL_SRC1_ALPHA, (double)GL_PRIMARY_COLOR));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_OPERAND2_RGB, GL_ONE_MINUS_SRC_COLOR));
    CHECK(tcall(s, 1, "glTexEnvf", "uuf", GL_TEXTURE_ENV, GL_RGB_SCALE, 4.0));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_SOURCE3_RGB_NV, GL_ZERO));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_OPERAND3_ALPHA_NV, GL_ONE_MINUS_SRC_ALPHA));
    float col[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
    CHECK(tcall(s, 1, "glTexEnvfv", "uub", GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, (const void *)col, sizeof col));
    CHECK(tcall(s, 1, "glTexGeni", "uui", GL_T, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP));
    CHECK(tcall(s, 1, "glTranslatef", "fff", 0.0, 0.0, 2.0));
    double ep[4] = { 0, 0, 1, 0 };   /* z plane; through the inverse of T(0,0,2): (0,0,1,-2) */
    CHECK(tcall(s, 1, "glTexGendv", "uub", GL_R, GL_EYE_PLANE, (const void *)ep, sizeof ep));
    float op[4] = { 1, 2, 3, 4 };
    CHECK(tcall(s, 1, "glTexGenfv", "uub", GL_Q, GL_OBJECT_PLANE, (const void *)op, sizeof op));
    CHECK(tcall(s, 1, "glEnable", "u", GL_TEXTURE_2D));
    CHECK(tcall(s, 1, "glEnable", "u", GL_TEXTURE_GEN_T));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_fixed_state *ff = ff_of(s, 1);
    if (ff && c) {
        const struct sm_ff_unit *u = &ff->unit[1];
        CHECK(u->env_mode == GL_COMBINE && u->combine_rgb == GL_DOT3_RGB && u->src_alpha[1] == GL_PRIMARY_COLOR);
        CHECK(u->op_rgb[2] == GL_ONE_MINUS_SRC_COLOR && near(u->rgb_scale, 4) && near(u->env_color[3], 0.4f));
        CHECK(u->src_rgb[3] == GL_ZERO && u->src_alpha[3] == GL_CONSTANT && u->op_rgb[3] == GL_SRC_ALPHA &&
              u->op_alpha[3] == GL_ONE_MINUS_SRC_ALPHA);   /* combine4: Mesa's defaults, then set */
        CHECK(u->gen_mode[1] == GL_SPHERE_MAP && ff->unit[0].gen_mode[1] == GL_EYE_LINEAR);
        CHECK(near(u->eye_plane[2][2], 1) && near(u->eye_plane[2][3], -2) && near(u->object_plane[3][3], 4));
        CHECK(ff->unit[0].env_mode == GL_MODULATE);
        CHECK(sm_is_enabled(c, GL_TEXTURE_2D, 1) && !sm_is_enabled(c, GL_TEXTURE_2D, 0));
        CHECK(sm_is_enabled(c, GL_TEXTURE_GEN_T, 1));
    }
    uint64_t e = sm_error_count(s);
    CHECK(tcall(s, 1, "glActiveTexture", "u", GL_TEXTURE0 + 12));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_ADD));
    CHECK(tcall(s, 1, "glActiveTexture", "u", GL_TEXTURE0));
    CHECK(tcall(s, 1, "glTexGeni", "uui", GL_S + 7, GL_TEXTURE_GEN_MODE, GL_SPHERE_MAP));
    CHECK(tcall(s, 1, "glTexEnvi", "uui", GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, 0));
    CHECK(sm_error_count(s) == e + 3);
    sm_state_free(s);
}

/* glInterleavedArrays sets the arrays of its layout (offsets, stride, enables) and
 * glPushClientAttrib / glPopClientAttrib put the arrays and the pixel store back. */
static void test_legacy_client(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glColorPointer", "iuip", 4, GL_UNSIGNED_BYTE, 16, (uint64_t)0x1000));
    CHECK(tcall(s, 1, "glEnableClientState", "u", GL_SECONDARY_COLOR_ARRAY));
    CHECK(tcall(s, 1, "glPixelStorei", "ui", GL_UNPACK_ALIGNMENT, 1));
    CHECK(tcall(s, 1, "glPushClientAttrib", "u", GL_CLIENT_ALL_ATTRIB_BITS));
    CHECK(tcall(s, 1, "glPixelStorei", "ui", GL_UNPACK_ALIGNMENT, 8));
    CHECK(tcall(s, 1, "glInterleavedArrays", "uip", GL_T2F_C4F_N3F_V3F, 0, (uint64_t)0x2000));
    const struct sm_context *c = sm_context_get(s, 1);
    const struct sm_vao *v = c ? sm_get_vao(c, 0) : NULL;
    CHECK(v != NULL);
    if (v) {
        const struct sm_legacy_array *col = &v->legacy[SM_LA_COLOR], *nrm = &v->legacy[SM_LA_NORMAL];
        const struct sm_legacy_array *ver = &v->legacy[SM_LA_VERTEX], *tc = &v->legacy[SM_LA_TEXCOORD0];
        CHECK(col->enabled && col->type == GL_FLOAT && col->size == 4 && col->pointer == 0x2008 && col->stride == 48);
        CHECK(nrm->enabled && nrm->pointer == 0x2018 && ver->enabled && ver->size == 3 && ver->pointer == 0x2024);
        CHECK(tc->enabled && tc->size == 2 && tc->pointer == 0x2000);
        CHECK(!v->legacy[SM_LA_SECONDARY_COLOR].enabled);
    }
    CHECK(tcall(s, 1, "glPopClientAttrib", ""));
    if (v) {
        CHECK(v->legacy[SM_LA_COLOR].type == GL_UNSIGNED_BYTE && v->legacy[SM_LA_COLOR].pointer == 0x1000 &&
              !v->legacy[SM_LA_COLOR].enabled && !v->legacy[SM_LA_VERTEX].enabled);
        CHECK(v->legacy[SM_LA_SECONDARY_COLOR].enabled);
        CHECK(sm_context_state(c)->unpack.alignment == 1);
    }
    uint64_t e = sm_error_count(s);
    CHECK(tcall(s, 1, "glPopClientAttrib", ""));
    CHECK(tcall(s, 1, "glInterleavedArrays", "uip", GL_RGBA, 0, (uint64_t)0));
    CHECK(sm_error_count(s) == e + 2);
    sm_state_free(s);
}

/* The raster position (sm_apply_rasterpos.c): transformed and mapped to the viewport, the
 * current colour or the lit colour as Mesa's rastpos.c computes them, invalid outside the view
 * volume, glWindowPos, glBitmap's advance, pixel zoom and transfer. */
static void test_raster_pos(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glViewport", "iiii", 0, 0, 100, 100));
    const struct sm_fixed_state *ff = ff_of(s, 1);
    CHECK(ff && ff->raster.valid && near(ff->raster.color[0], 1.0f) && near(ff->raster.pos[3], 1.0f));
    CHECK(tcall(s, 1, "glColor4f", "ffff", 0.5, 0.25, 1.0, 1.0));
    CHECK(tcall(s, 1, "glRasterPos2f", "ff", 0.0, 0.0));
    ff = ff_of(s, 1);
    CHECK(ff->raster.valid && near(ff->raster.pos[0], 50.0f) && near(ff->raster.pos[1], 50.0f) &&
          near(ff->raster.pos[2], 0.5f) && near(ff->raster.color[1], 0.25f));
    CHECK(tcall(s, 1, "glTranslatef", "fff", 0.5, 0.0, 0.0));
    int16_t v3[3] = { 0, 0, 0 };
    CHECK(tcall(s, 1, "glRasterPos3sv", "b", (const void *)v3, sizeof v3));
    CHECK(ff->raster.valid && near(ff->raster.pos[0], 75.0f));
    CHECK(tcall(s, 1, "glRasterPos2i", "ii", 1, 0));   /* x = 1.5 in clip space: clipped */
    CHECK(!ff->raster.valid);
    CHECK(tcall(s, 1, "glBitmap", "iiffffb", 0, 0, 0.0, 0.0, 5.0, -3.0, (const void *)NULL, (size_t)0));
    CHECK(!ff->raster.valid);   /* an invalid position does not move */
    CHECK(tcall(s, 1, "glColor4f", "ffff", 2.0, -1.0, 0.5, 1.0));
    CHECK(tcall(s, 1, "glWindowPos2i", "ii", 10, 20));
    CHECK(ff->raster.valid && near(ff->raster.pos[0], 10.0f) && near(ff->raster.pos[1], 20.0f) &&
          near(ff->raster.pos[2], 0.0f) && near(ff->raster.color[0], 1.0f) && near(ff->raster.color[1], 0.0f));
    CHECK(tcall(s, 1, "glBitmap", "iiffffb", 0, 0, 0.0, 0.0, 5.0, -3.0, (const void *)NULL, (size_t)0));
    CHECK(near(ff->raster.pos[0], 15.0f) && near(ff->raster.pos[1], 17.0f));
    /* lit: light 0 (directional along +z, diffuse 1), normal +z, default material:
     * 0.2 x 0.2 scene ambient + 0.8 diffuse */
    CHECK(tcall(s, 1, "glLoadIdentity", ""));
    CHECK(tcall(s, 1, "glEnable", "u", GL_LIGHTING));
    CHECK(tcall(s, 1, "glEnable", "u", GL_LIGHT0));
    CHECK(tcall(s, 1, "glNormal3f", "fff", 0.0, 0.0, 1.0));
    CHECK(tcall(s, 1, "glRasterPos2f", "ff", -0.5, 0.5));
    CHECK(ff->raster.valid && near(ff->raster.pos[0], 25.0f) && near(ff->raster.pos[1], 75.0f) &&
          near(ff->raster.color[0], 0.84f) && near(ff->raster.color[3], 1.0f));
    CHECK(tcall(s, 1, "glPixelZoom", "ff", 2.0, -1.0));
    CHECK(tcall(s, 1, "glPixelTransferf", "uf", GL_RED_SCALE, 0.5));
    CHECK(tcall(s, 1, "glPixelTransferi", "ui", GL_ALPHA_BIAS, 1));
    CHECK(near(ff->pixel_zoom[0], 2.0f) && near(ff->pixel_zoom[1], -1.0f) && near(ff->pixel_scale[0], 0.5f) &&
          near(ff->pixel_bias[3], 1.0f));
    sm_state_free(s);
}

/* Pixel maps (glPixelMap*, sm_apply_rasterpos.c) and colour-index pixels through them
 * (sm_pixel_index.c): defaults, clamping, unsigned forms, refused sizes, GL_BITMAP and byte
 * indices with GL_INDEX_SHIFT/OFFSET, a texture upload of indices kept as RGBA bytes. */
static void test_pixel_maps(void)
{
    struct sm_state *s = sm_state_new();
    CHECK(tcall(s, 1, "glViewport", "iiii", 0, 0, 10, 10));
    const struct sm_fixed_state *ff = ff_of(s, 1);
    const struct sm_pixel_map *r = &ff->pixel_map[GL_PIXEL_MAP_I_TO_R - GL_PIXEL_MAP_I_TO_I];
    const struct sm_pixel_map *g = &ff->pixel_map[GL_PIXEL_MAP_I_TO_G - GL_PIXEL_MAP_I_TO_I];
    const struct sm_pixel_map *a = &ff->pixel_map[GL_PIXEL_MAP_I_TO_A - GL_PIXEL_MAP_I_TO_I];
    CHECK(r->size == 1 && r->v[0] == 0.0f);
    float rv[4] = { 1.0f, 0.0f, 2.0f, -1.0f };
    CHECK(tcall(s, 1, "glPixelMapfv", "uib", GL_PIXEL_MAP_I_TO_R, 4, (const void *)rv, sizeof rv));
    CHECK(r->size == 4 && r->v[0] == 1.0f && r->v[2] == 1.0f && r->v[3] == 0.0f);   /* clamped */
    uint16_t gv[2] = { 0, 65535 };
    CHECK(tcall(s, 1, "glPixelMapusv", "uib", GL_PIXEL_MAP_I_TO_G, 2, (const void *)gv, sizeof gv));
    CHECK(g->size == 2 && near(g->v[1], 1.0f));
    float bad[3] = { 1, 1, 1 };   /* not a power of two: GL_INVALID_VALUE, the map stays */
    CHECK(tcall(s, 1, "glPixelMapfv", "uib", GL_PIXEL_MAP_I_TO_A, 3, (const void *)bad, sizeof bad));
    CHECK(a->size == 1 && a->v[0] == 0.0f);
    float av[1] = { 1.0f };
    CHECK(tcall(s, 1, "glPixelMapfv", "uib", GL_PIXEL_MAP_I_TO_A, 1, (const void *)av, sizeof av));
    /* GL_BITMAP indices, MSB first: 0b10100000 -> 1, 0, 1, 0 */
    struct sm_pixel_store ps = { .alignment = 1 };
    uint8_t bits[1] = { 0xA0 };
    float c[4];
    CHECK(sm_color_index_rgba(ff, &ps, GL_BITMAP, bits, 1, 4, 0, 0, c) && c[0] == 0.0f && c[1] == 1.0f &&
          c[3] == 1.0f);   /* index 1: r[1] = 0, g[1] = 1 */
    CHECK(sm_color_index_rgba(ff, &ps, GL_BITMAP, bits, 1, 4, 1, 0, c) && c[0] == 1.0f && c[1] == 0.0f);
    CHECK(!sm_color_index_rgba(ff, &ps, GL_BITMAP, bits, 1, 4, 0, 1, c));   /* past the end */
    /* byte indices, shifted and offset, masked by the map size */
    uint8_t idx[2] = { 1, 6 };
    CHECK(tcall(s, 1, "glPixelTransferi", "ui", GL_INDEX_SHIFT, 1));
    CHECK(tcall(s, 1, "glPixelTransferi", "ui", GL_INDEX_OFFSET, 1));
    CHECK(sm_color_index_rgba(ff, &ps, GL_UNSIGNED_BYTE, idx, 2, 2, 0, 0, c) && c[0] == 0.0f);   /* 3 */
    CHECK(sm_color_index_rgba(ff, &ps, GL_UNSIGNED_BYTE, idx, 2, 2, 1, 0, c) && c[0] == 0.0f &&
          c[1] == 1.0f);   /* 13: r[13 & 3] = r[1] = 0, g[13 & 1] = 1 */
    /* a texture upload of indices is kept as the RGBA bytes the maps give */
    CHECK(tcall(s, 1, "glPixelTransferi", "ui", GL_INDEX_SHIFT, 0));
    CHECK(tcall(s, 1, "glPixelTransferi", "ui", GL_INDEX_OFFSET, 0));
    CHECK(tcall(s, 1, "glPixelStorei", "ui", GL_UNPACK_ALIGNMENT, 1));
    CHECK(tcall(s, 1, "glTexImage2D", "uiiiiiuub", GL_TEXTURE_2D, 0, GL_RGBA, 2, 1, 0, GL_COLOR_INDEX,
                GL_UNSIGNED_BYTE, (const void *)idx, (size_t)2));
    const struct sm_context *ctx = sm_context_get(s, 1);
    const struct sm_texture *t = sm_get_texture(ctx, sm_texture_key(0, SM_TT_2D));
    CHECK(t && t->image[0][0].data && t->image[0][0].data_format == GL_RGBA &&
          t->image[0][0].data_type == GL_UNSIGNED_BYTE);
    if (t && t->image[0][0].data) {
        const uint8_t *px = t->image[0][0].data;   /* index 1: (0, 255, 0, 255); index 6: r[2] = 1, g[0] */
        CHECK(px[0] == 0 && px[1] == 255 && px[3] == 255 && px[4] == 255 && px[5] == 0);
    }
    sm_state_free(s);
}

int main(void)
{
    test_pixel_maps();
    test_raster_pos();
    test_legacy_client();
    test_defaults();
    test_lights_materials();
    test_fog_alpha_planes_points();
    test_units();
    return sm_test_result("test_sm_fixed");
}
