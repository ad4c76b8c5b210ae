#version 110
// vs: vs_110_builtin.vert
// GLSL 1.10: user varyings and the built-in varyings gl_Color (from gl_FrontColor) and
// gl_TexCoord[0] in one program.
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_FragColor = vec4(v_color.r, fract(v_uv.x), gl_Color.b, 1.0) * 0.5 + fract(gl_TexCoord[0]) * 0.5;
}
