#version 400 core
// vs: vs_330.vert
// Double loop accumulation: exp(x) by its series through a double function with an inout
// parameter, double uniforms (scalar and dvec3), dvec4 dynamic indexing, a while loop on a
// double comparison, OpSelect on doubles and double <-> float/int conversions.
uniform double u_step;
uniform dvec3 u_bias;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;

double term(double x, int k, inout double prod)
{
    prod *= x / double(k);
    return prod;
}

void main()
{
    double x = double(v_uv.x) * 2.0lf - 1.0lf + u_step;
    double sum = 1.0lf, prod = 1.0lf;
    for (int k = 1; k < 14; k++)
        sum += term(x, k, prod);
    dvec4 v = dvec4(v_color) * sum + dvec4(u_bias, u_step);
    int i = int(v_uv.y * 4.0) & 3;
    double pick = v[i];
    double acc = 0.0lf;
    int n = 0;
    while (acc < 3.0lf && n < 40) {
        acc += abs(pick) * 0.37lf + 0.01lf;
        n++;
    }
    dvec2 w = mix(dvec2(pick, -pick), dvec2(sum, x), lessThan(dvec2(x), dvec2(0.0lf, 0.25lf)));
    double r = double(int(sum * 100.0lf)) / 100.0lf;
    frag = vec4(float(fract(sum * 3.0lf)), float(fract(w.x + w.y)), float(n) / 40.0,
                float(fract(r + acc)));
}
