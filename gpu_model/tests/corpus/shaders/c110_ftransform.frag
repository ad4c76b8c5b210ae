#version 110
// vs: vs_110.vert
// GLSL 1.10 with the legacy matrix stack: ftransform() in the vertex shader (projection and
// modelview set by corpus_draw with glOrtho/glRotatef), gl_Color from gl_FrontColor.
varying vec4 v_color;
void main()
{
    gl_FragColor = vec4(mix(v_color.rgb, gl_Color.rgb, 0.5), 1.0);
}
