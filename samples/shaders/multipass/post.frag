// multipass: fragment shader of the post-process pass. Samples both colour attachments of the
// geometry pass: outlines where normals or depth change (a small loop over EDGE_TAPS
// neighbours), a normal-buffer debug view left of a moving split line, and a vignette.

in vec2 v_uv;

uniform sampler2D u_color;         // FBO attachment 0, unit 0
uniform sampler2D u_normal_depth;  // FBO attachment 1, unit 1
uniform vec2 u_texel;              // 1 / FBO size
uniform float u_split;             // 0..1: screen x of the debug-view split line

out vec4 frag_color;

// How different the neighbour's normal and depth are from the centre's (0 = same surface).
float edge_strength(vec4 center, vec2 offset)
{
    vec4 other = texture(u_normal_depth, v_uv + offset * u_texel);
    float normal_diff = 1.0 - dot(center.xyz * 2.0 - 1.0, other.xyz * 2.0 - 1.0);
    float depth_diff = abs(center.w - other.w) * 40.0;
    return max(normal_diff, depth_diff);
}

float vignette(vec2 uv)
{
    vec2 d = uv - 0.5;
    return 1.0 - 0.8 * dot(d, d);
}

void main()
{
    const vec2 taps[4] = vec2[4](vec2(1.0, 0.0), vec2(-1.0, 0.0), vec2(0.0, 1.0), vec2(0.0, -1.0));
    vec4 nd = texture(u_normal_depth, v_uv);
    float edge = 0.0;
    for (int i = 0; i < EDGE_TAPS; ++i) {
        edge = max(edge, edge_strength(nd, taps[i]));
    }
    edge = clamp(edge, 0.0, 1.0);

    vec3 color;
    if (v_uv.x < u_split) {
        color = nd.xyz * (1.0 - nd.w * 0.5);   // debug view: packed normals, darker far away
    } else {
        color = texture(u_color, v_uv).rgb;
        color = mix(color, vec3(0.05, 0.05, 0.1), edge);   // ink outlines
    }
    if (abs(v_uv.x - u_split) < u_texel.x) {
        color = vec3(1.0);                      // the split line itself
    }
    frag_color = vec4(color * vignette(v_uv), 1.0);
}
