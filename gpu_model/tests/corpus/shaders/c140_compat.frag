#version 140
// vs: vs_130_plain.vert
// GLSL 1.40 on a compatibility context: inverse(), uniform blocks, gl_FragColor.
uniform Params {
    vec4 scale;
    mat4 xform;
};
uniform mat3 u_m3;
in vec4 v_color;
in vec2 v_uv;
void main()
{
    mat3 m = u_m3 + mat3(1.0);
    vec3 q = inverse(m) * vec3(v_uv, 1.0);
    vec4 r = xform * vec4(q, 1.0) * scale;
    gl_FragColor = vec4(fract(abs(r.xyz)) * 0.7 + v_color.rgb * 0.3, 1.0);
}
