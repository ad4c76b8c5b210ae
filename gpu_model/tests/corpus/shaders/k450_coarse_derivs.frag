#version 450 core
// vs: vs_330.vert
// GLSL 4.50 coarse derivatives (dFdxCoarse/dFdyCoarse/fwidthCoarse) of a non-linear value, next to
// the fine ones.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    float q = v_uv.x * v_uv.y * 20.0;
    frag = vec4(abs(dFdxCoarse(q)) * 2.0, abs(dFdyCoarse(q)) * 2.0, fwidthCoarse(q),
                abs(dFdxFine(q) - dFdxCoarse(q)) * 10.0);
}
