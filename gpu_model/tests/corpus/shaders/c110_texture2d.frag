#version 110
// vs: vs_110_plain.vert
// GLSL 1.10: texture2D, texture2DProj, a bias argument, discard.
uniform sampler2D u_tex;
uniform sampler2D u_grad;
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    vec4 a = texture2D(u_tex, v_uv);
    vec4 b = texture2DProj(u_grad, vec3(v_uv * 0.5, 1.5));
    vec4 c = texture2D(u_tex, v_uv * 0.25, 1.0);
    if (a.a < 0.2 && b.r > 0.9)
        discard;
    gl_FragColor = vec4(a.rg, b.b, 1.0) * 0.6 + c * 0.3 + v_color * 0.1;
}
