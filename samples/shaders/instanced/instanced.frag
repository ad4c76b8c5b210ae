// instanced: fragment shader. Lambert lighting from the Camera block's light, with a height
// band that highlights instances bobbing above y = HIGHLIGHT_HEIGHT.

// Same block as in the vertex shader: both stages share binding point 0.
layout(std140) uniform Camera {
    mat4 view_proj;
    vec4 light_dir;
    vec4 animation;
};

in vec3 v_normal;
in vec3 v_color;
in float v_height;

out vec4 frag_color;

void main()
{
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, light_dir.xyz), 0.0);
    vec3 color = v_color * (0.25 + 0.75 * diffuse);
    if (v_height > HIGHLIGHT_HEIGHT) {
        color = mix(color, vec3(1.0, 0.95, 0.6), 0.35);   // above the line: warm highlight
    } else {
        color *= 0.85;
    }
    frag_color = vec4(color, 1.0);
}
