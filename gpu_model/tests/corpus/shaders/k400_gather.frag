#version 400 core
// vs: vs_330.vert
// GLSL 4.00 texture functions: textureGather (each component), textureGatherOffset,
// textureGatherOffsets.
uniform sampler2D u_tex;
uniform sampler2D u_grad;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
const ivec2 offs[4] = ivec2[](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 3), ivec2(4, 0));
void main()
{
    vec4 g0 = textureGather(u_tex, v_uv);
    vec4 g1 = textureGather(u_grad, v_uv, 1);
    vec4 g2 = textureGatherOffset(u_tex, v_uv, ivec2(2, -3), 2);
    vec4 g3 = textureGatherOffsets(u_grad, v_uv * 0.7, offs, 0);
    int r = int(gl_FragCoord.x / 16.0);
    vec4 c = r == 0 ? g0 : r == 1 ? g1 : r == 2 ? g2 : g3;
    frag = vec4(c.xyz * 0.8 + c.w * 0.2, fract(v_uv.x * 3.0));
}
