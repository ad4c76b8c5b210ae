/* `glreplay debug F --break FILE:LINE --heatmap EXPR --out MAP.png`: the value of a GLSL
 * expression at every pixel where a fragment reached that fragment-shader line, over the whole
 * frame, as a PNG heat map (debugger/dbg_heatmap.h; the same pass as DAP's glreplay/heatmap). */
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>
#include "capture/glcap_file.h"
#include "gpu_model/gpu_model.h"
#include "replay/player/player.h"
#include "replay/player/image_util.h"
#include "ui_ipc/cli/cli_common.h"
#include "ui_ipc/cli/cli_debug_heatmap.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_heatmap.h"

int cli_debug_heatmap(const struct dbg_capture *c, struct dbg_runner *r, const struct dbg_bp *bp,
                      const struct cli_heatmap_opts *o)
{
    const struct dbg_shader *sh = dbg_capture_shader(c, bp->shader);
    if (!sh || sh->stage != GM_STAGE_FRAGMENT) {
        cli_error("debug: --heatmap needs a fragment shader line (%s is not one)", sh ? sh->name : "?");
        return 2;
    }
    struct dbg_heat *ht = dbg_heat_new(o->expr, o->component, o->draw);
    if (!ht) {
        cli_error("out of memory");
        return 1;
    }
    const struct glrh_capture *cap = c->cap;
    if (cap && cap->n_images)
        dbg_heat_size(ht, cap->images[cap->n_images - 1].width, cap->images[cap->n_images - 1].height);
    char err[300];
    if (dbg_heat_run(ht, r, bp->shader, bp->line, err, sizeof err) != 0) {
        cli_error("debug: the frame could not run: %s", err);
        dbg_heat_free(ht);
        return 1;
    }
    struct dbg_heat_stats st;
    unsigned char *px = dbg_heat_image(ht, o->have_min ? &o->min : NULL, o->have_max ? &o->max : NULL, &st, err, sizeof err);
    dbg_heat_free(ht);
    if (!px) {
        cli_error("debug: --heatmap %s: %s", o->expr, err);
        return 1;
    }
    int rc = glrh_write_png(o->out, px, st.width, st.height, err, sizeof err);
    free(px);
    if (rc != 0) {
        cli_error("debug: %s", err);
        return 1;
    }
    if (o->json) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "expression", o->expr);
        cJSON_AddNumberToObject(b, "component", o->component);
        cJSON_AddStringToObject(b, "shader", sh->name);
        cJSON_AddNumberToObject(b, "shaderLine", bp->line);
        cJSON_AddStringToObject(b, "png", o->out);
        cJSON_AddNumberToObject(b, "width", st.width);
        cJSON_AddNumberToObject(b, "height", st.height);
        cJSON_AddNumberToObject(b, "min", st.min);
        cJSON_AddNumberToObject(b, "max", st.max);
        cJSON_AddNumberToObject(b, "fragments", (double)st.fragments);
        cJSON_AddNumberToObject(b, "pixels", (double)st.pixels);
        cJSON_AddNumberToObject(b, "nan", (double)st.nans);
        cJSON_AddNumberToObject(b, "errors", (double)st.errors);
        char *text = cJSON_PrintUnformatted(b);
        printf("%s\n", text ? text : "{}");
        free(text);
        cJSON_Delete(b);
    } else {
        printf("%s: %s (component %d) at %s:%d: %ux%u, %llu pixels from %llu fragments, range %g .. %g, %llu NaN%s\n",
               o->out, o->expr, o->component, sh->name, bp->line, st.width, st.height, (unsigned long long)st.pixels,
               (unsigned long long)st.fragments, st.min, st.max, (unsigned long long)st.nans,
               st.errors ? "; some fragments had no value" : "");
        if (st.errors)
            printf("  first: %s\n", st.first_error);
    }
    return 0;
}
