/* Mesh generators, see mesh_gen.h. */
#include "mesh_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool mesh_alloc(Mesh *m, size_t vertex_count, size_t index_count)
{
    memset(m, 0, sizeof *m);
    if (vertex_count > 65536)
        return false; /* 16-bit indices */
    m->vertices = calloc(vertex_count, sizeof *m->vertices);
    m->indices = calloc(index_count, sizeof *m->indices);
    if (!m->vertices || !m->indices) {
        mesh_free(m);
        return false;
    }
    m->vertex_count = vertex_count;
    m->index_count = index_count;
    return true;
}

void mesh_free(Mesh *m)
{
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

static int clamp_segments(int n) { return n < 3 ? 3 : n > 128 ? 128 : n; }

bool mesh_make_torus(Mesh *m, float major, float minor, int major_segments, int minor_segments)
{
    int nu = clamp_segments(major_segments), nv = clamp_segments(minor_segments);
    /* One extra column/row duplicates the seam so uv can wrap from 1 back to 0. */
    if (!mesh_alloc(m, (size_t)(nu + 1) * (nv + 1), (size_t)nu * nv * 6))
        return false;
    MeshVertex *v = m->vertices;
    for (int i = 0; i <= nu; ++i) {
        float u = (float)i / nu, a = u * 2.0f * 3.14159265f;
        for (int j = 0; j <= nv; ++j) {
            float t = (float)j / nv, b = t * 2.0f * 3.14159265f;
            float ca = cosf(a), sa = sinf(a), cb = cosf(b), sb = sinf(b);
            v->pos[0] = (major + minor * cb) * ca;
            v->pos[1] = minor * sb;
            v->pos[2] = (major + minor * cb) * sa;
            v->normal[0] = cb * ca;
            v->normal[1] = sb;
            v->normal[2] = cb * sa;
            v->uv[0] = u;
            v->uv[1] = t;
            ++v;
        }
    }
    uint16_t *idx = m->indices;
    for (int i = 0; i < nu; ++i)
        for (int j = 0; j < nv; ++j) {
            uint16_t a = (uint16_t)(i * (nv + 1) + j), b = (uint16_t)((i + 1) * (nv + 1) + j);
            /* Winding chosen so outward faces are counter-clockwise. */
            *idx++ = a;
            *idx++ = (uint16_t)(a + 1);
            *idx++ = b;
            *idx++ = b;
            *idx++ = (uint16_t)(a + 1);
            *idx++ = (uint16_t)(b + 1);
        }
    return true;
}

bool mesh_make_cube(Mesh *m, float h)
{
    if (!mesh_alloc(m, 24, 36))
        return false;
    /* Per face: normal, then the "right" and "up" axes of the face, so that
     * corner = n + s*right + t*up is counter-clockwise when seen from outside. */
    static const float faces[6][3][3] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},   {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
    };
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int f = 0; f < 6; ++f) {
        const float *n = faces[f][0], *r = faces[f][1], *u = faces[f][2];
        for (int c = 0; c < 4; ++c) {
            MeshVertex *v = &m->vertices[f * 4 + c];
            for (int k = 0; k < 3; ++k) {
                v->pos[k] = h * (n[k] + corners[c][0] * r[k] + corners[c][1] * u[k]);
                v->normal[k] = n[k];
            }
            v->uv[0] = (corners[c][0] + 1.0f) * 0.5f;
            v->uv[1] = (corners[c][1] + 1.0f) * 0.5f;
        }
        static const uint16_t quad[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; ++k)
            m->indices[f * 6 + k] = (uint16_t)(f * 4 + quad[k]);
    }
    return true;
}

bool mesh_make_plane(Mesh *m, float h, float uv_repeat)
{
    if (!mesh_alloc(m, 4, 6))
        return false;
    static const float corners[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
    for (int c = 0; c < 4; ++c) {
        MeshVertex *v = &m->vertices[c];
        v->pos[0] = corners[c][0] * h;
        v->pos[2] = corners[c][1] * h;
        v->normal[1] = 1.0f;
        v->uv[0] = (corners[c][0] + 1.0f) * 0.5f * uv_repeat;
        v->uv[1] = (1.0f - corners[c][1]) * 0.5f * uv_repeat;
    }
    static const uint16_t quad[6] = {0, 1, 2, 0, 2, 3};
    memcpy(m->indices, quad, sizeof quad);
    return true;
}
