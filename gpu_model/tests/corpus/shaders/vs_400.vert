#version 400 core
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 2) in vec2 a_uv;
out vec4 v_color;
out vec2 v_uv;
flat out int v_id;
noperspective out vec2 v_np;
centroid out vec2 v_c;
void main()
{
    // A perspective w so perspective and noperspective interpolation differ.
    float w = 1.0 + 0.4 * float(gl_VertexID % 3);
    gl_Position = vec4(a_pos.xy * w, 0.0, w);
    v_color = a_color;
    v_uv = a_uv;
    v_id = gl_VertexID;
    v_np = a_uv;
    v_c = a_uv.yx;
}
