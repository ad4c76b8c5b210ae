#version 330 core
// vs: vs_330.vert
// GLSL 3.30 math built-ins: trigonometry, exponentials, pow, inversesqrt, atan(y, x), rounding
// functions, sign, modf, min/max/clamp on vectors, length/distance/dot/cross/normalize/reflect/
// refract/faceforward, isnan/isinf checks.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
uniform float u_time;
void main()
{
    vec2 p = v_uv * 2.0 - 1.0;
    float ang = atan(p.y, p.x);
    float r = length(p);
    float a = 0.5 + 0.5 * sin(ang * 3.0 + u_time) * cos(r * 4.0);
    float b = exp2(-r * 2.0) + log(1.0 + r) * 0.3 + pow(abs(p.x), 1.7) * 0.2;
    float ip;
    float fr = modf(p.x * 3.7, ip);
    vec3 n = normalize(vec3(p, 1.0));
    vec3 rf = reflect(vec3(0.0, 0.0, -1.0), n);
    vec3 rr = refract(vec3(0.0, 0.0, -1.0), n, 0.7);
    vec3 ff = faceforward(n, rf, vec3(0.0, 0.0, 1.0));
    float t = tan(clamp(p.y, -1.2, 1.2)) * 0.2 + asin(p.x * 0.9) * 0.1 + acos(p.y * 0.9) * 0.1;
    float rounds = (round(p.x * 3.0) + roundEven(p.y * 3.0) + trunc(p.x * 5.0)) / 20.0;
    bool bad = isnan(b) || isinf(b);
    frag = vec4(a, clamp(b * 0.5, 0.0, 1.0),
                abs(fr) * 0.3 + abs(rounds) + abs(t) * 0.3 + inversesqrt(1.0 + r) * 0.2,
                bad ? 0.0 : 1.0) * vec4(abs(rf.x) + 0.5, abs(rr.y) + 0.5, dot(ff, n) * 0.5 + 0.5, 1.0);
}
