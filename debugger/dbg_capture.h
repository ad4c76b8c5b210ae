/* What the debugger knows about a capture without running it: the shaders the frame's programs
 * linked (deduplicated by stage and text: a breakpoint binds to shader texts), the programs, the
 * draws, and the API state at any event (state model). */
#ifndef GLR_DAP_CAPTURE_H
#define GLR_DAP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct glrh_capture;
struct sm_state;
typedef struct gm_program gm_program;
struct dbg_func;
struct dbg_disasm;

/* One captured shader text of one stage. id = index + 1 (also its DAP sourceReference). */
struct dbg_shader {
    int id;
    int stage;               /* gm_stage */
    uint32_t gl_name;        /* the first GL shader object that had this text (0: from a program binary/Createv) */
    uint32_t program;        /* the first program that linked it */
    char *source;
    int line_count;
    char name[64];           /* "mesh.frag" style display name: "shader 5 (FS).frag" */
    /* Lines with code, from the model's compile of the program (NULL: not compiled). */
    unsigned char *has_code; /* [line_count + 2] */
    char *compile_error;     /* why it could not be compiled, or NULL */
    struct dbg_func *funcs;  /* its functions and their entry lines (dbg_funcs.h) */
    int n_funcs;
    struct dbg_disasm *disasm; /* its IR instructions per pc (dbg_disasm.h), or NULL */
};

struct dbg_program {
    uint32_t ctx_id, name;
    int shader[6];           /* dbg_shader index per gm_stage, -1 if none */
};

struct dbg_draw {
    uint64_t record;         /* index in the command stream */
    uint32_t ctx_id, cmd, program;
};

/* A draw (numbered as the model numbers them, draws inside display lists included) that ran
 * generated fixed-function stages (dbg_ff_sources.c). */
struct dbg_ff_draw {
    int draw;
    uint64_t record;         /* its record (a glCallList(s) record for the draws of a list) */
    int shader[2];           /* dbg_shader index of its vertex and fragment stage (-1: unknown) */
};

struct dbg_capture {
    char *path;
    struct glrh_capture *cap;
    struct sm_state *initial;     /* state at the start (clone before applying) */
    struct dbg_shader *shaders;
    int n_shaders;
    struct dbg_program *programs;
    int n_programs;
    struct dbg_draw *draws;
    int n_draws;
    uint64_t n_records;
    /* The fixed-function sources the model generates for the frame's draws (listed among the
     * shaders, named fixed-function-N-VS.vert / -FS.frag), and which draws run them. */
    struct dbg_ff_draw *ff_draws;
    int n_ff_draws;
    char *ff_error;          /* why they could not be listed, or NULL */
};

/* The dbg_shader index a draw (as the model numbers them) runs for a stage, or -1. */
int dbg_capture_draw_shader(const struct dbg_capture *c, int draw, int stage);

/* Loads and indexes a capture (and compiles every program in the model to know which lines have
 * code). NULL with a one-line message in err. */
struct dbg_capture *dbg_capture_open(const char *path, char *err, size_t err_size);
void dbg_capture_close(struct dbg_capture *c);

/* The shader with this id (1-based), or NULL. */
const struct dbg_shader *dbg_capture_shader(const struct dbg_capture *c, int id);
/* Shader id of a stage's text (exact match), 0 if unknown. */
int dbg_capture_find_shader(const struct dbg_capture *c, int stage, const char *source);

/* The state model's JSON view (sm_query_json) of the state just before record `event`; malloc'd,
 * NULL with err. */
char *dbg_capture_state_json(const struct dbg_capture *c, uint64_t event, char *err, size_t err_size);

/* Events of the frame as a JSON array text: [{"event":K,"name":"glDrawArrays","ctx":1,
 * "draw":D?},...], from record `start`, at most `count` (0: all). malloc'd. */
char *dbg_capture_events_json(const struct dbg_capture *c, uint64_t start, uint64_t count);

const char *dbg_stage_short(int stage);   /* "VS", "FS", ... */

#endif
