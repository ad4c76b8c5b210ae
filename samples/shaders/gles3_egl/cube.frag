// gles3_egl: fragment shader (OpenGL ES 3.0): textured, two-sided-ish diffuse light, with
// exponential fog. mediump is enough for colours on a mobile GPU.
precision mediump float;

in vec3 v_normal;
in vec2 v_uv;
in float v_view_depth;

uniform sampler2D u_tex;       // checkerboard, unit 0
uniform vec3 u_light_dir;      // world space, towards the light
uniform vec3 u_tint;
uniform vec3 u_fog_color;

out vec4 frag_color;

float fog_factor(float depth)
{
    return exp(-FOG_DENSITY * depth * depth * 0.1);
}

void main()
{
    vec3 n = normalize(v_normal);
    float ndl = dot(n, u_light_dir);
    float light;
    if (ndl > 0.0) {
        light = 0.3 + 0.7 * ndl;
    } else {
        light = 0.3 + 0.1 * ndl;   // unlit side: a little darker than ambient
    }
    vec3 color = texture(u_tex, v_uv).rgb * u_tint * light;
    frag_color = vec4(mix(u_fog_color, color, fog_factor(v_view_depth)), 1.0);
}
