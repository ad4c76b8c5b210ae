#version 320 es
// vs: vs_es320.vert
// GLSL ES 3.20 (GLES 3.2 context): fma and precise,
// interpolateAtCentroid and interpolateAtSample, texture offsets on gathers.
precision highp float;
precision highp int;
layout(binding = 0) uniform highp sampler2D u_tex;
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    vec4 g = textureGather(u_tex, v_uv * 1.3, 1);
    vec4 go = textureGatherOffset(u_tex, v_uv, ivec2(-3, 1), 2);
    precise float a = fma(v_uv.x, v_uv.y, 0.25);
    vec2 o = interpolateAtSample(v_uv, 0) * 1.01;
    vec2 c = interpolateAtCentroid(v_uv);
    frag = vec4(g.xy * 0.5 + go.zw * 0.5, fract(a + (o.x - c.x) * 30.0), 1.0) * 0.9 + v_color * 0.1;
}
