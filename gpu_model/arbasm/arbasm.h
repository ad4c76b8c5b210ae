/* arbasm: translates GL_ARB_vertex_program / GL_ARB_fragment_program assembly into GLSL 1.10
 * (compatibility) that the model's GLSL front end compiles like any captured shader.
 *
 * The GLSL keeps the line numbers of the assembly: the statement(s) of an instruction sit on the
 * same line as the instruction, so OpLine debug info, breakpoints, stepping and profiler samples
 * refer to the program the user wrote. Line 1 (the "!!ARBvp1.0" header) carries the global
 * declarations and the opening of main(); the END line carries the epilogue (outputs, fog
 * option) and the closing brace. Semantics follow Mesa's translation (prog_to_nir), which is
 * what llvmpipe runs.
 *
 * Interface of the generated GLSL, for whoever feeds it (gpu_model/frame/gmf_arb.c):
 *   uniform vec4 arb_vp_env[N];   program.env[] of the program's target (N = highest index + 1;
 *                                 arb_fp_env in a fragment program: the stages' names differ)
 *   uniform vec4 arb_vp_local[N]; program.local[] of the program object (arb_fp_local)
 *   uniform samplerXX arb_texture<u>;   fragment texture image unit u
 *   attribute vec4 arb_attrib<n>; vertex.attrib[n], generic attribute n (n > 0; 0 is gl_Vertex)
 * State bindings (state.matrix.*, state.light[n].*, state.fog.*, ...) are the GLSL built-in
 * uniforms of the same state (gl_ModelViewProjectionMatrixTranspose, gl_LightSource[n], gl_Fog,
 * ...), so they are fed as they are for GLSL programs. */
#ifndef ARBASM_H
#define ARBASM_H

#include <stdbool.h>
#include <stddef.h>

enum arbasm_stage { ARBASM_VERTEX = 0, ARBASM_FRAGMENT = 1 };
enum arbasm_fog { ARBASM_FOG_NONE, ARBASM_FOG_LINEAR, ARBASM_FOG_EXP, ARBASM_FOG_EXP2 };

/* Translation options; NULL means all defaults. The translation depends on the program text
 * and these only, so the debugger's copy of a program's GLSL matches the runner's. */
typedef struct arbasm_options {
    bool no_color_clamp;       /* GL_CLAMP_VERTEX_COLOR FALSE: vertex colour outputs unclamped */
} arbasm_options;

typedef struct arbasm_result {
    enum arbasm_stage stage;
    char *glsl;                /* malloc'd; NULL on error */
    char error[256];           /* "line N: message" on error */
    bool unsupported;          /* the error is a feature the model lacks (not modelled / not
                                * supported), not an invalid program GL would refuse too */
    int error_line;
    int n_env, n_local;        /* sizes of arb_*_env / arb_*_local (0: not declared) */
    unsigned textures_used;    /* bit u: arb_texture<u> is declared */
    unsigned attribs_used;     /* bit n: arb_attrib<n> is declared */
    unsigned texcoords_read;   /* FP: bit n: fragment.texcoord[n] is read */
    unsigned texcoords_written;/* VP: bit n: result.texcoord[n] is written */
    bool writes_secondary;     /* VP writes result.color.secondary */
    bool reads_secondary;      /* FP reads fragment.color.secondary */
    bool reads_fogcoord;       /* FP reads fragment.fogcoord or uses an ARB_fog_* option */
    bool writes_fogcoord;      /* VP writes result.fogcoord */
    bool position_invariant;
    enum arbasm_fog fog_option;   /* ARB_fog_* option of a fragment program */
    int instructions;          /* ALU + texture instructions translated */
} arbasm_result;

/* Translates one program string (as given to glProgramStringARB: `len` bytes, not
 * NUL-terminated). Returns 0 and fills out->glsl, or -1 with out->error. The text is untrusted:
 * every error is a message, never a crash. */
int arbasm_translate(const char *text, size_t len, const arbasm_options *opts, arbasm_result *out);
void arbasm_result_free(arbasm_result *r);

#endif
