#version 330 core
// vs: vs_330.vert
// GLSL 3.30: a uniform block with the shared layout (offsets queried from the driver).
layout(shared) uniform Extra {
    vec2 offs;
    vec3 bias;
};
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    frag = vec4(fract(bias + vec3(offs, 0.0) + v_color.rgb), 1.0);
}
