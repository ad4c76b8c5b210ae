#version 150 compatibility
// vs: vs_150c_plain.vert
// GLSL 1.50 compatibility profile: gl_FragColor, gl_Color (from gl_FrontColor), ftransform in the
// vertex shader, texture2D next to texture(), gl_FragCoord layout defaults.
uniform sampler2D u_tex;
in vec4 v_color;
in vec2 v_uv;
void main()
{
    vec4 a = texture2D(u_tex, v_uv);
    vec4 b = texture(u_tex, v_uv.yx * 1.3);
    float d = length(gl_FragCoord.xy / 64.0 - 0.5);
    gl_FragColor = mix(a * gl_Color, b * v_color, smoothstep(0.1, 0.6, d));
}
