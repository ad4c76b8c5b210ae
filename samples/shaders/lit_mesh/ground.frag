// lit_mesh: fragment shader of the ground plane program.
// Tiled mipmapped texture, diffuse light from light 0, a soft blob shadow under the torus and
// distance fog that fades into the sky's horizon colour.

in vec3 v_world_pos;
in vec2 v_uv;

uniform sampler2D u_ground_tex;   // texture unit 1, GL_REPEAT + mipmaps
uniform vec3 u_light_pos[LIGHT_COUNT];
uniform vec3 u_light_color[LIGHT_COUNT];
uniform vec3 u_shadow_center;     // world position under the torus
uniform vec3 u_fog_color;
uniform float u_fog_distance;     // where fog is complete

out vec4 frag_color;

// 0 inside the blob shadow, rising to 1 at its edge.
float blob_shadow(vec3 p)
{
    float d = distance(p.xz, u_shadow_center.xz);
    float shade;
    if (d < 1.0) {
        shade = 0.45 + 0.55 * d * d;
    } else {
        shade = 1.0;
    }
    return shade;
}

void main()
{
    vec3 albedo = texture(u_ground_tex, v_uv).rgb;
    vec3 l = normalize(u_light_pos[0] - v_world_pos);
    float diffuse = max(l.y, 0.0);  // the ground normal is +Y
    vec3 color = albedo * (AMBIENT + diffuse * u_light_color[0]) * blob_shadow(v_world_pos);
    float fog = clamp(length(v_world_pos.xz) / u_fog_distance, 0.0, 1.0);
    frag_color = vec4(mix(color, u_fog_color, fog * fog), 1.0);
}
