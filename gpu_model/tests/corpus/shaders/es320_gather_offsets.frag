#version 320 es
// vs: vs_es320.vert
// GLSL ES 3.20 textureGatherOffsets: texel i of the result comes from offset i.
precision highp float;
layout(binding = 0) uniform highp sampler2D u_tex;
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    const ivec2 offs[4] = ivec2[4](ivec2(0, 1), ivec2(1, 0), ivec2(-1, -1), ivec2(2, 2));
    frag = textureGatherOffsets(u_tex, v_uv, offs, 0) + 0.001 * v_color;
}
