/* Extension emulation for glslang: lines added after the #version line of a shader the driver
 * accepted so that glslang accepts it too, where Mesa takes a feature through an extension that
 * glslang lacks, or ties it to another extension or a later version.
 *
 * - `layout(binding = N)` below GLSL 4.20: Mesa takes it with any of the extensions that
 *   introduce bindings (GL_ARB_shader_storage_buffer_object, GL_ARB_shader_atomic_counters,
 *   GL_ARB_shader_image_load_store, ...); glslang only with GL_ARB_shading_language_420pack.
 * - `layout(location = N)` on an input or output block below GLSL 4.40: Mesa takes it with
 *   GL_ARB_separate_shader_objects (or at 4.20 without), glslang with GL_ARB_enhanced_layouts.
 * - GL_AMD_vertex_shader_layer / GL_AMD_vertex_shader_viewport_index: gl_Layer and
 *   gl_ViewportIndex written by a vertex (or tessellation evaluation) shader, which glslang has
 *   as GL_ARB_shader_viewport_layer_array.
 * - GL_NV_shader_atomic_float and GL_INTEL_shader_atomic_float_minmax: atomicAdd/atomicExchange
 *   and atomicMin/atomicMax on floats, glslang's GL_EXT_shader_atomic_float(2).
 * (Extensions glslang only honours from a later version, such as SSBO atomics or arrays of arrays
 * below GLSL 4.30, make the upgrade pass raise the version instead: gm_upgrade.c.)
 * - GL_OES_viewport_array / GL_EXT_viewport_array on GLSL ES: glslang has no gl_ViewportIndex in
 *   ES at all; it becomes a variable decorated BuiltIn ViewportIndex (GL_EXT_spirv_intrinsics),
 *   so the SPIR-V is what a desktop geometry shader would give.
 * Enabling an extension the shader does not use changes nothing: the driver already accepted
 * the source, so only what it uses can differ. */
#include "gm_ext_prelude.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does an `#extension NAME` directive name this extension? (Inactive branches of upgraded
 * sources are blank already; in a current source a directive in an inactive branch only adds
 * an enable that nothing uses.) */
static int mentions_extension(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        if (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
            (p[n] >= '0' && p[n] <= '9'))
            continue;
        const char *l = p;
        while (l > text && l[-1] != '\n')
            l--;
        while (*l == ' ' || *l == '\t')
            l++;
        if (*l != '#')
            continue;
        l++;
        while (*l == ' ' || *l == '\t')
            l++;
        if (!strncmp(l, "extension", 9))
            return 1;
    }
    return 0;
}

char *gm_ext_prelude(const char *text, gm_stage stage, int version, int es)
{
    char buf[1024];
    size_t len = 0;
    buf[0] = 0;
#define ADD(s)                                                                                 \
    do {                                                                                       \
        int k_ = snprintf(buf + len, sizeof buf - len, "%s\n", s);                            \
        if (k_ > 0 && (size_t)k_ < sizeof buf - len)                                           \
            len += (size_t)k_;                                                                 \
    } while (0)
    if (!es && version < 420 && strstr(text, "binding"))
        ADD("#extension GL_ARB_shading_language_420pack : enable");
    /* locations on interface blocks and their members: GLSL 4.40, or GL_ARB_separate_shader_objects
     * in Mesa; glslang takes them with GL_ARB_enhanced_layouts */
    if (!es && version < 440 && strstr(text, "location"))
        ADD("#extension GL_ARB_enhanced_layouts : enable");
    if ((stage == GM_STAGE_VERTEX || stage == GM_STAGE_TESS_EVALUATION) &&
        (mentions_extension(text, "GL_AMD_vertex_shader_layer") ||
         mentions_extension(text, "GL_AMD_vertex_shader_viewport_index")))
        ADD("#extension GL_ARB_shader_viewport_layer_array : enable");
    if (mentions_extension(text, "GL_NV_shader_atomic_float"))
        ADD("#extension GL_EXT_shader_atomic_float : enable");
    if (mentions_extension(text, "GL_INTEL_shader_atomic_float_minmax")) {
        ADD("#extension GL_EXT_shader_atomic_float : enable"); /* its atomicExchange, atomicCompSwap */
        ADD("#extension GL_EXT_shader_atomic_float2 : enable");
    }
    if (es && (stage == GM_STAGE_GEOMETRY || stage == GM_STAGE_FRAGMENT) &&
        (mentions_extension(text, "GL_OES_viewport_array") ||
         mentions_extension(text, "GL_EXT_viewport_array"))) {
        ADD("#extension GL_EXT_spirv_intrinsics : enable");
        /* 11 = Decoration BuiltIn, 10 = BuiltIn ViewportIndex */
        ADD(stage == GM_STAGE_GEOMETRY ? "spirv_decorate(11, 10) out highp int glr_ViewportIndex;"
                                       : "spirv_decorate(11, 10) flat in highp int glr_ViewportIndex;");
        ADD("#define gl_ViewportIndex glr_ViewportIndex");
    }
#undef ADD
    return len ? strdup(buf) : NULL;
}
