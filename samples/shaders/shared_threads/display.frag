// shared_threads: fragment shader of the main thread's program: the worker's texture with
// simple diffuse lighting.

in vec3 v_normal;
in vec2 v_uv;

uniform sampler2D u_worker_tex;   // written by the worker thread's context, unit 0
uniform vec3 u_light_dir;

out vec4 frag_color;

void main()
{
    float diffuse = max(dot(normalize(v_normal), u_light_dir), 0.0);
    vec3 albedo = texture(u_worker_tex, v_uv).rgb;
    frag_color = vec4(albedo * (0.3 + 0.7 * diffuse), 1.0);
}
