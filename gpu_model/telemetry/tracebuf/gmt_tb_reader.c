/* Reader of binary traces: loads the file, validates every structure it will hand out (so
 * iterating cannot fault on a corrupt file) and iterates the records in merged order by
 * merging the per-type sections on their (warp_seq, seq) keys. Needs no GPU model. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_format.h"
#include "gmt_tracebuf.h"

struct gmt_tbr {
    uint8_t *data;
    uint64_t size;
    gmt_tb_file_header h;
    const gmt_tb_file_program *progs;
    char (*vars)[GMT_TB_VAR_NAME];
    gmt_tb_file_section sec[GMT_TB_TYPE_COUNT];
    uint64_t pos[GMT_TB_TYPE_COUNT]; /* iteration: next record per section */
};

__attribute__((format(printf, 4, 5))) static gmt_tbr *fail(gmt_tbr *r, char *err, size_t err_size,
                                                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    gmt_tbr_close(r);
    return NULL;
}

static const gmt_tb_key *rec_at(const gmt_tbr *r, int k, uint64_t i)
{
    return (const gmt_tb_key *)(r->data + r->sec[k].offset + i * r->sec[k].record_size);
}

static int key_cmp(const gmt_tb_key *a, const gmt_tb_key *b)
{
    if (a->warp_seq != b->warp_seq)
        return a->warp_seq < b->warp_seq ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq ? 1 : 0;
}

/* Checks one record's fields that index the file's tables. */
static int record_ok(const gmt_tbr *r, int k, const gmt_tb_key *rec, char *why, size_t n)
{
    if (rec->type != (uint16_t)k) {
        snprintf(why, n, "record of type %u in the %s section", rec->type, gmt_tb_type_name((gmt_tb_type)k));
        return 0;
    }
    if (rec->stage >= GM_STAGE_COUNT) {
        snprintf(why, n, "stage %u out of range", rec->stage);
        return 0;
    }
    /* Every record type has draw and program right after the key. */
    const uint32_t *dp = (const uint32_t *)(rec + 1);
    if (dp[1] >= r->h.program_count) {
        snprintf(why, n, "program %u of %u", dp[1], r->h.program_count);
        return 0;
    }
    if (k == GMT_TB_REG && ((const gmt_tb_reg *)rec)->var >= r->h.var_count) {
        snprintf(why, n, "variable %u of %u", ((const gmt_tb_reg *)rec)->var, r->h.var_count);
        return 0;
    }
    return 1;
}

gmt_tbr *gmt_tbr_open(const char *path, char *err, size_t err_size)
{
    gmt_tbr *r = calloc(1, sizeof *r);
    if (!r)
        return fail(NULL, err, err_size, "out of memory");
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(r, err, err_size, "%s: cannot open: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return fail(r, err, err_size, "%s: not a regular file", path);
    }
    long sz = ftell(f);
    rewind(f);
    if (sz < 0) {
        fclose(f);
        return fail(r, err, err_size, "%s: not a regular file", path);
    }
    r->size = (uint64_t)sz;
    r->data = malloc(r->size ? (size_t)r->size : 1);
    if (!r->data || (r->size && fread(r->data, 1, (size_t)r->size, f) != r->size)) {
        fclose(f);
        return fail(r, err, err_size, "%s: cannot read %llu bytes", path, (unsigned long long)r->size);
    }
    fclose(f);
    if (r->size < sizeof r->h)
        return fail(r, err, err_size, "%s: truncated: %llu bytes, less than the %zu-byte header", path,
                    (unsigned long long)r->size, sizeof r->h);
    memcpy(&r->h, r->data, sizeof r->h);
    const gmt_tb_file_header *h = &r->h;
    if (memcmp(h->magic, GMT_TB_MAGIC, 8) != 0)
        return fail(r, err, err_size, "%s: not a GPU model trace-buffer file (bad magic)", path);
    if (h->version_major != GMT_TB_VERSION_MAJOR)
        return fail(r, err, err_size, "%s: format version %u.%u, this reader reads %d.x", path,
                    h->version_major, h->version_minor, GMT_TB_VERSION_MAJOR);
    if (h->header_size != sizeof *h || h->section_count != GMT_TB_TYPE_COUNT)
        return fail(r, err, err_size, "%s: corrupt header (header size %u, %u sections)", path,
                    h->header_size, h->section_count);
    if (h->file_size != r->size)
        return fail(r, err, err_size, "%s: %s: %llu bytes, the header says %llu", path,
                    r->size < h->file_size ? "truncated" : "trailing bytes",
                    (unsigned long long)r->size, (unsigned long long)h->file_size);
    uint64_t sum = gmt_tb_fnv(GMT_TB_FNV_OFFSET, r->data + sizeof *h, (size_t)(r->size - sizeof *h));
    if (sum != h->checksum)
        return fail(r, err, err_size, "%s: checksum mismatch (file corrupt)", path);
    uint64_t tables = sizeof *h + (uint64_t)h->program_count * sizeof(gmt_tb_file_program) +
                      (uint64_t)h->var_count * GMT_TB_VAR_NAME +
                      GMT_TB_TYPE_COUNT * sizeof(gmt_tb_file_section);
    if (h->program_count > (1u << 24) || h->var_count > GMT_TB_MAX_VARS || tables > r->size)
        return fail(r, err, err_size, "%s: corrupt header (%u programs, %u variables)", path,
                    h->program_count, h->var_count);
    r->progs = (const gmt_tb_file_program *)(r->data + sizeof *h);
    r->vars = (char (*)[GMT_TB_VAR_NAME])(r->data + sizeof *h +
                                          (size_t)h->program_count * sizeof(gmt_tb_file_program));
    for (uint32_t i = 0; i < h->var_count; i++)
        if (!memchr(r->vars[i], 0, GMT_TB_VAR_NAME))
            return fail(r, err, err_size, "%s: variable name %u is not terminated", path, i);
    memcpy(r->sec, r->data + tables - GMT_TB_TYPE_COUNT * sizeof(gmt_tb_file_section), sizeof r->sec);
    uint64_t next = tables, total = 0;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        const gmt_tb_file_section *s = &r->sec[k];
        uint64_t rs = gmt_tb_record_size((gmt_tb_type)k);
        if (s->type != (uint32_t)k || s->record_size != rs || s->offset != next ||
            s->count > r->size / rs || s->bytes != s->count * rs || s->offset + s->bytes > r->size)
            return fail(r, err, err_size, "%s: section %d (%s) is corrupt", path, k,
                        gmt_tb_type_name((gmt_tb_type)k));
        next = s->offset + s->bytes;
        total += s->count;
    }
    if (next != r->size || total != h->total_records)
        return fail(r, err, err_size, "%s: sections do not add up to the file (%llu records, header "
                    "says %llu)", path, (unsigned long long)total, (unsigned long long)h->total_records);
    /* Records: types, indexes, and strictly increasing keys in merged order. */
    char why[128];
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        for (uint64_t i = 0; i < r->sec[k].count; i++) {
            const gmt_tb_key *rec = rec_at(r, k, i);
            if (!record_ok(r, k, rec, why, sizeof why))
                return fail(r, err, err_size, "%s: %s record %llu: %s", path,
                            gmt_tb_type_name((gmt_tb_type)k), (unsigned long long)i, why);
            if (i && key_cmp(rec_at(r, k, i - 1), rec) >= 0)
                return fail(r, err, err_size, "%s: %s records out of order at %llu", path,
                            gmt_tb_type_name((gmt_tb_type)k), (unsigned long long)i);
        }
    const gmt_tb_key *prev = NULL, *rec;
    while (gmt_tbr_next(r, &rec) == 1) {
        if (prev && key_cmp(prev, rec) >= 0)
            return fail(r, err, err_size, "%s: two records share the key (%llu, %u)", path,
                        (unsigned long long)rec->warp_seq, rec->seq);
        prev = rec;
    }
    gmt_tbr_rewind(r);
    return r;
}

void gmt_tbr_close(gmt_tbr *r)
{
    if (!r)
        return;
    free(r->data);
    free(r);
}

uint64_t gmt_tbr_count(const gmt_tbr *r, gmt_tb_type type)
{
    return r && (unsigned)type < GMT_TB_TYPE_COUNT ? r->sec[type].count : 0;
}

int gmt_tbr_program_count(const gmt_tbr *r)
{
    return r ? (int)r->h.program_count : 0;
}

int gmt_tbr_program(const gmt_tbr *r, int i, gmt_tracebuf_program_info *out)
{
    if (!r || i < 0 || (uint32_t)i >= r->h.program_count || !out)
        return -1;
    out->gl_program = r->progs[i].gl_program;
    out->stage = r->progs[i].stage;
    out->blocks = r->progs[i].blocks;
    return 0;
}

int gmt_tbr_var_count(const gmt_tbr *r)
{
    return r ? (int)r->h.var_count : 0;
}

const char *gmt_tbr_var_name(const gmt_tbr *r, int i)
{
    return r && i >= 0 && (uint32_t)i < r->h.var_count ? r->vars[i] : NULL;
}

int gmt_tbr_next(gmt_tbr *r, const gmt_tb_key **rec)
{
    int best = -1;
    const gmt_tb_key *bk = NULL;
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
        if (r->pos[k] >= r->sec[k].count)
            continue;
        const gmt_tb_key *c = rec_at(r, k, r->pos[k]);
        if (!bk || key_cmp(c, bk) < 0) {
            bk = c;
            best = k;
        }
    }
    if (best < 0)
        return 0;
    r->pos[best]++;
    *rec = bk;
    return 1;
}

void gmt_tbr_rewind(gmt_tbr *r)
{
    memset(r->pos, 0, sizeof r->pos);
}
