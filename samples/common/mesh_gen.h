/* Procedural meshes for the samples: interleaved position/normal/uv vertices and 16-bit indices
 * (triangle lists, counter-clockwise front faces). Generated in code so the samples need no
 * asset files and every run uploads exactly the same bytes. */
#ifndef SAMPLES_MESH_GEN_H
#define SAMPLES_MESH_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct MeshVertex {
    float pos[3];
    float normal[3];
    float uv[2];
} MeshVertex;

typedef struct Mesh {
    MeshVertex *vertices;
    size_t vertex_count;
    uint16_t *indices;
    size_t index_count;
} Mesh;

/* Torus around the Y axis: ring radius `major`, tube radius `minor`. Segment counts are
 * clamped to [3, 128]. */
bool mesh_make_torus(Mesh *m, float major, float minor, int major_segments, int minor_segments);
/* Axis-aligned cube centred at the origin with 4 vertices per face (flat normals). */
bool mesh_make_cube(Mesh *m, float half_extent);
/* Plane in XZ at y = 0 facing +Y; uv spans [0, uv_repeat]. */
bool mesh_make_plane(Mesh *m, float half_extent, float uv_repeat);
void mesh_free(Mesh *m);

#endif
