#version 330 core
// vs: vs_330.vert
// GLSL 3.30 matrices: mat4 uniforms, determinant, inverse, matrixCompMult, transpose, non-square
// products (mat3x2 * mat2x3), column/element access.
uniform mat4 u_m4;
uniform mat3x2 u_m32;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    mat4 m = u_m4 + mat4(2.0);
    float det = determinant(m);
    mat4 inv = inverse(m);
    mat2x3 t = transpose(u_m32);
    mat2 sq = u_m32 * t;
    mat4 cm = matrixCompMult(m, transpose(m));
    vec4 v = inv * vec4(v_uv, v_color.r, 1.0);
    frag = vec4(fract(abs(v.xyz * 3.0)), 1.0) * 0.7
         + vec4(fract(abs(sq[1][0] + cm[2][1] * v_uv.x)), fract(abs(det) * 0.01), m[3].z * 0.1, 0.0);
}
