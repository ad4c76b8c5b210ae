#version 130
// vs: vs_130_plain.vert
// GLSL 1.30 (compatibility context): integers, unsigned, bit operations, switch, texture(),
// texelFetch, textureSize, in/out, gl_FragColor still available.
uniform sampler2D u_tex;
uniform int u_i;
uniform uint u_u;
in vec4 v_color;
in vec2 v_uv;
void main()
{
    ivec2 sz = textureSize(u_tex, 0);
    ivec2 p = ivec2(v_uv * vec2(sz)) & (sz - 1);
    vec4 t = texelFetch(u_tex, p, 0);
    vec4 s = texture(u_tex, v_uv * 0.5);  // before the switch: derivatives need uniform flow
    uint h = uint(p.x) * 2654435761u ^ (uint(p.y) << 7) ^ u_u;
    h = (h >> 3) | (h << 29);
    int k = int(h % 4u);
    vec3 c;
    switch (k + u_i - u_i) {
    case 0: c = t.rgb; break;
    case 1: c = v_color.rgb; break;
    case 2: c = s.rgb; break;
    default: c = vec3(float(h & 255u) / 255.0);
    }
    gl_FragColor = vec4(c, 1.0);
}
