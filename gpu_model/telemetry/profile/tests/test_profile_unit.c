/* Unit tests of the profile spine without GL or a capture file (suite 'unit', also under
 * ASan+UBSan): option checks, a run over an empty command stream (every output must still be
 * well formed: the Chrome trace names its clock, the plot is an SVG, the JSON has its parts), and
 * the trace-buffer type parser. The real runs are covered by tests/check_profile.py (e2e). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_profile.h"

#include "tests/support/glr_check.h"
static void test_bad_options(void)
{
    static const uint8_t empty[1];
    gmt_profile_input in = { .stream = empty, .stream_size = 0 };
    gmt_profile_options o = { .pc_period = 3 };
    char err[256];
    CHECK(gmt_profile_run(&in, &o, err, sizeof err) == NULL);
    CHECK(strstr(err, "power of two") != NULL);
    gmt_profile_input none = { 0 };
    CHECK(gmt_profile_run(&none, NULL, err, sizeof err) == NULL && err[0]);
}

static void test_empty_stream(void)
{
    static const uint8_t empty[1];
    gmt_profile_input in = { .stream = empty, .stream_size = 0, .name = "empty<&>" };
    gmt_profile_options o = { .counters = true, .pc_period = 1024 };
    char err[256];
    gmt_profile *p = gmt_profile_run(&in, &o, err, sizeof err);
    CHECK(p != NULL);
    if (!p) {
        fprintf(stderr, "run failed: %s\n", err);
        return;
    }
    const gmt_profile_slice *s;
    CHECK(gmt_profile_slices(p, &s) == 0);
    CHECK(gmt_profile_get_options(p)->clock_ghz == 1.0);

    cJSON *t = gmt_profile_chrome_trace(p);
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(t, "traceEvents")));
    const cJSON *clock = cJSON_GetObjectItem(cJSON_GetObjectItem(t, "metadata"), "clock");
    CHECK(cJSON_IsString(clock) && strstr(clock->valuestring, "GHz"));
    char *text = cJSON_PrintUnformatted(t);
    cJSON *back = text ? cJSON_Parse(text) : NULL;
    CHECK(back != NULL);
    cJSON_Delete(back);
    free(text);
    cJSON_Delete(t);

    char *svg = gmt_profile_svg(p);
    CHECK(svg && !strncmp(svg, "<?xml", 5) && strstr(svg, "</svg>"));
    CHECK(svg && strstr(svg, "empty&lt;&amp;&gt;") && !strstr(svg, "empty<&>"));
    free(svg);

    cJSON *j = gmt_profile_to_json(p);
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(j, "slices")));
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(j, "lines")));
    CHECK(cJSON_IsObject(cJSON_GetObjectItem(j, "series")));
    CHECK(cJSON_IsObject(cJSON_GetObjectItem(j, "options")));
    cJSON_Delete(j);

    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    CHECK(f != NULL);
    if (f) {
        gmt_profile_report(p, f, 10);
        fclose(f);
        CHECK(buf && strstr(buf, "per draw:") && strstr(buf, "top source lines"));
    }
    free(buf);
    gmt_profile_destroy(p);
}

static void test_trace_types(void)
{
    gmt_profile_options o;
    memset(&o, 0, sizeof o);
    char err[256];
    CHECK(gmt_profile_parse_trace_types(&o, "bb,tex", err, sizeof err) == 0);
    CHECK(!strcmp(o.trace_types, "flow,tex"));
    CHECK(gmt_profile_parse_trace_types(&o, "", err, sizeof err) != 0);
}

int main(void)
{
    test_bad_options();
    test_empty_stream();
    test_trace_types();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("gmt_profile unit: all checks passed\n");
    return 0;
}
