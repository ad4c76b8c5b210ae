#version 330 core
// vs: vs_330.vert
// GLSL 3.30: two uniform blocks (bindings 0 and 1, each with its own buffer); the second
// block must read its own buffer.
layout(std140) uniform Material {
    vec4 base;
    vec4 weights[4];
    mat3 rot;
    float gain;
} mat;
layout(std140) uniform Extra {
    vec2 offs;
    vec3 bias;
};
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    int i = int(v_uv.x * 4.0) & 3;
    vec3 c = mat.rot * (v_color.rgb * mat.weights[i].xyz) + mat.base.rgb * mat.gain;
    frag = vec4(fract(c + bias + vec3(offs, 0.0)), 1.0);
}
