#version 400 core
// vs: vs_400.vert
// GLSL 4.00: precise and fma, flat/noperspective/centroid inputs, interpolateAtCentroid,
// interpolateAtSample (single-sampled: the pixel centre), frexp/ldexp.
in vec4 v_color;
in vec2 v_uv;
flat in int v_id;
noperspective in vec2 v_np;
centroid in vec2 v_c;
out vec4 frag;
void main()
{
    precise float a = fma(v_uv.x, v_uv.y, v_color.r);
    vec2 off = v_uv * 1.01;
    vec2 cen = interpolateAtCentroid(v_uv);
    vec4 smp = interpolateAtSample(v_color, 0);
    int ex;
    float mant = frexp(a + 1.0, ex);
    float back = ldexp(mant, ex - 1);
    frag = vec4(fract(a), fract(abs(off - cen) * 40.0).x + fract(v_np.x * 2.0) * 0.5,
                float(v_id % 3) / 3.0 + fract(v_c.x) * 0.3, 1.0) * 0.8 + smp * 0.1 + back * 0.05;
}
