// lit_mesh: vertex shader of the sky program. No vertex buffer: a single triangle covering the
// screen is generated from gl_VertexID, placed on the far plane (z = w) so it only fills
// pixels that nothing else covered (drawn last with depth func GL_LEQUAL).

out vec2 v_screen;  // 0..1 across the visible screen

void main()
{
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_screen = corner * 0.5 + 0.5;
    gl_Position = vec4(corner, 1.0, 1.0);
}
