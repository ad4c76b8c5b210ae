/* `glreplay pixel F.glcap --at X,Y [--target T] [--json] [--no-driver] [--no-cache]`: the history of one pixel
 * (debugger/pixel/pixel_history.h): every event of the frame that touched it, with its fragments,
 * tests and blend, the value after each event in the GPU model and on the driver.
 * Exit status: 0, 1 when the model and the driver disagree on a value (or the driver changed the
 * pixel at an event the history lacks), 2 bad usage or an unusable capture. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_verbs.h"
#include "debugger/pixel/pixel_history.h"

#define USAGE "usage: glreplay pixel F.glcap --at X,Y [--target back|fboN/colorK|ctxN/...] [--json] [--no-driver] [--no-cache]"

static bool parse_xy(const char *s, int *x, int *y)
{
    char *e1, *e2;
    long a = strtol(s, &e1, 10);
    if (e1 == s || *e1 != ',')
        return false;
    long b = strtol(e1 + 1, &e2, 10);
    if (e2 == e1 + 1 || *e2 || a < 0 || b < 0 || a > 65535 || b > 65535)
        return false;
    *x = (int)a;
    *y = (int)b;
    return true;
}

/* --at's value (dest: struct pxh_options). */
static bool parse_at(const char *s, void *dest)
{
    struct pxh_options *o = dest;
    return parse_xy(s, &o->x, &o->y);
}

/* --target's value (dest: struct pxh_target). */
static bool parse_target(const char *s, void *dest)
{
    return pxh_parse_target(s, dest);
}

static void rgba(const cJSON *a, char *buf, size_t n)
{
    if (!cJSON_IsArray(a)) {
        snprintf(buf, n, "-");
        return;
    }
    int v[4] = { 0 };
    for (int i = 0; i < 4; i++)
        v[i] = cJSON_GetArrayItem(a, i) ? cJSON_GetArrayItem(a, i)->valueint : 0;
    snprintf(buf, n, "%d,%d,%d,%d", v[0], v[1], v[2], v[3]);
}

static void vec(const cJSON *a, char *buf, size_t n)
{
    int k = 0;
    buf[0] = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, a) {
        int w = snprintf(buf + k, n - (size_t)k, "%s%.4g", k ? ", " : "(", it->valuedouble);
        if (w < 0 || (size_t)(k + w) >= n)
            return;
        k += w;
    }
    if ((size_t)k + 2 < n)
        snprintf(buf + k, n - (size_t)k, ")");
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

static void print_fragment(const cJSON *f)
{
    char b1[160], b2[160], b3[160];
    const cJSON *fc = cJSON_GetObjectItem(f, "frag_coord");
    printf("    fragment of primitive %d (%s), gl_FragCoord.z %.7g%s\n", cJSON_GetObjectItem(f, "primitive")->valueint,
           cJSON_IsTrue(cJSON_GetObjectItem(f, "front_facing")) ? "front" : "back",
           cJSON_GetArrayItem(fc, 2) ? cJSON_GetArrayItem(fc, 2)->valuedouble : 0.0,
           cJSON_IsTrue(cJSON_GetObjectItem(f, "early_tests")) ? ", tests before the shader" : "");
    const cJSON *sh = cJSON_GetObjectItem(f, "shader");
    if (sh) {
        vec(cJSON_GetArrayItem(cJSON_GetObjectItem(sh, "outputs"), 0), b1, sizeof b1);
        printf("      shader: out0 %s%s\n", b1, cJSON_IsTrue(cJSON_GetObjectItem(sh, "discarded")) ? ", DISCARDED" : "");
    }
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(f, "tests")) {
        const cJSON *z = cJSON_GetObjectItem(t, "depth"), *s = cJSON_GetObjectItem(t, "stencil");
        printf("      sample %d %s:", cJSON_GetObjectItem(t, "sample")->valueint, str(t, "stage"));
        if (z)
            printf(" depth %s incoming %.9g stored %.9g %s;", str(z, "func"),
                   cJSON_GetObjectItem(z, "incoming")->valuedouble, cJSON_GetObjectItem(z, "stored")->valuedouble,
                   cJSON_IsTrue(cJSON_GetObjectItem(z, "pass")) ? "pass" : "FAIL");
        if (s)
            printf(" stencil %s ref %d stored %d %s;", str(s, "func"), cJSON_GetObjectItem(s, "ref")->valueint,
                   cJSON_GetObjectItem(s, "stored")->valueint,
                   cJSON_IsTrue(cJSON_GetObjectItem(s, "pass")) ? "pass" : "FAIL");
        printf(" %s\n", cJSON_IsTrue(cJSON_GetObjectItem(t, "passed")) ? "passed" : "rejected");
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(f, "writes")) {
        vec(cJSON_GetObjectItem(w, "src"), b1, sizeof b1);
        vec(cJSON_GetObjectItem(w, "dst"), b2, sizeof b2);
        vec(cJSON_GetObjectItem(w, "after"), b3, sizeof b3);
        const cJSON *bl = cJSON_GetObjectItem(w, "blend");
        if (cJSON_IsObject(bl))
            printf("      write buffer %d sample %d: blend %s*src + %s*dst (%s), src %s dst %s -> %s\n",
                   cJSON_GetObjectItem(w, "draw_buffer")->valueint, cJSON_GetObjectItem(w, "sample")->valueint,
                   str(bl, "src_rgb"), str(bl, "dst_rgb"), str(bl, "eq_rgb"), b1, b2, b3);
        else
            printf("      write buffer %d sample %d: src %s (no blending) -> %s\n",
                   cJSON_GetObjectItem(w, "draw_buffer")->valueint, cJSON_GetObjectItem(w, "sample")->valueint, b1, b3);
    }
    printf("      outcome: %s\n", str(f, "outcome"));
}

static void print_text(const cJSON *root)
{
    const cJSON *events = cJSON_GetObjectItem(root, "events");
    char b1[64], b2[64], b3[64];
    rgba(cJSON_GetObjectItem(root, "initial"), b1, sizeof b1);
    rgba(cJSON_GetObjectItem(root, "final"), b2, sizeof b2);
    printf("pixel (%d, %d) of %s in %s: %d event%s touched it; value before the frame %s, at its end %s\n",
           cJSON_GetObjectItem(root, "x")->valueint, cJSON_GetObjectItem(root, "y")->valueint, str(root, "target"),
           str(root, "capture"), cJSON_GetArraySize(events), cJSON_GetArraySize(events) == 1 ? "" : "s", b1, b2);
    const cJSON *ev;
    cJSON_ArrayForEach(ev, events) {
        rgba(cJSON_GetObjectItem(ev, "after"), b1, sizeof b1);
        rgba(cJSON_GetObjectItem(ev, "driver"), b2, sizeof b2);
        const cJSON *d = cJSON_GetObjectItem(ev, "draw");
        const cJSON *ag = cJSON_GetObjectItem(ev, "agrees");
        snprintf(b3, sizeof b3, "%s", !ag ? "not checked" : cJSON_IsTrue(ag) ? "agrees" : "DIFFERS");
        printf("event %.0f %s (%s", cJSON_GetObjectItem(ev, "record")->valuedouble, str(ev, "command"), str(ev, "kind"));
        if (d)
            printf(" %d, program %d", d->valueint, cJSON_GetObjectItem(ev, "program")->valueint);
        printf("): model %s, driver %s (%s)%s\n", b1, b2, b3,
               cJSON_IsTrue(cJSON_GetObjectItem(ev, "changed")) ? "" : ", value unchanged");
        const cJSON *sc = cJSON_GetObjectItem(ev, "scissor");
        if (sc && cJSON_IsTrue(cJSON_GetObjectItem(sc, "enabled")))
            printf("    scissor test: %s\n",
                   cJSON_IsTrue(cJSON_GetObjectItem(sc, "pixel_inside")) ? "pixel inside" : "pixel OUTSIDE (rejected)");
        if (cJSON_GetObjectItem(ev, "model_note"))
            printf("    the model did not run all of it: %s\n", str(ev, "model_note"));
        if (cJSON_IsTrue(cJSON_GetObjectItem(ev, "rejected")))
            printf("    REJECTED: %s\n", str(ev, "why"));
        const cJSON *f;
        cJSON_ArrayForEach(f, cJSON_GetObjectItem(ev, "fragments"))
            print_fragment(f);
        const cJSON *more = cJSON_GetObjectItem(ev, "fragments_not_listed");
        if (more)
            printf("    ... and %d more fragments\n", more->valueint);
    }
    const cJSON *ep = cJSON_GetObjectItem(root, "earlier_passes");
    if (ep && !strcmp(str(ep, "from"), "driver") && cJSON_GetObjectItem(ep, "draws_left_out")->valueint > 0)
        printf("earlier passes: %d draws into other framebuffers were not run in the model; the %d images they "
               "left that this target's draws may read were taken from the driver's replay\n",
               cJSON_GetObjectItem(ep, "draws_left_out")->valueint, cJSON_GetArraySize(cJSON_GetObjectItem(ep, "images")));
    else if (ep && cJSON_GetObjectItem(ep, "why"))
        printf("earlier passes: run in the model (%s)\n", str(ep, "why"));
    const cJSON *dc = cJSON_GetObjectItem(root, "driver_check");
    if (dc) {
        printf("driver check: %d events compared, %d differ; %d change%s of the pixel on the driver at events the "
               "history lacks\n", cJSON_GetObjectItem(dc, "events_checked")->valueint,
               cJSON_GetObjectItem(dc, "events_differing")->valueint,
               cJSON_GetObjectItem(dc, "driver_only_changes")->valueint,
               cJSON_GetObjectItem(dc, "driver_only_changes")->valueint == 1 ? "" : "s");
        const cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItem(root, "driver_only_changes")) {
            rgba(cJSON_GetObjectItem(x, "driver"), b1, sizeof b1);
            printf("    event %.0f: driver %s\n", cJSON_GetObjectItem(x, "record")->valuedouble, b1);
        }
    } else {
        printf("driver check: not run (--no-driver)\n");
    }
}

int cli_pixel(int argc, char **argv)
{
    struct pxh_options o = { .driver = true, .x = -1 };   /* x: -1 until --at */
    const char *path = NULL;
    bool json = false;
    const struct cli_opt opts[] = {
        { .name = "--at", .parse = parse_at, .dest = &o, .needs = "X,Y (non-negative integers)" },
        { .name = "--target", .parse = parse_target, .dest = &o.target,
          .needs = "back, fboN, fboN/colorK, optionally after ctxN/" },
        { .name = "--json", .flag = &json, .set_to = true },
        { .name = "--no-driver", .flag = &o.driver, .set_to = false },
        { .name = "--no-cache", .flag = &o.no_disk_cache, .set_to = true },
    };
    const struct cli_verb v = { .verb = "pixel", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts };
    if (cli_parse(&v, argc, argv, &path, NULL) != 0)
        return 2;
    if (!path || o.x < 0) {
        cli_error("pixel: %s (" USAGE ")", path ? "--at X,Y is required" : "no capture file given");
        return 2;
    }
    o.path = path;
    char err[1024];
    cJSON *root = pxh_run(&o, err, sizeof err);
    if (!root) {
        cli_error("pixel: %s", err);
        return 2;
    }
    if (json) {
        char *s = cJSON_PrintUnformatted(root);
        if (s)
            puts(s);
        free(s);
    } else {
        print_text(root);
    }
    const cJSON *dc = cJSON_GetObjectItem(root, "driver_check");
    int rc = dc && (cJSON_GetObjectItem(dc, "events_differing")->valueint ||
                    cJSON_GetObjectItem(dc, "driver_only_changes")->valueint) ? 1 : 0;
    cJSON_Delete(root);
    return rc;
}
