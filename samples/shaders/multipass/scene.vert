// multipass: vertex shader of the geometry pass (renders into the FBO).
// multipass.c prepends "#version 330 core" and "#define EDGE_TAPS 4".

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;
uniform mat4 u_view;
uniform mat4 u_proj;

out vec3 v_view_pos;     // view space, for lighting and linear depth
out vec3 v_view_normal;
out vec2 v_uv;

void main()
{
    vec4 view_pos = u_view * u_model * vec4(a_position, 1.0);
    v_view_pos = view_pos.xyz;
    v_view_normal = mat3(u_view) * mat3(u_model) * a_normal;
    v_uv = a_uv;
    gl_Position = u_proj * view_pos;
}
