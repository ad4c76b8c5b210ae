#version 110
// vs: vs_110_plain.vert
// GLSL 1.10: the vertex shader writes v_color and v_uv; this fragment shader reads only v_uv, so
// the varyings must be matched by name, not by position.
varying vec2 v_uv;
void main()
{
    gl_FragColor = vec4(fract(v_uv * 2.0), 0.5, 1.0);
}
