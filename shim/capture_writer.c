/* Writes a finished capture as a .glcap file: METADATA (JSON), COMMAND_STREAM (the merged thread
 * streams), one REFERENCE_IMAGE per captured swap (its pixels, or only their hash). Layouts: docs/GLCAP_FORMAT.md.
 * The shim does not link cJSON (a program may carry its own copy of it): the metadata JSON is
 * small and written here with proper string escaping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "shim/snapshot.h"
#include "capture/glcap_file.h"

struct jbuf {
    char *s;
    size_t len, cap;
    bool failed;
};

static void jput(struct jbuf *j, const char *t, size_t n)
{
    if (j->failed)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 4096;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *ns = realloc(j->s, cap);
        if (!ns) {
            j->failed = true;
            return;
        }
        j->s = ns;
        j->cap = cap;
    }
    memcpy(j->s + j->len, t, n);
    j->len += n;
    j->s[j->len] = 0;
}

static void jraw(struct jbuf *j, const char *t)
{
    jput(j, t, strlen(t));
}

static void jfmt(struct jbuf *j, const char *fmt, unsigned long long v)
{
    char b[64];
    int n = snprintf(b, sizeof b, fmt, v);
    jput(j, b, (size_t)n);
}

static void jstr(struct jbuf *j, const char *s)
{
    jraw(j, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char e[8];
        if (*p == '"' || *p == '\\') {
            e[0] = '\\';
            e[1] = (char)*p;
            jput(j, e, 2);
        } else if (*p < 0x20) {
            snprintf(e, sizeof e, "\\u%04x", *p);
            jput(j, e, 6);
        } else {
            jput(j, (const char *)p, 1);
        }
    }
    jraw(j, "\"");
}

static void program_path(char *buf, size_t n)
{
    ssize_t r = readlink("/proc/self/exe", buf, n - 1);
    buf[r > 0 ? r : 0] = 0;
}

static char *metadata_json(const struct glr_capture_summary *s, uint32_t threads, uint64_t stream_bytes,
                           uint64_t calls)
{
    struct jbuf j = { 0 };
    char exe[4096];
    program_path(exe, sizeof exe);
    jraw(&j, "{\"format\":\"glreplay capture\",\"program\":");
    jstr(&j, exe);
    jfmt(&j, ",\"pid\":%llu", (unsigned long long)getpid());
    jfmt(&j, ",\"first_frame\":%llu", s->first_frame);
    jfmt(&j, ",\"last_frame\":%llu", s->last_frame);
    jraw(&j, ",\"end\":");
    jstr(&j, s->end_reason);
    jraw(&j, ",\"initial_state\":");
    jstr(&j, s->initial_default ? "default" : glr_snapshot_ready() ? "snapshot" : "none");
    char first_loss[160];
    unsigned losses = glr_snapshot_losses(first_loss, sizeof first_loss);
    if (losses) {
        jfmt(&j, ",\"snapshot_losses\":%llu", (unsigned long long)losses);
        jraw(&j, ",\"snapshot_first_loss\":");
        jstr(&j, first_loss);
    }
    jfmt(&j, ",\"threads\":%llu", threads);
    jfmt(&j, ",\"calls\":%llu", calls);
    jfmt(&j, ",\"stream_bytes\":%llu", stream_bytes);
    jraw(&j, ",\"contexts\":[");
    for (unsigned i = 0; i < s->n_contexts; i++) {
        const struct glr_ctx_desc *c = &s->contexts[i];
        jfmt(&j, i ? ",{\"id\":%llu" : "{\"id\":%llu", c->id);
        jfmt(&j, ",\"share_group\":%llu", c->share_group);
        jraw(&j, ",\"api\":");
        jstr(&j, c->api == GLR_CTX_GLX ? "glx" : "egl");
        jraw(&j, c->is_es ? ",\"es\":true" : ",\"es\":false");
        jfmt(&j, ",\"major\":%llu", (unsigned long long)c->major);
        jfmt(&j, ",\"minor\":%llu", (unsigned long long)c->minor);
        jfmt(&j, ",\"profile_mask\":%llu", (unsigned long long)c->profile_mask);
        jfmt(&j, ",\"flags\":%llu", (unsigned long long)c->flags);
        jfmt(&j, ",\"samples\":%llu", (unsigned long long)(c->samples > 0 ? c->samples : 0));
        if (c->major && c->alpha_bits >= 0)   /* an undescribed context (never current) says nothing */
            jfmt(&j, ",\"alpha_bits\":%llu", (unsigned long long)c->alpha_bits);
        if (c->major && c->depth_bits >= 0 && c->stencil_bits >= 0) {
            jfmt(&j, ",\"depth_bits\":%llu", (unsigned long long)c->depth_bits);
            jfmt(&j, ",\"stencil_bits\":%llu", (unsigned long long)c->stencil_bits);
        }
        jraw(&j, ",\"version\":");
        jstr(&j, c->version);
        jraw(&j, ",\"renderer\":");
        jstr(&j, c->renderer);
        jraw(&j, ",\"vendor\":");
        jstr(&j, c->vendor);
        jraw(&j, ",\"glsl\":");
        jstr(&j, c->glsl);
        jraw(&j, "}");
    }
    jraw(&j, "],\"unsized_client_memory\":[");
    for (unsigned i = 0; i < s->n_unsized; i++) {
        if (i)
            jraw(&j, ",");
        jstr(&j, s->unsized[i]);
    }
    jraw(&j, "]}");
    if (j.failed) {
        free(j.s);
        return NULL;
    }
    return j.s;
}

struct stream_sink {
    glcap_writer *w;
    uint64_t bytes, calls;
};

static int write_record(void *user, const void *data, size_t size)
{
    struct stream_sink *k = user;
    k->bytes += size;
    /* One record, or a whole thread's buffer of them (glr_rec_merge with one thread): count them. */
    for (size_t off = 0; off + 4 <= size;) {
        uint32_t body;
        memcpy(&body, (const uint8_t *)data + off, 4);
        off += 4 + (size_t)body;
        k->calls++;
    }
    return glcap_writer_write(k->w, data, size);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

int glr_capture_write(const struct glr_capture_summary *s, uint64_t epoch)
{
    char err[512];
    glcap_writer *w = glcap_writer_create(s->path, NULL, err, sizeof err);
    if (!w) {
        glr_log(GLR_LOG_ERROR, "capture dropped: %s", err);
        return -1;
    }
    struct stream_sink sink = { .w = w };
    uint32_t threads = 0;
    int rc = glcap_writer_begin_section(w, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD);
    if (rc == 0)
        rc = glr_rec_merge(epoch, write_record, &sink, &threads);
    if (rc == 0)
        rc = glcap_writer_end_section(w);
    if (rc == 0 && !s->initial_default)
        rc = glr_snapshot_write(w);   /* INITIAL_STATE + RESOURCE_BLOBs, when a snapshot was taken */
    for (unsigned i = 0; rc == 0 && i < s->n_images; i++) {
        const struct glr_ref_image *im = &s->images[i];
        /* Layout 2: the pixels; layout 3: only their hash (frames GLREPLAY_CAPTURE_IMAGES does not
         * keep in full), a 40-byte section that old readers refuse by its layout number. */
        uint8_t head[40];
        put_u32(head, im->hash_only ? 3 : 2);  /* layout version */
        put_u32(head + 4, (uint32_t)im->frame);
        put_u32(head + 8, im->ctx_id);
        put_u32(head + 12, im->width);
        put_u32(head + 16, im->height);
        put_u32(head + 20, 1);                 /* RGBA8, rows bottom-up */
        put_u32(head + 24, im->fbo);           /* 0: default framebuffer */
        put_u32(head + 28, im->attachment);    /* GL_BACK or GL_COLOR_ATTACHMENTi */
        memcpy(head + 32, &im->hash, 8);       /* layout 3: XXH3-64 of the RGBA8 pixels */
        rc = glcap_writer_begin_section(w, GLCAP_SECTION_REFERENCE_IMAGE, i,
                                        im->hash_only ? GLCAP_COMPRESSION_NONE : GLCAP_COMPRESSION_ZSTD);
        if (rc == 0)
            rc = glcap_writer_write(w, head, im->hash_only ? 40 : 32);
        if (rc == 0 && !im->hash_only)
            rc = glcap_writer_write(w, im->pixels, (size_t)im->width * im->height * 4);
        if (rc == 0)
            rc = glcap_writer_end_section(w);
    }
    if (rc == 0 && s->program_sources_size)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_SHADER_SOURCES, 0, GLCAP_COMPRESSION_ZSTD, s->program_sources,
                                      s->program_sources_size);
    char *meta = rc == 0 ? metadata_json(s, threads, sink.bytes, sink.calls) : NULL;
    if (rc == 0 && !meta) {
        glr_log(GLR_LOG_ERROR, "capture dropped: out of memory writing metadata");
        rc = -1;
    }
    if (rc == 0)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE, meta, strlen(meta));
    if (rc == 0)
        rc = glcap_writer_finish(w);
    if (rc != 0)
        glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", s->path, glcap_writer_error(w));
    free(meta);
    glcap_writer_destroy(w);
    return rc;
}
