/* Binding breakpoints to captured shaders. A file on disk binds to every captured shader whose
 * text contains the file's text (programs prepend #version/#define lines): the line offset is the
 * number of lines before the file's text in the shader. A line without code moves to the next
 * line with code inside the file's range. */
#ifndef GLR_DAP_BIND_H
#define GLR_DAP_BIND_H

#include <stddef.h>

struct dbg_capture;
struct dbg_shader;

struct dbg_binding {
    int shader;       /* shader id */
    int offset;       /* shader line = file line + offset */
    int file_lines;   /* lines of the file (the range a breakpoint may move within) */
};

/* Fills up to max bindings for a file's text; returns how many shaders contain it. */
int dbg_bind_text(const struct dbg_capture *c, const char *text, struct dbg_binding *out, int max);

/* Resolves a breakpoint at shader line `line` (limit: last shader line it may move to).
 * Returns the line with code (>= line), or 0 with a message in msg. */
int dbg_bind_line(const struct dbg_shader *s, int line, int limit, char *msg, size_t msg_size);

#define DBG_SOURCE_MAX (4 << 20)
/* Reads a whole source file named by a client: regular files only (a FIFO or a device is refused
 * without blocking), at most DBG_SOURCE_MAX bytes, no NUL bytes. NULL with a one-line reason. */
char *dbg_read_source(const char *path, char *why, size_t why_size);
/* The same without the reason. */
char *dbg_read_file(const char *path);

#endif
