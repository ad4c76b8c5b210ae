#version 330 core
// vs: vs_330.vert
// GLSL 3.30 derivatives: dFdx, dFdy and fwidth of varyings and of computed values, used for
// anti-aliased grid lines.
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec2 g = v_uv * 5.0;
    vec2 w = fwidth(g);
    vec2 l = abs(fract(g - 0.5) - 0.5) / w;
    float line = 1.0 - min(min(l.x, l.y), 1.0);
    float q = v_uv.x * v_uv.x * 9.0;
    frag = vec4(line, abs(dFdx(q)) * 16.0, abs(dFdy(v_color.g)) * 8.0, 1.0) * 0.8 + v_color * 0.2;
}
