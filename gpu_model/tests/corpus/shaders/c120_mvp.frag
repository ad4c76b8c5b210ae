#version 120
// vs: vs_120.vert
// GLSL 1.20 with gl_ModelViewProjectionMatrix and gl_TextureMatrix[0] in the vertex shader.
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_FragColor = vec4(v_color.rgb * fract(v_uv.x * 3.0), 1.0);
}
