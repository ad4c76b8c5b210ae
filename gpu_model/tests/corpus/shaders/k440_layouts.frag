#version 440 core
// vs: vs_330.vert
// GLSL 4.40 enhanced layouts: explicit offset and align inside a std140 block, component-level
// fragment output location (layout(component)).
layout(std140, binding = 1) uniform Tuned {
    layout(offset = 16) vec4 a;
    layout(align = 32) vec3 b;
    layout(offset = 80) float c;
};
in vec4 v_color;
in vec2 v_uv;
layout(location = 0, component = 0) out vec2 frag_rg;
layout(location = 0, component = 2) out vec2 frag_ba;
void main()
{
    vec3 m = a.xyz * v_uv.x + b * v_uv.y + c;
    frag_rg = fract(m.xy + v_color.rg * 0.5);
    frag_ba = vec2(fract(m.z), 1.0);
}
