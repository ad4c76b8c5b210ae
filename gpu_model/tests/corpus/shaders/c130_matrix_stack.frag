#version 130
// vs: vs_130.vert
// GLSL 1.30 on a compatibility context with gl_ModelViewMatrix and gl_ProjectionMatrix.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    frag = vec4(v_color.rgb, fract(v_uv.y * 2.0));
}
