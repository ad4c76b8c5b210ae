/* bench_alu: throughput of the SIMT executor on an ALU-heavy fragment-like shader.
 * Prints warp instructions/s and lane instructions/s on one thread (not a test: it
 * asserts nothing about time). Usage: bench_alu [warps] */
#include "gpu_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *shader =
    "#version 450\n"
    "layout(location=0) in vec2 uv;\n"
    "layout(location=0) out vec4 o;\n"
    "uniform float time;\n"
    "void main() {\n"
    "  vec3 c = vec3(uv, 0.5);\n"
    "  for (int i = 0; i < 16; i++) {\n"
    "    c = fract(c * 1.7 + vec3(0.13, 0.27, 0.41) * time);\n"
    "    c = c * c * (3.0 - 2.0 * c);\n"
    "    float d = dot(c, vec3(0.3, 0.59, 0.11));\n"
    "    c = mix(c, vec3(d), 0.25) + c.zxy * 0.1;\n"
    "  }\n"
    "  o = vec4(c, 1.0);\n"
    "}\n";

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU time of this process: what a loaded, shared machine distorts least. */
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

int main(int argc, char **argv)
{
    long warps = argc > 1 ? atol(argv[1]) : 20000;
    if (warps <= 0) {
        fprintf(stderr, "bench_alu: bad warp count\n");
        return 2;
    }
    gm_shader_source src = {GM_STAGE_FRAGMENT, shader, "bench.frag"};
    gm_compile_result cr;
    if (gm_compile_program(&src, 1, &cr) != 0) {
        fprintf(stderr, "bench_alu: compile failed:\n%s\n", cr.log);
        return 1;
    }
    char err[256];
    gm_program *p = gm_program_create(cr.shaders[0].spirv, cr.shaders[0].word_count, err, sizeof err);
    if (!p) {
        fprintf(stderr, "bench_alu: %s\n", err);
        return 1;
    }
    float t = 0.37f;
    gm_program_set_uniform_by_name(p, "time", &t, 1);
    gm_warp *w = gm_warp_create(p, 0);
    uint32_t (*uv)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "uv", GM_VAR_INPUT));
    uint32_t (*out)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "o", GM_VAR_OUTPUT));
    if (!uv || !out) {
        fprintf(stderr, "bench_alu: interface not found\n");
        return 1;
    }
    uint64_t warp_instr = 0, lane_instr = 0;
    float checksum = 0;
    double t0 = now(), c0 = cpu_now();
    for (long i = 0; i < warps; i++) {
        for (int l = 0; l < GM_LANES; l++) {
            float x = (float)(i % 640) / 640.0f + (float)l / 4096.0f, y = (float)(i / 640) / 480.0f;
            memcpy(&uv[0][l], &x, 4);
            memcpy(&uv[1][l], &y, 4);
        }
        gm_warp_begin(w, 0xffffffffu, 0);
        if (gm_warp_run(w, 0) != GM_RUN_DONE) {
            fprintf(stderr, "bench_alu: %s\n", gm_warp_error(w));
            return 1;
        }
        warp_instr += gm_warp_issued(w);
        lane_instr += gm_warp_lane_instructions(w);
        float f;
        memcpy(&f, &out[0][i & 31], 4);
        checksum += f;
    }
    double dt = now() - t0, dc = cpu_now() - c0;
    printf("bench_alu: %ld warps (%ld fragments), %llu warp instructions, %.1f instructions/warp\n",
           warps, warps * GM_LANES, (unsigned long long)warp_instr, (double)warp_instr / (double)warps);
    printf("bench_alu: %.3f s, %.1f M warp-instructions/s, %.1f M lane-instructions/s (checksum %g)\n",
           dt, (double)warp_instr / dt / 1e6, (double)lane_instr / dt / 1e6, (double)checksum);
    printf("bench_alu: %.3f CPU s, %.1f M lane-instructions per CPU second\n", dc,
           dc > 0 ? (double)lane_instr / dc / 1e6 : 0.0);
    gm_warp_destroy(w);
    gm_program_destroy(p);
    gm_compile_result_free(&cr);
    return 0;
}
