/* Float chains with a constant run in the order Mesa's NIR gives them on llvmpipe
 * (gm_decode_reassoc.c): (a * b) * c -> (a * c) * b and (a + b) + c -> (a + c) + b for inexact
 * operations whose inner and outer results have one use; `precise` keeps the source order.
 * Each case's inputs are chosen so that the two orders give different float32 results. */
#include "gm_rig.h"

#include <string.h>

typedef struct {
    const char *body;   /* GLSL, writes float o from vec2 a */
    float x, y;         /* a */
    int op;             /* '*' or '+' with the constant k */
    float k;
    int reassociated;   /* 1: (x op k) op y expected, 0: (x op y) op k */
} reassoc_case;

static float apply(int op, float p, float q)
{
    volatile float r = op == '*' ? p * q : p + q;   /* one float32 rounding, no contraction */
    return r;
}

static const reassoc_case cases[] = {
    /* glmark2's function/loop/conditionals: fract(FragCoord.x * FragCoord.y * 0.0001) */
    {"o = a.x * a.y * 0.0001;", 246.5f, 99.5f, '*', 0.0001f, 1},
    {"o = 0.0001 * (a.x * a.y);", 246.5f, 99.5f, '*', 0.0001f, 1},
    {"o = a.x + a.y + 1.0;", 3e-8f, 3e-8f, '+', 1.0f, 1},
    /* precise (NoContraction): exact in NIR, no reassociation */
    {"precise float p = a.x * a.y * 0.0001; o = p;", 246.5f, 99.5f, '*', 0.0001f, 0},
    /* the inner product is computed twice: one value with two uses after NIR's CSE */
    {"o = a.x * a.y * 0.0001; o2 = a.x * a.y;", 246.5f, 99.5f, '*', 0.0001f, 0},
    /* two uses of the outer product */
    {"o = a.x * a.y * 0.0001; o2 = a.x * a.y * 0.0001;", 246.5f, 99.5f, '*', 0.0001f, 0},
};

int main(void)
{
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < n; c++) {
        const reassoc_case *rc = &cases[c];
        float src_order = apply(rc->op, apply(rc->op, rc->x, rc->y), rc->k);
        float nir_order = apply(rc->op, apply(rc->op, rc->x, rc->k), rc->y);
        CHECKF(src_order != nir_order, "case %d: inputs do not tell the orders apart", c);
        char src[1024];
        snprintf(src, sizeof src,
                 "#version 450\nlayout(location=0) in vec2 a;\n"
                 "layout(location=0) out float o;\nlayout(location=1) out float o2;\n"
                 "void main() {\n  o2 = 0.0;\n  %s\n}\n", rc->body);
        gm_rig r;
        if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
            CHECKF(0, "case %d: compile", c);
            rig_free(&r);
            continue;
        }
        for (int l = 0; l < GM_LANES; l++) {
            rig_setf(&r, "a", 0, l, rc->x);
            rig_setf(&r, "a", 1, l, rc->y);
        }
        CHECKF(rig_run(&r, 0xffffffffu) == 0, "case %d: run", c);
        float got = rig_outf(&r, "o", 0, 0);
        float want = rc->reassociated == 1 ? nir_order : src_order;
        CHECKF(memcmp(&got, &want, 4) == 0, "case %d (%s): got %.9g, want %.9g (source order "
               "%.9g, NIR order %.9g)", c, rc->body, got, want, src_order, nir_order);
        rig_free(&r);
    }
    printf("%d reassociation cases\n", n);
    TEST_DONE();
}
