/* The decoder's output buffers: error reporting, opcode names for messages, register
 * allocation and appending IR instructions and aux words. A leaf under both halves of the
 * decoder (gm_decode.c for the module, gm_decode_code.c for function bodies), so neither calls
 * back into the other for these; gm_decode.c calls gm_decode_functions and nothing returns. */
#include "gm_decode_ctx.h"
#include "gm_spirv_tables.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gm_dec_fail(gm_decoder *d, const char *fmt, ...)
{
    if (!d->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->err, d->err_size, fmt, ap);
        va_end(ap);
    }
    d->failed = 1;
    return -1;
}

const char *gm_dec_opname(unsigned opcode)
{
    static __thread char buf[24];
    return gm_spv_op_name(opcode, buf, sizeof buf);
}

void *gm_dec_grow(void *ptr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return ptr;
    int nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    char *n = realloc(ptr, (size_t)nc * elem);
    if (!n)
        return NULL;
    memset(n + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
    *cap = nc;
    return n;
}

int gm_dec_alloc_regs(gm_decoder *d, int n)
{
    gm_program *p = d->p;
    int base = p->nregs;
    if (n < 0 || p->nregs + n > (1 << 20))
        return gm_dec_fail(d, "shader needs too many registers");
    int cap = d->cap_regs;
    void *r = gm_dec_grow(p->init_regs, &cap, p->nregs + n + 1, sizeof p->init_regs[0]);
    if (!r)
        return gm_dec_fail(d, "out of memory");
    p->init_regs = r;
    int cap2 = d->cap_regs;
    void *m = gm_dec_grow(p->init_mask, &cap2, p->nregs + n + 1, 1);
    if (!m)
        return gm_dec_fail(d, "out of memory");
    p->init_mask = m;
    d->cap_regs = cap;
    p->nregs += n;
    return base;
}

int gm_dec_emit(gm_decoder *d, int op, int n, int dst, int a, int b, int c, uint32_t x)
{
    gm_program *p = d->p;
    int cap = d->cap_code;
    void *code = gm_dec_grow(p->code, &cap, p->code_count + 1, sizeof *p->code);
    int cap2 = d->cap_code;
    void *lines = gm_dec_grow(p->lines, &cap2, p->code_count + 1, sizeof *p->lines);
    if (!code || !lines) {
        if (code)
            p->code = code;
        if (lines)
            p->lines = lines;
        return gm_dec_fail(d, "out of memory");
    }
    p->code = code;
    p->lines = lines;
    d->cap_code = cap;
    gm_inst *in = &p->code[p->code_count];
    in->op = (uint16_t)op;
    in->n = (uint16_t)n;
    in->line = d->cur_line;
    in->d = (uint32_t)dst;
    in->a = (uint32_t)a;
    in->b = (uint32_t)b;
    in->c = (uint32_t)c;
    in->x = x;
    p->lines[p->code_count].file = d->cur_file;
    p->lines[p->code_count].line = d->cur_line;
    return p->code_count++;
}

int gm_dec_aux(gm_decoder *d, uint32_t v)
{
    gm_program *p = d->p;
    void *a = gm_dec_grow(p->aux, &d->cap_aux, p->aux_count + 1, sizeof *p->aux);
    if (!a)
        return gm_dec_fail(d, "out of memory");
    p->aux = a;
    p->aux[p->aux_count] = v;
    return p->aux_count++;
}
