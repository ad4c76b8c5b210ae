/* Declaring the contexts a capture lists in its METADATA section (JSON written by the shim,
 * shim/capture_writer.c): their GL API and version are known there, not in the command stream,
 * whose context-creation records only carry the id and the share group. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "statemodel/sm_internal.h"

/* GLX/EGL profile mask bits (GL_CONTEXT_CORE_PROFILE_BIT). */
#define CORE_PROFILE_BIT 0x1

static bool get_u32(const cJSON *o, const char *key, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > UINT32_MAX ||
        v->valuedouble != (double)(uint32_t)v->valuedouble)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

int sm_declare_capture_contexts(struct sm_state *s, const char *json, bool *initial_default,
                                char *err, size_t err_size)
{
    if (err_size)
        err[0] = 0;
    if (initial_default)
        *initial_default = false;
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    if (!cJSON_IsObject(root)) {
        snprintf(err, err_size, "metadata is not a JSON object");
        cJSON_Delete(root);
        return -1;
    }
    const cJSON *init = cJSON_GetObjectItemCaseSensitive(root, "initial_state");
    if (initial_default)
        *initial_default = cJSON_IsString(init) && !strcmp(init->valuestring, "default");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "contexts");
    int declared = 0;
    if (list && !cJSON_IsArray(list)) {
        snprintf(err, err_size, "metadata \"contexts\" is not an array");
        cJSON_Delete(root);
        return -1;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        uint32_t id, group = 0, major = 0, minor = 0, mask = 0;
        if (!cJSON_IsObject(e) || !get_u32(e, "id", &id) || id == 0) {
            snprintf(err, err_size, "metadata context without a valid \"id\"");
            cJSON_Delete(root);
            return -1;
        }
        get_u32(e, "share_group", &group);
        get_u32(e, "major", &major);
        get_u32(e, "minor", &minor);
        get_u32(e, "profile_mask", &mask);
        if (sm_ctx_find(s, id))
            continue;   /* listed twice, or declared by the caller: the first declaration wins */
        enum sm_api api = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "es")) ? SM_API_GLES
                          : (mask & CORE_PROFILE_BIT) ? SM_API_GL_CORE : SM_API_GL_COMPAT;
        if (major == 0) {   /* never made current while described: GL 2.1 like an undeclared one */
            major = 2;
            minor = 1;
        }
        /* Contexts are listed in creation order, so a group's first context comes first. */
        uint32_t share_with = group && group != id && sm_ctx_find(s, group) ? group : 0;
        if (!sm_context_create(s, id, share_with, api, (int)major, (int)minor)) {
            snprintf(err, err_size, "out of memory declaring context %u", id);
            cJSON_Delete(root);
            return -1;
        }
        declared++;
    }
    cJSON_Delete(root);
    return declared;
}
