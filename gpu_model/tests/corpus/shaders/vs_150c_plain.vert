#version 150 compatibility
in vec4 a_pos;
in vec4 a_color;
in vec2 a_uv;
out vec4 v_color;
out vec2 v_uv;
void main()
{
    gl_Position = a_pos;
    v_color = a_color;
    v_uv = a_uv;
    gl_FrontColor = gl_Color;
}
