/* The driver side of the pixel history: one headless replay (EGL surfaceless) whose probe reads
 * the pixel after each record the model pass asked about (pixel_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixel_internal.h"
#include "replay/player/player.h"
#include "replay/replay.h"

static int restore_snapshot(void *user, const struct glrh_capture *cap, struct glr_dispatch *d,
                            glrh_make_current_fn make_current, void *mc, char *err, size_t err_size)
{
    (void)cap;
    struct glr_restore_stats st;
    return glr_restore_run(user, d, make_current, mc, &st, err, err_size);
}

int pxh_driver_replay(struct engine *e, const struct glrh_capture *cap, char *err, size_t n)
{
    struct glrh_probe probe = { .x = e->o->x, .y = e->o->y };
    pxh_feed_probe(e->feed, &probe);
    FILE *devnull = fopen("/dev/null", "w");
    struct glrh_options opt = { .loops = 1, .out = devnull ? devnull : stderr, .probe = &probe };
    if (e->snap) {
        opt.restore = restore_snapshot;
        opt.restore_user = e->snap;
        opt.snapshot = e->snap;
    }
    struct glrh_result res;
    int rc = glrh_replay(cap, &opt, &res, err, n);
    if (devnull)
        fclose(devnull);
    return rc != 0 ? -1 : 0;
}

void pxh_driver_compare(struct engine *e, cJSON *root)
{
    for (size_t i = 0; i < e->n_asks; i++) {
        struct ask *a = &e->asks[i];
        bool answered = false, ok = false;
        if (pxh_feed_answer(e->feed, a->record, &answered, &ok, a->rgba)) {
            a->answered = answered;
            a->ok = ok;
        }
    }
    /* Per history entry: the driver's value; and the events the driver changed the pixel at
     * that the model has no entry for (a missed or extra write of the model). */
    int checked = 0, differ = 0;
    cJSON *driver_only = cJSON_AddArrayToObject(root, "driver_only_changes");
    bool have_prev = false;
    uint8_t prev[4] = { 0 };
    cJSON *init = cJSON_GetObjectItem(root, "initial");
    if (cJSON_IsArray(init)) {
        for (int i = 0; i < 4; i++)
            prev[i] = (uint8_t)cJSON_GetArrayItem(init, i)->valueint;
        have_prev = true;
    }
    for (size_t i = 0; i < e->n_asks; i++) {
        struct ask *a = &e->asks[i];
        if (!a->answered || !a->ok) {
            if (a->entry)
                cJSON_AddStringToObject(a->entry, "driver_note", a->answered ? "the driver's pixel could not be read"
                                                                              : "the driver replay did not reach it");
            continue;
        }
        if (a->entry) {
            cJSON_AddItemToObject(a->entry, "driver", pxh_bytes4(a->rgba));
            cJSON *after = cJSON_GetObjectItem(a->entry, "after");
            bool same = cJSON_IsArray(after);
            for (int k = 0; same && k < 4; k++)
                same = cJSON_GetArrayItem(after, k)->valueint == a->rgba[k];
            cJSON_AddBoolToObject(a->entry, "agrees", same);
            checked++;
            differ += !same;
        } else if (have_prev && memcmp(prev, a->rgba, 4)) {
            cJSON *d = cJSON_CreateObject();
            cJSON_AddNumberToObject(d, "record", (double)a->record);
            cJSON_AddItemToObject(d, "before", pxh_bytes4(prev));
            cJSON_AddItemToObject(d, "driver", pxh_bytes4(a->rgba));
            cJSON_AddItemToArray(driver_only, d);
        }
        memcpy(prev, a->rgba, 4);
        have_prev = true;
    }
    cJSON *sum = cJSON_AddObjectToObject(root, "driver_check");
    cJSON_AddNumberToObject(sum, "events_checked", checked);
    cJSON_AddNumberToObject(sum, "events_differing", differ);
    cJSON_AddNumberToObject(sum, "driver_only_changes", cJSON_GetArraySize(driver_only));
}

