#version 330 core
// vs: vs_330.vert
// GLSL 3.30: a packed uniform block whose first members are unused (Mesa drops them from the active
// uniforms but keeps their space) and a block with no layout qualifier (GL's default, shared); Mesa
// lays both out with std430 rules.
layout(packed) uniform Packed {
    float unused0;
    vec2 unused1[2];
    float w[3];
    vec3 bias;
};
uniform Plain {
    float gain[2];
    vec2 offs;
};
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    frag = vec4(fract(bias * gain[1] + vec3(offs, w[2]) + v_color.rgb * w[0] + vec3(v_uv, 0.0)), 1.0);
}
