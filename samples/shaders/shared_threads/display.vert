// shared_threads: vertex shader of the main thread's program (a cube showing the texture the
// worker thread rendered this frame).

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;
uniform mat4 u_view_proj;

out vec3 v_normal;
out vec2 v_uv;

void main()
{
    v_normal = mat3(u_model) * a_normal;
    v_uv = a_uv;
    gl_Position = u_view_proj * u_model * vec4(a_position, 1.0);
}
