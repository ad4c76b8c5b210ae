// instanced: vertex shader. Per-instance data comes from a std140 uniform block indexed by
// gl_InstanceID (plus u_first_instance), and one per-instance attribute (divisor 1).
// instanced.c prepends "#version 330 core" and "#define MAX_INSTANCES 128".

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in float a_phase;   // per instance (glVertexAttribDivisor 1)

// Bound to uniform buffer binding point 0. Layout must match CameraBlock in instanced.c.
layout(std140) uniform Camera {
    mat4 view_proj;
    vec4 light_dir;     // xyz: world-space direction towards the light
    vec4 animation;     // x: frame angle in radians, y: bob height
};

struct Instance {
    vec4 offset_scale;  // xyz: world position, w: uniform scale
    vec4 color;         // rgb: albedo, a: spin speed
};

// Bound to binding point 1. Layout must match InstanceData[] in instanced.c.
layout(std140) uniform Instances {
    Instance instances[MAX_INSTANCES];
};

uniform int u_first_instance;   // where this draw's instances start in the block

out vec3 v_normal;
out vec3 v_color;
out float v_height;

// Rotation about the Y axis.
mat3 rotate_y(float a)
{
    float c = cos(a), s = sin(a);
    return mat3(c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c);
}

void main()
{
    Instance inst = instances[u_first_instance + gl_InstanceID];
    float spin = animation.x * inst.color.a + a_phase;
    mat3 rot = rotate_y(spin);
    vec3 world = rot * (a_position * inst.offset_scale.w) + inst.offset_scale.xyz;
    world.y += animation.y * sin(animation.x * 2.0 + a_phase);
    v_normal = rot * a_normal;
    v_color = inst.color.rgb;
    v_height = world.y;
    gl_Position = view_proj * vec4(world, 1.0);
}
