// legacy_gl21: fragment shader in GLSL 1.10: texture2D, gl_FragColor, a loop over
// LIGHT_COUNT point lights with an if/else, and a helper function. SPECULAR_POWER is a const
// that legacy_gl21.c declares in the prefix, as glmark2 does.

uniform sampler2D MaterialTexture;
uniform vec3 LightPosition[LIGHT_COUNT];
uniform vec3 LightColor[LIGHT_COUNT];
uniform vec3 EyePosition;

varying vec3 v_world_pos;
varying vec3 v_normal;
varying vec2 v_texcoord;

// Diffuse + specular from one light; the specular term only when the surface faces it.
vec3 point_light(vec3 light_pos, vec3 light_color, vec3 n, vec3 v, vec3 albedo)
{
    vec3 l = normalize(light_pos - v_world_pos);
    float ndl = dot(n, l);
    vec3 c;
    if (ndl > 0.0) {
        vec3 r = reflect(-l, n);
        float spec = pow(max(dot(r, v), 0.0), SPECULAR_POWER);
        c = light_color * (albedo * ndl + vec3(0.5 * spec));
    } else {
        c = vec3(0.0);
    }
    return c;
}

void main(void)
{
    vec3 n = normalize(v_normal);
    vec3 v = normalize(EyePosition - v_world_pos);
    vec3 albedo = texture2D(MaterialTexture, v_texcoord).rgb;
    vec3 color = albedo * 0.12;
    for (int i = 0; i < LIGHT_COUNT; i++) {
        color += point_light(LightPosition[i], LightColor[i], n, v, albedo);
    }
    gl_FragColor = vec4(min(color, vec3(1.0)), 1.0);
}
