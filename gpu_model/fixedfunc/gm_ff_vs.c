/* The fixed-function vertex stage as GLSL: transform, lighting, fog coordinate, texture
 * coordinate generation and texture matrices, point size attenuation, user clip planes. The
 * operations and their order follow Mesa's ffvertex_prog.c (which llvmpipe runs), so the model
 * rounds the same way: lighting in eye space with Mesa's LIT semantics (exponent clamped to
 * +-128, specular only on lit faces), spot and distance attenuation as it computes them,
 * half vectors and normalized directions precomputed on the CPU (ff_* uniforms), fog coordinate
 * |z_eye|, sphere and reflection maps from the normalized eye position. */
#include "gm_ff.h"
#include "gm_ff_text.h"

static const char *const coord_names = "STRQ";
static const char *const coord_swz = "xyzw";

static bool need_eye(const gm_ff_key *k)
{
    if (k->lighting)
        for (int i = 0; i < GM_FF_LIGHTS; i++)
            if (k->light[i].enabled && (k->light[i].positional || k->local_viewer))
                return true;
    for (int u = 0; u < GM_FF_UNITS; u++)
        for (int c = 0; c < 4; c++) {
            int m = k->unit[u].gen_mode[c];
            if (k->unit[u].texcoord_out &&
                (m == GM_FF_GEN_EYE || m == GM_FF_GEN_SPHERE || m == GM_FF_GEN_REFLECTION))
                return true;
        }
    return false;
}

static bool lighting_needs_eye(const gm_ff_key *k)
{
    if (!k->lighting)
        return false;
    for (int i = 0; i < GM_FF_LIGHTS; i++)
        if (k->light[i].enabled && (k->light[i].positional || (k->local_viewer && !k->shininess_zero)))
            return true;
    return false;
}

static bool need_normal(const gm_ff_key *k)
{
    if (k->lighting)
        return true;
    for (int u = 0; u < GM_FF_UNITS; u++)
        for (int c = 0; c < 4; c++) {
            int m = k->unit[u].gen_mode[c];
            if (k->unit[u].texcoord_out &&
                (m == GM_FF_GEN_SPHERE || m == GM_FF_GEN_REFLECTION || m == GM_FF_GEN_NORMAL))
                return true;
        }
    return false;
}

/* The material value `what` (ambient, diffuse, specular, emission) of a side: the vertex colour
 * when colour material tracks it. */
static const char *material(const gm_ff_key *k, int side, int bit, const char *what, char *buf, size_t n)
{
    if (k->color_material[side] & bit)
        return "gl_Color";
    if (k->vertex_material[side] & bit)
        snprintf(buf, n, "ff_vmat_%s_%s", side ? "back" : "front", what);
    else
        snprintf(buf, n, "gl_%sMaterial.%s", side ? "Back" : "Front", what);
    return buf;
}

/* A light product (light value times material value), precomputed unless colour material
 * tracks that material value. */
static void product(ff_text *t, const gm_ff_key *k, int side, int i, int bit, const char *what)
{
    if (k->color_material[side] & bit)
        ff_printf(t, "(gl_LightSource[%d].%s * gl_Color)", i, what);
    else if (k->vertex_material[side] & bit)
        ff_printf(t, "(gl_LightSource[%d].%s * ff_vmat_%s_%s)", i, what, side ? "back" : "front", what);
    else
        ff_printf(t, "gl_%sLightProduct[%d].%s", side ? "Back" : "Front", i, what);
}

static void scene_color(ff_text *t, const gm_ff_key *k, int side, const char *var)
{
    int cm = (k->color_material[side] | k->vertex_material[side]) &
             (GM_FF_CM_EMISSION | GM_FF_CM_AMBIENT | GM_FF_CM_DIFFUSE);
    if (!cm) {
        ff_printf(t, "    vec4 %s = ff_scene_color[%d];\n", var, side);
        return;
    }
    char b1[48], b2[48], b3[48];
    ff_printf(t, "    vec4 %s = %s;\n", var, material(k, side, GM_FF_CM_DIFFUSE, "diffuse", b1, sizeof b1));
    ff_printf(t, "    %s.xyz = gl_LightModel.ambient.xyz * %s.xyz + %s.xyz;\n", var,
              material(k, side, GM_FF_CM_AMBIENT, "ambient", b2, sizeof b2),
              material(k, side, GM_FF_CM_EMISSION, "emission", b3, sizeof b3));
}

/* Mesa's LIT (prog_to_nir): (1, max(d.x, 0), d.x > 0 ? max(d.y, 0)^clamp(d.w, -128, 128) : 0, 1). */
static void emit_lit_function(ff_text *t)
{
    ff_printf(t,
              "vec4 ff_lit(vec4 d)\n"
              "{\n"
              "    float spec = d.x <= 0.0 ? 0.0 : pow(max(d.y, 0.0), max(min(d.w, 128.0), -128.0));\n"
              "    return vec4(1.0, max(d.x, 0.0), spec, 1.0);\n"
              "}\n\n");
}

static void emit_lighting(ff_text *t, const gm_ff_key *k)
{
    bool two = k->two_side, sep = k->separate_specular;
    int n_lights = 0;
    for (int i = 0; i < GM_FF_LIGHTS; i++)
        n_lights += k->light[i].enabled != 0;
    ff_printf(t, "    // lighting: %d light(s)%s%s%s\n", n_lights, two ? ", two-sided" : "",
              sep ? ", separate specular" : "", k->local_viewer ? ", local viewer" : "");
    ff_printf(t, "    vec4 dots = vec4(0.0);\n");
    if (!k->shininess_zero) {
        ff_printf(t, "    dots.w = %s;\n", k->vertex_material[0] & GM_FF_VM_SHININESS ? "ff_vmat_front_shininess.x"
                                                                               : "gl_FrontMaterial.shininess");
        if (two)
            ff_printf(t, "    dots.z = -%s;\n", k->vertex_material[1] & GM_FF_VM_SHININESS ? "ff_vmat_back_shininess.x"
                                                                                   : "gl_BackMaterial.shininess");
    }
    scene_color(t, k, 0, "col0");
    ff_printf(t, "    vec4 col1 = %s;\n", sep ? "vec4(0.0, 0.0, 0.0, 1.0)" : "col0");
    if (two) {
        scene_color(t, k, 1, "bcol0");
        ff_printf(t, "    vec4 bcol1 = %s;\n", sep ? "vec4(0.0, 0.0, 0.0, 1.0)" : "bcol0");
    }
    /* The outputs' alpha is the scene colour's (the material's diffuse alpha). */
    ff_printf(t, "    float alpha0 = col0.w;\n");
    if (two)
        ff_printf(t, "    float balpha0 = bcol0.w;\n");
    for (int i = 0; i < GM_FF_LIGHTS; i++) {
        const gm_ff_light_key *l = &k->light[i];
        if (!l->enabled)
            continue;
        bool dist_att = l->attenuated && l->positional;
        bool has_att = l->spot || dist_att;
        ff_printf(t, "    // light %d: %s%s%s\n", i, l->positional ? "positional" : "directional",
                  l->spot ? ", spot" : "", dist_att ? ", attenuated" : "");
        ff_printf(t, "    {\n");
        if (!l->positional) {
            ff_printf(t, "        vec3 VP = ff_light_pos[%d].xyz;\n", i);
        } else {
            ff_printf(t, "        vec3 VP = ff_light_pos[%d].xyz - eye.xyz;\n", i);
            ff_printf(t, "        float dist = inversesqrt(dot(VP, VP));\n");
            ff_printf(t, "        VP = VP * dist;\n");
        }
        if (l->spot) {
            ff_printf(t, "        float spot = dot(-VP, ff_spot_dir[%d].xyz);\n", i);
            ff_printf(t, "        float att = (ff_spot_dir[%d].w < spot ? 1.0 : 0.0) * "
                         "pow(abs(spot), gl_LightSource[%d].spotExponent);\n", i, i);
        }
        if (dist_att) {
            ff_printf(t, "        float rdist = 1.0 / dist;\n");
            ff_printf(t, "        vec3 dv = vec3(dist * rdist, rdist, rdist * rdist);\n");
            ff_printf(t, "        float datt = 1.0 / dot(vec3(gl_LightSource[%d].constantAttenuation, "
                         "gl_LightSource[%d].linearAttenuation, gl_LightSource[%d].quadraticAttenuation), dv);\n",
                      i, i, i);
            ff_printf(t, l->spot ? "        att = datt * att;\n" : "        float att = datt;\n");
        }
        if (!k->shininess_zero) {
            if (k->local_viewer)
                ff_printf(t, "        vec3 H = VP - eye_hat.xyz;\n        H = H * inversesqrt(dot(H, H));\n");
            else if (!l->positional)
                ff_printf(t, "        vec3 H = ff_light_half[%d].xyz;\n", i);
            else
                ff_printf(t, "        vec3 H = VP + vec3(0.0, 0.0, 1.0);\n        H = H * inversesqrt(dot(H, H));\n");
            ff_printf(t, "        dots.x = dot(normal, VP);\n        dots.y = dot(normal, H);\n");
        } else {
            ff_printf(t, "        dots = vec4(dot(normal, VP));\n");
        }
        for (int side = 0; side < (two ? 2 : 1); side++) {
            const char *c0 = side ? "bcol0" : "col0", *c1 = side ? "bcol1" : "col1";
            const char *d = side ? "-dots.xywz" : "dots";
            if (side)
                ff_printf(t, "        // back face\n");
            if (has_att) {
                ff_printf(t, "        vec4 lit%s = ff_lit(%s) * att;\n", side ? "b" : "", d);
                ff_printf(t, "        %s = lit%s.x * ", c0, side ? "b" : "");
                product(t, k, side, i, GM_FF_CM_AMBIENT, "ambient");
                ff_printf(t, " + %s;\n", c0);
            } else {
                if (!k->shininess_zero)
                    ff_printf(t, "        vec4 lit%s = ff_lit(%s);\n", side ? "b" : "", d);
                else   /* Mesa's degenerate LIT: max(0, d), specular on lit faces */
                    ff_printf(t, "        vec4 lit%s = max(vec4(0.0, 0.0, 0.0, 1.0), %s);\n"
                                 "        lit%s.z = 0.0 < (%s).z ? 1.0 : 0.0;\n",
                              side ? "b" : "", d, side ? "b" : "", d);
                ff_printf(t, "        %s = ", c0);
                product(t, k, side, i, GM_FF_CM_AMBIENT, "ambient");
                ff_printf(t, " + %s;\n", c0);
            }
            ff_printf(t, "        %s = lit%s.y * ", c0, side ? "b" : "");
            product(t, k, side, i, GM_FF_CM_DIFFUSE, "diffuse");
            ff_printf(t, " + %s;\n", c0);
            if (sep) {
                ff_printf(t, "        %s = lit%s.z * ", c1, side ? "b" : "");
                product(t, k, side, i, GM_FF_CM_SPECULAR, "specular");
                ff_printf(t, " + %s;\n", c1);
            } else {
                /* col1 aliases col0 in Mesa's program: the specular term adds to the colour */
                ff_printf(t, "        %s = lit%s.z * ", c0, side ? "b" : "");
                product(t, k, side, i, GM_FF_CM_SPECULAR, "specular");
                ff_printf(t, " + %s;\n", c0);
            }
        }
        ff_printf(t, "    }\n");
    }
    /* Vertex colours are clamped (GL_CLAMP_VERTEX_COLOR is TRUE by default). */
    ff_printf(t, "    gl_FrontColor = clamp(vec4(col0.xyz, alpha0), 0.0, 1.0);\n");
    if (sep)
        ff_printf(t, "    gl_FrontSecondaryColor = clamp(vec4(col1.xyz, 1.0), 0.0, 1.0);\n");
    else if (k->secondary_out)
        ff_printf(t, "    gl_FrontSecondaryColor = vec4(0.0, 0.0, 0.0, 1.0);\n");
    if (two) {
        ff_printf(t, "    ff_back_color0 = clamp(vec4(bcol0.xyz, balpha0), 0.0, 1.0);\n");
        if (sep)
            ff_printf(t, "    ff_back_color1 = clamp(vec4(bcol1.xyz, 1.0), 0.0, 1.0);\n");
    }
}

static bool unit_has_gen(const gm_ff_unit_key *u)
{
    for (int c = 0; c < 4; c++)
        if (u->gen_mode[c] != GM_FF_GEN_NONE)
            return true;
    return false;
}

static void emit_texcoords(ff_text *t, const gm_ff_key *k)
{
    for (int u = 0; u < GM_FF_UNITS; u++) {
        const gm_ff_unit_key *uk = &k->unit[u];
        if (!uk->texcoord_out || uk->coord_replace)
            continue;
        if (!unit_has_gen(uk)) {
            ff_printf(t, "    gl_TexCoord[%d] = gl_TextureMatrix[%d] * gl_MultiTexCoord%d;\n", u, u, u);
            continue;
        }
        ff_printf(t, "    // texture coordinates %d: generated\n    {\n        vec4 tc = gl_MultiTexCoord%d;\n", u, u);
        bool sphere = false, reflect = false;
        for (int c = 0; c < 4; c++) {
            int m = uk->gen_mode[c];
            sphere |= m == GM_FF_GEN_SPHERE;
            reflect |= m == GM_FF_GEN_REFLECTION;
            if (m == GM_FF_GEN_OBJECT)
                ff_printf(t, "        tc.%c = dot(gl_Vertex, gl_ObjectPlane%c[%d]);\n", coord_swz[c], coord_names[c], u);
            else if (m == GM_FF_GEN_EYE)
                ff_printf(t, "        tc.%c = dot(eye, gl_EyePlane%c[%d]);\n", coord_swz[c], coord_names[c], u);
            else if (m == GM_FF_GEN_NORMAL && c < 3)   /* GL allows it for s, t, r only */
                ff_printf(t, "        tc.%c = normal.%c;\n", coord_swz[c], coord_swz[c]);
        }
        if (sphere || reflect) {
            ff_printf(t, "        float nu = dot(normal, eye_hat.xyz);\n");
            ff_printf(t, "        nu = nu + nu;\n");
            ff_printf(t, "        vec3 r = -nu * normal + eye_hat.xyz;\n");
        }
        if (sphere) {
            ff_printf(t, "        vec3 m = r + vec3(0.0, 0.0, 1.0);\n");
            ff_printf(t, "        float inv_m = inversesqrt(dot(m, m)) * 0.5;\n");
            ff_printf(t, "        vec3 sphere = r * inv_m + 0.5;\n");
        }
        for (int c = 0; c < 4; c++) {
            if (uk->gen_mode[c] == GM_FF_GEN_SPHERE && c < 2)   /* s, t only */
                ff_printf(t, "        tc.%c = sphere.%c;\n", coord_swz[c], coord_swz[c]);
            else if (uk->gen_mode[c] == GM_FF_GEN_REFLECTION && c < 3)
                ff_printf(t, "        tc.%c = r.%c;\n", coord_swz[c], coord_swz[c]);
        }
        ff_printf(t, "        gl_TexCoord[%d] = gl_TextureMatrix[%d] * tc;\n    }\n", u, u);
    }
}

/* A pixel rectangle's vertex stage: corners already in clip coordinates, the raster colours,
 * texture coordinates and distance as the vertices' attributes (Mesa's pass-through shader of
 * st_cb_drawpixels.c / st_cb_bitmap.c). */
static char *pixel_rect_source(const gm_ff_key *k)
{
    ff_text t = { 0 };
    ff_printf(&t, "#version 120\n// Pixel rectangle (%s) vertex stage, generated by glreplay: the\n"
                  "// rectangle in clip coordinates with the current raster values.\n\nvoid main()\n{\n",
              k->pixel_rect == GM_FF_PIXEL_BITMAP ? "glBitmap" : "glDrawPixels/glCopyPixels");
    ff_printf(&t, "    gl_Position = gl_Vertex;\n    gl_FrontColor = gl_Color;\n");
    if (k->secondary_out)
        ff_printf(&t, "    gl_FrontSecondaryColor = gl_SecondaryColor;\n");
    for (int u = 0; u < GM_FF_UNITS; u++)
        if (k->unit[u].texcoord_out)
            ff_printf(&t, "    gl_TexCoord[%d] = gl_MultiTexCoord%d;\n", u, u);
    ff_printf(&t, "    gl_FogFragCoord = gl_FogCoord;\n}\n");
    return ff_finish(&t);
}

char *gm_ff_vertex_source(const gm_ff_key *k)
{
    if (k->pixel_rect)
        return pixel_rect_source(k);
    ff_text t = { 0 };
    bool eye = need_eye(k), nrm = need_normal(k);
    bool eye_hat = false;
    for (int u = 0; u < GM_FF_UNITS; u++)
        for (int c = 0; c < 4; c++)
            eye_hat |= k->unit[u].texcoord_out &&
                       (k->unit[u].gen_mode[c] == GM_FF_GEN_SPHERE || k->unit[u].gen_mode[c] == GM_FF_GEN_REFLECTION);
    eye_hat |= k->lighting && k->local_viewer && !k->shininess_zero;
    eye |= eye_hat;
    /* gl_ClipDistance needs GLSL 1.30; everything else is GLSL 1.20 with compatibility built-ins. */
    ff_printf(&t, "#version %s\n", k->clip_planes ? "130" : "120");
    ff_printf(&t, "// Fixed-function vertex stage, generated by glreplay from the draw's GL state\n"
                  "// (the program Mesa builds for it: src/mesa/main/ffvertex_prog.c).\n\n");
    if (k->lighting) {
        ff_printf(&t, "uniform vec4 ff_light_pos[8];    // directional: normalized direction\n");
        ff_printf(&t, "uniform vec4 ff_light_half[8];   // directional, infinite viewer: half vector\n");
        ff_printf(&t, "uniform vec4 ff_spot_dir[8];     // normalized; w = cos(cutoff)\n");
        ff_printf(&t, "uniform vec4 ff_scene_color[2];  // emission + ambient * model ambient\n");
        if (k->two_side)
            ff_printf(&t, "varying vec4 ff_back_color0;\n%s",
                      k->separate_specular ? "varying vec4 ff_back_color1;\n" : "");
        static const char *const what[5] = { "emission", "ambient", "diffuse", "specular", "shininess" };
        for (int side = 0; side < 2; side++)
            for (int b = 0; b < 5; b++)
                if (k->vertex_material[side] & (1u << b))
                    ff_printf(&t, "attribute vec4 ff_vmat_%s_%s;  // glMaterial per vertex\n",
                              side ? "back" : "front", what[b]);
    }
    if (nrm && !k->normalize && k->rescale)
        ff_printf(&t, "uniform float ff_normal_scale;\n");
    if (k->point_attenuated)
        ff_printf(&t, "uniform vec4 ff_point_size;      // clamped size, min, max\n");
    if (k->clip_planes) {
        int n = 0;
        for (int i = 0; i < GM_FF_CLIP_PLANES; i++)
            if (k->clip_planes & (1u << i))
                n = i + 1;
        ff_printf(&t, "uniform vec4 ff_clip_plane[8];   // gl_ClipPlane in clip space\n");
        ff_printf(&t, "out float gl_ClipDistance[%d];\n", n);
    }
    ff_printf(&t, "\n");
    if (k->lighting)
        emit_lit_function(&t);
    ff_printf(&t, "void main()\n{\n");
    ff_printf(&t, "    gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n");
    if (eye)
        ff_printf(&t, "    vec4 eye = gl_ModelViewMatrix * gl_Vertex;\n");
    if (eye_hat)
        ff_printf(&t, "    vec4 eye_hat = eye * inversesqrt(dot(eye.xyz, eye.xyz));\n");
    if (nrm) {
        ff_printf(&t, "    vec3 normal = gl_NormalMatrix * gl_Normal;\n");
        if (k->normalize)
            ff_printf(&t, "    normal = normal * inversesqrt(dot(normal, normal));\n");
        else if (k->rescale)
            ff_printf(&t, "    normal = normal * ff_normal_scale;\n");
    }
    if (k->lighting) {
        emit_lighting(&t, k);
    } else {
        ff_printf(&t, "    gl_FrontColor = gl_Color;\n");
        if (k->secondary_out)
            ff_printf(&t, "    gl_FrontSecondaryColor = gl_SecondaryColor;\n");
    }
    /* Fog coordinate: |z_eye| (Mesa's default distance mode) or |fog coordinate|. Without the
     * full eye position Mesa takes z from one DP4 with the modelview's third row. */
    if (k->fog_from_coord)
        ff_printf(&t, "    gl_FogFragCoord = abs(gl_FogCoord);\n");
    else if (k->fog_distance == GM_FF_FOGDIST_RADIAL)   /* Mesa: DP3, RSQ, RCP of the eye position */
        ff_printf(&t, "    gl_FogFragCoord = 1.0 / inversesqrt(dot(%s.xyz, %s.xyz));\n",
                  eye ? "eye" : "(gl_ModelViewMatrix * gl_Vertex)", eye ? "eye" : "(gl_ModelViewMatrix * gl_Vertex)");
    else if (k->fog_distance == GM_FF_FOGDIST_PLANE)    /* signed z_eye */
        ff_printf(&t, "    gl_FogFragCoord = %s;\n", lighting_needs_eye(k) ? "eye.z" : "dot(gl_Vertex, gl_ModelViewMatrixTranspose[2])");
    else if (lighting_needs_eye(k))
        ff_printf(&t, "    gl_FogFragCoord = abs(eye.z);\n");
    else
        ff_printf(&t, "    gl_FogFragCoord = abs(dot(gl_Vertex, gl_ModelViewMatrixTranspose[2]));\n");
    emit_texcoords(&t, k);
    if (k->point_attenuated) {
        ff_printf(&t, "    // point size attenuation: size / sqrt(a + b d + c d^2), clamped\n");
        ff_printf(&t, "    float pd = abs(%s);\n", eye ? "eye.z" : "dot(gl_Vertex, gl_ModelViewMatrixTranspose[2])");
        ff_printf(&t, "    float pf = pd * gl_Point.distanceQuadraticAttenuation + gl_Point.distanceLinearAttenuation;\n");
        ff_printf(&t, "    pf = pd * pf + gl_Point.distanceConstantAttenuation;\n");
        ff_printf(&t, "    pf = inversesqrt(pf) * ff_point_size.x;\n");
        ff_printf(&t, "    gl_PointSize = min(max(pf, ff_point_size.y), ff_point_size.z);\n");
    }
    for (int i = 0; i < GM_FF_CLIP_PLANES; i++)
        if (k->clip_planes & (1u << i))
            ff_printf(&t, "    gl_ClipDistance[%d] = dot(gl_Position, ff_clip_plane[%d]);\n", i, i);
    ff_printf(&t, "}\n");
    return ff_finish(&t);
}

uint64_t gm_ff_key_hash(const gm_ff_key *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *k; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
