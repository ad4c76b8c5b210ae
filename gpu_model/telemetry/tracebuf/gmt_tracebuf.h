/* gmt_tracebuf.h - telemetry method 4 of the GPU model: exact-size trace buffers from
 * instrumented execution (see DESIGN.md here).
 *
 * Four record types, each in its own buffer of fixed-size records: basic-block flow, memory
 * access (UBO/SSBO loads, stores, atomics), texture access (sampling, fetch, image ops) and
 * register values of chosen variables. A trace takes two runs of the same frame:
 *
 *   gmt_tracebuf *t = gmt_tracebuf_create(&cfg, err, sizeof err);
 *   gmf_hooks h;
 *   gmt_tracebuf_hooks(t, 1, &h);  gmf_set_hooks(runner1, &h);  ... run the frame ...
 *   gmt_tracebuf_size_buffers(t, err, sizeof err);      // exact sizes from pass-1 counts
 *   gmt_tracebuf_hooks(t, 2, &h);  gmf_set_hooks(runner2, &h);  ... run the frame again ...
 *   gmt_tracebuf_finish(t, err, sizeof err);            // checks cursors, merges
 *   gmt_tracebuf_write_binary(t, "trace.gmtb", ...) / gmt_tracebuf_write_jsonl(...)
 *   gmt_tracebuf_destroy(t);
 *
 * Pass 1 counts the executions of every basic block of every program. The number of records
 * of each type one execution of a block produces is known from the IR, so after pass 1 each
 * buffer gets exactly sum(records per execution x executions) x record size bytes. In pass 2
 * a warp entering a block reserves the block's records in every buffer with one atomic add
 * on that buffer's cursor and writes them as the instructions issue (no lock, no bounds test).
 * gmt_tracebuf_finish checks that every cursor ended exactly at its buffer's size and merges
 * the buffers into one trace ordered by (warp_seq, per-warp sequence number).
 *
 * Both runs must be the same frame on runners with the same configuration (the frame runner
 * is deterministic). The hooks need the timing model (the frame runner's default).
 *
 * The reader half (gmt_tbr_*) opens a written binary trace, validates it and iterates its
 * records; it needs no GPU model. */
#ifndef GMT_TRACEBUF_H
#define GMT_TRACEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gmf_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ record types */

typedef enum {
    GMT_TB_FLOW, /* one per basic-block execution by a warp */
    GMT_TB_MEM,  /* one per issued buffer load/store/atomic */
    GMT_TB_TEX,  /* one per issued texture/image instruction */
    GMT_TB_REG,  /* one per register word of a chosen variable written by an instruction */
    GMT_TB_TYPE_COUNT
} gmt_tb_type;

#define GMT_TB_BIT(type) (1u << (type))
#define GMT_TB_ALL ((1u << GMT_TB_TYPE_COUNT) - 1u)

const char *gmt_tb_type_name(gmt_tb_type type); /* "flow", "mem", "tex", "reg" */

#define GMT_TB_MAX_VARS 8
#define GMT_TB_VAR_NAME 64

typedef struct gmt_tracebuf_config {
    uint32_t types;                 /* GMT_TB_BIT(...) mask */
    int var_count;                  /* chosen variables (reg records), by GLSL name */
    char vars[GMT_TB_MAX_VARS][GMT_TB_VAR_NAME];
    /* Also append every record in issue order to one growable buffer during pass 2 (the
     * single-buffer reference the merged trace must equal; costs memory and time). */
    bool reference;
} gmt_tracebuf_config;

/* Parses "flow,mem,tex,reg:NAME[,reg:NAME2...]" ("bb" = flow, "all" = flow,mem,tex; a bare
 * "reg" is an error: it needs a variable) into cfg->types and cfg->vars (other fields untouched).
 * Returns 0, or -1 with a message in err. */
int gmt_tracebuf_parse_types(const char *spec, gmt_tracebuf_config *cfg, char *err,
                             size_t err_size);

/* ------------------------------------------------------------------ record layouts
 * Fixed size per type, little-endian, no padding holes (all fields written; the binary file
 * stores these structs as they are). Every record starts with the same 16-byte key. */

typedef struct gmt_tb_key {
    uint64_t warp_seq;    /* the timing model's submission order over the run (global) */
    uint32_t seq;         /* per-warp sequence number of the record (all types together) */
    uint16_t type;        /* gmt_tb_type */
    uint16_t stage;       /* gm_stage */
} gmt_tb_key;

typedef struct gmt_tb_flow {
    gmt_tb_key k;
    uint32_t draw;        /* draw index in the frame */
    uint32_t program;     /* trace-local program index (see gmt_tracebuf_program_info) */
    uint32_t block;       /* IR block index in that program */
    uint32_t mask;        /* lanes executing the block entry */
    uint64_t cycle;       /* issue cycle of the block's first instruction */
    uint32_t pc;          /* first pc of the block */
    int32_t line;         /* its source line (0: none) */
} gmt_tb_flow;            /* 48 bytes */

enum { GMT_TB_MEM_LOAD = 0, GMT_TB_MEM_STORE = 1, GMT_TB_MEM_ATOMIC = 2 };

typedef struct gmt_tb_mem {
    gmt_tb_key k;
    uint32_t draw, program;
    uint32_t pc;
    int32_t line;
    uint32_t mask;        /* lanes accessing memory */
    uint16_t op;          /* GMT_TB_MEM_LOAD / STORE / ATOMIC */
    uint16_t binding;     /* buffer binding point */
    uint16_t kind;        /* buffer kind from the IR (uniform / storage / push constant) */
    uint16_t size;        /* bytes accessed per lane */
    uint32_t reserved;    /* 0 */
    uint32_t offset[32];  /* byte offset per lane into the bound buffer (0 for inactive lanes) */
} gmt_tb_mem;             /* 176 bytes */

/* LOD operand of a texture access. */
enum { GMT_TB_LOD_IMPLICIT = 0, GMT_TB_LOD_EXPLICIT = 1, GMT_TB_LOD_BIAS = 2,
       GMT_TB_LOD_GRAD = 3, GMT_TB_LOD_NONE = 4 };

typedef struct gmt_tb_tex {
    gmt_tb_key k;
    uint32_t draw, program;
    uint32_t pc;
    int32_t line;
    uint32_t mask;        /* lanes sampling */
    uint16_t is_image;    /* 0: GM_OP_TEX, 1: GM_OP_IMAGE */
    uint16_t op;          /* gm_tex_desc.kind (texture op) or image_op */
    uint16_t dim;         /* gm_tex_dim */
    uint16_t coord_n;     /* coordinate components (<= 4 reported) */
    int32_t unit;         /* texture/image unit of the first active lane (-1: none) */
    uint16_t lod_mode;    /* GMT_TB_LOD_* */
    uint16_t coord_int;   /* 1: coordinates are integers (fetch, images): bit patterns */
    float lod;            /* explicit lod or bias of the first active lane (0 otherwise) */
    uint32_t unit_mixed;  /* 1: active lanes use different units */
    uint32_t reserved;    /* 0 */
    /* Compact per-warp form: bounding box of each coordinate component over the active lanes
     * (as float, or as int32 bit patterns when coord_int), then s and t per lane. */
    uint32_t cmin[4], cmax[4];
    uint32_t s[32], t[32];
} gmt_tb_tex;             /* 352 bytes */

typedef struct gmt_tb_reg {
    gmt_tb_key k;
    uint32_t draw, program;
    uint32_t pc;          /* the writing instruction */
    int32_t line;
    uint32_t mask;        /* lanes the instruction wrote */
    uint16_t var;         /* index into the config's chosen variables */
    uint16_t comp;        /* register word of the variable (0 .. words-1) */
    uint32_t value[32];   /* the word after the write per lane (0 for lanes not in mask) */
} gmt_tb_reg;             /* 168 bytes */

/* Size of one record of a type. */
size_t gmt_tb_record_size(gmt_tb_type type);

/* ------------------------------------------------------------------ producer */

typedef struct gmt_tracebuf gmt_tracebuf;

gmt_tracebuf *gmt_tracebuf_create(const gmt_tracebuf_config *cfg, char *err, size_t err_size);
void gmt_tracebuf_destroy(gmt_tracebuf *t);

/* Fills *out (callbacks and ctx) for pass 1 (counting) or pass 2 (recording). Install it with
 * gmf_set_hooks on the runner of that pass. The other members of *out are zeroed: a caller
 * combining several profilers chains them itself. Returns 0, or -1 when the pass is out of
 * order (pass 2 before gmt_tracebuf_size_buffers). */
int gmt_tracebuf_hooks(gmt_tracebuf *t, int pass, gmf_hooks *out);
/* The members of the pass's hooks as plain functions, for callers that fan one hook out to
 * several profilers (ctx = t). */
void gmt_tracebuf_on_issue(void *t, const gm_timing_issue *ev);
void gmt_tracebuf_on_draw_begin(void *t, const gmf_event *ev, uint64_t cycle);
void gmt_tracebuf_on_draw_end(void *t, const gmf_event *ev, uint64_t cycle);

/* Between the passes: sizes the buffers exactly from the pass-1 counts and allocates them.
 * Returns 0, or -1 with a message (out of memory). */
int gmt_tracebuf_size_buffers(gmt_tracebuf *t, char *err, size_t err_size);
/* After pass 2: checks every buffer's cursor equals its size (no overflow, no unused byte)
 * and the pass saw the same block executions as pass 1, then merges the buffers into one
 * trace in (warp_seq, seq) order. Returns 0, or -1 with a message. */
int gmt_tracebuf_finish(gmt_tracebuf *t, char *err, size_t err_size);

/* Statistics (valid after finish; counts are also valid after size_buffers). */
typedef struct gmt_tracebuf_stats {
    uint64_t records[GMT_TB_TYPE_COUNT];  /* records per type */
    uint64_t bytes[GMT_TB_TYPE_COUNT];    /* exact buffer size per type */
    uint64_t cursor[GMT_TB_TYPE_COUNT];   /* where each cursor ended in pass 2 */
    uint64_t total_records, total_bytes;
    uint64_t block_executions;            /* pass 1 */
    uint64_t programs, blocks;            /* distinct programs and their blocks seen */
    uint64_t warps;                       /* warps that issued in pass 2 */
    uint64_t reference_bytes;             /* single-buffer reference (0 unless enabled) */
    int vars_found;                       /* chosen variables found in at least one program */
} gmt_tracebuf_stats;
void gmt_tracebuf_get_stats(const gmt_tracebuf *t, gmt_tracebuf_stats *out);
uint64_t gmt_tracebuf_record_count(const gmt_tracebuf *t, gmt_tb_type type);
uint64_t gmt_tracebuf_bytes(const gmt_tracebuf *t, gmt_tb_type type);

/* The merged trace (after finish): record pointers in (warp_seq, seq) order. */
size_t gmt_tracebuf_merged_count(const gmt_tracebuf *t);
const gmt_tb_key *gmt_tracebuf_merged_record(const gmt_tracebuf *t, size_t i);
/* Canonical serialization: the records concatenated in order (malloc'd, *size bytes). The
 * merged trace and the reference trace serialize the same way, so they compare with memcmp.
 * NULL when not available (reference not enabled, or before finish). */
uint8_t *gmt_tracebuf_serialize_merged(const gmt_tracebuf *t, size_t *size);
uint8_t *gmt_tracebuf_serialize_reference(const gmt_tracebuf *t, size_t *size);

/* Trace-local program index -> description, for readers of the records. */
typedef struct gmt_tracebuf_program_info {
    uint32_t gl_program;  /* captured program name */
    uint32_t stage;       /* gm_stage */
    uint32_t blocks;      /* IR blocks */
} gmt_tracebuf_program_info;
int gmt_tracebuf_program_count(const gmt_tracebuf *t);
int gmt_tracebuf_program_info_get(const gmt_tracebuf *t, int i, gmt_tracebuf_program_info *out);

/* Output: the binary format (DESIGN.md: header, program table, variable table, one section
 * per type with the records in merged order) and JSON lines (one object per record, merged
 * order, after a first line describing the trace). 0, or -1 with a message. */
int gmt_tracebuf_write_binary(const gmt_tracebuf *t, const char *path, char *err,
                              size_t err_size);
int gmt_tracebuf_write_jsonl(const gmt_tracebuf *t, const char *path, char *err,
                             size_t err_size);

/* ------------------------------------------------------------------ reader */

typedef struct gmt_tbr gmt_tbr;

/* Opens and validates a binary trace (magic, version, section table, sizes, record types
 * and order). NULL with a clear message in err on a missing, truncated or corrupt file. */
gmt_tbr *gmt_tbr_open(const char *path, char *err, size_t err_size);
void gmt_tbr_close(gmt_tbr *r);
uint64_t gmt_tbr_count(const gmt_tbr *r, gmt_tb_type type);
int gmt_tbr_program_count(const gmt_tbr *r);
int gmt_tbr_program(const gmt_tbr *r, int i, gmt_tracebuf_program_info *out);
int gmt_tbr_var_count(const gmt_tbr *r);
const char *gmt_tbr_var_name(const gmt_tbr *r, int i);
/* Records of every type in merged (warp_seq, seq) order: *rec points into the reader's
 * memory (valid until close), aligned for the record structs. Returns 1 with a record, 0 at
 * the end. gmt_tbr_rewind restarts. */
int gmt_tbr_next(gmt_tbr *r, const gmt_tb_key **rec);
void gmt_tbr_rewind(gmt_tbr *r);
/* One record as a JSON object (no newline) into buf; returns the length or -1 when too small. */
int gmt_tb_record_json(const gmt_tb_key *rec, const char *const *var_names, int var_count,
                       char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
