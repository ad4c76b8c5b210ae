/* Writes a capture's .glcap file, on the writer thread (shim/capture_async.c): COMMAND_STREAM first,
 * compressed block by block while the capture records, then at its end the rest of the stream, the
 * snapshot, one REFERENCE_IMAGE per captured swap (its pixels, or only their hash), SHADER_SOURCES and
 * METADATA (JSON). Layouts: docs/GLCAP_FORMAT.md.
 * The shim does not link cJSON (a program may carry its own copy of it): the metadata JSON is
 * small and written here with proper string escaping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "shim/capture_async.h"
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
    jstr(&j, s->initial_default ? "default" : s->snapshot_held ? "snapshot" : "none");
    if (s->snapshot_losses) {
        jfmt(&j, ",\"snapshot_losses\":%llu", (unsigned long long)s->snapshot_losses);
        jraw(&j, ",\"snapshot_first_loss\":");
        jstr(&j, s->snapshot_first_loss);
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

static void put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The writer thread opens the file at the capture's first stream block (or at its end) and begins
 * the command stream, which comes first in the file. */
int glr_capture_file_open(struct glr_capture_job *job)
{
    char err[512];
    job->w = glcap_writer_create(job->path, NULL, err, sizeof err);
    if (!job->w) {
        glr_log(GLR_LOG_ERROR, "capture dropped: %s", err);
        return -1;
    }
    glcap_pack_init(&job->pack);
    /* The command stream at zstd's first fast level: 1.7x the speed of level 1 on a call-heavy stream
     * (record_cost), 0-15 % larger on real programs' streams (docs/BENCHMARKS.md, "Recording many
     * frames"); it is compressed while the program records, so its CPU is what recording costs. The
     * other sections keep the default level. Same zstd frames: every reader reads them. */
    if (glcap_writer_set_zstd_level(job->w, GLR_STREAM_ZSTD_LEVEL) != 0 ||
        glcap_writer_begin_section(job->w, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD_PACKED) != 0 ||
        glcap_writer_set_zstd_level(job->w, 0) != 0) {
        glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, glcap_writer_error(job->w));
        return -1;
    }
    return 0;
}

static void note_thread(struct glr_capture_job *job, uint32_t thread_id)
{
    for (unsigned i = 0; i < job->n_stream_threads; i++)
        if (job->stream_threads[i] == thread_id)
            return;
    if (job->n_stream_threads < sizeof job->stream_threads / sizeof job->stream_threads[0])
        job->stream_threads[job->n_stream_threads++] = thread_id;
}

static int stream_write(struct glr_capture_job *job, const void *data, size_t size)
{
    if (glcap_writer_write(job->w, data, size) != 0) {
        glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, glcap_writer_error(job->w));
        return -1;
    }
    return 0;
}

/* Whole packed records as the recorder wrote them (the only recording thread's block, or the rest
 * of its stream at the end), continuing the stream so far: read through once to count them for the
 * metadata and to take over the state at their end (so merged records after them pack right), and
 * compressed as they are. The recorder writing this form is what spares a second pass over every
 * record here (docs/BENCHMARKS.md, "Recording many frames", session 15). */
int glr_capture_file_stream_packed(struct glr_capture_job *job, const void *data, size_t size, uint32_t thread_id)
{
    if (!size)
        return 0;
    note_thread(job, thread_id);
    char err[256];
    if (glcap_packed_scan(&job->pack, data, size, &job->stream_calls, &job->stream_bytes, err, sizeof err) != 0) {
        glr_log(GLR_LOG_ERROR, "capture dropped: %s: the recorder's stream block: %s", job->path, err);
        return -1;
    }
    return stream_write(job, data, size);
}

/* Whole 1.0 records (the merge of several threads' streams), one or many: counted for the
 * metadata, packed (the seq, context and thread each record's predecessor predicts dropped:
 * capture/glcap_packed.h), then compressed into the section. */
static int stream_unpacked(struct glr_capture_job *job, const void *data, size_t size, uint32_t thread_id)
{
    if (!size)
        return 0;
    note_thread(job, thread_id);
    job->stream_bytes += size;
    const uint8_t *in = data;
    for (size_t off = 0; off < size;) {
        /* Packed straight into the container writer's input block: no copy. */
        size_t room = 0, olen = 0;
        uint8_t *dst = glcap_writer_reserve(job->w, GLR_PACK_MIN_ROOM, &room);
        if (!dst) {
            glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, glcap_writer_error(job->w));
            return -1;
        }
        size_t used = glcap_pack_block(&job->pack, in + off, size - off, dst, room, &olen, &job->stream_calls);
        off += used;
        if (glcap_writer_commit(job->w, olen) != 0) {
            glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, glcap_writer_error(job->w));
            return -1;
        }
        if (used)
            continue;
        /* A record larger than the room left (a big upload): its packed header, then its fields
         * straight from the stream. */
        uint32_t body = 0;
        if (size - off >= 4)
            memcpy(&body, in + off, 4);
        if (size - off < 4 || body > size - off - 4) {
            glr_log(GLR_LOG_ERROR, "capture dropped: %s: a record is cut off at stream byte %zu", job->path, off);
            return -1;
        }
        uint8_t hdr[GLCAP_PACK_HDR_MAX];
        size_t fields;
        size_t h = glcap_pack_record(&job->pack, in + off + 4, body, hdr, &fields);
        if (stream_write(job, hdr, h) != 0 || stream_write(job, in + off + 4 + fields, body - fields) != 0)
            return -1;
        off += 4 + (size_t)body;
        job->stream_calls++;
    }
    return 0;
}

static int merged_record(void *user, const void *data, size_t size, uint32_t thread_id)
{
    return stream_unpacked(user, data, size, thread_id);
}

int glr_capture_file_finish(struct glr_capture_job *job)
{
    glcap_writer *w = job->w;
    const struct glr_capture_summary *s = &job->sum;
    /* The rest of the stream: what the recording threads still held, merged by sequence number
     * (everything streamed before numbers below all of it: recorder.c). */
    const struct glr_rec_segment *only = NULL;
    unsigned n_live = 0;
    for (unsigned i = 0; i < job->n_segs; i++)
        if (job->segs[i].len) {
            only = &job->segs[i];
            n_live++;
        }
    int rc;
    if (n_live == 1 && only->seq0 == job->pack.seq && only->ctx0 == job->pack.ctx && only->tid0 == job->pack.tid) {
        /* One thread's records that go on from the stream so far: as they are. */
        rc = glr_capture_file_stream_packed(job, only->buf, only->len, only->thread_id);
    } else {
        char err[256];
        rc = glr_rec_merge_segments(job->segs, job->n_segs, merged_record, job, err, sizeof err);
        if (rc != 0)
            glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, err);
    }
    if (rc == 0)
        rc = glcap_writer_end_section(w);
    if (rc == 0 && job->snap)
        rc = glr_snapshot_write_detached(job->snap, w);   /* INITIAL_STATE + RESOURCE_BLOBs */
    for (unsigned i = 0; rc == 0 && i < job->n_images; i++) {
        const struct glr_ref_image *im = &job->images[i];
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
    if (rc == 0 && job->program_sources_size)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_SHADER_SOURCES, 0, GLCAP_COMPRESSION_ZSTD,
                                      job->program_sources, job->program_sources_size);
    char *meta = rc == 0 ? metadata_json(s, job->n_stream_threads, job->stream_bytes, job->stream_calls) : NULL;
    if (rc == 0 && !meta) {
        glr_log(GLR_LOG_ERROR, "capture dropped: out of memory writing metadata");
        free(meta);
        return -1;
    }
    if (rc == 0)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE, meta, strlen(meta));
    if (rc == 0)
        rc = glcap_writer_finish(w);
    if (rc != 0)
        glr_log(GLR_LOG_ERROR, "capture dropped: %s: %s", job->path, glcap_writer_error(w));
    free(meta);
    return rc;
}
