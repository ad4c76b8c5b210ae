/* Private: decoding and encoding the blob layouts of recorded calls that are not plain arrays
 * (statemodel/DESIGN.md, "Blob layouts"). They are the layouts the shim's recorder writes and the
 * replay dispatcher reads, so calls the model makes (sm_restore_calls) replay unchanged:
 *  - an array of strings (`const GLchar *const *`: glShaderSource, glTransformFeedbackVaryings,
 *    glCreateShaderProgramv, glGetUniformIndices): u32 count, then per string a u32 byte length
 *    and the bytes (no NUL), little-endian, nothing after;
 *  - a plain string (`const GLchar *name`): the bytes including the terminating NUL. */
#ifndef SM_BLOB_H
#define SM_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "registry/glr_call.h"

/* Walks the strings of a string-array blob. */
struct sm_str_iter {
    const uint8_t *p, *end;
    uint32_t left;
};

/* Validates the whole blob (count, every length within the blob, no trailing bytes) and starts
 * the walk. Returns the number of strings, or -1 if the blob is not a well-formed string array
 * (an empty blob too: the recorder writes none for a NULL array or a count <= 0). */
int64_t sm_strings_begin(const struct glr_blob *b, struct sm_str_iter *it);
/* The next string (not NUL-terminated) and its length; false after the last. */
bool sm_strings_next(struct sm_str_iter *it, const char **s, uint32_t *len);

/* All strings of a string-array blob concatenated, as one malloc'd C string (NUL bytes inside
 * the strings are dropped), and their count; NULL if malformed or out of memory. */
char *sm_strings_join(const struct glr_blob *b, uint32_t *count);
/* The strings as a malloc'd array of malloc'd C strings (*count of them); NULL if malformed or
 * out of memory (or if there are none). */
char **sm_strings_split(const struct glr_blob *b, uint32_t *count);

/* Encodes n C strings as a string-array blob: a malloc'd buffer and its size (NULL if memory
 * runs out). */
uint8_t *sm_strings_encode(const char *const *strs, uint32_t n, size_t *size);

/* A plain string parameter as a malloc'd C string: the bytes up to the first NUL (or the end
 * of the blob); NULL when the blob is empty or memory runs out. */
char *sm_blob_cstr(const struct glr_blob *b);

#endif
