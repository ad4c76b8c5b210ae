// gles3_egl: vertex shader (OpenGL ES 3.0). gles3_egl.c prepends "#version 300 es" and
// "#define FOG_DENSITY 0.06"; the precision statement lives here, as in most ES code.
precision highp float;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

uniform mat4 u_model;
uniform mat4 u_view;
uniform mat4 u_proj;

out vec3 v_normal;
out vec2 v_uv;
out float v_view_depth;

void main()
{
    vec4 view_pos = u_view * u_model * vec4(a_position, 1.0);
    v_normal = mat3(u_model) * a_normal;
    v_uv = a_uv;
    v_view_depth = -view_pos.z;
    gl_Position = u_proj * view_pos;
}
