#version 400 core
// vs: vs_330.vert
// GLSL 4.00 double precision: dvec arithmetic, double uniforms, fma on doubles, conversions,
// a dmat2 product.
uniform double u_d;
uniform dvec2 u_dv;
in vec2 v_uv;
out vec4 frag;
void main()
{
    dvec2 p = dvec2(v_uv) * 3.0lf + u_dv;
    double x = p.x * p.x - p.y * u_d;
    double y = fma(p.x, p.y, 1.0lf / 3.0lf);
    dmat2 m = dmat2(1.5lf, -0.25lf, 0.5lf, 2.0lf);
    dvec2 q = m * p;
    frag = vec4(float(fract(x)), float(fract(abs(y))), float(fract(abs(q.x - q.y))),
                float(floor(p.x) * 0.25lf));
}
