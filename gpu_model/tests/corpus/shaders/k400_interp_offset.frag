#version 400 core
// vs: vs_330.vert
// GLSL 4.00 interpolateAtOffset: the input interpolated a quarter pixel away from the centre.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec2 off = interpolateAtOffset(v_uv, vec2(0.25, -0.25));
    frag = vec4(fract(abs(off - v_uv) * 40.0), v_color.b, 1.0);
}
