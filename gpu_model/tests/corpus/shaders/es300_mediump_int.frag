#version 300 es
// vs: vs_es300.vert
// GLSL ES 3.00 with the default (mediump) int precision: packHalf2x16, packSnorm2x16, packUnorm2x16,
// floatBitsToUint,
// derivatives, uniform blocks, matrix inverse.
precision highp float;
layout(std140) uniform Block { vec4 gain; mat2 rot; };
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    uint h = packHalf2x16(v_uv * 3.0);
    vec2 back = unpackHalf2x16(h ^ 0x00020000u);
    uint s = packSnorm2x16(v_uv - 0.5) ^ packUnorm2x16(v_uv.yx);
    uint fb = floatBitsToUint(v_uv.x) >> 16;
    vec2 r = inverse(rot + mat2(1.0)) * v_uv;
    frag = vec4(fract(back * gain.xy), fract(float(s & 0xffffu) / 997.0 + float(fb & 255u) / 255.0),
                1.0) * 0.8 + vec4(abs(dFdx(r.x)) * 20.0, abs(dFdy(r.y)) * 20.0, 0.0, 0.0);
}
