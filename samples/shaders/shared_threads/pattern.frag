// shared_threads: fragment shader of the worker thread's program: a metaball field of
// BLOB_COUNT blobs orbiting the centre, over rotating stripes.

in vec2 v_pos;

uniform float u_angle;    // animation angle, from the frame index only

out vec4 frag_color;

// Field contribution of blob i at point p.
float blob(int i, vec2 p)
{
    float a = u_angle * (1.0 + 0.3 * float(i)) + 2.094 * float(i);
    vec2 center = 0.45 * vec2(cos(a), sin(a));
    vec2 d = p - center;
    return 0.06 / (dot(d, d) + 0.001);
}

void main()
{
    float field = 0.0;
    for (int i = 0; i < BLOB_COUNT; ++i) {
        field += blob(i, v_pos);
    }
    vec3 color;
    if (field > 1.0) {
        // Inside the blobs: warm, brighter towards the middle.
        color = vec3(1.0, 0.55, 0.15) * min(field * 0.5, 1.4);
    } else {
        // Background: stripes rotating the other way.
        float s = sin(12.0 * (v_pos.x * cos(-u_angle) + v_pos.y * sin(-u_angle)));
        color = mix(vec3(0.1, 0.15, 0.35), vec3(0.2, 0.35, 0.6), step(0.0, s)) * (0.5 + field);
    }
    frag_color = vec4(min(color, vec3(1.0)), 1.0);
}
