#version 110
// vs: vs_110_plain.vert
// GLSL 1.10: gl_FragColor, varyings, common built-ins, uniforms.
uniform float u_time;
uniform vec3 u_tint;
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    vec2 p = fract(v_uv * 3.0 + u_time);
    float s = smoothstep(0.2, 0.8, p.x) * step(0.3, p.y);
    vec3 c = mix(v_color.rgb, v_color.bgr, s);
    c = clamp(c + u_tint * mod(v_uv.x * 7.0, 1.3) * 0.3, 0.0, 1.0);
    c.r = max(c.r, min(abs(v_uv.y - 0.5), 0.4));
    gl_FragColor = vec4(c, 1.0);
}
