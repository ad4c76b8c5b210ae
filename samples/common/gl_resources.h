/* Uploading generated meshes and textures to GL objects (GL 3.3 core / GLES 3.0 paths).
 * The legacy GL 2.1 sample does not use these: it keeps its data in client memory. */
#ifndef SAMPLES_GL_RESOURCES_H
#define SAMPLES_GL_RESOURCES_H

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

#include "mesh_gen.h"

/* Attribute locations used by every sample's vertex shaders (layout(location = N)). */
enum { ATTR_POSITION = 0, ATTR_NORMAL = 1, ATTR_UV = 2 };

typedef struct GpuMesh {
    GLuint vao, vbo, ibo;
    GLsizei index_count;
} GpuMesh;

/* Creates a VAO with an interleaved VBO (position, normal, uv at ATTR_*) and an index buffer. */
GpuMesh gl_mesh_upload(const Mesh *mesh);
/* glBindVertexArray + glDrawElements of the whole mesh. */
void gl_mesh_draw(const GpuMesh *m);
void gl_mesh_draw_instanced(const GpuMesh *m, GLsizei instances);
void gl_mesh_destroy(GpuMesh *m);

/* Creates a 2D RGBA8 texture from `pixels` (w x h, rows bottom-up as GL expects), with
 * GL_REPEAT wrapping. mipmaps: glGenerateMipmap + trilinear filtering; else bilinear. */
GLuint gl_texture_rgba8(int w, int h, const uint8_t *pixels, bool mipmaps);

#endif
