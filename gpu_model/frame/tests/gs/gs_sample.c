/* gs_sample: geometry shaders for the GPU model's e2e test (`glreplay model --compare` must agree
 * with llvmpipe draw by draw). EGL surfaceless pbuffer, GL 4.3 core, no X server. Each frame:
 *  1. points expanded to quads (triangle_strip out) with a per-vertex colour array input and
 *     blending on, so the quads' order shows;
 *  2. an indexed triangle strip with primitive restart turned into a wireframe (line_strip
 *     out) with a flat integer varying (provoking vertex), shaded by gl_PrimitiveIDIn (which
 *     goes on counting after a restart);
 *  3. GL_TRIANGLES_ADJACENCY: the GS colours each triangle by its adjacent vertices and passes
 *     gl_PrimitiveIDIn on as gl_PrimitiveID, which the FS reads;
 *  4. an instanced draw (gl_InstanceID in the VS) through a GS with invocations = 2
 *     (gl_InvocationID shifts each copy), interface blocks in and out, blending on; the second
 *     triangle overlaps the first one's second copy, so the order of the copies shows;
 *  5. GL_LINE_STRIP_ADJACENCY into lines_adjacency, expanded to thick quads;
 *  6. points into 5-vertex strips with a flat colour per vertex under
 *     glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
 *  7. MANY_POINTS overlapping points through the quad GS with blending: many GS warps (32
 *     lanes each) in flight in the timing model at once, so their output order shows.
 * Usage: gs_sample [--frames N] [--size WxH] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../../tests/support/gl_test_util.h"

static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec4 pos;\n"
    "layout(location = 1) in vec4 col;\n"
    "out vec4 vcol;\n"
    "uniform vec2 shift;\n"
    "void main() { gl_Position = pos + vec4(shift * float(gl_InstanceID), 0.0, 0.0); vcol = col; }\n";

/* 1: points -> quads */
static const char *quad_gs =
    "#version 330 core\n"
    "layout(points) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "in vec4 vcol[];\n"
    "out vec4 fcol;\n"
    "uniform float size;\n"
    "void main() {\n"
    "  vec4 p = gl_in[0].gl_Position;\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    vec2 o = vec2(i & 1, i >> 1) * 2.0 - 1.0;\n"
    "    gl_Position = p + vec4(o * size * vec2(0.6, 1.0), 0.0, 0.0);\n"
    "    fcol = vec4(vcol[0].rgb * (0.6 + 0.2 * float(i)), 0.6);\n"
    "    EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";
static const char *col_fs =
    "#version 330 core\n"
    "in vec4 fcol; out vec4 o;\n"
    "void main() { o = fcol; }\n";

/* 2: triangles -> wireframe, flat integer varying */
static const char *wire_gs =
    "#version 330 core\n"
    "layout(triangles) in;\n"
    "layout(line_strip, max_vertices = 4) out;\n"
    "in vec4 vcol[];\n"
    "out vec4 fcol;\n"
    "flat out int edge;\n"
    "void main() {\n"
    "  for (int i = 0; i < 4; i++) {\n"
    "    gl_Position = gl_in[i % 3].gl_Position;\n"
    "    fcol = vcol[i % 3] * (1.0 - 0.1 * float(gl_PrimitiveIDIn));\n"
    "    edge = i;\n"
    "    EmitVertex();\n"
    "  }\n"
    "}\n";
static const char *wire_fs =
    "#version 330 core\n"
    "in vec4 fcol; flat in int edge; out vec4 o;\n"
    "void main() { o = vec4(fcol.rgb, 1.0) * (0.5 + 0.15 * float(edge)); }\n";

/* 3: triangles with adjacency, gl_PrimitiveID */
static const char *adj_gs =
    "#version 330 core\n"
    "layout(triangles_adjacency) in;\n"
    "layout(triangle_strip, max_vertices = 3) out;\n"
    "in vec4 vcol[];\n"
    "out vec4 fcol;\n"
    "void main() {\n"
    "  vec4 adj = (vcol[1] + vcol[3] + vcol[5]) / 3.0;\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Position = gl_in[2 * i].gl_Position;\n"
    "    fcol = mix(vcol[2 * i], adj, 0.5);\n"
    "    gl_PrimitiveID = gl_PrimitiveIDIn + 1;\n"
    "    EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";
static const char *adj_fs =
    "#version 330 core\n"
    "in vec4 fcol; out vec4 o;\n"
    "void main() { o = vec4(fcol.rg, float(gl_PrimitiveID) / 8.0, 1.0); }\n";

/* 4: instanced GS (invocations = 2), interface blocks */
static const char *blk_vs =
    "#version 400 core\n"
    "layout(location = 0) in vec4 pos;\n"
    "layout(location = 1) in vec4 col;\n"
    "out VS_OUT { vec4 color; vec2 uv; } vs_out;\n"
    "uniform vec2 shift;\n"
    "void main() {\n"
    "  gl_Position = pos + vec4(shift * float(gl_InstanceID), 0.0, 0.0);\n"
    "  vs_out.color = col; vs_out.uv = pos.xy;\n"
    "}\n";
static const char *inv_gs =
    "#version 400 core\n"
    "layout(triangles, invocations = 2) in;\n"
    "layout(triangle_strip, max_vertices = 3) out;\n"
    "in VS_OUT { vec4 color; vec2 uv; } gs_in[];\n"
    "out GS_OUT { vec4 color; } gs_out;\n"
    "void main() {\n"
    "  for (int i = 0; i < 3; i++) {\n"
    "    gl_Position = gl_in[i].gl_Position + vec4(0.15 * float(gl_InvocationID), 0.0, 0.0, 0.0);\n"
    "    gs_out.color = vec4(gs_in[i].color.rgb * (gl_InvocationID == 0 ? 1.0 : 0.5)\n"
    "                        + vec3(gs_in[i].uv, 0.0) * 0.2, 0.5);\n"
    "    EmitVertex();\n"
    "  }\n"
    "  EndPrimitive();\n"
    "}\n";
static const char *blk_fs =
    "#version 400 core\n"
    "in GS_OUT { vec4 color; } fs_in;\n"
    "out vec4 o;\n"
    "void main() { o = fs_in.color; }\n";

/* 5: line strip with adjacency -> thick quads */
static const char *ladj_gs =
    "#version 330 core\n"
    "layout(lines_adjacency) in;\n"
    "layout(triangle_strip, max_vertices = 4) out;\n"
    "in vec4 vcol[];\n"
    "out vec4 fcol;\n"
    "void main() {\n"
    "  vec2 a = gl_in[1].gl_Position.xy, b = gl_in[2].gl_Position.xy;\n"
    "  vec2 d = normalize(gl_in[3].gl_Position.xy - gl_in[0].gl_Position.xy);\n"
    "  vec2 n = vec2(-d.y, d.x) * 0.03;\n"
    "  gl_Position = vec4(a - n, 0.0, 1.0); fcol = vcol[1]; EmitVertex();\n"
    "  gl_Position = vec4(a + n, 0.0, 1.0); fcol = vcol[1]; EmitVertex();\n"
    "  gl_Position = vec4(b - n, 0.0, 1.0); fcol = vcol[2]; EmitVertex();\n"
    "  gl_Position = vec4(b + n, 0.0, 1.0); fcol = vcol[2]; EmitVertex();\n"
    "}\n";

/* 6: flat colours of a strip's vertices with the first-vertex provoking convention */
static const char *flat_gs =
    "#version 330 core\n"
    "layout(points) in;\n"
    "layout(triangle_strip, max_vertices = 5) out;\n"
    "flat out vec4 fc;\n"
    "void main() {\n"
    "  vec4 p = gl_in[0].gl_Position;\n"
    "  for (int i = 0; i < 5; i++) {\n"
    "    gl_Position = p + vec4(0.05 * float(i) - 0.1, (i & 1) == 1 ? 0.08 : -0.08, 0.0, 0.0);\n"
    "    fc = vec4(float(i) / 4.0, 1.0 - float(i) / 4.0, float(i & 1), 1.0);\n"
    "    EmitVertex();\n"
    "  }\n"
    "}\n";
static const char *flat_fs =
    "#version 330 core\n"
    "flat in vec4 fc; out vec4 o;\n"
    "void main() { o = fc; }\n";

static GLuint program3(const char *vs, const char *gs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, glt_shader("gs_sample", GL_VERTEX_SHADER, vs));
    glAttachShader(p, glt_shader("gs_sample", GL_GEOMETRY_SHADER, gs));
    glAttachShader(p, glt_shader("gs_sample", GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "gs_sample: link failed: %s\n", log);
        exit(1);
    }
    return p;
}

typedef struct { float pos[4], col[4]; } vtx;

#define MANY_POINTS 320   /* draw 7: ten GS warps */

static vtx mk(float x, float y, float r, float g, float b)
{
    vtx v = { { x, y, 0.0f, 1.0f }, { r, g, b, 1.0f } };
    return v;
}

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "gs_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: gs_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "gs_sample", width, height, 24, 4, 3, 1) != 0)
        return 1;
    GLuint quad = program3(vs_src, quad_gs, col_fs), wire = program3(vs_src, wire_gs, wire_fs);
    GLuint adj = program3(vs_src, adj_gs, adj_fs), inv = program3(blk_vs, inv_gs, blk_fs);
    GLuint ladj = program3(vs_src, ladj_gs, col_fs), flat = program3(vs_src, flat_gs, flat_fs);
    GLint quad_size = glGetUniformLocation(quad, "size");
    GLint shift_loc[5] = { glGetUniformLocation(quad, "shift"), glGetUniformLocation(wire, "shift"),
                           glGetUniformLocation(adj, "shift"), glGetUniformLocation(inv, "shift"),
                           glGetUniformLocation(ladj, "shift") };
    GLuint progs[5] = { quad, wire, adj, inv, ladj };
    GLuint vao, vbo, ibo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glGenBuffers(1, &ibo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)(4 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    /* strip indices with a restart in the middle */
    const GLushort idx[] = { 20, 21, 22, 23, 24, 0xffff, 25, 26, 27, 28 };
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    vtx v[56 + MANY_POINTS];
    for (int f = 0; f < frames; f++) {
        float t = 0.2f * (float)f;
        int n = 0;
        /* 0..11: points in a ring (draw 1) */
        for (int i = 0; i < 12; i++) {
            float a = t + 6.2831853f * (float)i / 12.0f;
            v[n++] = mk(0.5f * cosf(a), 0.5f * sinf(a), 0.5f + 0.5f * cosf(a), 0.5f + 0.5f * sinf(a),
                        (float)(i % 3) / 2.0f);
        }
        while (n < 20)
            v[n++] = mk(0, 0, 0, 0, 0);
        /* 20..28: strip vertices (draw 2) */
        for (int i = 0; i < 9; i++)
            v[n++] = mk(-0.9f + 0.2f * (float)i + 0.05f * t, (i & 1) ? -0.2f : -0.7f,
                        (float)(i & 1), 0.3f + 0.07f * (float)i, 1.0f - 0.1f * (float)i);
        while (n < 32)
            v[n++] = mk(0, 0, 0, 0, 0);
        /* 32..43: two triangles with adjacency (draw 3) */
        for (int k = 0; k < 2; k++) {
            float ox = -0.8f + 0.9f * (float)k + 0.1f * t, oy = 0.1f;
            float tri[6][2] = { { 0, 0 }, { 0.2f, -0.2f }, { 0.4f, 0 }, { 0.45f, 0.3f },
                                { 0.2f, 0.5f }, { -0.1f, 0.3f } };
            for (int i = 0; i < 6; i++)
                v[n++] = mk(ox + tri[i][0], oy + tri[i][1], (float)(i % 2), 0.2f * (float)i,
                            (float)k);
        }
        /* 44..49: triangles for the instanced GS (draw 4) */
        v[n++] = mk(-0.7f, -0.9f, 1, 0, 0);
        v[n++] = mk(-0.2f, -0.9f + 0.1f * t, 0, 1, 0);
        v[n++] = mk(-0.45f, -0.3f, 0, 0, 1);
        /* the second triangle overlaps the first one's invocation-1 copy: the blend shows
         * whether the copies come invocation-major (llvmpipe) or primitive-major */
        v[n++] = mk(-0.5f, -0.8f, 1, 1, 0);
        v[n++] = mk(0.0f, -0.7f, 0, 1, 1);
        v[n++] = mk(-0.3f + 0.05f * t, -0.2f, 1, 0, 1);
        /* 50..55: a line strip with adjacency (draw 5) */
        for (int i = 0; i < 6; i++)
            v[n++] = mk(-0.9f + 0.35f * (float)i, 0.8f - 0.25f * (float)(i & 1) - 0.05f * t,
                        1.0f - 0.15f * (float)i, 0.5f, 0.15f * (float)i);
        /* 56..: overlapping points (draw 7), scattered by a small LCG */
        uint32_t seed = 12345u + (uint32_t)f;
        for (int i = 0; i < MANY_POINTS; i++) {
            float c[5];
            for (int k = 0; k < 5; k++) {
                seed = seed * 1664525u + 1013904223u;
                c[k] = (float)(seed >> 8) / 16777216.0f;
            }
            v[n++] = mk(1.6f * c[0] - 0.8f, 1.6f * c[1] - 0.8f, c[2], c[3], c[4]);
        }
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(vtx) * (size_t)n), v, GL_STREAM_DRAW);
        glViewport(0, 0, width, height);
        glClearColor(0.1f, 0.1f, 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        for (int p = 0; p < 5; p++) {
            glUseProgram(progs[p]);
            glUniform2f(shift_loc[p], 0.0f, 0.0f);
        }
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUseProgram(quad);
        glUniform1f(quad_size, 0.12f);
        glDrawArrays(GL_POINTS, 0, 12);
        glDisable(GL_BLEND);
        glUseProgram(wire);
        glEnable(GL_PRIMITIVE_RESTART);
        glPrimitiveRestartIndex(0xffff);
        glDrawElements(GL_TRIANGLE_STRIP, 10, GL_UNSIGNED_SHORT, (void *)0);
        glDisable(GL_PRIMITIVE_RESTART);
        glUseProgram(adj);
        glDrawArrays(GL_TRIANGLES_ADJACENCY, 32, 12);
        glEnable(GL_BLEND);
        glUseProgram(inv);
        glUniform2f(shift_loc[3], 0.05f, 0.1f);
        glDrawArraysInstanced(GL_TRIANGLES, 44, 6, 2);
        glDisable(GL_BLEND);
        glUseProgram(ladj);
        glDrawArrays(GL_LINE_STRIP_ADJACENCY, 50, 6);
        glUseProgram(flat);
        glProvokingVertex(GL_FIRST_VERTEX_CONVENTION);
        glDrawArrays(GL_POINTS, 0, 12);
        glProvokingVertex(GL_LAST_VERTEX_CONVENTION);
        glEnable(GL_BLEND);
        glUseProgram(quad);
        glUniform1f(quad_size, 0.1f);
        glDrawArrays(GL_POINTS, 56, MANY_POINTS);
        glDisable(GL_BLEND);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glt_egl_close(&egl);
    return 0;
}
