/* sm_io: one walker, four directions. The serializer describes each structure once as a sequence
 * of io_* calls on its fields; the same description writes or reads the binary form (LEB128
 * integers, little-endian floats, length-prefixed bytes, bounds-checked) and writes or reads JSON
 * (cJSON). Readers validate: a short buffer, an overlong varint, a count larger than what is left,
 * a wrong JSON type or a missing key sets a sticky error; every later call is then a no-op, so a
 * walker checks io->failed only where it must not go on (before allocating or indexing). */
#ifndef SM_IO_H
#define SM_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

enum sm_io_mode { SM_IO_WRITE_BIN, SM_IO_READ_BIN, SM_IO_WRITE_JSON, SM_IO_READ_JSON };

#define SM_IO_MAX_DEPTH 24

/* The cJSON functions the JSON directions call, reached through this table (sm_json.c fills it)
 * so that the binary directions, all the preloaded shim uses, link no cJSON symbol. */
struct sm_io_cjson {
    __typeof__(cJSON_CreateNumber) *CreateNumber;
    __typeof__(cJSON_CreateString) *CreateString;
    __typeof__(cJSON_CreateBool) *CreateBool;
    __typeof__(cJSON_CreateNull) *CreateNull;
    __typeof__(cJSON_CreateArray) *CreateArray;
    __typeof__(cJSON_CreateObject) *CreateObject;
    __typeof__(cJSON_AddItemToObject) *AddItemToObject;
    __typeof__(cJSON_AddItemToArray) *AddItemToArray;
    __typeof__(cJSON_GetArrayItem) *GetArrayItem;
    __typeof__(cJSON_GetArraySize) *GetArraySize;
    __typeof__(cJSON_GetObjectItemCaseSensitive) *GetObjectItemCaseSensitive;
    __typeof__(cJSON_IsArray) *IsArray;
    __typeof__(cJSON_IsBool) *IsBool;
    __typeof__(cJSON_IsNull) *IsNull;
    __typeof__(cJSON_IsNumber) *IsNumber;
    __typeof__(cJSON_IsObject) *IsObject;
    __typeof__(cJSON_IsString) *IsString;
    __typeof__(cJSON_IsTrue) *IsTrue;
};

struct sm_io {
    enum sm_io_mode mode;
    /* binary writer */
    uint8_t *buf;
    size_t len, cap;
    /* binary reader */
    const uint8_t *p, *start, *end;
    /* JSON: the container stack and, for arrays being read, the next element index */
    const struct sm_io_cjson *cj;
    cJSON *stack[SM_IO_MAX_DEPTH];
    int next[SM_IO_MAX_DEPTH];
    int depth;
    bool failed;
    char err[200];
    uint32_t version;   /* of the document being read (SM_FORMAT_VERSION when writing) */
};

static inline bool io_reading(const struct sm_io *io)
{
    return io->mode == SM_IO_READ_BIN || io->mode == SM_IO_READ_JSON;
}

void io_init_write_bin(struct sm_io *io);
void io_init_read_bin(struct sm_io *io, const void *data, size_t size);
/* The JSON directions (sm_json.c). */
void io_init_write_json(struct sm_io *io, cJSON *root);
void io_init_read_json(struct sm_io *io, cJSON *root);
/* Records a walker's own validation error (first one wins); returns false. */
bool io_fail(struct sm_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Scalars. key names the JSON member (NULL: the next element of the current JSON array). */
void io_u32(struct sm_io *io, const char *key, uint32_t *v);
void io_i32(struct sm_io *io, const char *key, int32_t *v);
void io_u64(struct sm_io *io, const char *key, uint64_t *v);
void io_bool(struct sm_io *io, const char *key, bool *v);
void io_f32(struct sm_io *io, const char *key, float *v);
void io_f64(struct sm_io *io, const char *key, double *v);
/* A GLenum: JSON writes its registry name where unambiguous, reads a name or a number. */
void io_enum(struct sm_io *io, const char *key, uint32_t *v);
/* A u32 that must be below limit (an index into a fixed table). */
void io_u32_below(struct sm_io *io, const char *key, uint32_t *v, uint32_t limit);
/* A NUL-terminated string or NULL (malloc'd on read; must not contain NUL bytes). */
void io_str(struct sm_io *io, const char *key, char **s);
/* Bytes (malloc'd on read; NULL when size is 0). JSON: base64. */
void io_bytes(struct sm_io *io, const char *key, uint8_t **data, uint64_t *size);

/* Containers. Begin/end must pair; a failed begin still needs its end. */
void io_obj_begin(struct sm_io *io, const char *key);
void io_obj_end(struct sm_io *io);
/* A variable array: writes *count, reads it (<= max, and each element needs at least min_bytes
 * of binary input, so a count can be trusted before allocating). */
void io_arr_begin(struct sm_io *io, const char *key, uint32_t *count, uint32_t max,
                  size_t min_bytes);
/* A fixed-size array: reading requires exactly n elements. */
void io_fixed_begin(struct sm_io *io, const char *key, uint32_t n);
void io_arr_end(struct sm_io *io);

/* The whole state in any direction (sm_serialize.c). */
struct sm_state;
void io_state(struct sm_io *io, struct sm_state *s);
/* A program's link inputs: bindings, transform-feedback varyings, separable, linked sources
 * (sm_serialize.c; the body of a program sources entry). */
struct sm_program;
void io_program_link_inputs(struct sm_io *io, struct sm_program *p);

/* Fixed arrays of scalars. */
void io_f32_n(struct sm_io *io, const char *key, float *v, uint32_t n);
void io_f64_n(struct sm_io *io, const char *key, double *v, uint32_t n);
void io_i32_n(struct sm_io *io, const char *key, int32_t *v, uint32_t n);
void io_u32_n(struct sm_io *io, const char *key, uint32_t *v, uint32_t n);
void io_enum_n(struct sm_io *io, const char *key, uint32_t *v, uint32_t n);
void io_bool_n(struct sm_io *io, const char *key, bool *v, uint32_t n);

#endif
