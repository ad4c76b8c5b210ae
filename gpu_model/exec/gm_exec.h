/* SIMT warp executor internals (see DESIGN.md): warp state, call frames and the
 * helpers the instruction groups share. Internal header. */
#ifndef GM_EXEC_H
#define GM_EXEC_H

#include "gm_ir.h"

#define GM_MAX_CALL_DEPTH 32

typedef uint32_t gm_lanes[GM_LANES]; /* one register word: 32 lanes */

/* A function activation. Lanes of the function each wait at their next block; the
 * scheduler runs the lowest-numbered waiting block with every lane waiting there, so
 * lanes meet again at merge blocks (glslang lays constructs out before their merge). */
typedef struct gm_frame {
    int func;
    int block;         /* block being executed */
    int return_pc;     /* caller: where to continue after the call */
    gm_mask call_mask; /* caller: lanes that made the call */
    gm_mask live;      /* lanes still running in this function */
    int32_t next[GM_LANES];
    int32_t prev[GM_LANES];
    /* loop back-edges this call may still take (GM_LOOP_ITERATION_LIMIT at entry; shared by
     * every loop of the call, as llvmpipe's loop limiter is) */
    int32_t loop_budget;
} gm_frame;

/* llvmpipe ends a loop after 65535 iterations counted over all the loops of one function
 * call (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS, decremented at every loop end): a shader that
 * never leaves its loop still finishes, with what it computed so far. The model does the same,
 * so an infinite loop neither hangs the model nor draws differently from the driver. */
#define GM_LOOP_ITERATION_LIMIT 65535

struct gm_warp {
    gm_program *p;
    int id;
    gm_lanes *R;          /* register file: p->nregs words */
    gm_lanes *scratch;    /* results of partially active instructions before blending */
    int scratch_words;
    gm_mask alive, killed, helper, mask;
    int mask_lanes;       /* popcount(mask) */
    int32_t lane_bits[GM_LANES]; /* ~0 for lanes of mask, for branch-free blends */
    int pc;               /* next instruction; -1: pick the next block */
    int done;
    int depth;            /* index of the top frame */
    gm_frame frames[GM_MAX_CALL_DEPTH];
    gm_env env;
    gm_observer_fn observer;
    void *observer_ctx;
    int skip_observe;
    uint64_t issued, lane_instr;
    /* compute: the workgroup's shared memory (owned by the caller) and barrier stops */
    uint32_t *shared;
    uint32_t shared_count;
    int barrier_stop;     /* pause before each GM_OP_BARRIER (lock-step scheduling) */
    int barrier_passed;   /* paused there: the next run executes it */
    int error;
    char err[256];
    uint32_t loop_limited; /* loops ended by GM_LOOP_ITERATION_LIMIT since gm_warp_begin */
    int quad_dy;          /* window y step from a quad's top row to its bottom row (+1/-1) */
    uint8_t sg_group[GM_LANES], sg_inv[GM_LANES]; /* subgroup of each lane, index in it */
    gm_gs_emit_fn gs_emit; /* geometry: EmitVertex/EndPrimitive hook (NULL: ignored) */
    void *gs_emit_ctx;
};


/* GM_OP_DPDX/DPDY/FWIDTH x flag: d/dy along window y (sign by quad_dy), not along the
 * quad's rows as dFdy is (decoder-generated uses such as interpolateAtOffset). */
#define GM_DERIV_WINDOW_Y 2u

/* An x86-64 function built twice, for AVX2 and the baseline, picked once at load time
 * (ifunc); plain elsewhere. Only for code whose every lane operation is the same IEEE
 * operation in both builds (no FMA is enabled, and C11 mode forbids contraction). */
/* gcc only: clang 14 emits a cloned function's ifunc under another name, so a call from another
 * file (gm_exec_ext from gm_exec.c) does not link; clang builds get the plain function. */
/* Not under ThreadSanitizer: the ifunc resolver runs (instrumented) during relocation, before
 * the sanitizer's runtime is up, and the program crashes at load. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define GM_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define GM_CLONES_AVX2
#endif

/* Bits set in a lane mask, inline: the x86-64 baseline has no popcnt instruction and gcc's
 * __builtin_popcount is then a libgcc call (once per issued instruction in the timing model). */
static inline uint32_t gm_popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
/* Sets the active mask with the per-lane count and blend bits derived from it. Inline: gm_warp.c
 * (a new warp, mask 0) and gm_exec.c (every branch) both set it, and neither calls the other. */
static inline void gm_exec_set_mask(gm_warp *w, gm_mask m)
{
    w->mask = m;
    w->mask_lanes = (int)gm_popcount32(m);
    for (int l = 0; l < GM_LANES; l++)
        w->lane_bits[l] = (m >> l) & 1 ? -1 : 0;
}
/* b, or a where a is a NaN: `a OP gm_nan_first(a, b)` returns a's NaN payload when both are NaN,
 * whichever operand the compiler puts first (gm_exec_farith.c). Branch-free on the bits, so the
 * loops stay vectorized. */
static inline float gm_nan_first(float a, float b)
{
    uint32_t ab, bb;
    __builtin_memcpy(&ab, &a, 4);
    __builtin_memcpy(&bb, &b, 4);
    /* masks, not a conditional: gcc does not if-convert a select whose operand it may sink (a
     * subtraction that may trap), and the loop would not vectorize */
    const uint32_t m = 0u - (uint32_t)((ab & 0x7fffffffu) > 0x7f800000u), r = (ab & m) | (bb & ~m);
    float out;
    __builtin_memcpy(&out, &r, 4);
    return out;
}
/* Float add, multiply, vector times scalar (b one word) and dot (gm_exec_farith.c): one loop each,
 * shared by the general path and the pre-decoded handlers, a's NaN first (gm_nan_first). */
void gm_farith_add(float *o, const float *a, const float *b, int n32);
void gm_farith_mul(float *o, const float *a, const float *b, int n32);
void gm_farith_vts(float *o, const float *a, const float *b, int n);
void gm_farith_dot(float *o, const float *a, const float *b, int n);
/* Copies n words from src into dst for the lanes set in lane_bits. */
void gm_exec_blend(gm_lanes *dst, const gm_lanes *src, int n, const int32_t *lane_bits);
void gm_exec_error(gm_warp *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* GLSL.std.450: computes every lane into out (n = in->n words). */
void gm_exec_ext(gm_warp *w, const gm_inst *in, gm_lanes *out);
/* The pre-decoded handler of instruction pc for a whole warp (masked 0) or a partially active
 * one (masked 1), or NULL: gm_exec_fast.c's table, read by its test. */
gm_fast_op gm_exec_fast_handler(const gm_program *p, int pc, int masked);
/* Words a GLSL.std.450 instruction writes (n, or 2n for the Modf/Frexp structs). */
int gm_exec_ext_words(const gm_inst *in);
/* 64-bit float ops (GM_OP_DADD..GM_OP_DEXT): computes every lane into out (n words). */
void gm_exec_f64(gm_warp *w, const gm_inst *in, gm_lanes *out);
/* 64-bit integer ops (GM_OP_LALU..GM_OP_LEXT): computes every lane into out (n words). */
void gm_exec_i64(gm_warp *w, const gm_inst *in, gm_lanes *out);
/* Subgroup ops (GM_OP_SUBGROUP): computes every lane into out (n words). */
void gm_exec_subgroup(gm_warp *w, const gm_inst *in, gm_lanes *out);
/* Textures, images, buffers: write their results for the active lanes. */
void gm_exec_tex(gm_warp *w, const gm_inst *in);
void gm_exec_image(gm_warp *w, const gm_inst *in);
void gm_exec_buf_load(gm_warp *w, const gm_inst *in, gm_lanes *out);
void gm_exec_buf_store(gm_warp *w, const gm_inst *in);
void gm_exec_buf_atomic(gm_warp *w, const gm_inst *in);
/* OpArrayLength (GM_OP_BUF_LENGTH; gm_exec_bufarr.c). */
void gm_exec_buf_length(gm_warp *w, const gm_inst *in, gm_lanes *out);
/* The same on an element of an array of blocks (GM_BUF_ARRAYED; gm_exec_bufarr.c). */
void gm_exec_buf_load_arrayed(gm_warp *w, const gm_inst *in, gm_lanes *out);
void gm_exec_buf_store_arrayed(gm_warp *w, const gm_inst *in);
void gm_exec_buf_atomic_arrayed(gm_warp *w, const gm_inst *in,
                                uint32_t (*apply)(uint32_t op, uint32_t old, uint32_t v, uint32_t cmp));
/* Workgroup shared memory: loads into out (like the ALU path), stores and atomics. */
void gm_exec_sh_load(gm_warp *w, const gm_inst *in, gm_lanes *out);
void gm_exec_sh_store(gm_warp *w, const gm_inst *in);
void gm_exec_sh_atomic(gm_warp *w, const gm_inst *in);

/* Run-ahead for the timing model: runs the warp while its next pc is marked in private_pc
 * (an instruction touching only the warp's own state), at most cap instructions, and
 * records each one's pc and active mask in tr_pc/tr_mask (*n_out of them). The same
 * instructions, trace and final status as a loop of gm_warp_step calls that stops before
 * the first unmarked pc; GM_RUN_PAUSED when it stopped there (or ran none). */
gm_run_status gm_warp_run_private(gm_warp *w, const uint8_t *private_pc, int cap,
                                  int32_t *tr_pc, gm_mask *tr_mask, int *n_out);

/* floor without a libm call (x86-64 baseline has no roundps), so loops vectorize. Written
 * with masks and no branch: gcc (-ftrapping-math) does not if-convert a float-to-int conversion
 * or a subtraction that only some lanes would execute (they may trap), and the earlier form,
 * which returned early for large values, ran one lane at a time (fract: ~9 instructions a
 * lane). Same results: |x| >= 2^23, infinities and NaN are returned as they are, the rest
 * truncated and stepped down by one when the truncation is above x (-0.0 gives +0.0). */
static inline float gm_floorf(float x)
{
    uint32_t xb, tb;
    __builtin_memcpy(&xb, &x, 4);
    const uint32_t small = 0u - (uint32_t)(__builtin_fabsf(x) < 8388608.0f);  /* all ones */
    uint32_t cb = xb & small;                /* x, or +0.0 where x is returned as it is */
    float c;
    __builtin_memcpy(&c, &cb, 4);
    float t = (float)(int32_t)c;             /* in range in every lane */
    const uint32_t above = 0u - (uint32_t)(t > c);
    uint32_t oneb = 0x3f800000u & above;     /* 1.0f or +0.0f */
    float one;
    __builtin_memcpy(&one, &oneb, 4);
    t = t - one;
    __builtin_memcpy(&tb, &t, 4);
    const uint32_t r = (tb & small) | (xb & ~small);
    float out;
    __builtin_memcpy(&out, &r, 4);
    return out;
}

float gm_exec_half_to_float(uint16_t h);
uint16_t gm_exec_float_to_half(float f);

#endif
