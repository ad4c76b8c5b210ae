#version 450 core
// vs: vs_330.vert
// GLSL 4.50: mix on bvec selects, textureSize on a mip level,
// textureQueryLevels, a struct with an array member returned from a function.
layout(binding = 0) uniform sampler2D u_tex;
in vec4 v_color;
in vec2 v_uv;
out vec4 frag;
struct Pair { float v[2]; };
Pair make(float x)
{
    Pair p;
    p.v[0] = x * x;
    p.v[1] = sqrt(abs(x));
    return p;
}
void main()
{
    Pair p = make(v_uv.x - 0.5);
    int levels = textureQueryLevels(u_tex);
    ivec2 s = textureSize(u_tex, 2);
    vec3 c = mix(v_color.rgb, v_color.bgr, bvec3(v_uv.x > 0.5, v_uv.y < 0.3, levels > 3));
    frag = vec4(c * 0.6 + vec3(v_uv.x * 0.5, v_uv.y * 0.5, p.v[0] + p.v[1]) * 0.4,
                float(s.x) / 16.0);
}
