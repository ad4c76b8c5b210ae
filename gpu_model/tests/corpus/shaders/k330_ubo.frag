#version 330 core
// vs: vs_330.vert
// GLSL 3.30 uniform blocks: std140 layout, arrays, a matrix, a named instance (one
// block; two blocks are k330_ubo_two_blocks).
layout(std140) uniform Material {
    vec4 base;
    vec4 weights[4];
    mat3 rot;
    float gain;
} mat;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    int i = int(v_uv.x * 4.0) & 3;
    vec3 c = mat.rot * (v_color.rgb * mat.weights[i].xyz) + mat.base.rgb * mat.gain;
    frag = vec4(fract(c + mat.weights[3].wzy), 1.0);
}
