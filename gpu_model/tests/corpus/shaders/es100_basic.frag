#version 100
// vs: vs_es100.vert
// GLSL ES 1.00 (GLES 2.0 context): precision qualifiers, gl_FragColor, texture2D,
// constant-bounded loops, vector swizzles, built-ins.
precision mediump float;
uniform sampler2D u_tex;
uniform vec4 u_tint;
varying mediump vec4 v_color;
varying highp vec2 v_uv;
void main()
{
    vec4 t = texture2D(u_tex, v_uv);
    float acc = 0.0;
    for (int i = 0; i < 4; i++)
        acc += texture2D(u_tex, v_uv + vec2(float(i) * 0.03, 0.0)).g * 0.25;
    vec3 c = mix(t.rgb, v_color.bgr, acc);
    gl_FragColor = vec4(clamp(c * u_tint.rgb * 1.5, 0.0, 1.0), 1.0);
}
