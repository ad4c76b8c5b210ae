/* A shader's register-IR listing per pc (see dbg_disasm.h), read from gm_program_dump: the
 * model's own disassembler, so the text is what the executor runs. Dump lines are
 * "function NAME", " block B (...)" and "  PC LLINE OP operands". */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dbg_disasm.h"

void dbg_disasm_free(struct dbg_disasm *d)
{
    if (!d)
        return;
    free(d->ins);
    free(d->funcs);
    free(d);
}

struct dbg_disasm *dbg_disasm_build(const gm_program *p)
{
    int n = p ? gm_program_pc_count(p) : 0;
    char *dump = p && n > 0 ? gm_program_dump(p) : NULL;
    struct dbg_disasm *d = dump ? calloc(1, sizeof *d) : NULL;
    if (d) {
        d->n = n;
        d->ins = calloc((size_t)n, sizeof *d->ins);
        d->funcs = calloc(1, sizeof *d->funcs);
    }
    if (!d || !d->ins || !d->funcs) {
        free(dump);
        dbg_disasm_free(d);
        return NULL;
    }
    int func = -1, seen = 0;
    bool entry = false;
    for (char *line = dump, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!strncmp(line, "function ", 9)) {
            char (*nf)[64] = realloc(d->funcs, (size_t)(d->n_funcs + 1) * sizeof *d->funcs);
            if (!nf)
                break;
            d->funcs = nf;
            size_t len = strcspn(line + 9, "(");
            if (len > 63)
                len = 63;
            memcpy(d->funcs[d->n_funcs], line + 9, len);
            d->funcs[d->n_funcs][len] = 0;
            func = d->n_funcs++;
            entry = true;
            continue;
        }
        char *s = line;
        while (*s == ' ')
            s++;
        if (!isdigit((unsigned char)*s))
            continue;   /* a block header */
        char *end;
        long pc = strtol(s, &end, 10);
        if (pc < 0 || pc >= n || *end != ' ')
            continue;
        s = end;
        while (*s == ' ')
            s++;
        if (*s != 'L')
            continue;
        long ln = strtol(s + 1, &end, 10);
        s = end;
        while (*s == ' ')
            s++;
        struct dbg_dinst *in = &d->ins[pc];
        /* "op    n=.." -> "op n=..": squeeze the dump's column padding */
        size_t o = 0;
        for (bool sp = false; *s && o + 1 < sizeof in->text; s++) {
            if (*s == ' ') {
                sp = true;
                continue;
            }
            if (sp && o)
                in->text[o++] = ' ';
            sp = false;
            if (o + 1 < sizeof in->text)
                in->text[o++] = *s;
        }
        in->text[o] = 0;
        in->line = ln > 0 && ln < (1 << 30) ? (int)ln : 0;
        in->func = func < 0 ? 0 : func;
        in->func_entry = entry;
        entry = false;
        seen++;
    }
    free(dump);
    if (seen != n || !d->n_funcs) {
        /* Every pc must be listed: a listing with holes would misplace instruction breakpoints. */
        dbg_disasm_free(d);
        return NULL;
    }
    return d;
}

uint64_t dbg_disasm_address(int shader, int pc)
{
    return (uint64_t)(uint32_t)shader << 32 | (uint32_t)pc;
}

bool dbg_disasm_parse_address(const char *text, uint64_t *addr)
{
    if (!text || !*text)
        return false;
    bool hex = !strncmp(text, "0x", 2) || !strncmp(text, "0X", 2);
    const char *start = hex ? text + 2 : text;
    if (!isxdigit((unsigned char)*start))
        return false;   /* strtoull would take a sign or spaces */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(start, &end, hex ? 16 : 10);
    if (errno || *end || end == start)
        return false;
    *addr = v;
    return true;
}
