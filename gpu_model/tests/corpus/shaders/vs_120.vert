#version 120
// Generic attributes through the legacy matrix state.
attribute vec4 a_pos;
attribute vec4 a_color;
attribute vec2 a_uv;
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_Position = gl_ModelViewProjectionMatrix * a_pos;
    v_color = a_color;
    v_uv = (gl_TextureMatrix[0] * vec4(a_uv, 0.0, 1.0)).xy;
}
