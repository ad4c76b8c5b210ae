// Rings around two centres that orbit with the frame index, shaded with a small loop of octaves.
in vec2 v_uv;
out vec4 frag_color;

uniform float u_phase;
uniform vec3 u_tint;

float rings(vec2 p, vec2 centre)
{
    float d = length(p - centre);
    float sum = 0.0;
    float amplitude = 0.5;
    for (int i = 0; i < OCTAVES; ++i) {
        sum += amplitude * sin(d * (12.0 + 9.0 * float(i)) - u_phase * float(i + 1));
        amplitude *= 0.5;
    }
    return sum;
}

void main()
{
    vec2 a = vec2(0.5) + 0.3 * vec2(cos(u_phase), sin(u_phase));
    vec2 b = vec2(0.5) - 0.25 * vec2(sin(u_phase * 0.7), cos(u_phase * 1.3));
    float v = rings(v_uv, a) + rings(v_uv, b);
    vec3 colour = u_tint * (0.5 + 0.5 * vec3(v, v * 0.8, 1.0 - v));
    frag_color = vec4(clamp(colour, 0.0, 1.0), 1.0);
}
