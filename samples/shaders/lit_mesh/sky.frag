// lit_mesh: fragment shader of the sky program: vertical gradient plus a sun disc.

in vec2 v_screen;

uniform vec3 u_horizon_color;
uniform vec3 u_zenith_color;
uniform vec2 u_sun_screen;   // sun centre in 0..1 screen coordinates
uniform float u_aspect;      // width / height, keeps the sun round

out vec4 frag_color;

void main()
{
    float t = clamp((v_screen.y - 0.45) * 2.0, 0.0, 1.0);   // horizon colour below ~45%
    vec3 color = mix(u_horizon_color, u_zenith_color, t);
    vec2 d = (v_screen - u_sun_screen) * vec2(u_aspect, 1.0);
    float r = length(d);
    if (r < 0.05) {
        color = vec3(1.0, 0.95, 0.8);                            // the disc
    } else {
        color += vec3(1.0, 0.8, 0.5) * 0.25 * exp(-r * 8.0);     // the glow
    }
    frag_color = vec4(color, 1.0);
}
