/* Life of a trace: create, exact sizing between the passes, the checks and the merge after
 * pass 2, statistics, canonical serializations, destroy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_internal.h"

gmt_tracebuf *gmt_tracebuf_create(const gmt_tracebuf_config *cfg, char *err, size_t err_size)
{
    if (!cfg || !(cfg->types & GMT_TB_ALL)) {
        snprintf(err, err_size, "trace buffers: no record type chosen");
        return NULL;
    }
    if ((cfg->types & GMT_TB_BIT(GMT_TB_REG)) && cfg->var_count <= 0) {
        snprintf(err, err_size, "trace buffers: reg records need a variable (reg:NAME)");
        return NULL;
    }
    if (cfg->var_count < 0 || cfg->var_count > GMT_TB_MAX_VARS) {
        snprintf(err, err_size, "trace buffers: %d variables (at most %d)", cfg->var_count,
                 GMT_TB_MAX_VARS);
        return NULL;
    }
    gmt_tracebuf *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_size, "trace buffers: out of memory");
        return NULL;
    }
    t->cfg = *cfg;
    t->cfg.types &= GMT_TB_ALL;
    for (int i = 0; i < t->cfg.var_count; i++)
        t->cfg.vars[i][GMT_TB_VAR_NAME - 1] = 0;
    return t;
}

void gmt_tracebuf_destroy(gmt_tracebuf *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nprogs; i++)
        gmt_tb_prog_free(&t->progs[i]);
    free(t->progs);
    free(t->warps);
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        free(t->buf[k].base);
    free(t->ref);
    free(t->merged);
    free(t);
}

int gmt_tracebuf_size_buffers(gmt_tracebuf *t, char *err, size_t err_size)
{
    if (!t || t->sized || t->pass != 1) {
        snprintf(err, err_size, "trace buffers: sizing needs a finished pass 1 (and only once)");
        return -1;
    }
    if (t->error[0]) {
        snprintf(err, err_size, "trace buffers: pass 1: %s", t->error);
        return -1;
    }
    /* size(type) = sum over segments of records(type) per execution x executions x size. */
    memset(t->records, 0, sizeof t->records);
    t->block_executions = 0;
    for (int i = 0; i < t->nprogs; i++) {
        const gmt_tb_prog *g = &t->progs[i];
        for (int s = 0; s < g->seg_count; s++) {
            const gmt_tb_seg *sg = &g->segs[s];
            if (sg->block_start)
                t->block_executions += sg->count;
            for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
                t->records[k] += sg->count * sg->nrec[k];
        }
    }
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        uint64_t bytes = t->records[k] * gmt_tb_record_size((gmt_tb_type)k);
        t->buf[k].size = bytes;
        atomic_store(&t->buf[k].cursor, 0);
        atomic_store(&t->written[k], 0);
        if (!bytes)
            continue;
        if (bytes > SIZE_MAX || !(t->buf[k].base = malloc((size_t)bytes))) {
            snprintf(err, err_size, "trace buffers: cannot allocate %llu bytes for %llu %s records",
                     (unsigned long long)bytes, (unsigned long long)t->records[k],
                     gmt_tb_type_name((gmt_tb_type)k));
            return -1;
        }
    }
    t->sized = true;
    t->last_p = NULL; /* pass 2 runs other program objects */
    t->pass2_progs = 0;
    t->warps_seen = 0;
    return 0;
}

int gmt_tracebuf_finish(gmt_tracebuf *t, char *err, size_t err_size)
{
    if (!t || !t->sized || t->pass != 2 || t->finished) {
        snprintf(err, err_size, "trace buffers: finish needs a pass 2 after sizing");
        return -1;
    }
    gmt_tb_warps_flush(t);
    if (t->error[0]) {
        snprintf(err, err_size, "trace buffers: pass 2: %s", t->error);
        return -1;
    }
    if (t->pass2_progs != t->nprogs) {
        snprintf(err, err_size, "trace buffers: pass 2 ran %d of pass 1's %d programs (not the same "
                 "frame?)", t->pass2_progs, t->nprogs);
        return -1;
    }
    for (int i = 0; i < t->nprogs; i++)
        for (int s = 0; s < t->progs[i].seg_count; s++) {
            const gmt_tb_seg *sg = &t->progs[i].segs[s];
            if (sg->count2 != sg->count) {
                snprintf(err, err_size, "trace buffers: program %d block %d (pc %d) ran %llu times in "
                         "pass 2 and %llu in pass 1 (not the same frame?)", i, sg->block, sg->first_pc,
                         (unsigned long long)sg->count2, (unsigned long long)sg->count);
                return -1;
            }
        }
    /* The buffers must be exactly full: no overflow, no unused byte, every record written. */
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        uint64_t cur = atomic_load(&t->buf[k].cursor);
        uint64_t wr = atomic_load(&t->written[k]);
        if (cur != t->buf[k].size || wr != t->records[k]) {
            snprintf(err, err_size, "trace buffers: %s buffer: cursor %llu of %llu bytes, %llu of %llu "
                     "records written", gmt_tb_type_name((gmt_tb_type)k), (unsigned long long)cur,
                     (unsigned long long)t->buf[k].size, (unsigned long long)wr,
                     (unsigned long long)t->records[k]);
            return -1;
        }
    }
    /* Merge: every record by (warp_seq, seq). */
    size_t n = 0;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        n += (size_t)t->records[k];
    t->merged = malloc((n ? n : 1) * sizeof *t->merged);
    if (!t->merged) {
        snprintf(err, err_size, "trace buffers: out of memory merging %zu records", n);
        return -1;
    }
    size_t m = 0;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        size_t rs = gmt_tb_record_size((gmt_tb_type)k);
        for (uint64_t i = 0; i < t->records[k]; i++)
            t->merged[m++] = (const gmt_tb_key *)(t->buf[k].base + i * rs);
    }
    gmt_tb_sort_keys(t->merged, m);
    for (size_t i = 1; i < m; i++)
        if (gmt_tb_key_cmp(t->merged[i - 1], t->merged[i]) == 0) {
            snprintf(err, err_size, "trace buffers: two records with key (%llu, %u)",
                     (unsigned long long)t->merged[i]->warp_seq, t->merged[i]->seq);
            free(t->merged);
            t->merged = NULL;
            return -1;
        }
    t->nmerged = m;
    t->finished = true;
    return 0;
}

void gmt_tracebuf_get_stats(const gmt_tracebuf *t, gmt_tracebuf_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!t)
        return;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        out->records[k] = t->records[k];
        out->bytes[k] = t->buf[k].size;
        out->cursor[k] = atomic_load(&t->buf[k].cursor);
        out->total_records += t->records[k];
        out->total_bytes += t->buf[k].size;
    }
    out->block_executions = t->block_executions;
    out->programs = (uint64_t)t->nprogs;
    for (int i = 0; i < t->nprogs; i++)
        out->blocks += (uint64_t)t->progs[i].block_count;
    out->warps = t->warps_seen;
    out->reference_bytes = t->ref_size;
    uint32_t found = 0;
    for (int i = 0; i < t->nprogs; i++)
        found |= t->progs[i].vars_found;
    out->vars_found = __builtin_popcount(found);
}

uint64_t gmt_tracebuf_record_count(const gmt_tracebuf *t, gmt_tb_type type)
{
    return t && (unsigned)type < GMT_TB_TYPE_COUNT ? t->records[type] : 0;
}

uint64_t gmt_tracebuf_bytes(const gmt_tracebuf *t, gmt_tb_type type)
{
    return t && (unsigned)type < GMT_TB_TYPE_COUNT ? t->buf[type].size : 0;
}

size_t gmt_tracebuf_merged_count(const gmt_tracebuf *t)
{
    return t && t->finished ? t->nmerged : 0;
}

const gmt_tb_key *gmt_tracebuf_merged_record(const gmt_tracebuf *t, size_t i)
{
    return t && t->finished && i < t->nmerged ? t->merged[i] : NULL;
}

static uint8_t *concat(const gmt_tb_key *const *v, size_t n, size_t *size)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += gmt_tb_record_size((gmt_tb_type)v[i]->type);
    uint8_t *out = malloc(total ? total : 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        size_t rs = gmt_tb_record_size((gmt_tb_type)v[i]->type);
        memcpy(out + o, v[i], rs);
        o += rs;
    }
    *size = total;
    return out;
}

uint8_t *gmt_tracebuf_serialize_merged(const gmt_tracebuf *t, size_t *size)
{
    if (!t || !t->finished || !size)
        return NULL;
    return concat(t->merged, t->nmerged, size);
}

/* The reference holds the records in issue order; warps that interleave (several resident in
 * the timing model) interleave there, so it is put in key order too: per warp, issue order
 * is seq order, so this only separates the warps. */
uint8_t *gmt_tracebuf_serialize_reference(const gmt_tracebuf *t, size_t *size)
{
    if (!t || !t->finished || !t->cfg.reference || t->ref_failed || !size)
        return NULL;
    size_t n = 0;
    for (size_t o = 0; o < t->ref_size; n++) {
        const gmt_tb_key *k = (const gmt_tb_key *)(t->ref + o);
        size_t rs = gmt_tb_record_size((gmt_tb_type)k->type);
        if (!rs)
            return NULL;
        o += rs;
    }
    const gmt_tb_key **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t i = 0;
    for (size_t o = 0; o < t->ref_size; i++) {
        v[i] = (const gmt_tb_key *)(t->ref + o);
        o += gmt_tb_record_size((gmt_tb_type)v[i]->type);
    }
    gmt_tb_sort_keys(v, n);
    uint8_t *out = concat(v, n, size);
    free(v);
    return out;
}

int gmt_tracebuf_program_count(const gmt_tracebuf *t)
{
    return t ? t->nprogs : 0;
}

int gmt_tracebuf_program_info_get(const gmt_tracebuf *t, int i, gmt_tracebuf_program_info *out)
{
    if (!t || i < 0 || i >= t->nprogs || !out)
        return -1;
    out->gl_program = t->progs[i].gl_program;
    out->stage = (uint32_t)t->progs[i].stage;
    out->blocks = (uint32_t)t->progs[i].block_count;
    return 0;
}
