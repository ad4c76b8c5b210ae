/* The JSON form of the state (sm_to_json, sm_from_json) and sm_io's JSON directions: the only
 * statemodel file that calls cJSON. Separate from sm_serialize.c so the binary form, which the
 * preloaded shim uses, links without cJSON (the shim must not carry a cJSON a program may also
 * have: shim/capture_writer.c). */
#include <stdio.h>
#include <string.h>
#include "statemodel/sm_internal.h"
#include "statemodel/sm_io.h"

static const struct sm_io_cjson cjson = {
    .CreateNumber = cJSON_CreateNumber,
    .CreateString = cJSON_CreateString,
    .CreateBool = cJSON_CreateBool,
    .CreateNull = cJSON_CreateNull,
    .CreateArray = cJSON_CreateArray,
    .CreateObject = cJSON_CreateObject,
    .AddItemToObject = cJSON_AddItemToObject,
    .AddItemToArray = cJSON_AddItemToArray,
    .GetArrayItem = cJSON_GetArrayItem,
    .GetArraySize = cJSON_GetArraySize,
    .GetObjectItemCaseSensitive = cJSON_GetObjectItemCaseSensitive,
    .IsArray = cJSON_IsArray,
    .IsBool = cJSON_IsBool,
    .IsNull = cJSON_IsNull,
    .IsNumber = cJSON_IsNumber,
    .IsObject = cJSON_IsObject,
    .IsString = cJSON_IsString,
    .IsTrue = cJSON_IsTrue,
};

void io_init_write_json(struct sm_io *io, cJSON *root)
{
    memset(io, 0, sizeof *io);
    io->mode = SM_IO_WRITE_JSON;
    io->cj = &cjson;
    io->stack[0] = root;
}

void io_init_read_json(struct sm_io *io, cJSON *root)
{
    memset(io, 0, sizeof *io);
    io->mode = SM_IO_READ_JSON;
    io->cj = &cjson;
    io->stack[0] = root;
}

static void set_err(char *err, size_t n, const char *prefix, const char *msg)
{
    if (err && n)
        snprintf(err, n, "%s: %s", prefix, msg);
}

char *sm_to_json(const struct sm_state *s)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    struct sm_io io;
    io_init_write_json(&io, root);
    io_state(&io, (struct sm_state *)s);
    char *out = io.failed ? NULL : cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}

struct sm_state *sm_from_json(const char *json, char *err, size_t err_size)
{
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    if (!root) {
        set_err(err, err_size, "state model JSON", "not valid JSON");
        return NULL;
    }
    struct sm_state *s = sm_state_new();
    if (!s) {
        cJSON_Delete(root);
        set_err(err, err_size, "state model JSON", "out of memory");
        return NULL;
    }
    struct sm_io io;
    io_init_read_json(&io, root);
    io_state(&io, s);
    cJSON_Delete(root);
    if (io.failed) {
        set_err(err, err_size, "state model JSON", io.err);
        sm_state_free(s);
        return NULL;
    }
    return s;
}
