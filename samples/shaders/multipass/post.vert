// multipass: vertex shader of the post-process pass: one screen-covering triangle from
// gl_VertexID (no vertex buffer).

out vec2 v_uv;

void main()
{
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_uv = corner * 0.5 + 0.5;
    gl_Position = vec4(corner, 0.0, 1.0);
}
