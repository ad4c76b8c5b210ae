#version 110
// Fixed-function inputs and the legacy matrix stack.
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_Position = ftransform();
    v_color = gl_Color;
    v_uv = gl_MultiTexCoord0.xy;
    gl_TexCoord[0] = gl_MultiTexCoord0 * 0.5;
    gl_FrontColor = gl_Color.bgra;
}
