/* Output of a finished trace: the binary file (gmt_tb_format.h) and JSON lines, and the JSON
 * form of one record that both the JSON-lines writer and the dump tool use. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_format.h"
#include "gmt_tb_internal.h"

/* ------------------------------------------------------------------ JSON of a record */

typedef struct jbuf {
    char *p;
    size_t size, len;
    int overflow;
} jbuf;

__attribute__((format(printf, 2, 3))) static void jput(jbuf *b, const char *fmt, ...)
{
    if (b->overflow)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= b->size - b->len)
        b->overflow = 1;
    else
        b->len += (size_t)n;
}

static void jfloat(jbuf *b, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (isfinite(f))
        jput(b, "%.9g", (double)f);
    else
        jput(b, "null"); /* JSON has no NaN/inf */
}

static const char *stage_name(unsigned s)
{
    static const char *const n[GM_STAGE_COUNT] = {"vertex", "tess_control", "tess_evaluation",
                                                  "geometry", "fragment", "compute"};
    return s < GM_STAGE_COUNT ? n[s] : "unknown";
}

/* Values of the lanes in mask, in lane order. */
static void jlanes(jbuf *b, const char *name, const uint32_t *v, uint32_t mask, int as_float, int as_int)
{
    jput(b, ",\"%s\":[", name);
    int first = 1;
    for (int l = 0; l < 32; l++) {
        if (!((mask >> l) & 1))
            continue;
        if (!first)
            jput(b, ",");
        first = 0;
        if (as_float)
            jfloat(b, v[l]);
        else if (as_int)
            jput(b, "%d", (int32_t)v[l]);
        else
            jput(b, "%u", v[l]);
    }
    jput(b, "]");
}

int gmt_tb_record_json(const gmt_tb_key *rec, const char *const *var_names, int var_count,
                       char *buf, size_t size)
{
    if (!rec || !buf || !size)
        return -1;
    jbuf b = {buf, size, 0, 0};
    jput(&b, "{\"type\":\"%s\",\"warp\":%llu,\"seq\":%u,\"stage\":\"%s\"",
         gmt_tb_type_name((gmt_tb_type)rec->type), (unsigned long long)rec->warp_seq, rec->seq,
         stage_name(rec->stage));
    switch (rec->type) {
    case GMT_TB_FLOW: {
        const gmt_tb_flow *r = (const gmt_tb_flow *)rec;
        jput(&b, ",\"draw\":%u,\"program\":%u,\"block\":%u,\"mask\":%u,\"cycle\":%llu,\"pc\":%u,"
             "\"line\":%d", r->draw, r->program, r->block, r->mask, (unsigned long long)r->cycle,
             r->pc, r->line);
        break;
    }
    case GMT_TB_MEM: {
        const gmt_tb_mem *r = (const gmt_tb_mem *)rec;
        static const char *const ops[] = {"load", "store", "atomic"};
        jput(&b, ",\"draw\":%u,\"program\":%u,\"pc\":%u,\"line\":%d,\"mask\":%u,\"op\":\"%s\","
             "\"binding\":%u,\"kind\":%u,\"size\":%u", r->draw, r->program, r->pc, r->line, r->mask,
             r->op < 3 ? ops[r->op] : "unknown", r->binding, r->kind, r->size);
        jlanes(&b, "offsets", r->offset, r->mask, 0, 0);
        break;
    }
    case GMT_TB_TEX: {
        const gmt_tb_tex *r = (const gmt_tb_tex *)rec;
        static const char *const lods[] = {"implicit", "explicit", "bias", "grad", "none"};
        jput(&b, ",\"draw\":%u,\"program\":%u,\"pc\":%u,\"line\":%d,\"mask\":%u,\"image\":%s,"
             "\"op\":%u,\"dim\":%u,\"unit\":%d,\"unit_mixed\":%s,\"lod_mode\":\"%s\",\"lod\":",
             r->draw, r->program, r->pc, r->line, r->mask, r->is_image ? "true" : "false", r->op,
             r->dim, r->unit, r->unit_mixed ? "true" : "false",
             r->lod_mode < 5 ? lods[r->lod_mode] : "unknown");
        uint32_t lb;
        memcpy(&lb, &r->lod, 4);
        jfloat(&b, lb);
        int n = r->coord_n > 4 ? 4 : r->coord_n;
        uint32_t m = n ? (1u << n) - 1 : 0;
        jput(&b, ",\"coord_n\":%u,\"coord_int\":%s", r->coord_n, r->coord_int ? "true" : "false");
        jlanes(&b, "coord_min", r->cmin, m, !r->coord_int, r->coord_int);
        jlanes(&b, "coord_max", r->cmax, m, !r->coord_int, r->coord_int);
        jlanes(&b, "s", r->s, n >= 1 ? r->mask : 0, !r->coord_int, r->coord_int);
        jlanes(&b, "t", r->t, n >= 2 ? r->mask : 0, !r->coord_int, r->coord_int);
        break;
    }
    case GMT_TB_REG: {
        const gmt_tb_reg *r = (const gmt_tb_reg *)rec;
        jput(&b, ",\"draw\":%u,\"program\":%u,\"pc\":%u,\"line\":%d,\"mask\":%u,\"var\":", r->draw,
             r->program, r->pc, r->line, r->mask);
        if (var_names && r->var < var_count && var_names[r->var])
            jput(&b, "\"%s\"", var_names[r->var]); /* identifiers: nothing to escape */
        else
            jput(&b, "%u", r->var);
        jput(&b, ",\"comp\":%u", r->comp);
        jlanes(&b, "values", r->value, r->mask, 0, 0);
        break;
    }
    default:
        break;
    }
    jput(&b, "}");
    return b.overflow ? -1 : (int)b.len;
}

/* ------------------------------------------------------------------ files */

static int check_finished(const gmt_tracebuf *t, char *err, size_t err_size)
{
    if (!t || !t->finished) {
        snprintf(err, err_size, "trace buffers: nothing to write (the trace is not finished)");
        return -1;
    }
    return 0;
}

typedef struct wfile {
    FILE *f;
    uint64_t hash, size;
    int failed;
} wfile;

static void wput(wfile *w, const void *p, size_t n)
{
    if (w->failed || !n)
        return;
    if (fwrite(p, 1, n, w->f) != n)
        w->failed = 1;
    w->hash = gmt_tb_fnv(w->hash, p, n);
    w->size += n;
}

int gmt_tracebuf_write_binary(const gmt_tracebuf *t, const char *path, char *err,
                              size_t err_size)
{
    if (check_finished(t, err, err_size) != 0)
        return -1;
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe != 1) {
        snprintf(err, err_size, "trace buffers: the binary format is little-endian only");
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, err_size, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    gmt_tb_file_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, GMT_TB_MAGIC, 8);
    h.version_major = GMT_TB_VERSION_MAJOR;
    h.version_minor = GMT_TB_VERSION_MINOR;
    h.header_size = sizeof h;
    h.types = t->cfg.types;
    h.program_count = (uint32_t)t->nprogs;
    h.var_count = (uint32_t)t->cfg.var_count;
    h.section_count = GMT_TB_TYPE_COUNT;
    h.total_records = t->nmerged;
    wfile w = {f, GMT_TB_FNV_OFFSET, 0, 0};
    if (fwrite(&h, sizeof h, 1, f) != 1)
        w.failed = 1;
    for (int i = 0; i < t->nprogs; i++) {
        gmt_tb_file_program fp = {t->progs[i].gl_program, (uint32_t)t->progs[i].stage,
                                  (uint32_t)t->progs[i].block_count, 0};
        wput(&w, &fp, sizeof fp);
    }
    for (int i = 0; i < t->cfg.var_count; i++) {
        char name[GMT_TB_VAR_NAME];
        memset(name, 0, sizeof name);
        snprintf(name, sizeof name, "%s", t->cfg.vars[i]);
        wput(&w, name, sizeof name);
    }
    uint64_t off = sizeof h + (uint64_t)t->nprogs * sizeof(gmt_tb_file_program) +
                   (uint64_t)t->cfg.var_count * GMT_TB_VAR_NAME +
                   GMT_TB_TYPE_COUNT * sizeof(gmt_tb_file_section);
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        uint32_t rs = (uint32_t)gmt_tb_record_size((gmt_tb_type)k);
        gmt_tb_file_section s = {(uint32_t)k, rs, t->records[k], off, t->records[k] * rs};
        wput(&w, &s, sizeof s);
        off += s.bytes;
    }
    /* Sections: each type's records in merged order. */
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        for (size_t i = 0; i < t->nmerged; i++)
            if (t->merged[i]->type == k)
                wput(&w, t->merged[i], gmt_tb_record_size((gmt_tb_type)k));
    h.file_size = sizeof h + w.size;
    h.checksum = w.hash;
    if (!w.failed && (fseek(f, 0, SEEK_SET) != 0 || fwrite(&h, sizeof h, 1, f) != 1))
        w.failed = 1;
    if (fclose(f) != 0)
        w.failed = 1;
    if (w.failed) {
        snprintf(err, err_size, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int gmt_tracebuf_write_jsonl(const gmt_tracebuf *t, const char *path, char *err,
                             size_t err_size)
{
    if (check_finished(t, err, err_size) != 0)
        return -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, err_size, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{\"format\":\"gmt_tracebuf\",\"version\":%d,\"types\":[", GMT_TB_VERSION_MAJOR);
    int first = 1;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        if (t->cfg.types & GMT_TB_BIT(k)) {
            fprintf(f, "%s\"%s\"", first ? "" : ",", gmt_tb_type_name((gmt_tb_type)k));
            first = 0;
        }
    fprintf(f, "],\"records\":{");
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        fprintf(f, "%s\"%s\":%llu", k ? "," : "", gmt_tb_type_name((gmt_tb_type)k),
                (unsigned long long)t->records[k]);
    fprintf(f, "},\"bytes\":{");
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        fprintf(f, "%s\"%s\":%llu", k ? "," : "", gmt_tb_type_name((gmt_tb_type)k),
                (unsigned long long)t->buf[k].size);
    fprintf(f, "},\"programs\":[");
    for (int i = 0; i < t->nprogs; i++)
        fprintf(f, "%s{\"gl_program\":%u,\"stage\":\"%s\",\"blocks\":%d}", i ? "," : "",
                t->progs[i].gl_program, stage_name((unsigned)t->progs[i].stage),
                t->progs[i].block_count);
    fprintf(f, "],\"vars\":[");
    const char *names[GMT_TB_MAX_VARS];
    for (int i = 0; i < t->cfg.var_count; i++) {
        names[i] = t->cfg.vars[i];
        fprintf(f, "%s\"%s\"", i ? "," : "", t->cfg.vars[i]);
    }
    fprintf(f, "]}\n");
    char line[8192];
    for (size_t i = 0; i < t->nmerged; i++) {
        if (gmt_tb_record_json(t->merged[i], names, t->cfg.var_count, line, sizeof line) < 0) {
            fclose(f);
            snprintf(err, err_size, "%s: record %zu does not fit a JSON line", path, i);
            return -1;
        }
        fputs(line, f);
        fputc('\n', f);
    }
    if (ferror(f) | (fclose(f) != 0)) {
        snprintf(err, err_size, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
