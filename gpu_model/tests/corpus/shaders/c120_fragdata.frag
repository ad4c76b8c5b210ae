#version 120
// vs: vs_120_plain.vert
// GLSL 1.20: gl_FragData[0], gl_FragCoord, gl_FrontFacing, while loop, functions with out params.
varying vec4 v_color;
varying vec2 v_uv;
void split(in vec2 p, out float a, out float b)
{
    a = floor(p.x * 4.0) / 4.0;
    b = ceil(p.y * 4.0) / 4.0;
}
void main()
{
    float a, b;
    split(v_uv, a, b);
    float n = 0.0;
    int i = 0;
    while (i < 5) {
        n += sign(sin(gl_FragCoord.x * 0.1 + float(i))) * 0.1;
        i++;
    }
    vec4 c = gl_FrontFacing ? v_color : v_color.gbra;
    gl_FragData[0] = vec4(fract(a + c.r), fract(b + c.g), abs(n), 1.0);
}
