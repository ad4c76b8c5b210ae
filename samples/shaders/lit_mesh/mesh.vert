// lit_mesh: vertex shader of the lit, textured mesh program (torus and orbiting cubes).
// lit_mesh.c prepends "#version 330 core" and #defines (LIGHT_COUNT, AMBIENT) before this
// file, so line 1 here is line 1 + (prefix lines) in the driver's numbering.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;      // object to world (rotation + uniform scale only)
uniform mat4 u_view_proj;  // world to clip

out vec3 v_world_pos;
out vec3 v_normal;
out vec2 v_uv;

void main()
{
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world_pos = world.xyz;
    // No non-uniform scale, so the model matrix's upper 3x3 transforms normals correctly.
    v_normal = mat3(u_model) * a_normal;
    v_uv = a_uv;
    gl_Position = u_view_proj * world;
}
