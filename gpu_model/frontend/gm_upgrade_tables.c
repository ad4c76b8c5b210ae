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
    SHADOW(shadow1D), SHADOW(shadow2D), SHADOW(shadow1DProj), SHADOW(shadow2DProj),
    SHADOW(shadow1DLod), SHADOW(shadow2DLod), SHADOW(shadow1DProjLod), SHADOW(shadow2DProjLod),
    SHADOW(shadow2DRect), SHADOW(shadow2DRectProj),
};
const unsigned gm_upgrade_rename_count = sizeof gm_upgrade_renames / sizeof gm_upgrade_renames[0];

/* (word, desktop GLSL version that made it a keyword). ES 1.00 sources use 130 for the
 * words marked 130 and are upgraded to ES 3.10, which has all of them. */
const gm_upgrade_keyword gm_upgrade_new_keywords[] = {
    {"flat", 130}, {"smooth", 130}, {"noperspective", 130}, {"centroid", 120},
    {"invariant", 120}, {"layout", 140}, {"case", 130}, {"uint", 130}, {"uvec2", 130},
    {"uvec3", 130}, {"uvec4", 130}, {"isampler2D", 130}, {"usampler2D", 130},
    {"sampler2DArray", 130}, {"samplerCubeShadow", 130}, {"samplerBuffer", 140},
    {"patch", 400}, {"sample", 400}, {"subroutine", 400}, {"buffer", 430}, {"shared", 430},
    {"coherent", 420}, {"restrict", 420}, {"readonly", 420}, {"writeonly", 420},
    {"resource", 420}, {"common", 420}, {"partition", 420}, {"active", 420}, {"filter", 420},
    {"precise", 400}, {"atomic_uint", 420}, {"dvec2", 400}, {"dvec3", 400}, {"dvec4", 400},
    {"dmat2", 400}, {"dmat3", 400}, {"dmat4", 400},
    /* builtin functions the replacements call: a user variable of that name would hide them */
    {"texture", 130}, {"textureProj", 130}, {"textureLod", 130}, {"textureProjLod", 130},
    {"textureGrad", 130}, {"textureProjGrad", 130},
    {NULL, 0},
};

const char *const gm_upgrade_core_extensions[] = {
    "GL_OES_standard_derivatives", "GL_EXT_shader_texture_lod", "GL_EXT_frag_depth",
    "GL_ARB_texture_rectangle", "GL_EXT_draw_buffers", "GL_ARB_shader_texture_lod",
    "GL_EXT_shadow_samplers", "GL_ARB_draw_buffers", "GL_EXT_gpu_shader4",
    "GL_ARB_explicit_attrib_location", "GL_EXT_shader_framebuffer_fetch",
    "GL_ARB_compatibility", "GL_OES_texture_3D", "GL_OES_EGL_image_external", NULL,
};
