#version 420 core
// vs: vs_330.vert
// GLSL 4.20 packing functions: pack/unpack Unorm4x8, Snorm4x8, Unorm2x16, Snorm2x16, Half2x16;
// layout(binding) on samplers and blocks, const arrays with .length(), implicit int->uint.
layout(binding = 0) uniform sampler2D u_tex;
layout(std140, binding = 0) uniform Pack { vec4 k; };
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec4 t = texture(u_tex, v_uv);
    uint a = packUnorm4x8(t * 1.7 - 0.2);
    uint b = packSnorm4x8(v_color * 2.0 - 1.0);
    uint c = packUnorm2x16(v_uv);
    uint d = packSnorm2x16(v_uv * 2.0 - 1.0 + k.xy);
    uint e = packHalf2x16(v_uv * 1000.0);
    vec4 ua = unpackUnorm4x8(a ^ (b & 0x00ff00ffu));
    vec4 ub = unpackSnorm4x8(b);
    vec2 uc = unpackUnorm2x16(c ^ 0x12345678u);
    vec2 ud = unpackSnorm2x16(d);
    vec2 ue = unpackHalf2x16(e ^ 0x00010001u);
    const float w[] = float[](0.4, 0.3, 0.2);
    frag = vec4(ua.rg * w[0] + abs(ub.ba) * w[1] + uc * w[2],
                fract(ud.x + ue.y * 0.01), fract(ue.x * 0.001)) + float(w.length()) * 0.01;
}
