// lit_mesh: fragment shader of the lit, textured mesh program.
// Prefix added in code: "#version 330 core", "#define LIGHT_COUNT 2", "#define AMBIENT 0.15".
// Good breakpoint lines: the if/else in shade_light() and the loop body in main().

in vec3 v_world_pos;
in vec3 v_normal;
in vec2 v_uv;

uniform sampler2D u_albedo;               // procedural checkerboard, texture unit 0
uniform vec3 u_tint;                      // per-object colour multiplier
uniform float u_shininess;                // Blinn-Phong exponent
uniform vec3 u_eye_pos;                   // camera position, world space
uniform vec3 u_light_pos[LIGHT_COUNT];    // point lights, world space
uniform vec3 u_light_color[LIGHT_COUNT];

out vec4 frag_color;

// Blinn-Phong contribution of point light i, with distance attenuation.
vec3 shade_light(int i, vec3 n, vec3 v, vec3 albedo)
{
    vec3 to_light = u_light_pos[i] - v_world_pos;
    float dist = length(to_light);
    vec3 l = to_light / dist;
    float n_dot_l = dot(n, l);
    float attenuation = 1.0 / (1.0 + 0.04 * dist * dist);
    vec3 result;
    if (n_dot_l > 0.0) {
        // Lit side: diffuse + specular highlight.
        vec3 h = normalize(l + v);
        float spec = pow(max(dot(n, h), 0.0), u_shininess);
        result = (albedo * n_dot_l + vec3(spec * 0.6)) * u_light_color[i];
    } else {
        // Facing away from this light: a faint wrap-around term instead of pure black.
        result = albedo * u_light_color[i] * (0.08 * (1.0 + n_dot_l));
    }
    return result * attenuation;
}

// Cheap tone mapping so two overlapping lights do not clip to white.
vec3 tone_map(vec3 c)
{
    return c / (vec3(1.0) + c);
}

void main()
{
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye_pos - v_world_pos);
    vec3 albedo = texture(u_albedo, v_uv).rgb * u_tint;

    vec3 color = AMBIENT * albedo;
    for (int i = 0; i < LIGHT_COUNT; ++i) {
        color += shade_light(i, n, v, albedo);
    }
    frag_color = vec4(tone_map(color * 1.6), 1.0);
}
