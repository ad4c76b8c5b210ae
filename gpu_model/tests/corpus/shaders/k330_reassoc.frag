#version 330 core
// vs: vs_330.vert
// Float chains with a constant in the order Mesa's NIR gives them on llvmpipe: (x * y) * 0.0001
// runs as (x * 0.0001) * y and (a + b) + 0.37 as (a + 0.37) + b; `precise` (4.00) would keep the
// source order. Twelve fract(3.0 * d) steps amplify a last-bit difference 3^12 times, so a model
// that evaluates the source order differs on most pixels.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec2 fc = gl_FragCoord.xy;
    float d = fract(fc.x * fc.y * 0.0001);
    float a = fc.x * 0.001;
    float b = fc.y * 0.0007;
    float e = fract(a + b + 0.37);
    for (int i = 0; i < 12; i++) {
        d = fract(3.0 * d);
        e = fract(3.0 * e);
    }
    frag = vec4(d, e, v_color.b, 1.0);
}
