#version 110
// Fixed-function inputs (gl_Vertex, gl_Color, gl_MultiTexCoord0) into user varyings only; no
// matrix stack and no built-in output varyings (see c110_ftransform and c110_builtin_varyings).
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_Position = gl_Vertex;
    v_color = gl_Color;
    v_uv = gl_MultiTexCoord0.xy;
}
