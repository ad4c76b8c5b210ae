#version 310 es
// vs: vs_es310.vert
// GLSL ES 3.10 with a mediump colour input: bitfield functions, packUnorm4x8/packSnorm4x8, textureGather,
// layout(binding) on samplers, explicit uniform locations.
precision highp float;
precision highp int;
layout(binding = 0) uniform highp sampler2D u_tex;
layout(location = 2) uniform uint u_salt;
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint h = p.x * 0x27d4eb2du ^ (p.y << 9) ^ u_salt;
    uint e = bitfieldExtract(h, 3, 8);
    uint rev = bitfieldReverse(h) >> 24;
    int msb = findMSB(h), lsb = findLSB(h | 0x80000000u);
    uint pk = packUnorm4x8(v_color) ^ packSnorm4x8(v_color - 0.5);
    vec4 g = textureGather(u_tex, v_uv, 1);
    frag = vec4(float(e) / 255.0, float(rev) / 255.0,
                float(bitCount(pk) + msb + lsb) / 96.0, 1.0) * 0.7 + g * 0.3;
}
