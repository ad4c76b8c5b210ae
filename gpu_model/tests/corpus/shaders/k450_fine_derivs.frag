#version 450 core
// vs: vs_330.vert
// GLSL 4.50 fine derivatives (dFdxFine/dFdyFine/fwidthFine) of a non-linear value.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    float q = v_uv.x * v_uv.y * 20.0;
    frag = vec4(abs(dFdxFine(q)) * 2.0, abs(dFdyFine(q)) * 2.0, fwidthFine(q), 1.0) + 0.001 * v_color;
}
