#version 330 core
// vs: vs_330.vert
// GLSL 3.30 dFdx/dFdy/fwidth of a non-linear value (x*y): the implementation may pick fine or
// coarse derivatives; the model must pick what llvmpipe does.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    float q = v_uv.x * v_uv.y * 20.0;
    frag = vec4(abs(dFdx(q)) * 2.0, abs(dFdy(q)) * 2.0, fwidth(q), 1.0) + 0.001 * v_color;
}
