#version 330 core
// vs: vs_330.vert
// GLSL 3.30: a uniform block with the shared layout. The driver picks the offsets: Mesa uses std430
// rules (the float array has a stride of 4, not std140's 16), which the model must follow.
layout(shared) uniform Extra {
    vec2 offs;
    float w[3];
    vec3 bias;
};
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    frag = vec4(fract(bias + vec3(offs, w[1]) + v_color.rgb * w[2]), 1.0);
}
