// multipass: fragment shader of the geometry pass. Writes two colour attachments:
//   location 0: lit colour (RGBA8)
//   location 1: view-space normal packed to 0..1 in rgb, linear depth 0..1 in alpha (RGBA8)

in vec3 v_view_pos;
in vec3 v_view_normal;
in vec2 v_uv;

uniform sampler2D u_pattern;   // procedural rings texture, unit 0
uniform vec3 u_base_color;
uniform vec3 u_light_dir;      // view space, normalized, towards the light
uniform float u_far;           // distance mapped to depth 1.0

layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_normal_depth;

void main()
{
    vec3 n = normalize(v_view_normal);
    float diffuse = max(dot(n, u_light_dir), 0.0);
    vec3 pattern = texture(u_pattern, v_uv).rgb;
    vec3 color = u_base_color * pattern * (0.2 + 0.8 * diffuse);
    out_color = vec4(color, 1.0);
    out_normal_depth = vec4(n * 0.5 + 0.5, clamp(-v_view_pos.z / u_far, 0.0, 1.0));
}
