#version 110
// User varyings next to the built-in output varyings gl_FrontColor and gl_TexCoord[0].
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_Position = gl_Vertex;
    v_color = gl_Color;
    v_uv = gl_MultiTexCoord0.xy;
    gl_TexCoord[0] = gl_MultiTexCoord0 * 0.5;
    gl_FrontColor = gl_Color.bgra;
}
