#version 310 es
// vs: vs_es310.vert
// GLSL ES 3.10 with mediump arithmetic that llvmpipe runs in 16 bits (half-rounded floats, ints
// wrapped to 16 bits), large enough for the rounding to show: fract() of half-precision sums,
// a mediump int product that wraps, a mediump value passed through an identity (f * 1.0001 is
// f * 1.0 in half precision) and a mediump -> highp conversion.
precision mediump float;
precision mediump int;
in mediump vec4 v_color;
in highp vec2 v_uv;
out vec4 frag;
void main()
{
    mediump float t = v_color.x * 173.0 + v_color.y * 59.0;
    mediump float u = t * 1.0001 + v_color.z * 0.37;
    mediump int q = int(v_color.z * 1000.0) * 77 + int(v_color.x * 300.0);
    highp float hq = float(q & 1023) / 1023.0;
    highp float hu = fract(u * 3.0);
    frag = vec4(fract(t), hu, hq, 1.0) * 0.9 + vec4(v_uv, 0.0, 0.0) * 0.1;
}
