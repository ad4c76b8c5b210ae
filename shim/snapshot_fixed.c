/* Fixed-function state of a compatibility context at the frame start (part of the per-context
 * snapshot, shim/snapshot.h): lights, materials, the light model, colour material, fog, the alpha
 * test, texture environments and coordinate generation per unit, clip planes, point parameters,
 * the line and polygon stipples, the shade model, current colour/normal/texture coordinates and the enables of
 * all of these. Legacy programs (glxgears, old engines) set them once at start-up, so a capture
 * of a later frame needs them. The state model does not hold this state (statemodel/DESIGN.md,
 * "Not modelled yet"): it is written as the GL calls that set it again (RESOURCE_BLOB kind 7, in
 * the command-stream encoding), which replay/restore.c issues after the state model's own restore.
 *
 * Positions and planes GL keeps in eye coordinates (light positions and spot directions, clip
 * planes, eye-linear texture generation planes) are what it reports; they are set again under an
 * identity modelview, which stores them unchanged, and the modelview's top is put back after. */
#include <stdarg.h>
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "registry/glr_call_codec.h"
#include "registry/glr_gl_enums.h"

struct ff {
    struct glr_snap *sn;
    uint8_t *buf;
    size_t size, cap;
    unsigned calls;
    bool failed;
};

/* Appends a call with nargs packed arguments (SNAP_U/SNAP_I/SNAP_F) and, at blob_index >= 0, the
 * client memory it reads. */
static void emit(struct ff *f, uint32_t cmd, int blob_index, const void *blob, size_t blob_size, int nargs, ...)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = f->sn->ctx;
    va_list ap;
    va_start(ap, nargs);
    for (int i = 0; i < nargs && i < GLR_MAX_PARAMS; i++)
        c.args[i] = va_arg(ap, uint64_t);
    va_end(ap);
    if (blob_index >= 0 && blob_index < GLR_MAX_PARAMS) {
        c.blobs[blob_index].data = blob;
        c.blobs[blob_index].size = blob_size;
    }
    if (!f->failed && !glr_call_encode(&c, &f->buf, &f->size, &f->cap))
        f->failed = true;
    f->calls++;
}

#define EMIT0(cmd, n, ...) emit(f, GLR_CMD_##cmd, -1, NULL, 0, n, __VA_ARGS__)

static GLint geti(GLenum pname)
{
    GLint v = 0;
    GLR_REAL(glGetIntegerv)(pname, &v);
    return v;
}

/* A switch, set again by the calls; context-wide ones (not per texture unit) also go into the state
 * model, whose generic switches would otherwise take them for off, so that a frame toggling one
 * is reset to the right value between replay passes. */
static void enable(struct ff *f, GLenum cap, bool context_wide)
{
    bool on = GLR_REAL(glIsEnabled)(cap);
    uint32_t cmd = on ? GLR_CMD_glEnable : GLR_CMD_glDisable;
    emit(f, cmd, -1, NULL, 0, 1, SNAP_U(cap));
    if (context_wide)
        glr_snap_apply(f->sn, cmd, -1, NULL, 0, 1, SNAP_U(cap));
}

/* The polygon stipple pattern: read with the default pack state (the program's is put back) and
 * set again with the default unpack state, the program's unpack state and unpack buffer put back
 * after it, so the 128 bytes mean the same on both sides. */
static void polygon_stipple(struct ff *f)
{
    static const GLenum pack[] = { GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST, GL_PACK_ROW_LENGTH,
                                   GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS };
    static const GLenum unpack[] = { GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST, GL_UNPACK_ROW_LENGTH,
                                     GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS };
    bool pbo = glr_snap_has(f->sn, 2, 1, -1, 0);   /* pixel buffer objects: GL 2.1 */
    GLint saved[5], align = geti(GL_PACK_ALIGNMENT), pack_buf = pbo ? geti(GL_PIXEL_PACK_BUFFER_BINDING) : 0;
    for (int k = 0; k < 5; k++) {
        saved[k] = geti(pack[k]);
        GLR_REAL(glPixelStorei)(pack[k], 0);
    }
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, 4);
    if (pack_buf)
        GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
    GLubyte mask[128];
    memset(mask, 0xFF, sizeof mask);
    GLR_REAL(glGetPolygonStipple)(mask);
    if (pack_buf)
        GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, align);
    for (int k = 0; k < 5; k++)
        GLR_REAL(glPixelStorei)(pack[k], saved[k]);

    GLint unpack_buf = pbo ? geti(GL_PIXEL_UNPACK_BUFFER_BINDING) : 0, ualign = geti(GL_UNPACK_ALIGNMENT);
    for (int k = 0; k < 5; k++) {
        saved[k] = geti(unpack[k]);
        EMIT0(glPixelStorei, 2, SNAP_U(unpack[k]), SNAP_I(0));
    }
    EMIT0(glPixelStorei, 2, SNAP_U(GL_UNPACK_ALIGNMENT), SNAP_I(4));
    if (unpack_buf)
        EMIT0(glBindBuffer, 2, SNAP_U(GL_PIXEL_UNPACK_BUFFER), SNAP_U(0));
    emit(f, GLR_CMD_glPolygonStipple, 0, mask, sizeof mask, 0);
    if (unpack_buf)
        EMIT0(glBindBuffer, 2, SNAP_U(GL_PIXEL_UNPACK_BUFFER), SNAP_U((GLuint)unpack_buf));
    EMIT0(glPixelStorei, 2, SNAP_U(GL_UNPACK_ALIGNMENT), SNAP_I(ualign));
    for (int k = 0; k < 5; k++)
        EMIT0(glPixelStorei, 2, SNAP_U(unpack[k]), SNAP_I(saved[k]));
}

static void materials(struct ff *f)
{
    static const GLenum faces[2] = { GL_FRONT, GL_BACK };
    static const GLenum vec[4] = { GL_AMBIENT, GL_DIFFUSE, GL_SPECULAR, GL_EMISSION };
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 4; i++) {
            GLfloat v[4] = { 0, 0, 0, 1 };
            GLR_REAL(glGetMaterialfv)(faces[k], vec[i], v);
            emit(f, GLR_CMD_glMaterialfv, 2, v, sizeof v, 2, SNAP_U(faces[k]), SNAP_U(vec[i]));
        }
        GLfloat s = 0;
        GLR_REAL(glGetMaterialfv)(faces[k], GL_SHININESS, &s);
        EMIT0(glMaterialf, 3, SNAP_U(faces[k]), SNAP_U(GL_SHININESS), SNAP_F(s));
    }
    EMIT0(glColorMaterial, 2, SNAP_U(geti(GL_COLOR_MATERIAL_FACE)), SNAP_U(geti(GL_COLOR_MATERIAL_PARAMETER)));
    GLfloat amb[4] = { 0.2f, 0.2f, 0.2f, 1 };
    GLR_REAL(glGetFloatv)(GL_LIGHT_MODEL_AMBIENT, amb);
    emit(f, GLR_CMD_glLightModelfv, 1, amb, sizeof amb, 1, SNAP_U(GL_LIGHT_MODEL_AMBIENT));
    EMIT0(glLightModeli, 2, SNAP_U(GL_LIGHT_MODEL_LOCAL_VIEWER), SNAP_I(geti(GL_LIGHT_MODEL_LOCAL_VIEWER)));
    EMIT0(glLightModeli, 2, SNAP_U(GL_LIGHT_MODEL_TWO_SIDE), SNAP_I(geti(GL_LIGHT_MODEL_TWO_SIDE)));
    if (glr_snap_has(f->sn, 1, 2, -1, 0))
        EMIT0(glLightModeli, 2, SNAP_U(GL_LIGHT_MODEL_COLOR_CONTROL), SNAP_I(geti(GL_LIGHT_MODEL_COLOR_CONTROL)));
}

/* Under an identity modelview (emitted by the caller): lights, clip planes. */
static void eye_space(struct ff *f, GLint lights, GLint planes)
{
    static const struct { GLenum pname; int n; } lp[] = {
        { GL_AMBIENT, 4 }, { GL_DIFFUSE, 4 }, { GL_SPECULAR, 4 }, { GL_POSITION, 4 }, { GL_SPOT_DIRECTION, 3 },
        { GL_SPOT_EXPONENT, 1 }, { GL_SPOT_CUTOFF, 1 }, { GL_CONSTANT_ATTENUATION, 1 },
        { GL_LINEAR_ATTENUATION, 1 }, { GL_QUADRATIC_ATTENUATION, 1 },
    };
    for (GLint l = 0; l < lights; l++)
        for (size_t k = 0; k < sizeof lp / sizeof lp[0]; k++) {
            GLfloat v[4] = { 0, 0, 0, 0 };
            GLR_REAL(glGetLightfv)(GL_LIGHT0 + (GLenum)l, lp[k].pname, v);
            emit(f, GLR_CMD_glLightfv, 2, v, (size_t)lp[k].n * sizeof(GLfloat), 2, SNAP_U(GL_LIGHT0 + (GLenum)l),
                 SNAP_U(lp[k].pname));
        }
    for (GLint p = 0; p < planes; p++) {
        GLdouble eq[4] = { 0, 0, 0, 0 };
        GLR_REAL(glGetClipPlane)(GL_CLIP_PLANE0 + (GLenum)p, eq);
        emit(f, GLR_CMD_glClipPlane, 1, eq, sizeof eq, 1, SNAP_U(GL_CLIP_PLANE0 + (GLenum)p));
    }
}

/* Texture environment, coordinate generation (eye planes under the identity modelview the caller
 * set), current texture coordinates and the texturing enables of unit u (made active). */
static void texture_unit(struct ff *f, GLint u, bool env_unit, bool coord_unit)
{
    EMIT0(glActiveTexture, 1, SNAP_U(GL_TEXTURE0 + (GLenum)u));
    if (env_unit) {
        static const GLenum ints[] = {
            GL_TEXTURE_ENV_MODE, GL_COMBINE_RGB, GL_COMBINE_ALPHA, GL_SRC0_RGB, GL_SRC1_RGB, GL_SRC2_RGB,
            GL_SRC0_ALPHA, GL_SRC1_ALPHA, GL_SRC2_ALPHA, GL_OPERAND0_RGB, GL_OPERAND1_RGB, GL_OPERAND2_RGB,
            GL_OPERAND0_ALPHA, GL_OPERAND1_ALPHA, GL_OPERAND2_ALPHA,
        };
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
            GLint v = 0;
            GLR_REAL(glGetTexEnviv)(GL_TEXTURE_ENV, ints[k], &v);
            EMIT0(glTexEnvi, 3, SNAP_U(GL_TEXTURE_ENV), SNAP_U(ints[k]), SNAP_I(v));
        }
        GLfloat scale = 1;
        GLR_REAL(glGetTexEnvfv)(GL_TEXTURE_ENV, GL_RGB_SCALE, &scale);
        EMIT0(glTexEnvf, 3, SNAP_U(GL_TEXTURE_ENV), SNAP_U(GL_RGB_SCALE), SNAP_F(scale));
        scale = 1;
        GLR_REAL(glGetTexEnvfv)(GL_TEXTURE_ENV, GL_ALPHA_SCALE, &scale);
        EMIT0(glTexEnvf, 3, SNAP_U(GL_TEXTURE_ENV), SNAP_U(GL_ALPHA_SCALE), SNAP_F(scale));
        GLfloat color[4] = { 0, 0, 0, 0 };
        GLR_REAL(glGetTexEnvfv)(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, color);
        emit(f, GLR_CMD_glTexEnvfv, 2, color, sizeof color, 2, SNAP_U(GL_TEXTURE_ENV), SNAP_U(GL_TEXTURE_ENV_COLOR));
        GLfloat bias = 0;
        GLR_REAL(glGetTexEnvfv)(GL_TEXTURE_FILTER_CONTROL, GL_TEXTURE_LOD_BIAS, &bias);
        EMIT0(glTexEnvf, 3, SNAP_U(GL_TEXTURE_FILTER_CONTROL), SNAP_U(GL_TEXTURE_LOD_BIAS), SNAP_F(bias));
        static const GLenum targets[] = { GL_TEXTURE_1D, GL_TEXTURE_2D, GL_TEXTURE_3D, GL_TEXTURE_CUBE_MAP };
        for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++)
            enable(f, targets[k], false);
    }
    if (coord_unit) {
        static const GLenum coords[4] = { GL_S, GL_T, GL_R, GL_Q };
        static const GLenum gens[4] = { GL_TEXTURE_GEN_S, GL_TEXTURE_GEN_T, GL_TEXTURE_GEN_R, GL_TEXTURE_GEN_Q };
        for (int k = 0; k < 4; k++) {
            GLint mode = GL_EYE_LINEAR;
            GLR_REAL(glGetTexGeniv)(coords[k], GL_TEXTURE_GEN_MODE, &mode);
            EMIT0(glTexGeni, 3, SNAP_U(coords[k]), SNAP_U(GL_TEXTURE_GEN_MODE), SNAP_I(mode));
            GLfloat plane[4] = { 0, 0, 0, 0 };
            GLR_REAL(glGetTexGenfv)(coords[k], GL_OBJECT_PLANE, plane);
            emit(f, GLR_CMD_glTexGenfv, 2, plane, sizeof plane, 2, SNAP_U(coords[k]), SNAP_U(GL_OBJECT_PLANE));
            GLR_REAL(glGetTexGenfv)(coords[k], GL_EYE_PLANE, plane);
            emit(f, GLR_CMD_glTexGenfv, 2, plane, sizeof plane, 2, SNAP_U(coords[k]), SNAP_U(GL_EYE_PLANE));
            enable(f, gens[k], false);
        }
        GLfloat tc[4] = { 0, 0, 0, 1 };
        GLR_REAL(glGetFloatv)(GL_CURRENT_TEXTURE_COORDS, tc);
        emit(f, GLR_CMD_glMultiTexCoord4fv, 1, tc, sizeof tc, 1, SNAP_U(GL_TEXTURE0 + (GLenum)u));
    }
}

static void fog_alpha_points_lines(struct ff *f)
{
    EMIT0(glFogi, 2, SNAP_U(GL_FOG_MODE), SNAP_I(geti(GL_FOG_MODE)));
    static const GLenum fl[3] = { GL_FOG_DENSITY, GL_FOG_START, GL_FOG_END };
    for (int k = 0; k < 3; k++) {
        GLfloat v = 0;
        GLR_REAL(glGetFloatv)(fl[k], &v);
        EMIT0(glFogf, 2, SNAP_U(fl[k]), SNAP_F(v));
    }
    GLfloat color[4] = { 0, 0, 0, 0 };
    GLR_REAL(glGetFloatv)(GL_FOG_COLOR, color);
    emit(f, GLR_CMD_glFogfv, 1, color, sizeof color, 1, SNAP_U(GL_FOG_COLOR));
    if (glr_snap_has(f->sn, 1, 4, -1, 0))
        EMIT0(glFogi, 2, SNAP_U(GL_FOG_COORD_SRC), SNAP_I(geti(GL_FOG_COORD_SRC)));
    GLfloat ref = 0;
    GLR_REAL(glGetFloatv)(GL_ALPHA_TEST_REF, &ref);
    EMIT0(glAlphaFunc, 2, SNAP_U(geti(GL_ALPHA_TEST_FUNC)), SNAP_F(ref));
    EMIT0(glShadeModel, 1, SNAP_U(geti(GL_SHADE_MODEL)));
    EMIT0(glLineStipple, 2, SNAP_I(geti(GL_LINE_STIPPLE_REPEAT)), SNAP_U(geti(GL_LINE_STIPPLE_PATTERN) & 0xFFFF));
    polygon_stipple(f);
    if (glr_snap_has(f->sn, 1, 4, -1, 0)) {
        static const GLenum pp[3] = { GL_POINT_SIZE_MIN, GL_POINT_SIZE_MAX, GL_POINT_FADE_THRESHOLD_SIZE };
        for (int k = 0; k < 3; k++) {
            GLfloat v = 0;
            GLR_REAL(glGetFloatv)(pp[k], &v);
            EMIT0(glPointParameterf, 2, SNAP_U(pp[k]), SNAP_F(v));
        }
        GLfloat att[3] = { 1, 0, 0 };
        GLR_REAL(glGetFloatv)(GL_POINT_DISTANCE_ATTENUATION, att);
        emit(f, GLR_CMD_glPointParameterfv, 1, att, sizeof att, 1, SNAP_U(GL_POINT_DISTANCE_ATTENUATION));
    }
}

/* Current colour, secondary colour, normal, fog coordinate and edge flag. */
static void current_values(struct ff *f)
{
    GLfloat v[4] = { 1, 1, 1, 1 };
    GLR_REAL(glGetFloatv)(GL_CURRENT_COLOR, v);
    emit(f, GLR_CMD_glColor4fv, 0, v, 4 * sizeof(GLfloat), 0);
    GLR_REAL(glGetFloatv)(GL_CURRENT_NORMAL, v);
    emit(f, GLR_CMD_glNormal3fv, 0, v, 3 * sizeof(GLfloat), 0);
    if (glr_snap_has(f->sn, 1, 4, -1, 0)) {
        GLR_REAL(glGetFloatv)(GL_CURRENT_SECONDARY_COLOR, v);
        emit(f, GLR_CMD_glSecondaryColor3fv, 0, v, 3 * sizeof(GLfloat), 0);
        GLR_REAL(glGetFloatv)(GL_CURRENT_FOG_COORD, v);
        EMIT0(glFogCoordf, 1, SNAP_F(v[0]));
    }
    EMIT0(glEdgeFlag, 1, SNAP_U(geti(GL_EDGE_FLAG) ? 1 : 0));
}

void glr_snap_fixed_function(struct glr_snap *sn)
{
    /* Compatibility contexts only: desktop GL before 3.1, or a compatibility profile. */
    if (sn->es || sn->core || (sn->major == 3 && sn->minor == 1))
        return;
    struct ff ff = { .sn = sn }, *f = &ff;
    GLint lights = geti(GL_MAX_LIGHTS), planes = geti(GL_MAX_CLIP_PLANES);
    GLint env_units = glr_snap_has(sn, 1, 3, -1, 0) ? geti(GL_MAX_TEXTURE_UNITS) : 1;
    GLint coord_units = glr_snap_has(sn, 2, 0, -1, 0) ? geti(GL_MAX_TEXTURE_COORDS) : env_units;
    lights = lights < 0 ? 0 : lights > 8 ? 8 : lights;
    planes = planes < 0 ? 0 : planes > 8 ? 8 : planes;
    env_units = env_units < 1 ? 1 : env_units > 8 ? 8 : env_units;
    coord_units = coord_units < 1 ? 1 : coord_units > 8 ? 8 : coord_units;
    GLint active = geti(GL_ACTIVE_TEXTURE), mode = geti(GL_MATRIX_MODE);
    GLfloat modelview[16];
    GLR_REAL(glGetFloatv)(GL_MODELVIEW_MATRIX, modelview);

    /* Materials first, with colour tracking off so they are not overwritten. */
    EMIT0(glDisable, 1, SNAP_U(GL_COLOR_MATERIAL));
    materials(f);
    fog_alpha_points_lines(f);
    EMIT0(glMatrixMode, 1, SNAP_U(GL_MODELVIEW));
    EMIT0(glLoadIdentity, 0, 0);
    eye_space(f, lights, planes);
    for (GLint u = 0; u < (env_units > coord_units ? env_units : coord_units); u++) {
        GLR_REAL(glActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        texture_unit(f, u, u < env_units, u < coord_units);
    }
    GLR_REAL(glActiveTexture)((GLenum)active);
    EMIT0(glActiveTexture, 1, SNAP_U(active));
    emit(f, GLR_CMD_glLoadMatrixf, 0, modelview, sizeof modelview, 0);
    EMIT0(glMatrixMode, 1, SNAP_U(mode));
    current_values(f);
    static const GLenum caps[] = {
        GL_LIGHTING, GL_NORMALIZE, GL_RESCALE_NORMAL, GL_FOG, GL_ALPHA_TEST, GL_POINT_SMOOTH,
        GL_LINE_STIPPLE, GL_POLYGON_STIPPLE, GL_COLOR_SUM, GL_AUTO_NORMAL, GL_POINT_SPRITE, GL_VERTEX_PROGRAM_TWO_SIDE,
        GL_COLOR_MATERIAL,
    };
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
        enable(f, caps[k], true);
    for (GLint l = 0; l < lights; l++)
        enable(f, GL_LIGHT0 + (GLenum)l, true);
    for (GLint p = 0; p < planes; p++)
        enable(f, GL_CLIP_PLANE0 + (GLenum)p, true);

    if (f->failed) {
        free(f->buf);
        glr_snap_warn(sn, "context %u: out of memory keeping the fixed-function state", sn->ctx);
        return;
    }
    struct glr_snap_blob b = { .kind = GLR_SNAP_BLOB_FIXED_FUNCTION, .ctx_id = sn->ctx, .data = f->buf,
                               .size = f->size };
    if (!glr_snap_add_blob(sn, &b)) {
        free(f->buf);
        glr_snap_warn(sn, "context %u: out of memory keeping the fixed-function state", sn->ctx);
        return;
    }
    glr_log(GLR_LOG_DEBUG, "snapshot: context %u: fixed-function state as %u calls (%zu bytes)", sn->ctx, f->calls,
            f->size);
}
