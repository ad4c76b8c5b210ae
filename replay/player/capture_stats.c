/* Counting what a capture holds, for `glreplay info`: calls per command, draws, clears, shaders,
 * created buffers/textures and the bytes uploaded to them. Pure decoding: no GL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/player.h"

/* Draws (glEnd ends an immediate-mode draw and glRect* is one: the GPU model runs both as draws;
 * glDrawBuffer(s) draws nothing), blits and clears (glClear and the per-attachment forms, not the
 * clear-value setters nor buffer-object clears): classes generated from the registry
 * (gen_registry.py cmd_flags), no name compared here. */
bool glrh_cmd_is_draw(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && (glr_cmds[cmd].flags & GLR_CF_DRAW);
}

bool glrh_cmd_is_blit(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && (glr_cmds[cmd].flags & GLR_CF_BLIT);
}

bool glrh_cmd_is_clear(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && (glr_cmds[cmd].flags & GLR_CF_CLEAR);
}

static uint64_t blob_bytes(const struct glr_call *c)
{
    uint64_t sum = 0;
    for (int i = 0; i < glr_cmds[c->cmd].nparams; i++)
        sum += c->blobs[i].size;
    return sum;
}

/* Names a glGen or glCreate call returned: the size of its output name array blob. */
static uint64_t names_created(const struct glr_call *c)
{
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    for (int i = 0; i < ci->nparams; i++)
        if (glr_cmd_params(ci)[i].is_pointer && !glr_cmd_params(ci)[i].is_const && glr_cmd_params(ci)[i].obj_class)
            return c->blobs[i].size / 4;
    return 0;
}

/* The command's `info` counter: a class generated from the registry (glr_cmd_info.info,
 * registry/gl_annotations.txt): glShaderSource*, glCreateShaderProgramv*, the
 * glGen/glCreate of buffers and textures, buffer data uploads and texture image uploads. */
static void count_info(struct glrh_stats *st, const struct glr_call *c)
{
    switch ((enum glr_info_class)glr_cmds[c->cmd].info) {
    case GLR_INFO_SHADER_SOURCE: st->shader_sources++; break;
    case GLR_INFO_SHADER_PROGRAM_V: st->shader_programs_v++; break;
    case GLR_INFO_BUFFERS_CREATED: st->buffers_created += names_created(c); break;
    case GLR_INFO_TEXTURES_CREATED: st->textures_created += names_created(c); break;
    case GLR_INFO_BUFFER_UPLOAD: st->buffer_bytes_uploaded += blob_bytes(c); break;
    case GLR_INFO_TEXTURE_UPLOAD: st->texture_bytes_uploaded += blob_bytes(c); break;
    case GLR_INFO_NONE: break;
    }
}

static int by_count(const void *a, const void *b)
{
    const struct glrh_cmd_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(glr_cmd_name(x->cmd), glr_cmd_name(y->cmd));
}

int glrh_capture_stats(const struct glrh_capture *cap, struct glrh_stats *st, char *err, size_t err_size)
{
    memset(st, 0, sizeof *st);
    uint64_t *counts = calloc(GLR_CMD_COUNT, sizeof *counts);
    if (!counts) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        st->records++;
        switch (c.cmd) {
        case GLR_PSEUDO_SWAP: st->swaps++; continue;
        case GLR_PSEUDO_MAKE_CURRENT: st->make_currents++; continue;
        case GLR_PSEUDO_CONTEXT_CREATE: st->context_creates++; continue;
        case GLR_PSEUDO_CLIENT_ARRAY: st->client_arrays++; continue;
        case GLR_PSEUDO_BUFFER_MAPPED: continue;
        case GLR_PSEUDO_BUFFER_DATA:
            st->buffer_data_records++;
            st->buffer_bytes_uploaded += c.blobs[0].size;
            continue;
        default: break;
        }
        if (c.cmd >= GLR_CMD_COUNT)
            continue;
        st->calls++;
        counts[c.cmd]++;
        if (glrh_cmd_is_draw(c.cmd))
            st->draws++;
        if (glrh_cmd_is_clear(c.cmd))
            st->clears++;
        count_info(st, &c);
    }
    if (k < 0) {
        snprintf(err, err_size, "%s: COMMAND_STREAM: %s", cap->path, s.err);
        free(counts);
        return -1;
    }
    unsigned distinct = 0;
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++)
        distinct += counts[i] != 0;
    st->per_cmd = calloc(distinct ? distinct : 1, sizeof *st->per_cmd);
    if (!st->per_cmd) {
        free(counts);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++)
        if (counts[i])
            st->per_cmd[st->n_cmds++] = (struct glrh_cmd_count){ .cmd = i, .count = counts[i] };
    qsort(st->per_cmd, st->n_cmds, sizeof *st->per_cmd, by_count);
    free(counts);
    return 0;
}

void glrh_stats_free(struct glrh_stats *st)
{
    free(st->per_cmd);
    st->per_cmd = NULL;
}
