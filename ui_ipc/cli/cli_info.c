/* `glreplay info F.glcap [--json] [--top N]`: what a capture holds: contexts, frames, calls (total
 * and per command), draws, clears, shaders, resources, section sizes, reference images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_verbs.h"
#include "capture/glcap_file.h"
#include "replay/player/player.h"
#include "cli_info_lists.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define USAGE "usage: glreplay info F.glcap [--json] [--top N]"

static const char *profile_name(const struct glrh_context *c)
{
    if (c->es)
        return "es";
    return c->profile_mask == 1 ? "core" : c->profile_mask == 2 ? "compatibility" : "none";
}

static void print_text(const struct glrh_capture *cap, const struct glrh_stats *st, const struct cli_list_draws *ld,
                       unsigned top)
{
    printf("file: %s (%llu bytes, format %u.%u)\n", cap->path, (unsigned long long)cap->file_size, cap->version_major,
           cap->version_minor);
    printf("program: %s\n", cap->program);
    printf("frames: %llu-%llu (%llu swaps), initial state: %s\n", (unsigned long long)cap->first_frame,
           (unsigned long long)cap->last_frame, (unsigned long long)st->swaps, cap->initial_state);
    if (cap->snapshot_losses)
        printf("snapshot losses: %llu contents could not be kept (first: %s)\n",
               (unsigned long long)cap->snapshot_losses, cap->snapshot_first_loss);
    printf("contexts: %u\n", cap->n_ctxs);
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        const struct glrh_context *c = &cap->ctxs[i];
        if (c->described)
            printf("  context %u: %s %d.%d %s, flags 0x%x, share group %u, created with %s (%s)\n", c->id,
                   c->es ? "OpenGL ES" : "OpenGL", c->major, c->minor, profile_name(c), (unsigned)c->flags,
                   c->share_group, c->api == 1 ? "GLX" : "EGL", c->version);
        else
            printf("  context %u: never made current (attributes unknown), share group %u\n", c->id, c->share_group);
    }
    printf("threads: %llu\n", (unsigned long long)cap->meta_threads);
    printf("calls: %llu (%llu records, %u distinct commands)\n", (unsigned long long)st->calls,
           (unsigned long long)st->records, st->n_cmds);
    unsigned shown = top && top < st->n_cmds ? top : st->n_cmds;
    for (unsigned i = 0; i < shown; i++)
        printf("  %10llu  %s\n", (unsigned long long)st->per_cmd[i].count, glr_cmd_name(st->per_cmd[i].cmd));
    if (shown < st->n_cmds)
        printf("  ... %u more (--top 0 lists all)\n", st->n_cmds - shown);
    printf("draws: %llu", (unsigned long long)st->draws);
    if (ld->calls)   /* glBegin/glEnd and draws inside the called display lists */
        printf(" (and %llu inside the %llu called display lists%s)", (unsigned long long)ld->draws,
               (unsigned long long)ld->calls, ld->missing ? ", some lists not in the capture" : "");
    printf("\nclears: %llu\n", (unsigned long long)st->clears);
    printf("shaders: %llu glShaderSource, %llu glCreateShaderProgramv\n", (unsigned long long)st->shader_sources,
           (unsigned long long)st->shader_programs_v);
    printf("resources: %llu buffers created, %llu bytes uploaded; %llu textures created, %llu bytes uploaded; "
           "%llu client arrays, %llu writes through buffer mappings\n",
           (unsigned long long)st->buffers_created, (unsigned long long)st->buffer_bytes_uploaded,
           (unsigned long long)st->textures_created, (unsigned long long)st->texture_bytes_uploaded,
           (unsigned long long)st->client_arrays, (unsigned long long)st->buffer_data_records);
    printf("sections: %u\n", cap->n_sections);
    for (unsigned i = 0; i < cap->n_sections; i++) {
        const struct glrh_section_size *s = &cap->sections[i];
        printf("  %-16s id %-4u %12llu bytes stored (%s), %12llu uncompressed", glcap_section_type_name(s->type),
               s->id, (unsigned long long)s->stored, glcap_compression_name(s->compression),
               (unsigned long long)s->raw);
        /* A packed command stream (format 1.1): also the size of the records it unpacks to. */
        if (s->compression == GLCAP_COMPRESSION_ZSTD_PACKED && s->type == GLCAP_SECTION_COMMAND_STREAM)
            printf(", %llu unpacked", (unsigned long long)cap->stream_size);
        printf("\n");
    }
    printf("reference images: %u\n", cap->n_images);
    for (unsigned i = 0; i < cap->n_images; i++)
        if (cap->images[i].fbo)
            printf("  frame %u, context %u, framebuffer %u colour attachment %u: %ux%u RGBA8\n", cap->images[i].frame,
                   cap->images[i].ctx_id, cap->images[i].fbo, cap->images[i].attachment - GL_COLOR_ATTACHMENT0,
                   cap->images[i].width, cap->images[i].height);
        else
            printf("  frame %u, context %u: %ux%u RGBA8\n", cap->images[i].frame, cap->images[i].ctx_id,
                   cap->images[i].width, cap->images[i].height);
    if (cap->n_hashes)
        printf("reference hashes (frames kept only as a hash of their image): %u\n", cap->n_hashes);
    if (cap->n_unsized) {
        printf("client memory not recorded (could not be sized):");
        for (unsigned i = 0; i < cap->n_unsized; i++)
            printf(" %s", cap->unsized[i]);
        printf("\n");
    }
}

static cJSON *num(double v)
{
    return cJSON_CreateNumber(v);
}

static cJSON *to_json(const struct glrh_capture *cap, const struct glrh_stats *st, const struct cli_list_draws *ld,
                      unsigned top)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", cap->path);
    cJSON_AddNumberToObject(o, "file_size", (double)cap->file_size);
    char ver[32];
    snprintf(ver, sizeof ver, "%u.%u", cap->version_major, cap->version_minor);
    cJSON_AddStringToObject(o, "format_version", ver);
    cJSON_AddStringToObject(o, "program", cap->program);
    cJSON *fr = cJSON_AddObjectToObject(o, "frames");
    cJSON_AddNumberToObject(fr, "first", (double)cap->first_frame);
    cJSON_AddNumberToObject(fr, "last", (double)cap->last_frame);
    cJSON_AddNumberToObject(fr, "swaps", (double)st->swaps);
    cJSON_AddStringToObject(o, "initial_state", cap->initial_state);
    cJSON_AddNumberToObject(o, "snapshot_losses", (double)cap->snapshot_losses);
    if (cap->snapshot_losses)
        cJSON_AddStringToObject(o, "snapshot_first_loss", cap->snapshot_first_loss);
    cJSON *ctxs = cJSON_AddArrayToObject(o, "contexts");
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        const struct glrh_context *c = &cap->ctxs[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "id", c->id);
        cJSON_AddNumberToObject(x, "share_group", c->share_group);
        cJSON_AddStringToObject(x, "api", c->api == 1 ? "glx" : "egl");
        cJSON_AddBoolToObject(x, "described", c->described);
        cJSON_AddBoolToObject(x, "es", c->es);
        cJSON_AddNumberToObject(x, "major", c->major);
        cJSON_AddNumberToObject(x, "minor", c->minor);
        cJSON_AddStringToObject(x, "profile", profile_name(c));
        cJSON_AddNumberToObject(x, "flags", c->flags);
        cJSON_AddStringToObject(x, "version", c->version);
        cJSON_AddStringToObject(x, "renderer", c->renderer);
        cJSON_AddItemToArray(ctxs, x);
    }
    cJSON_AddNumberToObject(o, "threads", (double)cap->meta_threads);
    cJSON *calls = cJSON_AddObjectToObject(o, "calls");
    cJSON_AddNumberToObject(calls, "total", (double)st->calls);
    cJSON_AddNumberToObject(calls, "records", (double)st->records);
    cJSON_AddNumberToObject(calls, "distinct_commands", st->n_cmds);
    cJSON *per = cJSON_AddArrayToObject(calls, "per_command");
    unsigned shown = top && top < st->n_cmds ? top : st->n_cmds;
    for (unsigned i = 0; i < shown; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", glr_cmd_name(st->per_cmd[i].cmd));
        cJSON_AddItemToObject(x, "count", num((double)st->per_cmd[i].count));
        cJSON_AddItemToArray(per, x);
    }
    cJSON_AddNumberToObject(o, "draws", (double)st->draws);
    cJSON_AddNumberToObject(o, "list_calls", (double)ld->calls);
    cJSON_AddNumberToObject(o, "list_draws", (double)ld->draws);
    cJSON_AddNumberToObject(o, "list_names_missing", (double)ld->missing);
    cJSON_AddNumberToObject(o, "clears", (double)st->clears);
    cJSON *sh = cJSON_AddObjectToObject(o, "shaders");
    cJSON_AddNumberToObject(sh, "shader_source_calls", (double)st->shader_sources);
    cJSON_AddNumberToObject(sh, "create_shader_programv_calls", (double)st->shader_programs_v);
    cJSON *res = cJSON_AddObjectToObject(o, "resources");
    cJSON_AddNumberToObject(res, "buffers_created", (double)st->buffers_created);
    cJSON_AddNumberToObject(res, "buffer_bytes_uploaded", (double)st->buffer_bytes_uploaded);
    cJSON_AddNumberToObject(res, "textures_created", (double)st->textures_created);
    cJSON_AddNumberToObject(res, "texture_bytes_uploaded", (double)st->texture_bytes_uploaded);
    cJSON_AddNumberToObject(res, "client_array_records", (double)st->client_arrays);
    cJSON_AddNumberToObject(res, "mapped_write_records", (double)st->buffer_data_records);
    cJSON *secs = cJSON_AddArrayToObject(o, "sections");
    for (unsigned i = 0; i < cap->n_sections; i++) {
        const struct glrh_section_size *s = &cap->sections[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "type", glcap_section_type_name(s->type));
        cJSON_AddNumberToObject(x, "id", s->id);
        cJSON_AddStringToObject(x, "compression", glcap_compression_name(s->compression));
        cJSON_AddNumberToObject(x, "stored_bytes", (double)s->stored);
        cJSON_AddNumberToObject(x, "uncompressed_bytes", (double)s->raw);
        if (s->compression == GLCAP_COMPRESSION_ZSTD_PACKED && s->type == GLCAP_SECTION_COMMAND_STREAM)
            cJSON_AddNumberToObject(x, "unpacked_bytes", (double)cap->stream_size);
        cJSON_AddItemToArray(secs, x);
    }
    cJSON *imgs = cJSON_AddArrayToObject(o, "reference_images");
    for (unsigned i = 0; i < cap->n_images; i++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "frame", cap->images[i].frame);
        cJSON_AddNumberToObject(x, "context", cap->images[i].ctx_id);
        cJSON_AddNumberToObject(x, "width", cap->images[i].width);
        cJSON_AddNumberToObject(x, "height", cap->images[i].height);
        cJSON_AddNumberToObject(x, "framebuffer", cap->images[i].fbo);
        cJSON_AddNumberToObject(x, "attachment", cap->images[i].attachment);
        cJSON_AddItemToArray(imgs, x);
    }
    cJSON *hs = cJSON_AddArrayToObject(o, "reference_hashes");
    for (unsigned i = 0; i < cap->n_hashes; i++) {
        cJSON *x = cJSON_CreateObject();
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)cap->hashes[i].hash);
        cJSON_AddNumberToObject(x, "frame", cap->hashes[i].frame);
        cJSON_AddNumberToObject(x, "context", cap->hashes[i].ctx_id);
        cJSON_AddNumberToObject(x, "width", cap->hashes[i].width);
        cJSON_AddNumberToObject(x, "height", cap->hashes[i].height);
        cJSON_AddNumberToObject(x, "framebuffer", cap->hashes[i].fbo);
        cJSON_AddNumberToObject(x, "attachment", cap->hashes[i].attachment);
        cJSON_AddStringToObject(x, "xxh3", hex);
        cJSON_AddItemToArray(hs, x);
    }
    cJSON *uns = cJSON_AddArrayToObject(o, "unsized_client_memory");
    for (unsigned i = 0; i < cap->n_unsized; i++)
        cJSON_AddItemToArray(uns, cJSON_CreateString(cap->unsized[i]));
    return o;
}

/* --top N: a number (0: all), given explicitly. */
struct top_dest {
    unsigned *top;
    bool *given;
};

static bool parse_top(const char *s, void *dest)
{
    struct top_dest *d = dest;
    char *end;
    if (!s[0] || s[0] == '-')
        return false;
    *d->top = (unsigned)strtoul(s, &end, 10);
    if (*end)
        return false;
    *d->given = true;
    return true;
}

int cli_info(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false;
    unsigned top = 10;
    bool top_given = false;
    struct top_dest td = { &top, &top_given };
    const struct cli_opt opts[] = {
        { .name = "--json", .flag = &json, .set_to = true },
        { .name = "--top", .parse = parse_top, .dest = &td, .needs = "a number (0: all)" },
    };
    if (cli_parse_opts("info", USAGE, opts, sizeof opts / sizeof *opts, argc, argv, &path) != 0)
        return 2;
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 2;
    }
    struct glrh_stats st;
    if (glrh_capture_stats(cap, &st, err, sizeof err) != 0) {
        cli_error("%s", err);
        glrh_capture_close(cap);
        return 2;
    }
    struct cli_list_draws ld;
    if (cli_info_list_draws(path, cap, &ld, err, sizeof err) != 0) {
        cli_error("%s", err);
        glrh_stats_free(&st);
        glrh_capture_close(cap);
        return 2;
    }
    int rc = 0;
    if (json) {
        /* JSON lists every command unless --top limits it. */
        cJSON *o = to_json(cap, &st, &ld, top_given ? top : 0);
        char *text = o ? cJSON_Print(o) : NULL;
        if (text) {
            puts(text);
        } else {
            cli_error("info: out of memory");
            rc = 2;
        }
        free(text);
        cJSON_Delete(o);
    } else {
        print_text(cap, &st, &ld, top);
    }
    glrh_stats_free(&st);
    glrh_capture_close(cap);
    return rc;
}
