#version 330 core
// vs: vs_330.vert
// GLSL 3.30: discard inside a loop, early return from main, gl_FrontFacing, nested conditionals
// on per-pixel data (divergent control flow within a warp).
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
void main()
{
    vec2 p = v_uv * 4.0;
    frag = vec4(0.0, 0.0, 0.0, 1.0);
    for (int i = 0; i < 6; i++) {
        float d = length(fract(p + float(i) * 0.17) - 0.5);
        if (d < 0.08)
            discard;
        if (d > 0.6) {
            frag.r = float(i) / 6.0;
            return;
        }
        frag.g += d * 0.2;
    }
    if (!gl_FrontFacing)
        frag.b = 1.0;
    else if (v_color.r > 0.5)
        frag.b = v_color.r * 0.5;
    else
        frag.b = fract(p.x * p.y);
}
