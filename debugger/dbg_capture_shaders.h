/* Adding to a capture's shader and program lists. A leaf under both the capture's indexing
 * (dbg_capture.c: linked programs, ARB programs) and its fixed-function sources (dbg_ff_sources.c),
 * so the indexing calls the fixed-function file and neither calls back into the other. */
#ifndef GLR_DBG_CAPTURE_SHADERS_H
#define GLR_DBG_CAPTURE_SHADERS_H

#include <stdint.h>

struct dbg_capture;
struct dbg_program;

/* A shader of a stage, deduplicated by text: its index, or -1. gl_name: the GL shader object shown
 * in its name (0: none); program: the first program that linked it. */
int dbg_capture_add_named_shader(struct dbg_capture *c, int stage, const char *source, uint32_t gl_name,
                                 uint32_t program);
/* The same without a GL shader object (generated sources). */
int dbg_capture_add_shader(struct dbg_capture *c, int stage, const char *source, uint32_t program);
/* Appends a program: 0, or -1 out of memory. */
int dbg_capture_add_program(struct dbg_capture *c, const struct dbg_program *p);

#endif
