/* Data of the legacy-GLSL upgrade pass (see gm_upgrade_tables.h). The names follow the
 * GLSL 1.20 compatibility built-ins; every replacement is an ordinary variable named
 * glr_<Name> so the pipeline can feed it like any user uniform/attribute/varying. */
#include "gm_upgrade_tables.h"

#include <stddef.h>

#define MAT(n) {#n, "uniform %Pmat4 glr_" #n ";", ""}
#define MAT4(n) MAT(n), MAT(n##Inverse), MAT(n##Transpose), MAT(n##InverseTranspose)
#define TEXMAT(n) {#n, "uniform %Pmat4 glr_" #n "[8];", ""}
#define VEC4ARR8(n) {#n, "uniform %Pvec4 glr_" #n "[8];", ""}

const gm_upgrade_decl gm_upgrade_decls[] = {
    MAT4(ModelViewMatrix),
    MAT4(ProjectionMatrix),
    MAT4(ModelViewProjectionMatrix),
    TEXMAT(TextureMatrix), TEXMAT(TextureMatrixInverse), TEXMAT(TextureMatrixTranspose),
    TEXMAT(TextureMatrixInverseTranspose),
    {"NormalMatrix", "uniform %Pmat3 glr_NormalMatrix;", ""},
    {"NormalScale", "uniform %Pfloat glr_NormalScale;", ""},
    VEC4ARR8(ClipPlane),
    VEC4ARR8(TextureEnvColor),
    VEC4ARR8(EyePlaneS), VEC4ARR8(EyePlaneT), VEC4ARR8(EyePlaneR), VEC4ARR8(EyePlaneQ),
    VEC4ARR8(ObjectPlaneS), VEC4ARR8(ObjectPlaneT), VEC4ARR8(ObjectPlaneR), VEC4ARR8(ObjectPlaneQ),
    {"PointParameters",
     "struct glr_PointParameters { %Pfloat size; %Pfloat sizeMin; %Pfloat sizeMax; "
     "%Pfloat fadeThresholdSize; %Pfloat distanceConstantAttenuation; "
     "%Pfloat distanceLinearAttenuation; %Pfloat distanceQuadraticAttenuation; };", ""},
    {"Point", "uniform glr_PointParameters glr_Point;", "PointParameters"},
    {"MaterialParameters",
     "struct glr_MaterialParameters { %Pvec4 emission; %Pvec4 ambient; %Pvec4 diffuse; "
     "%Pvec4 specular; %Pfloat shininess; };", ""},
    {"FrontMaterial", "uniform glr_MaterialParameters glr_FrontMaterial;", "MaterialParameters"},
    {"BackMaterial", "uniform glr_MaterialParameters glr_BackMaterial;", "MaterialParameters"},
    {"LightSourceParameters",
     "struct glr_LightSourceParameters { %Pvec4 ambient; %Pvec4 diffuse; %Pvec4 specular; "
     "%Pvec4 position; %Pvec4 halfVector; %Pvec3 spotDirection; %Pfloat spotExponent; "
     "%Pfloat spotCutoff; %Pfloat spotCosCutoff; %Pfloat constantAttenuation; "
     "%Pfloat linearAttenuation; %Pfloat quadraticAttenuation; };", ""},
    {"LightSource", "uniform glr_LightSourceParameters glr_LightSource[8];",
     "LightSourceParameters"},
    {"LightModelParameters", "struct glr_LightModelParameters { %Pvec4 ambient; };", ""},
    {"LightModel", "uniform glr_LightModelParameters glr_LightModel;", "LightModelParameters"},
    {"LightModelProducts", "struct glr_LightModelProducts { %Pvec4 sceneColor; };", ""},
    {"FrontLightModelProduct", "uniform glr_LightModelProducts glr_FrontLightModelProduct;",
     "LightModelProducts"},
    {"BackLightModelProduct", "uniform glr_LightModelProducts glr_BackLightModelProduct;",
     "LightModelProducts"},
    {"LightProducts",
     "struct glr_LightProducts { %Pvec4 ambient; %Pvec4 diffuse; %Pvec4 specular; };", ""},
    {"FrontLightProduct", "uniform glr_LightProducts glr_FrontLightProduct[8];", "LightProducts"},
    {"BackLightProduct", "uniform glr_LightProducts glr_BackLightProduct[8];", "LightProducts"},
    {"FogParameters",
     "struct glr_FogParameters { %Pvec4 color; %Pfloat density; %Pfloat start; %Pfloat end; "
     "%Pfloat scale; };", ""},
    {"Fog", "uniform glr_FogParameters glr_Fog;", "FogParameters"},
    /* gl_DepthRange: core in every version, but glslang declares it only without SPIR-V */
    {"DepthRangeParameters",
     "struct glr_DepthRangeParameters { %Pfloat near; %Pfloat far; %Pfloat diff; };", ""},
    {"DepthRange", "uniform glr_DepthRangeParameters glr_DepthRange;", "DepthRangeParameters"},
    {"MaxLights", "const int glr_MaxLights = 8;", ""},
    {"MaxClipPlanes", "const int glr_MaxClipPlanes = 8;", ""},
    {"MaxTextureUnits", "const int glr_MaxTextureUnits = 8;", ""},
    {"MaxTextureCoords", "const int glr_MaxTextureCoords = 8;", ""},
    /* Vertex attributes. */
    {"Vertex", "in %Pvec4 glr_Vertex;", ""},
    {"Normal", "in %Pvec3 glr_Normal;", ""},
    {"VColor", "in %Pvec4 glr_Color;", ""},
    {"VSecondaryColor", "in %Pvec4 glr_SecondaryColor;", ""},
    {"FogCoord", "in %Pfloat glr_FogCoord;", ""},
    {"MultiTexCoord0", "in %Pvec4 glr_MultiTexCoord0;", ""},
    {"MultiTexCoord1", "in %Pvec4 glr_MultiTexCoord1;", ""},
    {"MultiTexCoord2", "in %Pvec4 glr_MultiTexCoord2;", ""},
    {"MultiTexCoord3", "in %Pvec4 glr_MultiTexCoord3;", ""},
    {"MultiTexCoord4", "in %Pvec4 glr_MultiTexCoord4;", ""},
    {"MultiTexCoord5", "in %Pvec4 glr_MultiTexCoord5;", ""},
    {"MultiTexCoord6", "in %Pvec4 glr_MultiTexCoord6;", ""},
    {"MultiTexCoord7", "in %Pvec4 glr_MultiTexCoord7;", ""},
    /* Vertex outputs. */
    {"FrontColor", "out %Pvec4 glr_FrontColor;", ""},
    {"BackColor", "out %Pvec4 glr_BackColor;", ""},
    {"FrontSecondaryColor", "out %Pvec4 glr_FrontSecondaryColor;", ""},
    {"BackSecondaryColor", "out %Pvec4 glr_BackSecondaryColor;", ""},
    {"VTexCoord", "out %Pvec4 glr_TexCoord[8];", ""},
    {"VFogFragCoord", "out %Pfloat glr_FogFragCoord;", ""},
    {"ClipVertex", "out %Pvec4 glr_ClipVertex;", ""},
    {"ftransform", "%Pvec4 glr_ftransform() { return glr_ModelViewProjectionMatrix * glr_Vertex; }",
     "ModelViewProjectionMatrix Vertex"},
    /* Geometry shader outputs and gl_in[] members (the vertex shader's outputs). */
    {"GSFrontColor", "out %Pvec4 glr_gs_FrontColor;", ""},
    {"GSBackColor", "out %Pvec4 glr_gs_BackColor;", ""},
    {"GSFrontSecondaryColor", "out %Pvec4 glr_gs_FrontSecondaryColor;", ""},
    {"GSBackSecondaryColor", "out %Pvec4 glr_gs_BackSecondaryColor;", ""},
    {"GSTexCoord", "out %Pvec4 glr_gs_TexCoord[8];", ""},
    {"GSFogFragCoord", "out %Pfloat glr_gs_FogFragCoord;", ""},
    {"GSClipVertex", "out %Pvec4 glr_gs_ClipVertex;", ""},
    {"GSInFrontColor", "in %Pvec4 glr_FrontColor[];", ""},
    {"GSInBackColor", "in %Pvec4 glr_BackColor[];", ""},
    {"GSInFrontSecondaryColor", "in %Pvec4 glr_FrontSecondaryColor[];", ""},
    {"GSInBackSecondaryColor", "in %Pvec4 glr_BackSecondaryColor[];", ""},
    {"GSInTexCoord", "in %Pvec4 glr_TexCoord[][8];", ""},
    {"GSInFogFragCoord", "in %Pfloat glr_FogFragCoord[];", ""},
    {"GSInClipVertex", "in %Pvec4 glr_ClipVertex[];", ""},
    /* Tessellation: a TCS's gl_out[] members (its own outputs, per vertex), a TES's inputs from
     * them, the TES's outputs, a GS's inputs from those (gm_upgrade.c per_vertex_access) and a
     * fragment shader's inputs after a TES without a GS. */
#define TESS_SET(key, text_fmt) \
    {key "FrontColor", text_fmt("%Pvec4", "FrontColor", ""), ""}, \
    {key "BackColor", text_fmt("%Pvec4", "BackColor", ""), ""}, \
    {key "FrontSecondaryColor", text_fmt("%Pvec4", "FrontSecondaryColor", ""), ""}, \
    {key "BackSecondaryColor", text_fmt("%Pvec4", "BackSecondaryColor", ""), ""}, \
    {key "TexCoord", text_fmt("%Pvec4", "TexCoord", "[8]"), ""}, \
    {key "FogFragCoord", text_fmt("%Pfloat", "FogFragCoord", ""), ""}, \
    {key "ClipVertex", text_fmt("%Pvec4", "ClipVertex", ""), ""}
#define TCS_OUT(t, m, a) "out " t " glr_tcs_" m "[]" a ";"
#define TES_IN_TCS(t, m, a) "in " t " glr_tcs_" m "[]" a ";"
#define TES_OUT(t, m, a) "out " t " glr_tes_" m a ";"
#define GS_IN_TES(t, m, a) "in " t " glr_tes_" m "[]" a ";"
    TESS_SET("TCSOut", TCS_OUT),
    TESS_SET("TESInTCS", TES_IN_TCS),
    TESS_SET("TES", TES_OUT),
    TESS_SET("GSInTES", GS_IN_TES),
    {"FTESColor", "in %Pvec4 glr_tes_FrontColor;", ""},
    {"FTESSecondaryColor", "in %Pvec4 glr_tes_FrontSecondaryColor;", ""},
    {"FTESTexCoord", "in %Pvec4 glr_tes_TexCoord[8];", ""},
    {"FTESFogFragCoord", "in %Pfloat glr_tes_FogFragCoord;", ""},
    /* Fragment inputs from a geometry shader. */
    {"FGSColor", "in %Pvec4 glr_gs_FrontColor;", ""},
    {"FGSSecondaryColor", "in %Pvec4 glr_gs_FrontSecondaryColor;", ""},
    {"FGSTexCoord", "in %Pvec4 glr_gs_TexCoord[8];", ""},
    {"FGSFogFragCoord", "in %Pfloat glr_gs_FogFragCoord;", ""},
    /* Fragment inputs and outputs. */
    {"FColor", "in %Pvec4 glr_FrontColor;", ""},
    {"FSecondaryColor", "in %Pvec4 glr_FrontSecondaryColor;", ""},
    {"FTexCoord", "in %Pvec4 glr_TexCoord[8];", ""},
    {"FFogFragCoord", "in %Pfloat glr_FogFragCoord;", ""},
    {"FragColor", "layout(location = 0) out %Pvec4 glr_FragColor;", ""},
    {"FragData", "layout(location = 0) out %Pvec4 glr_FragData[8];", ""},
    /* shadow*() returned vec4 before GLSL 1.30; texture() on a shadow sampler is float. */
    {"shadow1D",
     "vec4 glr_shadow1D(sampler1DShadow s, vec3 c) { return vec4(texture(s, c)); } "
     "vec4 glr_shadow1D(sampler1DShadow s, vec3 c, float b) { return vec4(texture(s, c, b)); }", ""},
    {"shadow2D",
     "vec4 glr_shadow2D(sampler2DShadow s, vec3 c) { return vec4(texture(s, c)); } "
     "vec4 glr_shadow2D(sampler2DShadow s, vec3 c, float b) { return vec4(texture(s, c, b)); }", ""},
    {"shadow1DProj",
     "vec4 glr_shadow1DProj(sampler1DShadow s, vec4 c) { return vec4(textureProj(s, c)); } "
     "vec4 glr_shadow1DProj(sampler1DShadow s, vec4 c, float b) "
     "{ return vec4(textureProj(s, c, b)); }", ""},
    {"shadow2DProj",
     "vec4 glr_shadow2DProj(sampler2DShadow s, vec4 c) { return vec4(textureProj(s, c)); } "
     "vec4 glr_shadow2DProj(sampler2DShadow s, vec4 c, float b) "
     "{ return vec4(textureProj(s, c, b)); }", ""},
    {"shadow1DLod",
     "vec4 glr_shadow1DLod(sampler1DShadow s, vec3 c, float l) "
     "{ return vec4(textureLod(s, c, l)); }", ""},
    {"shadow2DLod",
     "vec4 glr_shadow2DLod(sampler2DShadow s, vec3 c, float l) "
     "{ return vec4(textureLod(s, c, l)); }", ""},
    {"shadow1DProjLod",
     "vec4 glr_shadow1DProjLod(sampler1DShadow s, vec4 c, float l) "
     "{ return vec4(textureProjLod(s, c, l)); }", ""},
    {"shadow2DProjLod",
     "vec4 glr_shadow2DProjLod(sampler2DShadow s, vec4 c, float l) "
     "{ return vec4(textureProjLod(s, c, l)); }", ""},
    {"shadow1DGradARB",
     "vec4 glr_shadow1DGradARB(sampler1DShadow s, vec3 c, float dx, float dy) "
     "{ return vec4(textureGrad(s, c, dx, dy)); }", ""},
    {"shadow1DProjGradARB",
     "vec4 glr_shadow1DProjGradARB(sampler1DShadow s, vec4 c, float dx, float dy) "
     "{ return vec4(textureProjGrad(s, c, dx, dy)); }", ""},
    {"shadow2DGradARB",
     "vec4 glr_shadow2DGradARB(sampler2DShadow s, vec3 c, vec2 dx, vec2 dy) "
     "{ return vec4(textureGrad(s, c, dx, dy)); }", ""},
    {"shadow2DProjGradARB",
     "vec4 glr_shadow2DProjGradARB(sampler2DShadow s, vec4 c, vec2 dx, vec2 dy) "
     "{ return vec4(textureProjGrad(s, c, dx, dy)); }", ""},
    {"shadow2DRectGradARB",
     "vec4 glr_shadow2DRectGradARB(sampler2DRectShadow s, vec3 c, vec2 dx, vec2 dy) "
     "{ return vec4(textureGrad(s, c, dx, dy)); }", ""},
    {"shadow2DRectProjGradARB",
     "vec4 glr_shadow2DRectProjGradARB(sampler2DRectShadow s, vec4 c, vec2 dx, vec2 dy) "
     "{ return vec4(textureProjGrad(s, c, dx, dy)); }", ""},
    /* GL_EXT_texture_array (before GLSL 1.30 made the samplers core): shadow lookups return vec4. */
    {"shadow1DArray",
     "vec4 glr_shadow1DArray(sampler1DArrayShadow s, vec3 c) { return vec4(texture(s, c)); } "
     "vec4 glr_shadow1DArray(sampler1DArrayShadow s, vec3 c, float b) { return vec4(texture(s, c, b)); }", ""},
    {"shadow2DArray",
     "vec4 glr_shadow2DArray(sampler2DArrayShadow s, vec4 c) { return vec4(texture(s, c)); }", ""},
    {"shadow1DArrayLod",
     "vec4 glr_shadow1DArrayLod(sampler1DArrayShadow s, vec3 c, float l) "
     "{ return vec4(textureLod(s, c, l)); }", ""},
    {"shadow2DRect",
     "vec4 glr_shadow2DRect(sampler2DRectShadow s, vec3 c) { return vec4(texture(s, c)); }", ""},
    {"shadow2DRectProj",
     "vec4 glr_shadow2DRectProj(sampler2DRectShadow s, vec4 c) "
     "{ return vec4(textureProj(s, c)); }", ""},
};
const unsigned gm_upgrade_decl_count = sizeof gm_upgrade_decls / sizeof gm_upgrade_decls[0];

#define GLR(n) {"gl_" #n, "glr_" #n, #n, GM_UP_ANY}
#define GLR4(n) GLR(n), GLR(n##Inverse), GLR(n##Transpose), GLR(n##InverseTranspose)
#define TEX(from, to) {#from, #to, NULL, GM_UP_ANY}
#define SHADOW(n) {#n, "glr_" #n, #n, GM_UP_ANY}

const gm_upgrade_rename gm_upgrade_renames[] = {
    GLR4(ModelViewMatrix), GLR4(ProjectionMatrix), GLR4(ModelViewProjectionMatrix),
    GLR4(TextureMatrix),
    GLR(NormalMatrix), GLR(NormalScale), GLR(ClipPlane), GLR(TextureEnvColor),
    GLR(EyePlaneS), GLR(EyePlaneT), GLR(EyePlaneR), GLR(EyePlaneQ),
    GLR(ObjectPlaneS), GLR(ObjectPlaneT), GLR(ObjectPlaneR), GLR(ObjectPlaneQ),
    GLR(Point), GLR(FrontMaterial), GLR(BackMaterial), GLR(LightSource), GLR(LightModel),
    GLR(FrontLightModelProduct), GLR(BackLightModelProduct), GLR(FrontLightProduct),
    GLR(BackLightProduct), GLR(Fog),
    GLR(DepthRange),
    {"gl_DepthRangeParameters", "glr_DepthRangeParameters", "DepthRangeParameters", GM_UP_ANY},
    GLR(MaxLights), GLR(MaxClipPlanes), GLR(MaxTextureUnits), GLR(MaxTextureCoords),
    {"gl_PointParameters", "glr_PointParameters", "PointParameters", GM_UP_ANY},
    {"gl_MaterialParameters", "glr_MaterialParameters", "MaterialParameters", GM_UP_ANY},
    {"gl_LightSourceParameters", "glr_LightSourceParameters", "LightSourceParameters", GM_UP_ANY},
    {"gl_LightModelParameters", "glr_LightModelParameters", "LightModelParameters", GM_UP_ANY},
    {"gl_LightModelProducts", "glr_LightModelProducts", "LightModelProducts", GM_UP_ANY},
    {"gl_LightProducts", "glr_LightProducts", "LightProducts", GM_UP_ANY},
    {"gl_FogParameters", "glr_FogParameters", "FogParameters", GM_UP_ANY},
    /* Vertex stage. */
    {"gl_Vertex", "glr_Vertex", "Vertex", GM_UP_VS},
    {"gl_Normal", "glr_Normal", "Normal", GM_UP_VS},
    {"gl_Color", "glr_Color", "VColor", GM_UP_VS},
    {"gl_SecondaryColor", "glr_SecondaryColor", "VSecondaryColor", GM_UP_VS},
    {"gl_FogCoord", "glr_FogCoord", "FogCoord", GM_UP_VS},
    {"gl_MultiTexCoord0", "glr_MultiTexCoord0", "MultiTexCoord0", GM_UP_VS},
    {"gl_MultiTexCoord1", "glr_MultiTexCoord1", "MultiTexCoord1", GM_UP_VS},
    {"gl_MultiTexCoord2", "glr_MultiTexCoord2", "MultiTexCoord2", GM_UP_VS},
    {"gl_MultiTexCoord3", "glr_MultiTexCoord3", "MultiTexCoord3", GM_UP_VS},
    {"gl_MultiTexCoord4", "glr_MultiTexCoord4", "MultiTexCoord4", GM_UP_VS},
    {"gl_MultiTexCoord5", "glr_MultiTexCoord5", "MultiTexCoord5", GM_UP_VS},
    {"gl_MultiTexCoord6", "glr_MultiTexCoord6", "MultiTexCoord6", GM_UP_VS},
    {"gl_MultiTexCoord7", "glr_MultiTexCoord7", "MultiTexCoord7", GM_UP_VS},
    {"gl_FrontColor", "glr_FrontColor", "FrontColor", GM_UP_VS},
    {"gl_BackColor", "glr_BackColor", "BackColor", GM_UP_VS},
    {"gl_FrontSecondaryColor", "glr_FrontSecondaryColor", "FrontSecondaryColor", GM_UP_VS},
    {"gl_BackSecondaryColor", "glr_BackSecondaryColor", "BackSecondaryColor", GM_UP_VS},
    {"gl_TexCoord", "glr_TexCoord", "VTexCoord", GM_UP_VS},
    {"gl_FogFragCoord", "glr_FogFragCoord", "VFogFragCoord", GM_UP_VS},
    {"gl_ClipVertex", "glr_ClipVertex", "ClipVertex", GM_UP_VS},
    {"ftransform", "glr_ftransform", "ftransform", GM_UP_VS},
    /* Geometry stage: outputs glr_gs_* (the geometry shader also reads the vertex shader's
     * glr_* outputs through gl_in[], so its own outputs need other names). */
    {"gl_FrontColor", "glr_gs_FrontColor", "GSFrontColor", GM_UP_GS},
    {"gl_BackColor", "glr_gs_BackColor", "GSBackColor", GM_UP_GS},
    {"gl_FrontSecondaryColor", "glr_gs_FrontSecondaryColor", "GSFrontSecondaryColor", GM_UP_GS},
    {"gl_BackSecondaryColor", "glr_gs_BackSecondaryColor", "GSBackSecondaryColor", GM_UP_GS},
    {"gl_TexCoord", "glr_gs_TexCoord", "GSTexCoord", GM_UP_GS},
    {"gl_FogFragCoord", "glr_gs_FogFragCoord", "GSFogFragCoord", GM_UP_GS},
    {"gl_ClipVertex", "glr_gs_ClipVertex", "GSClipVertex", GM_UP_GS},
    /* Tessellation evaluation stage: outputs glr_tes_* (its gl_in[] members are the previous
     * stage's outputs); a fragment shader after it without a GS reads them. */
    {"gl_FrontColor", "glr_tes_FrontColor", "TESFrontColor", GM_UP_TES},
    {"gl_BackColor", "glr_tes_BackColor", "TESBackColor", GM_UP_TES},
    {"gl_FrontSecondaryColor", "glr_tes_FrontSecondaryColor", "TESFrontSecondaryColor", GM_UP_TES},
    {"gl_BackSecondaryColor", "glr_tes_BackSecondaryColor", "TESBackSecondaryColor", GM_UP_TES},
    {"gl_TexCoord", "glr_tes_TexCoord", "TESTexCoord", GM_UP_TES},
    {"gl_FogFragCoord", "glr_tes_FogFragCoord", "TESFogFragCoord", GM_UP_TES},
    {"gl_ClipVertex", "glr_tes_ClipVertex", "TESClipVertex", GM_UP_TES},
    {"gl_Color", "glr_tes_FrontColor", "FTESColor", GM_UP_FS_AFTER_TES},
    {"gl_SecondaryColor", "glr_tes_FrontSecondaryColor", "FTESSecondaryColor", GM_UP_FS_AFTER_TES},
    {"gl_TexCoord", "glr_tes_TexCoord", "FTESTexCoord", GM_UP_FS_AFTER_TES},
    {"gl_FogFragCoord", "glr_tes_FogFragCoord", "FTESFogFragCoord", GM_UP_FS_AFTER_TES},
    {"gl_Color", "glr_gs_FrontColor", "FGSColor", GM_UP_FS_AFTER_GS},
    {"gl_SecondaryColor", "glr_gs_FrontSecondaryColor", "FGSSecondaryColor", GM_UP_FS_AFTER_GS},
    {"gl_TexCoord", "glr_gs_TexCoord", "FGSTexCoord", GM_UP_FS_AFTER_GS},
    {"gl_FogFragCoord", "glr_gs_FogFragCoord", "FGSFogFragCoord", GM_UP_FS_AFTER_GS},
    /* Fragment stage: the rasterizer hands the front (or back) colour over as glr_FrontColor. */
    {"gl_Color", "glr_FrontColor", "FColor", GM_UP_FS},
    {"gl_SecondaryColor", "glr_FrontSecondaryColor", "FSecondaryColor", GM_UP_FS},
    {"gl_TexCoord", "glr_TexCoord", "FTexCoord", GM_UP_FS},
    {"gl_FogFragCoord", "glr_FogFragCoord", "FFogFragCoord", GM_UP_FS},
    {"gl_FragColor", "glr_FragColor", "FragColor", GM_UP_FS},
    {"gl_FragData", "glr_FragData", "FragData", GM_UP_FS},
    {"gl_FragDepthEXT", "gl_FragDepth", NULL, GM_UP_FS},
    {"gl_LastFragData", "glr_FragData", "FragData", GM_UP_FS},
    /* Texture lookups. */
    TEX(texture1D, texture), TEX(texture1DProj, textureProj), TEX(texture1DLod, textureLod),
    TEX(texture1DProjLod, textureProjLod),
    TEX(texture2D, texture), TEX(texture2DProj, textureProj), TEX(texture2DLod, textureLod),
    TEX(texture2DProjLod, textureProjLod),
    TEX(texture3D, texture), TEX(texture3DProj, textureProj), TEX(texture3DLod, textureLod),
    TEX(texture3DProjLod, textureProjLod),
    TEX(textureCube, texture), TEX(textureCubeLod, textureLod),
    TEX(texture2DRect, texture), TEX(texture2DRectProj, textureProj),
    TEX(texture2DLodEXT, textureLod), TEX(texture2DProjLodEXT, textureProjLod),
    TEX(textureCubeLodEXT, textureLod), TEX(texture2DGradEXT, textureGrad),
    TEX(texture2DProjGradEXT, textureProjGrad), TEX(textureCubeGradEXT, textureGrad),
    TEX(texture1DGradARB, textureGrad), TEX(texture1DProjGradARB, textureProjGrad),
    TEX(texture2DGradARB, textureGrad), TEX(texture2DProjGradARB, textureProjGrad),
    TEX(texture3DGradARB, textureGrad), TEX(texture3DProjGradARB, textureProjGrad),
    TEX(textureCubeGradARB, textureGrad), TEX(texture2DRectGradARB, textureGrad),
    TEX(texture2DRectProjGradARB, textureProjGrad),
    /* GL_EXT_texture_array; GL_AMD_texture_texture4 (gathers the first component, as
     * textureGather does). */
    TEX(texture1DArray, texture), TEX(texture2DArray, texture), TEX(texture1DArrayLod, textureLod),
    TEX(texture2DArrayLod, textureLod), TEX(texture4, textureGather),
    SHADOW(shadow1D), SHADOW(shadow2D), SHADOW(shadow1DProj), SHADOW(shadow2DProj),
    SHADOW(shadow1DLod), SHADOW(shadow2DLod), SHADOW(shadow1DProjLod), SHADOW(shadow2DProjLod),
    SHADOW(shadow2DRect), SHADOW(shadow2DRectProj), SHADOW(shadow1DGradARB),
    SHADOW(shadow1DProjGradARB), SHADOW(shadow2DGradARB), SHADOW(shadow2DProjGradARB),
    SHADOW(shadow2DRectGradARB), SHADOW(shadow2DRectProjGradARB),
    SHADOW(shadow1DArray), SHADOW(shadow2DArray), SHADOW(shadow1DArrayLod),
    /* GL_ARB_draw_instanced's name for the instance index */
    {"gl_InstanceIDARB", "gl_InstanceID", NULL, GM_UP_VS},
};
const unsigned gm_upgrade_rename_count = sizeof gm_upgrade_renames / sizeof gm_upgrade_renames[0];

/* (word, desktop GLSL version that made it a keyword). ES 1.00 sources use 130 for the
 * words marked 130 and are upgraded to ES 3.10, which has all of them. */
#define GPU4 "GL_EXT_gpu_shader4"
#define LAYOUT "GL_ARB_explicit_attrib_location GL_ARB_uniform_buffer_object " \
    "GL_ARB_separate_shader_objects GL_ARB_fragment_coord_conventions " \
    "GL_ARB_explicit_uniform_location GL_ARB_shading_language_420pack GL_ARB_conservative_depth " \
    "GL_ARB_compute_shader GL_ARB_enhanced_layouts GL_ARB_shader_storage_buffer_object " \
    "GL_ARB_shader_image_load_store GL_ARB_shader_atomic_counters GL_ARB_gpu_shader5 " \
    "GL_ARB_tessellation_shader GL_ARB_viewport_array GL_ARB_cull_distance " \
    "GL_ARB_post_depth_coverage GL_ARB_fragment_shader_interlock GL_ARB_bindless_texture " \
    "GL_ARB_compute_variable_group_size GL_AMD_conservative_depth"
#define IMAGE "GL_ARB_shader_image_load_store GL_ARB_shader_storage_buffer_object"
#define FP64 "GL_ARB_gpu_shader_fp64"

/* (word, desktop GLSL version that made it a keyword, extensions that make it one before).
 * ES 1.00 sources use 120 and ES 3.00 sources 330; both are upgraded to ES 3.10, which has
 * every word below 400. A word stays as it is when one of its extensions is enabled by an
 * active #extension directive (the driver then parses it as the keyword). */
const gm_upgrade_keyword gm_upgrade_new_keywords[] = {
    {"flat", 130, GPU4}, {"smooth", 130, NULL}, {"noperspective", 130, GPU4},
    {"centroid", 120, NULL}, {"invariant", 120, NULL}, {"layout", 140, LAYOUT},
    {"case", 130, NULL}, {"uint", 130, NULL}, {"uvec2", 130, GPU4}, {"uvec3", 130, GPU4},
    {"uvec4", 130, GPU4}, {"isampler2D", 130, GPU4}, {"usampler2D", 130, GPU4},
    {"sampler2DArray", 130, GPU4 " GL_EXT_texture_array"}, {"samplerCubeShadow", 130, GPU4},
    {"sampler1DArray", 130, GPU4 " GL_EXT_texture_array"},
    {"sampler1DArrayShadow", 130, GPU4 " GL_EXT_texture_array"},
    {"sampler2DArrayShadow", 130, GPU4 " GL_EXT_texture_array"},
    {"mat2x2", 120, NULL}, {"mat2x3", 120, NULL}, {"mat2x4", 120, NULL}, {"mat3x2", 120, NULL},
    {"mat3x3", 120, NULL}, {"mat3x4", 120, NULL}, {"mat4x2", 120, NULL}, {"mat4x3", 120, NULL},
    {"mat4x4", 120, NULL},
    {"samplerBuffer", 140, GPU4 " GL_ARB_texture_buffer_object GL_EXT_texture_buffer_object"},
    {"patch", 400, "GL_ARB_tessellation_shader"}, {"sample", 400, "GL_ARB_gpu_shader5 GL_ARB_sample_shading"},
    {"subroutine", 400, "GL_ARB_shader_subroutine"},
    {"buffer", 430, "GL_ARB_shader_storage_buffer_object"},
    {"shared", 430, "GL_ARB_compute_shader"},
    {"coherent", 420, IMAGE}, {"restrict", 420, IMAGE}, {"readonly", 420, IMAGE},
    {"writeonly", 420, IMAGE}, {"volatile", 420, IMAGE},
    {"resource", 420, NULL}, {"common", 420, NULL}, {"partition", 420, NULL}, {"active", 420, NULL},
    {"filter", 420, NULL}, {"precise", 400, "GL_ARB_gpu_shader5"},
    {"atomic_uint", 420, "GL_ARB_shader_atomic_counters"},
    {"dvec2", 400, FP64}, {"dvec3", 400, FP64}, {"dvec4", 400, FP64}, {"dmat2", 400, FP64},
    {"dmat3", 400, FP64}, {"dmat4", 400, FP64}, {"dmat2x2", 400, FP64}, {"dmat2x3", 400, FP64},
    {"dmat2x4", 400, FP64}, {"dmat3x2", 400, FP64}, {"dmat3x3", 400, FP64}, {"dmat3x4", 400, FP64},
    {"dmat4x2", 400, FP64}, {"dmat4x3", 400, FP64}, {"dmat4x4", 400, FP64},
    /* builtin functions the replacements call: a user variable of that name would hide them */
    {"texture", 130, NULL}, {"textureProj", 130, NULL}, {"textureLod", 130, NULL},
    {"textureProjLod", 130, NULL}, {"textureGrad", 130, NULL}, {"textureProjGrad", 130, NULL},
    {"textureGather", 400, "GL_ARB_texture_gather GL_ARB_gpu_shader5"},
    {NULL, 0, NULL},
};

const char *const gm_upgrade_gs_in_members[] = {
    "gl_FrontColor", "gl_BackColor", "gl_FrontSecondaryColor", "gl_BackSecondaryColor",
    "gl_TexCoord", "gl_FogFragCoord", "gl_ClipVertex", NULL,
};

const char *const gm_upgrade_core_extensions[] = {
    "GL_OES_standard_derivatives", "GL_EXT_shader_texture_lod", "GL_EXT_frag_depth",
    "GL_ARB_texture_rectangle", "GL_EXT_draw_buffers", "GL_ARB_shader_texture_lod",
    "GL_EXT_shadow_samplers", "GL_ARB_draw_buffers", "GL_EXT_gpu_shader4",
    "GL_ARB_explicit_attrib_location", "GL_EXT_shader_framebuffer_fetch",
    "GL_ARB_compatibility", "GL_OES_texture_3D", "GL_OES_EGL_image_external", NULL,
};
