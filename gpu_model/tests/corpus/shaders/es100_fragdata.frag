#version 100
// vs: vs_es100.vert
// GLSL ES 1.00: gl_FragData[0], gl_FragCoord, highp computations, functions, discard, step/mod.
precision highp float;
varying mediump vec4 v_color;
varying highp vec2 v_uv;
float checker(vec2 p)
{
    vec2 q = floor(p);
    return mod(q.x + q.y, 2.0);
}
void main()
{
    float c = checker(v_uv * 6.0);
    if (c > 0.5 && gl_FragCoord.x < 8.0)
        discard;
    gl_FragData[0] = vec4(v_color.rgb * (0.5 + 0.5 * c), step(0.5, v_uv.y));
}
