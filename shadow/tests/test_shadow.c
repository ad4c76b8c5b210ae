/* Unit test of shadow/: builder, immutability of copies, formatting, JSON, store budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "shadow/shadow.h"

#include "tests/support/glr_check.h"

static uint32_t fbits(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static sh_snapshot *make(float base)
{
    sh_builder *b = sh_builder_new();
    int tf = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .rows = 1, .columns = 1, .element = -1, .components = 1 });
    int tv3 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 3, .columns = 1, .element = tf, .components = 3 });
    int ti = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .scalar = SH_SCALAR_INT, .rows = 1, .columns = 1, .element = -1, .components = 1 });
    int ts = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_STRUCT, .name = "Light", .length = 2, .element = -1, .components = 4 });
    CHECK(sh_builder_add_member(b, ts, "color", tv3, 0) == 0);
    CHECK(sh_builder_add_member(b, ts, "index", ti, 3) == 1);
    int ta = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_ARRAY, .length = 2, .element = ts, .components = 8 });
    uint32_t words[3 * SH_LANES];
    for (int c = 0; c < 3; c++)
        for (int l = 0; l < SH_LANES; l++)
            words[c * SH_LANES + l] = fbits(base + (float)l + 0.5f * (float)c);
    CHECK(sh_builder_add_var(b, &(sh_var){ .name = "color", .function = "main(", .klass = SH_VAR_LOCAL, .type = tv3,
                                           .builtin = -1, .lanes = SH_LANES, .words = words }) == 0);
    words[0] = 77; /* the builder copied: this must not show */
    uint32_t lights[8] = { fbits(1), fbits(2), fbits(3), 7, fbits(4), fbits(5), fbits(6), 9 };
    CHECK(sh_builder_add_var(b, &(sh_var){ .name = "u_lights", .klass = SH_VAR_UNIFORM, .type = ta, .builtin = -1,
                                           .lanes = 1, .words = lights }) == 1);
    CHECK(sh_builder_add_var(b, &(sh_var){ .name = "bad", .type = 99, .lanes = 1, .words = lights }) == -1);
    sh_builder_push_frame(b, "main(", 40);
    sh_builder_push_frame(b, "shade(vf3;", 12);
    sh_header h = { .hit = 100, .draw = 2, .stage = 4, .warp = 3, .focus_lane = 5, .line = 12, .active = 0xff };
    sh_builder_set_header(b, &h);
    sh_builder_set_text(b, "draw 2 · FS · warp 3", "[{\"unit\":0}]", "{\"viewport\":[0,0,160,90]}");
    char err[128];
    return sh_builder_finish(b, err, sizeof err);
}

int main(void)
{
    sh_builder *bad = sh_builder_new();
    sh_builder_add_member(bad, 0, "x", 0, 0);
    char err[128] = "";
    CHECK(sh_builder_finish(bad, err, sizeof err) == NULL);
    CHECK(strstr(err, "not a struct") != NULL);

    sh_snapshot *s = make(10.0f);
    CHECK(s != NULL);
    if (!s)
        return 1;
    CHECK(sh_snapshot_var_count(s) == 2);
    CHECK(sh_snapshot_frame_count(s) == 2);
    CHECK(strcmp(sh_snapshot_frame(s, 0)->function, "shade(vf3;") == 0);
    CHECK(sh_snapshot_frame(s, 1)->line == 40);
    const sh_var *v = sh_snapshot_var(s, 0);
    uint32_t w[8];
    sh_var_lane_words(s, v, 0, w);
    float f0;
    memcpy(&f0, &w[0], 4);
    CHECK(f0 == 10.0f);
    char buf[256], tn[64];
    sh_var_lane_words(s, v, 5, w);
    CHECK(strcmp(sh_format_value(s, v->type, w, buf, sizeof buf), "vec3(15, 15.5, 16)") == 0);
    CHECK(strcmp(sh_type_glsl(s, v->type, tn, sizeof tn), "vec3") == 0);
    const sh_var *u = sh_snapshot_var(s, 1);
    CHECK(strcmp(sh_type_glsl(s, u->type, tn, sizeof tn), "Light[2]") == 0);
    sh_format_value(s, u->type, u->words, buf, sizeof buf);
    CHECK(strcmp(buf, "[{color: vec3(1, 2, 3), index: 7}, {color: vec3(4, 5, 6), index: 9}]") == 0);
    /* 64-bit integers (GL_ARB_gpu_shader_int64) print as integers, doubles as doubles */
    {
        sh_builder *b = sh_builder_new();
        int ti64 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .scalar = SH_SCALAR_INT, .width = 64,
                                                      .rows = 1, .columns = 1, .element = -1, .components = 2 });
        int tu64 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .scalar = SH_SCALAR_UINT, .width = 64,
                                                      .rows = 1, .columns = 1, .element = -1, .components = 2 });
        int tu2 = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .scalar = SH_SCALAR_UINT, .width = 64,
                                                     .rows = 2, .columns = 1, .element = tu64, .components = 4 });
        int td = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .width = 64, .rows = 1, .columns = 1,
                                                    .element = -1, .components = 2 });
        uint32_t one[2] = { 0, 0 };
        CHECK(sh_builder_add_var(b, &(sh_var){ .name = "x", .klass = SH_VAR_UNIFORM, .type = ti64, .builtin = -1,
                                               .lanes = 1, .words = one }) == 0);
        char err2[128];
        sh_snapshot *s64 = sh_builder_finish(b, err2, sizeof err2);
        CHECK(s64 != NULL);
        if (s64) {
            uint32_t neg[2] = { 0xfffffffeu, 0xffffffffu }, big[4] = { 5, 1, 0xffffffffu, 0xffffffffu };
            double dv = -2.5;
            uint32_t dw[2];
            memcpy(dw, &dv, 8);
            CHECK(strcmp(sh_format_value(s64, ti64, neg, buf, sizeof buf), "-2") == 0);
            CHECK(strcmp(sh_format_value(s64, tu2, big, buf, sizeof buf), "u64vec2(4294967301, 18446744073709551615)") == 0);
            CHECK(strcmp(sh_format_value(s64, td, dw, buf, sizeof buf), "-2.5") == 0);
            CHECK(strcmp(sh_type_glsl(s64, ti64, tn, sizeof tn), "int64_t") == 0);
            CHECK(strcmp(sh_type_glsl(s64, tu2, tn, sizeof tn), "u64vec2") == 0);
            CHECK(strcmp(sh_type_glsl(s64, td, tn, sizeof tn), "double") == 0);
            sh_snapshot_unref(s64);
        }
    }
    /* cut, never overflowing */
    sh_format_value(s, u->type, u->words, buf, 20);
    CHECK(strlen(buf) < 20 && strstr(buf, "...") != NULL);
    /* lookup: a local of the current function is not visible from shade() */
    CHECK(sh_snapshot_find_var(s, "color") == -1);
    CHECK(sh_snapshot_find_var(s, "u_lights") == 1);

    char *json = sh_snapshot_to_json(s);
    CHECK(json != NULL);
    cJSON *j = cJSON_Parse(json);
    CHECK(j != NULL);
    CHECK(cJSON_GetObjectItem(j, "hit")->valuedouble == 100);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(j, "variables")) == 2);
    CHECK(cJSON_IsObject(cJSON_GetObjectItem(j, "pipeline")));
    cJSON_Delete(j);
    free(json);

    /* store: budget of ~2 snapshots keeps the newest ones, evicted ones live on while held */
    size_t one = sh_snapshot_bytes(s);
    sh_store *st = sh_store_new(one * 2 + one / 2);
    uint64_t id1 = sh_store_add(st, s);
    CHECK(id1 == 1 && sh_snapshot_id(s) == 1);
    for (int i = 0; i < 4; i++) {
        sh_snapshot *o = make((float)i);
        sh_store_add(st, o);
        sh_snapshot_unref(o);
    }
    CHECK(sh_store_count(st) == 2);
    CHECK(sh_store_evictions(st) == 3);
    CHECK(sh_store_get(st, id1) == NULL);
    sh_snapshot *last = sh_store_get(st, 5);
    CHECK(last != NULL);
    sh_snapshot_unref(last);
    CHECK(sh_snapshot_var(s, 0)->name[0] == 'c'); /* still alive: we hold it */
    /* a snapshot larger than the budget is still kept (the newest is never evicted) */
    sh_store *tiny = sh_store_new(16);
    sh_store_add(tiny, s);
    CHECK(sh_store_count(tiny) == 1);
    sh_store_free(tiny);
    sh_store_free(st);
    sh_snapshot_unref(s);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("shadow: all checks passed\n");
    return failures ? 1 : 0;
}
