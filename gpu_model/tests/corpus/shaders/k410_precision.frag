#version 410 core
// vs: vs_330.vert
// GLSL 4.10: precision qualifiers (no-ops on desktop), uniform default-block arrays of structs,
// explicit output location, vector relational functions, mix with bvec.
precision highp float;
struct Band { vec3 lo; vec3 hi; float w; };
uniform Band u_bands[2];
in vec4 v_color;
in vec2 v_uv;
layout(location = 0) out mediump vec4 frag;
void main()
{
    vec3 c = vec3(0.0);
    for (int i = 0; i < 2; i++) {
        bvec3 sel = greaterThan(v_color.rgb, vec3(0.5 * u_bands[i].w));
        c += mix(u_bands[i].lo, u_bands[i].hi, sel) * 0.4;
    }
    bvec3 eq = equal(floor(v_uv.xyx * 3.0), vec3(1.0));
    frag = vec4(fract(c + vec3(eq) * 0.25 + v_color.rgb * 0.3), 1.0);
}
