/* The fixed-function fragment stage as GLSL: texture environments (the classic modes turned
 * into combiner settings by the texture's base format, as Mesa's texstate.c does; GL_COMBINE
 * with its sources, operands and scales), colour sum, fog and the alpha test. Each unit's
 * result is saturated (after the scale when there is one), sampling is projective (TXP), the fog
 * factor is computed from Mesa's precomputed parameters: texenvprogram.c and programopt.c. The
 * alpha test is the pipeline's (gpu_model/frame/gmf_ffunc.c), as in llvmpipe. */
#include "gm_ff.h"
#include "gm_ff_text.h"

/* One combiner function of a unit (rgb or alpha) after the base format was applied. */
typedef struct ff_comb {
    int mode;        /* enum gm_ff_combine */
    int src[4], op[4];   /* [3]: the fourth argument of GL_COMBINE4_NV's sums of products */
} ff_comb;

static ff_comb comb(int mode, int s0, int o0, int s1, int o1, int s2, int o2)
{
    ff_comb c = { mode, { s0, s1, s2, GM_FF_SRC_ZERO }, { o0, o1, o2, GM_FF_OP_COLOR } };
    return c;
}

/* GL 2.1 table 3.22 (classic modes) as combiner settings; the same translation Mesa makes. */
static void classic(const gm_ff_unit_key *u, ff_comb *rgb, ff_comb *alpha)
{
    const int T = GM_FF_SRC_TEXTURE, P = GM_FF_SRC_PREVIOUS, K = GM_FF_SRC_CONSTANT;
    const int C = GM_FF_OP_COLOR, A = GM_FF_OP_ALPHA, IA = GM_FF_OP_ONE_MINUS_ALPHA;
    bool alpha_only = u->format == GM_FF_FMT_ALPHA, no_alpha = u->format == GM_FF_FMT_RGB;
    bool intensity = u->format == GM_FF_FMT_INTENSITY;
    ff_comb keep_rgb = comb(GM_FF_CB_REPLACE, P, C, P, C, P, C);
    ff_comb keep_a = comb(GM_FF_CB_REPLACE, P, A, P, A, P, A);
    ff_comb mod_a = comb(GM_FF_CB_MODULATE, T, A, P, A, P, A);
    switch (u->env) {
    case GM_FF_ENV_REPLACE:
        *rgb = alpha_only ? keep_rgb : comb(GM_FF_CB_REPLACE, T, C, T, C, T, C);
        *alpha = no_alpha ? keep_a : comb(GM_FF_CB_REPLACE, T, A, T, A, T, A);
        return;
    case GM_FF_ENV_DECAL:
        /* defined for RGB and RGBA; Mesa treats the others the same way */
        *rgb = no_alpha ? comb(GM_FF_CB_REPLACE, T, C, T, C, T, C)
                        : comb(GM_FF_CB_INTERPOLATE, T, C, P, C, T, A);
        *alpha = keep_a;
        return;
    case GM_FF_ENV_BLEND:
        *rgb = alpha_only ? keep_rgb : comb(GM_FF_CB_INTERPOLATE, K, C, P, C, T, C);
        *alpha = no_alpha ? keep_a
                 : intensity ? comb(GM_FF_CB_INTERPOLATE, K, A, P, A, T, A) : mod_a;
        return;
    case GM_FF_ENV_ADD:
        *rgb = alpha_only ? keep_rgb : comb(GM_FF_CB_ADD, T, C, P, C, P, C);
        *alpha = no_alpha ? keep_a : intensity ? comb(GM_FF_CB_ADD, T, A, P, A, P, A) : mod_a;
        return;
    case GM_FF_ENV_MODULATE:
    default:
        *rgb = alpha_only ? keep_rgb : comb(GM_FF_CB_MODULATE, T, C, P, C, P, C);
        *alpha = no_alpha ? keep_a : mod_a;
        (void)IA;
        return;
    }
}

static const char *const sampler_types[] = { "", "sampler1D", "sampler2D", "sampler3D",
                                             "samplerCube", "sampler2DRect" };
static const char *const shadow_types[] = { "", "sampler1DShadow", "sampler2DShadow", "", "",
                                            "sampler2DRectShadow" };

/* The source expression of operand i of c in unit u: a vec4 whose rgb or a the op picks. */
static void source(ff_text *t, int unit, int src)
{
    switch (src) {
    case GM_FF_SRC_TEXTURE: ff_printf(t, "tex%d", unit); break;
    case GM_FF_SRC_CONSTANT: ff_printf(t, "gl_TextureEnvColor[%d]", unit); break;
    case GM_FF_SRC_PRIMARY: ff_printf(t, "primary"); break;
    case GM_FF_SRC_PREVIOUS: ff_printf(t, "prev"); break;
    case GM_FF_SRC_ZERO: ff_printf(t, "vec4(0.0)"); break;
    case GM_FF_SRC_ONE: ff_printf(t, "vec4(1.0)"); break;
    default: ff_printf(t, "tex%d", src - GM_FF_SRC_TEXTURE0); break;
    }
}

/* Argument i of a combiner as a vec4 (rgb: the colour or the alpha smeared; alpha: .a). */
static void arg(ff_text *t, int unit, const ff_comb *c, int i, bool for_alpha)
{
    int op = c->op[i];
    bool inv = op == GM_FF_OP_ONE_MINUS_COLOR || op == GM_FF_OP_ONE_MINUS_ALPHA;
    bool alpha = op == GM_FF_OP_ALPHA || op == GM_FF_OP_ONE_MINUS_ALPHA || for_alpha;
    ff_printf(t, inv ? "(vec4(1.0) - " : "(");
    source(t, unit, c->src[i]);
    ff_printf(t, alpha ? ".aaaa)" : ")");
}

static void combine(ff_text *t, int unit, const ff_comb *c, bool for_alpha)
{
    switch (c->mode) {
    case GM_FF_CB_REPLACE: arg(t, unit, c, 0, for_alpha); return;
    case GM_FF_CB_MODULATE:
        arg(t, unit, c, 0, for_alpha); ff_printf(t, " * "); arg(t, unit, c, 1, for_alpha); return;
    case GM_FF_CB_ADD:
        arg(t, unit, c, 0, for_alpha); ff_printf(t, " + "); arg(t, unit, c, 1, for_alpha); return;
    case GM_FF_CB_ADD_SIGNED:
        ff_printf(t, "("); arg(t, unit, c, 0, for_alpha); ff_printf(t, " + ");
        arg(t, unit, c, 1, for_alpha); ff_printf(t, ") - vec4(0.5)"); return;
    case GM_FF_CB_SUBTRACT:
        arg(t, unit, c, 0, for_alpha); ff_printf(t, " - "); arg(t, unit, c, 1, for_alpha); return;
    case GM_FF_CB_ADD_PRODUCTS: case GM_FF_CB_ADD_PRODUCTS_SIGNED:   /* Mesa: add(mul, mul) */
        ff_printf(t, "(");
        arg(t, unit, c, 0, for_alpha); ff_printf(t, " * "); arg(t, unit, c, 1, for_alpha);
        ff_printf(t, " + ");
        arg(t, unit, c, 2, for_alpha); ff_printf(t, " * "); arg(t, unit, c, 3, for_alpha);
        ff_printf(t, c->mode == GM_FF_CB_ADD_PRODUCTS ? ")" : ") - vec4(0.5)");
        return;
    case GM_FF_CB_INTERPOLATE:
        ff_printf(t, "mix("); arg(t, unit, c, 1, for_alpha); ff_printf(t, ", ");
        arg(t, unit, c, 0, for_alpha); ff_printf(t, ", "); arg(t, unit, c, 2, for_alpha);
        ff_printf(t, ")"); return;
    default:   /* DOT3: 4 ((a - 0.5) . (b - 0.5)) as Mesa computes it, (2a - 1) . (2b - 1) */
        ff_printf(t, "vec4(dot(("); arg(t, unit, c, 0, for_alpha);
        ff_printf(t, " * 2.0 - 1.0).xyz, ("); arg(t, unit, c, 1, for_alpha);
        ff_printf(t, " * 2.0 - 1.0).xyz))"); return;
    }
}

static const char *const env_names[] = { "GL_MODULATE", "GL_REPLACE", "GL_DECAL", "GL_BLEND",
                                         "GL_ADD", "GL_COMBINE" };
static const char *const target_names[] = { "", "GL_TEXTURE_1D", "GL_TEXTURE_2D", "GL_TEXTURE_3D",
                                            "GL_TEXTURE_CUBE_MAP", "GL_TEXTURE_RECTANGLE" };

static void sample(ff_text *t, const gm_ff_key *k, int u)
{
    const gm_ff_unit_key *uk = &k->unit[u];
    char coord[48];
    if (uk->coord_replace && k->points)
        snprintf(coord, sizeof coord, "vec4(gl_PointCoord, 0.0, 1.0)");
    else
        snprintf(coord, sizeof coord, "gl_TexCoord[%d]", u);
    ff_printf(t, "    vec4 tex%d = ", u);
    switch (uk->target) {
    case GM_FF_TEX_1D:
        ff_printf(t, uk->shadow ? "shadow1DProj(ff_texture%d, %s)" : "texture1DProj(ff_texture%d, %s)", u, coord);
        break;
    case GM_FF_TEX_3D: ff_printf(t, "texture3DProj(ff_texture%d, %s)", u, coord); break;
    case GM_FF_TEX_CUBE: ff_printf(t, "textureCube(ff_texture%d, %s.xyz)", u, coord); break;
    case GM_FF_TEX_RECT:
        ff_printf(t, uk->shadow ? "shadow2DRectProj(ff_texture%d, %s)" : "texture2DRectProj(ff_texture%d, %s)", u, coord);
        break;
    default:
        ff_printf(t, uk->shadow ? "shadow2DProj(ff_texture%d, %s)" : "texture2DProj(ff_texture%d, %s)", u, coord);
        break;
    }
    /* a depth texture (or comparison result) needs nothing more: the sampler applies
     * GL_DEPTH_TEXTURE_MODE as the view swizzle, as Mesa's sampler view does for its texenv
     * program (GL_INTENSITY gives the depth as alpha too: piglit fbo-alphatest-nocolor*) */
    ff_printf(t, ";\n");
}

static bool same_comb(const ff_comb *a, const ff_comb *b)
{
    return a->mode == b->mode && !memcmp(a->src, b->src, sizeof a->src) && !memcmp(a->op, b->op, sizeof a->op);
}

char *gm_ff_fragment_source(const gm_ff_key *k)
{
    ff_text t = { 0 };
    if (k->pixel_rect == GM_FF_PIXEL_DEPTH) {
        /* Mesa's get_drawpix_z_stencil_program: depth from the image, the raster colour */
        ff_printf(&t, "#version 120\n// Pixel rectangle (depth image) fragment stage, generated by glreplay\n"
                      "// (the program Mesa uses: src/mesa/state_tracker/st_cb_drawpixels.c).\n\n"
                      "uniform sampler2D ff_pixels;      // the depth image (red)\n"
                      "uniform vec4 ff_pixel_rect;       // window origin, 1 / (zoom * size)\n\n"
                      "void main()\n{\n"
                      "    gl_FragDepth = texture2D(ff_pixels, (gl_FragCoord.xy - ff_pixel_rect.xy) * ff_pixel_rect.zw).r;\n"
                      "    gl_FragColor = gl_Color;\n}\n");
        return ff_finish(&t);
    }
    bool rect = false;
    for (int u = 0; u < GM_FF_UNITS; u++)
        rect |= k->unit[u].target == GM_FF_TEX_RECT;
    ff_printf(&t, "#version 120\n%s", rect ? "#extension GL_ARB_texture_rectangle : enable\n" : "");
    ff_printf(&t, "// Fixed-function fragment stage, generated by glreplay from the draw's GL state\n"
                  "// (the program Mesa builds for it: src/mesa/main/texenvprogram.c).\n\n");
    for (int u = 0; u < GM_FF_UNITS; u++) {
        const gm_ff_unit_key *uk = &k->unit[u];
        if (uk->target == GM_FF_TEX_NONE)
            continue;
        const char *type = uk->shadow ? shadow_types[uk->target] : sampler_types[uk->target];
        ff_printf(&t, "uniform %s ff_texture%d;\n", *type ? type : sampler_types[uk->target], u);
        if (uk->scaled)
            ff_printf(&t, "uniform vec2 ff_env_scale%d;   // GL_RGB_SCALE, GL_ALPHA_SCALE\n", u);
    }
    bool two = k->lighting && k->two_side;
    if (two)
        ff_printf(&t, "varying vec4 ff_back_color0;\n%s", k->separate_specular ? "varying vec4 ff_back_color1;\n" : "");
    if (k->fog)
        ff_printf(&t, "uniform vec4 ff_fog_params;   // -1/(end-start), end/(end-start), density/ln2, density/sqrt(ln2)\n");
    if (k->color_current && !two && !k->pixel_rect)
        ff_printf(&t, "uniform vec4 ff_current_color;       // the current colour (it does not vary in this draw)\n");
    if (k->secondary_current && (k->separate_specular || k->color_sum))
        ff_printf(&t, "uniform vec4 ff_current_secondary;   // the current secondary colour (it does not vary)\n");
    if (k->pixel_rect)
        ff_printf(&t, "uniform sampler2D ff_pixels;      // the %s\n"
                      "uniform vec4 ff_pixel_rect;       // window origin, 1 / (zoom * size)\n",
                  k->pixel_rect == GM_FF_PIXEL_BITMAP ? "bitmap (0: no fragment)" : "image after pixel transfer");
    ff_printf(&t, "\nvoid main()\n{\n");
    if (k->pixel_rect) {
        ff_printf(&t, "    vec4 pixel = texture2D(ff_pixels, (gl_FragCoord.xy - ff_pixel_rect.xy) * ff_pixel_rect.zw);\n");
        if (k->pixel_rect == GM_FF_PIXEL_BITMAP)
            ff_printf(&t, "    if (pixel.r == 0.0)\n        discard;\n    vec4 primary = gl_Color;\n");
        else
            ff_printf(&t, "    vec4 primary = pixel;\n");
    } else if (two)
        ff_printf(&t, "    vec4 primary = gl_FrontFacing ? gl_Color : ff_back_color0;\n");
    else
        ff_printf(&t, "    vec4 primary = %s;\n", k->color_current ? "ff_current_color" : "gl_Color");
    ff_printf(&t, "    vec4 prev = primary;\n");
    for (int u = 0; u < GM_FF_UNITS; u++)
        if (k->unit[u].target != GM_FF_TEX_NONE)
            sample(&t, k, u);
    for (int u = 0; u < GM_FF_UNITS; u++) {
        const gm_ff_unit_key *uk = &k->unit[u];
        if (uk->target == GM_FF_TEX_NONE)
            continue;
        ff_comb rgb, alpha;
        if (uk->env == GM_FF_ENV_COMBINE) {
            rgb = comb(uk->combine_rgb, uk->src_rgb[0], uk->op_rgb[0], uk->src_rgb[1], uk->op_rgb[1],
                       uk->src_rgb[2], uk->op_rgb[2]);
            alpha = comb(uk->combine_alpha, uk->src_alpha[0], uk->op_alpha[0], uk->src_alpha[1],
                         uk->op_alpha[1], uk->src_alpha[2], uk->op_alpha[2]);
            if (uk->combine_rgb >= GM_FF_CB_ADD_PRODUCTS)
                rgb.src[3] = uk->src_rgb[3], rgb.op[3] = uk->op_rgb[3];
            if (uk->combine_alpha >= GM_FF_CB_ADD_PRODUCTS)
                alpha.src[3] = uk->src_alpha[3], alpha.op[3] = uk->op_alpha[3];
        } else {
            classic(uk, &rgb, &alpha);
        }
        ff_printf(&t, "    // unit %d: %s, %s\n", u, target_names[uk->target], env_names[uk->env]);
        const char *sat_open = "clamp(", *sat_close = ", 0.0, 1.0)";
        if (rgb.mode == GM_FF_CB_DOT3_RGBA) {
            ff_printf(&t, "    prev = ");
            combine(&t, u, &rgb, false);
            ff_printf(&t, ";\n");
        } else if (same_comb(&rgb, &alpha) && rgb.mode != GM_FF_CB_DOT3_RGB &&
                   rgb.op[0] < GM_FF_OP_ALPHA && rgb.op[1] < GM_FF_OP_ALPHA && rgb.op[2] < GM_FF_OP_ALPHA &&
                   rgb.op[3] < GM_FF_OP_ALPHA) {
            /* rgb and alpha the same function of colour operands: one vec4 operation */
            ff_printf(&t, "    prev = ");
            combine(&t, u, &rgb, false);
            ff_printf(&t, ";\n");
        } else {
            ff_printf(&t, "    {\n        vec4 c = ");
            combine(&t, u, &rgb, false);
            ff_printf(&t, ";\n        c.a = (");
            combine(&t, u, &alpha, true);
            ff_printf(&t, ").a;\n        prev = c;\n    }\n");
        }
        if (uk->scaled)
            ff_printf(&t, "    prev = %sprev * ff_env_scale%d.xxxy%s;\n", sat_open, u, sat_close);
        else
            ff_printf(&t, "    prev = %sprev%s;\n", sat_open, sat_close);
    }
    if (k->separate_specular || k->color_sum) {
        const char *sec = two && k->separate_specular ? "(gl_FrontFacing ? gl_SecondaryColor : ff_back_color1)"
                          : k->secondary_current ? "ff_current_secondary" : "gl_SecondaryColor";
        ff_printf(&t, "    // colour sum\n    prev.rgb = prev.rgb + %s.rgb;\n", sec);
    }
    if (k->fog) {
        ff_printf(&t, "    // fog: %s\n", k->fog == GM_FF_FOG_LINEAR ? "GL_LINEAR" : k->fog == GM_FF_FOG_EXP ? "GL_EXP" : "GL_EXP2");
        if (k->fog == GM_FF_FOG_LINEAR)
            ff_printf(&t, "    float fog = clamp(gl_FogFragCoord * ff_fog_params.x + ff_fog_params.y, 0.0, 1.0);\n");
        else if (k->fog == GM_FF_FOG_EXP)
            ff_printf(&t, "    float fog = clamp(exp2(-(ff_fog_params.z * gl_FogFragCoord)), 0.0, 1.0);\n");
        else
            ff_printf(&t, "    float fogt = ff_fog_params.w * gl_FogFragCoord;\n"
                          "    float fog = clamp(exp2(-(fogt * fogt)), 0.0, 1.0);\n");
        ff_printf(&t, "    prev.rgb = mix(gl_Fog.color.rgb, prev.rgb, fog);\n");
    }
    ff_printf(&t, "    gl_FragColor = prev;\n}\n");
    return ff_finish(&t);
}
