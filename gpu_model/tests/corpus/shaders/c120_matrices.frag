#version 120
// vs: vs_120_plain.vert
// GLSL 1.20: non-square matrices, outerProduct, transpose, array constructors, const arrays.
uniform mat2x3 u_m23;
uniform mat3 u_m3;
varying vec4 v_color;
varying vec2 v_uv;
const float w[3] = float[3](0.2, 0.5, 0.3);
void main()
{
    vec3 a = u_m23 * v_uv;
    mat3 o = outerProduct(v_color.rgb, vec3(v_uv, 0.5));
    vec3 b = transpose(o) * vec3(0.3, 0.2, 0.1);
    vec3 c = (u_m3 * v_color.bgr) * 0.2;
    float acc = 0.0;
    for (int i = 0; i < 3; ++i)
        acc += w[i] * a[i];
    gl_FragColor = vec4(fract(abs(b + c)), fract(acc));
}
