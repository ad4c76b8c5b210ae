#version 100
attribute vec4 a_pos;
attribute vec4 a_color;
attribute vec2 a_uv;
varying mediump vec4 v_color;
varying highp vec2 v_uv;
void main()
{
    gl_Position = a_pos;
    v_color = a_color;
    v_uv = a_uv;
}
