/* Capture loading for the counters' end-to-end test and benchmark (see gmt_capture.h). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/glcap_file.h"
#include "gmt_capture.h"
#include "registry/glr_call_codec.h"

static int load_section(glcap_reader *rd, const char *path, uint16_t type, const char *name,
                        void **data, size_t *size, char *err, size_t n)
{
    int64_t i = glcap_reader_find(rd, type, 0);
    if (i < 0) {
        snprintf(err, n, "%s: no %s section", path, name);
        return -1;
    }
    if (glcap_reader_load(rd, (uint32_t)i, data, size) != 0) {
        snprintf(err, n, "%s", glcap_reader_error(rd));
        return -1;
    }
    return 0;
}

/* Each context's first MAKE_CURRENT with a surface size gives its default framebuffer. */
static int plan_surfaces(struct gmt_capture *cap, char *err, size_t n)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        if (c.cmd != GLR_PSEUDO_MAKE_CURRENT || !c.ctx_id || !c.args[0] || !c.args[1] ||
            c.args[0] > 16384 || c.args[1] > 16384)
            continue;
        bool known = false;
        for (int i = 0; i < cap->n_surfaces; i++)
            known |= cap->surfaces[i].ctx_id == c.ctx_id;
        if (known)
            continue;
        gmf_surface_desc *ns = realloc(cap->surfaces, (size_t)(cap->n_surfaces + 1) * sizeof *ns);
        if (!ns) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        cap->surfaces = ns;
        ns[cap->n_surfaces++] = (gmf_surface_desc){.ctx_id = c.ctx_id, .width = (int)c.args[0],
                                                   .height = (int)c.args[1]};
    }
    if (k < 0) {
        snprintf(err, n, "COMMAND_STREAM: %s", s.err);
        return -1;
    }
    return 0;
}

int gmt_capture_load(const char *path, struct gmt_capture *cap, char *err, size_t err_size)
{
    memset(cap, 0, sizeof *cap);
    glcap_reader *rd = glcap_reader_open(path, NULL, err, err_size);
    if (!rd)
        return -1;
    size_t meta_size;
    void *meta = NULL;
    int rc = load_section(rd, path, GLCAP_SECTION_METADATA, "METADATA", &meta, &meta_size, err, err_size);
    cap->metadata = meta;
    if (rc == 0)
        rc = load_section(rd, path, GLCAP_SECTION_COMMAND_STREAM, "COMMAND_STREAM", &cap->stream,
                          &cap->stream_size, err, err_size);
    glcap_reader_close(rd);
    if (rc == 0) {
        cJSON *m = cJSON_Parse(cap->metadata);
        const char *init = cJSON_GetStringValue(cJSON_GetObjectItem(m, "initial_state"));
        if (!m)
            snprintf(err, err_size, "%s: METADATA is not JSON", path), rc = -1;
        else if (init && strcmp(init, "default") != 0)
            snprintf(err, err_size, "%s: starts from a '%s' initial state; capture from frame 0", path,
                     init), rc = -1;
        cJSON_Delete(m);
    }
    if (rc == 0)
        rc = plan_surfaces(cap, err, err_size);
    if (rc != 0)
        gmt_capture_free(cap);
    return rc;
}

void gmt_capture_free(struct gmt_capture *cap)
{
    free(cap->metadata);
    free(cap->stream);
    free(cap->surfaces);
    memset(cap, 0, sizeof *cap);
}

gmf_runner *gmt_capture_runner(const struct gmt_capture *cap, const gmf_hooks *h, char *err,
                               size_t err_size)
{
    gmf_config cfg = {.metadata_json = cap->metadata, .surfaces = cap->surfaces,
                      .n_surfaces = cap->n_surfaces, .timing = GMF_TIMING_ON};
    gmf_runner *r = gmf_create(&cfg, err, err_size);
    if (r && h)
        gmf_set_hooks(r, h);
    return r;
}
