/* compute_sample: compute shaders whose results are drawn, for the GPU model's e2e test
 * (`glreplay model --compare` must agree with llvmpipe). EGL surfaceless with a pbuffer, GL 4.3
 * core, no X server. Each frame:
 *  1. a workgroup prefix sum (Hillis-Steele scan in `shared` memory, barrier() between steps,
 *     128 invocations = 4 warps per group, 2 groups) of per-vertex weights, turned into the
 *     vertex positions of a fan of triangles written to an SSBO, plus an SSBO atomic counter;
 *  2. a 16x16-tile transpose through shared memory (256 invocations = 8 warps per group) of a
 *     pattern generated from an SSBO, written with imageStore into an RGBA8 texture;
 *  3. glDispatchComputeIndirect (group count from a DISPATCH_INDIRECT buffer) adding a
 *     workgroup reduction into the SSBO; then imageLoad of that texture and imageAtomicAdd
 *     into an R32UI histogram texture;
 *  4. glMemoryBarrier, then draws: vertex positions fetched from the SSBO written in 1
 *     (bound as the vertex buffer), colours from the texture written in 2, the histogram of 3
 *     (texelFetch) and the SSBO values of 1 and 3 read in the fragment shader.
 * Usage: compute_sample [--frames N] [--size WxH] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../tests/support/gl_test_util.h"

#define VERTS 256 /* fan: 2 groups x 128 */

static const char *scan_src =
    "#version 430 core\n"
    "layout(local_size_x = 128) in;\n"
    "layout(std430, binding = 0) buffer Pos { vec4 pos[]; };\n"
    "layout(std430, binding = 1) buffer Stats { uint count; uint total; uint reduce; uint pad; };\n"
    "uniform int frame;\n"
    "shared uint sums[2][128];\n"
    "void main() {\n"
    "  uint i = gl_LocalInvocationID.x;\n"
    "  uint w = (gl_GlobalInvocationID.x * 7u + uint(frame) * 3u) % 5u + 1u;\n"
    "  if (i < 32u)  /* the first warp is late (memory loads; pad is 0): the other warps */\n"
    "    for (int k = 0; k < 12; k++) w += pad * uint(k);  /* must wait at barrier() */\n"
    "  sums[0][i] = w;\n"
    "  barrier();\n"
    "  uint src = 0u;\n"
    "  for (uint off = 1u; off < 128u; off <<= 1) {\n"
    "    uint v = sums[src][i];\n"
    "    if (i >= off) v += sums[src][i - off];\n"
    "    sums[1u - src][i] = v;\n"
    "    src = 1u - src;\n"
    "    barrier();\n"
    "  }\n"
    "  uint prefix = sums[src][i];\n"
    "  uint last = sums[src][127];\n"
    "  float a = 6.2831853 * float(prefix) / float(last);\n"
    "  float r = (gl_WorkGroupID.x == 0u ? 0.85 : 0.5) + 0.04 * float(i % 3u);\n"
    "  pos[gl_GlobalInvocationID.x] = vec4(r * cos(a), r * sin(a), float(gl_WorkGroupID.x) * 0.5, 1.0);\n"
    "  atomicAdd(count, 1u);\n"
    "  if (i == 0u) atomicAdd(total, last);\n"
    "}\n";

static const char *transpose_src =
    "#version 430 core\n"
    "layout(local_size_x = 16, local_size_y = 16) in;\n"
    "layout(std430, binding = 2) buffer Src { uint texels[]; };\n"
    "layout(rgba8, binding = 0) uniform writeonly image2D img;\n"
    "shared uint tile[16][17];\n"
    "void main() {\n"
    "  uvec2 l = gl_LocalInvocationID.xy;\n"
    "  uvec2 g = gl_GlobalInvocationID.xy;\n"
    "  tile[l.y][l.x] = texels[g.y * 32u + g.x];\n"
    "  barrier();\n"
    "  uint v = tile[l.x][l.y];\n"
    "  uvec2 o = gl_WorkGroupID.yx * 16u + l;\n"
    "  imageStore(img, ivec2(o), unpackUnorm4x8(v));\n"
    "}\n";

static const char *reduce_src =
    "#version 430 core\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 1) buffer Stats { uint count; uint total; uint reduce; uint pad; };\n"
    "shared uint part[64];\n"
    "void main() {\n"
    "  uint i = gl_LocalInvocationIndex;\n"
    "  part[i] = gl_GlobalInvocationID.x + gl_NumWorkGroups.x;\n"
    "  memoryBarrierShared();\n"
    "  barrier();\n"
    "  for (uint s = 32u; s > 0u; s >>= 1) {\n"
    "    if (i < s) part[i] += part[i + s];\n"
    "    barrier();\n"
    "  }\n"
    "  if (i == 0u) atomicAdd(reduce, part[0]);\n"
    "}\n";

static const char *hist_src =
    "#version 430 core\n"
    "layout(local_size_x = 8, local_size_y = 8) in;\n"
    "layout(rgba8, binding = 0) readonly uniform image2D img;\n"
    "layout(r32ui, binding = 1) uniform uimage2D hist;\n"
    "void main() {\n"
    "  vec4 c = imageLoad(img, ivec2(gl_GlobalInvocationID.xy) * 2);\n"
    "  imageAtomicAdd(hist, ivec2(int(c.r * 7.99), int(c.g * 3.99)), 1u);\n"
    "}\n";

static const char *vs_src =
    "#version 430 core\n"
    "layout(location = 0) in vec4 p;\n"
    "out vec2 uv;\n"
    "void main() { uv = p.xy * 0.5 + 0.5; gl_Position = vec4(p.xy, p.z, 1.0); }\n";

static const char *fs_src =
    "#version 430 core\n"
    "in vec2 uv;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(binding = 1) uniform usampler2D hist;\n"
    "layout(std430, binding = 1) buffer Stats { uint count; uint total; uint reduce; uint pad; };\n"
    "out vec4 frag;\n"
    "void main() {\n"
    "  vec4 t = texture(tex, uv);\n"
    "  float c = float(count % 256u) / 255.0;\n"
    "  float r = float(reduce % 251u) / 250.0;\n"
    "  uint h = texelFetch(hist, ivec2(3, 1), 0).r + 2u * texelFetch(hist, ivec2(5, 2), 0).r;\n"
    "  frag = vec4(t.rgb * 0.6 + vec3(c, r, float(total % 97u) / 96.0) * 0.2 +\n"
    "              vec3(float(h % 13u) / 12.0) * 0.2, 1.0);\n"
    "}\n";


static GLuint program(const char *a, GLenum ta, const char *b, GLenum tb)
{
    return glt_program("compute_sample", ta, a, tb, b);
}

int main(int argc, char **argv)
{
    int frames = 3, width = 160, height = 90;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "compute_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: compute_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "compute_sample", width, height, 24, 4, 3, 1) != 0)
        return 1;

    GLuint scan = program(scan_src, GL_COMPUTE_SHADER, NULL, 0);
    GLuint transpose = program(transpose_src, GL_COMPUTE_SHADER, NULL, 0);
    GLuint reduce = program(reduce_src, GL_COMPUTE_SHADER, NULL, 0);
    GLuint histp = program(hist_src, GL_COMPUTE_SHADER, NULL, 0);
    GLuint draw = program(vs_src, GL_VERTEX_SHADER, fs_src, GL_FRAGMENT_SHADER);
    GLint u_frame = glGetUniformLocation(scan, "frame");
    /* The draw program names its block's binding through the API (the compute programs rely
     * on layout(binding) alone). */
    glShaderStorageBlockBinding(draw, glGetProgramResourceIndex(draw, GL_SHADER_STORAGE_BLOCK, "Stats"), 1);

    GLuint bufs[4];
    glGenBuffers(4, bufs);
    GLuint pos = bufs[0], stats = bufs[1], src = bufs[2], ind = bufs[3];
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, pos);
    glBufferData(GL_SHADER_STORAGE_BUFFER, VERTS * 16, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, stats);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 16, NULL, GL_DYNAMIC_DRAW);
    uint32_t texels[32 * 32];
    for (int i = 0; i < 32 * 32; i++) {
        int x = i % 32, y = i / 32;
        texels[i] = (uint32_t)(((x * 8) & 255) | (((y * 8) & 255) << 8) |
                               ((((x ^ y) & 4) ? 200u : 40u) << 16) | (255u << 24));
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, src);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof texels, texels, GL_STATIC_DRAW);
    const uint32_t groups[3] = { 3, 1, 1 };
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, ind);
    glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof groups, groups, GL_STATIC_DRAW);

    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);

    /* 8x4 r32ui histogram of the transposed image, counted with imageAtomicAdd. */
    GLuint hist;
    glGenTextures(1, &hist);
    glBindTexture(GL_TEXTURE_2D, hist);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, 8, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, pos);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, (void *)0);
    glEnableVertexAttribArray(0);

    for (int f = 0; f < frames; f++) {
        const uint32_t zero[4] = { 0, 0, 0, 0 };
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, stats);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof zero, zero);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, pos);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, stats);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, src);

        glUseProgram(scan);
        glUniform1i(u_frame, f);
        glDispatchCompute(VERTS / 128, 1, 1);

        glUseProgram(transpose);
        glBindImageTexture(0, tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
        glDispatchCompute(2, 2, 1);

        glUseProgram(reduce);
        glDispatchComputeIndirect(0);

        /* The histogram starts at the frame index in every bin (an upload per frame). */
        uint32_t bins[8 * 4];
        for (int i = 0; i < 8 * 4; i++)
            bins[i] = (uint32_t)f;
        glBindTexture(GL_TEXTURE_2D, hist);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 4, GL_RED_INTEGER, GL_UNSIGNED_INT, bins);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        glUseProgram(histp);
        glBindImageTexture(0, tex, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
        glBindImageTexture(1, hist, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
        glDispatchCompute(2, 2, 1);

        glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                        GL_SHADER_STORAGE_BARRIER_BIT);

        glViewport(0, 0, width, height);
        glEnable(GL_DEPTH_TEST);
        glClearColor(0.1f, 0.12f, 0.15f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glUseProgram(draw);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, hist);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, tex);
        glBindVertexArray(vao);
        glDrawArrays(GL_TRIANGLE_FAN, 0, VERTS / 2);
        glDrawArrays(GL_TRIANGLE_FAN, VERTS / 2, VERTS / 2);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glFinish();
    if (getenv("COMPUTE_SAMPLE_HIST")) {
        uint32_t h[32];
        glBindTexture(GL_TEXTURE_2D, hist);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, h);
        for (int i = 0; i < 32; i++)
            printf("%u%c", h[i], i % 8 == 7 ? '\n' : ' ');
    }
    uint32_t st[4];
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, stats);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof st, st);
    printf("compute_sample: count %u total %u reduce %u\n", st[0], st[1], st[2]);
    glt_egl_close(&egl);
    return st[0] == VERTS ? 0 : 1;
}
