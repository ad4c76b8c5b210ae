/* Legacy matrix stacks (compatibility profile): glMatrixMode selects the modelview, projection or
 * active unit's texture stack; the load / multiply / push / pop / transform commands change its
 * top matrix the way GL 2.1 section 2.11.2 defines them. The GPU model feeds the results to
 * shaders that read gl_ModelViewMatrix and friends. Matrices are column-major floats. */
#include <math.h>
#include <string.h>
#include "statemodel/sm_apply.h"

#define ST(a) (&(a)->c->st)

/* The stack glMatrixMode selected, or NULL (with an error) when there is none. */
static struct sm_matrix_stack *cur_stack(struct sm_ap *a)
{
    struct sm_context_state *st = ST(a);
    switch (st->matrix_mode) {
    case GL_MODELVIEW: return &st->modelview;
    case GL_PROJECTION: return &st->projection;
    case GL_TEXTURE:
        if (st->active_texture < SM_MAX_TEXTURE_COORDS)
            return &st->texture[st->active_texture];
        ap_error(a, "texture matrix of a unit beyond the legacy texture coordinate sets");
        return NULL;
    default:
        ap_error(a, "matrix mode not modelled");
        return NULL;
    }
}

static float *top(struct sm_ap *a)
{
    struct sm_matrix_stack *s = cur_stack(a);
    return s ? s->m[s->depth] : NULL;
}

/* top = top * m (GL post-multiplies: the new transform applies to vertices first). */
static void mult(struct sm_ap *a, const float m[16])
{
    float *t = top(a);
    if (!t)
        return;
    float r[16];
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++)
                sum += t[k * 4 + row] * m[c * 4 + k];
            r[c * 4 + row] = sum;
        }
    memcpy(t, r, sizeof r);
}

static void identity(float m[16])
{
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void h_matrix_mode(struct sm_ap *a)
{
    uint32_t mode = ap_u(a, 0);
    if (mode != GL_MODELVIEW && mode != GL_PROJECTION && mode != GL_TEXTURE) {
        ap_error(a, "matrix mode not modelled");
        return;
    }
    ST(a)->matrix_mode = mode;
}

static void h_load_identity(struct sm_ap *a)
{
    float *t = top(a);
    if (t)
        identity(t);
}

/* The 16 values of a gl{Load,Mult}[Transpose]Matrix{f,d} call as column-major floats. */
static bool matrix_arg(struct sm_ap *a, float m[16])
{
    bool dbl = a->cmd == GLR_CMD_glLoadMatrixd || a->cmd == GLR_CMD_glMultMatrixd ||
               a->cmd == GLR_CMD_glLoadTransposeMatrixd || a->cmd == GLR_CMD_glMultTransposeMatrixd;
    bool transpose = a->cmd == GLR_CMD_glLoadTransposeMatrixf ||
                     a->cmd == GLR_CMD_glLoadTransposeMatrixd ||
                     a->cmd == GLR_CMD_glMultTransposeMatrixf ||
                     a->cmd == GLR_CMD_glMultTransposeMatrixd;
    const void *p = ap_blob(a, 0, dbl ? 16 * sizeof(double) : 16 * sizeof(float));
    if (!p) {
        ap_error(a, "matrix data missing");
        return false;
    }
    for (int i = 0; i < 16; i++) {
        int src = transpose ? (i % 4) * 4 + i / 4 : i;
        m[i] = dbl ? (float)((const double *)p)[src] : ((const float *)p)[src];
    }
    return true;
}

static void h_load_matrix(struct sm_ap *a)
{
    float m[16], *t = top(a);
    if (t && matrix_arg(a, m))
        memcpy(t, m, sizeof m);
}

static void h_mult_matrix(struct sm_ap *a)
{
    float m[16];
    if (matrix_arg(a, m))
        mult(a, m);
}

static void h_push_matrix(struct sm_ap *a)
{
    struct sm_matrix_stack *s = cur_stack(a);
    if (!s)
        return;
    if (s->depth + 1 >= SM_MATRIX_STACK_DEPTH) {
        ap_error(a, "matrix stack overflow");
        return;
    }
    memcpy(s->m[s->depth + 1], s->m[s->depth], sizeof s->m[0]);
    s->depth++;
}

static void h_pop_matrix(struct sm_ap *a)
{
    struct sm_matrix_stack *s = cur_stack(a);
    if (!s)
        return;
    if (s->depth == 0) {
        ap_error(a, "matrix stack underflow");
        return;
    }
    s->depth--;
}

static bool is_double(uint32_t cmd)
{
    return cmd == GLR_CMD_glTranslated || cmd == GLR_CMD_glScaled || cmd == GLR_CMD_glRotated;
}

static float arg_fd(struct sm_ap *a, int i)
{
    return is_double(a->cmd) ? (float)ap_d(a, i) : ap_f(a, i);
}

static void h_translate(struct sm_ap *a)
{
    float m[16];
    identity(m);
    m[12] = arg_fd(a, 0);
    m[13] = arg_fd(a, 1);
    m[14] = arg_fd(a, 2);
    mult(a, m);
}

static void h_scale(struct sm_ap *a)
{
    float m[16];
    identity(m);
    m[0] = arg_fd(a, 0);
    m[5] = arg_fd(a, 1);
    m[10] = arg_fd(a, 2);
    mult(a, m);
}

/* Rotation by `angle` degrees about the axis (x, y, z), normalised first (GL 2.1 eq. 2.6). */
static void h_rotate(struct sm_ap *a)
{
    double angle = arg_fd(a, 0) * (M_PI / 180.0);
    double x = arg_fd(a, 1), y = arg_fd(a, 2), z = arg_fd(a, 3);
    double len = sqrt(x * x + y * y + z * z);
    if (len == 0.0)
        return; /* no axis: GL leaves the matrix as it is */
    x /= len;
    y /= len;
    z /= len;
    double c = cos(angle), s = sin(angle), ic = 1.0 - c;
    float m[16];
    identity(m);
    m[0] = (float)(x * x * ic + c);
    m[1] = (float)(y * x * ic + z * s);
    m[2] = (float)(x * z * ic - y * s);
    m[4] = (float)(x * y * ic - z * s);
    m[5] = (float)(y * y * ic + c);
    m[6] = (float)(y * z * ic + x * s);
    m[8] = (float)(x * z * ic + y * s);
    m[9] = (float)(y * z * ic - x * s);
    m[10] = (float)(z * z * ic + c);
    mult(a, m);
}

static void h_ortho(struct sm_ap *a)
{
    double l = ap_d(a, 0), r = ap_d(a, 1), b = ap_d(a, 2), t = ap_d(a, 3);
    double n = ap_d(a, 4), f = ap_d(a, 5);
    if (l == r || b == t || n == f) {
        ap_error(a, "glOrtho with an empty volume");
        return;
    }
    float m[16];
    identity(m);
    m[0] = (float)(2.0 / (r - l));
    m[5] = (float)(2.0 / (t - b));
    m[10] = (float)(-2.0 / (f - n));
    m[12] = (float)(-(r + l) / (r - l));
    m[13] = (float)(-(t + b) / (t - b));
    m[14] = (float)(-(f + n) / (f - n));
    mult(a, m);
}

static void h_frustum(struct sm_ap *a)
{
    double l = ap_d(a, 0), r = ap_d(a, 1), b = ap_d(a, 2), t = ap_d(a, 3);
    double n = ap_d(a, 4), f = ap_d(a, 5);
    if (n <= 0.0 || f <= 0.0 || l == r || b == t || n == f) {
        ap_error(a, "glFrustum with an invalid volume");
        return;
    }
    float m[16] = { 0 };
    m[0] = (float)(2.0 * n / (r - l));
    m[5] = (float)(2.0 * n / (t - b));
    m[8] = (float)((r + l) / (r - l));
    m[9] = (float)((t + b) / (t - b));
    m[10] = (float)(-(f + n) / (f - n));
    m[11] = -1.0f;
    m[14] = (float)(-2.0 * f * n / (f - n));
    mult(a, m);
}

void sm_register_matrix(sm_apply_fn *t)
{
    t[GLR_CMD_glMatrixMode] = h_matrix_mode;
    t[GLR_CMD_glLoadIdentity] = h_load_identity;
    t[GLR_CMD_glLoadMatrixf] = h_load_matrix;
    t[GLR_CMD_glLoadMatrixd] = h_load_matrix;
    t[GLR_CMD_glLoadTransposeMatrixf] = h_load_matrix;
    t[GLR_CMD_glLoadTransposeMatrixd] = h_load_matrix;
    t[GLR_CMD_glMultMatrixf] = h_mult_matrix;
    t[GLR_CMD_glMultMatrixd] = h_mult_matrix;
    t[GLR_CMD_glMultTransposeMatrixf] = h_mult_matrix;
    t[GLR_CMD_glMultTransposeMatrixd] = h_mult_matrix;
    t[GLR_CMD_glPushMatrix] = h_push_matrix;
    t[GLR_CMD_glPopMatrix] = h_pop_matrix;
    t[GLR_CMD_glTranslatef] = h_translate;
    t[GLR_CMD_glTranslated] = h_translate;
    t[GLR_CMD_glScalef] = h_scale;
    t[GLR_CMD_glScaled] = h_scale;
    t[GLR_CMD_glRotatef] = h_rotate;
    t[GLR_CMD_glRotated] = h_rotate;
    t[GLR_CMD_glOrtho] = h_ortho;
    t[GLR_CMD_glFrustum] = h_frustum;
}
