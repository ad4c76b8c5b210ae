// lit_mesh: vertex shader of the ground plane program.
// Prefix added in code: "#version 330 core" and the same #defines as the mesh program.

layout(location = 0) in vec3 a_position;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;
uniform mat4 u_view_proj;

out vec3 v_world_pos;
out vec2 v_uv;

void main()
{
    vec4 world = u_model * vec4(a_position, 1.0);
    v_world_pos = world.xyz;
    v_uv = a_uv;
    gl_Position = u_view_proj * world;
}
