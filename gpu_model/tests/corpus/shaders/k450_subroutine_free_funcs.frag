#version 450 core
// vs: vs_330.vert
// GLSL 4.50: function overloading, out/inout arrays, const functions, implicit conversions
// (int->float, uint->float), a loop with a dynamic bound and dynamic array indexing.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
uniform int u_n;
float f(float x) { return x * 0.5; }
float f(int x) { return float(x) * 0.125; }
vec2 f(vec2 x) { return x.yx; }
void fill(out float a[4], float base)
{
    for (int i = 0; i < 4; i++)
        a[i] = base + float(i) * 0.2;
}
void bump(inout float a[4], int k)
{
    a[k & 3] += 0.3;
}
void main()
{
    float arr[4];
    fill(arr, v_uv.x);
    int k = int(v_uv.y * 8.0);
    bump(arr, k);
    float s = 0.0;
    for (int i = 0; i < u_n + 1; i++)
        s += arr[(i + k) & 3];
    uint u = uint(gl_FragCoord.x);
    float mixd = f(k) + f(s) + u * 0.001;
    frag = vec4(fract(mixd), f(v_uv), v_color.a);
}
