// shared_threads: vertex shader of the worker thread's program. One screen-covering triangle
// from gl_VertexID, rendered into the shared texture through the worker's own FBO.
// shared_threads.c prepends "#version 330 core" and "#define BLOB_COUNT 3".

out vec2 v_pos;   // -1..1 across the texture

void main()
{
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_pos = corner;
    gl_Position = vec4(corner, 0.0, 1.0);
}
