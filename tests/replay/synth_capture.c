/* Test helper: writes a small .glcap by hand, without the shim or a window system, so the
 * replayer can be tested on its own (and the corruption tests can run under ASan without GL):
 * one EGL-created OpenGL 3.3 core context; per frame glViewport, glClearColor(frame colour),
 * glClear, swap; a reference image per frame filled with that colour.
 *   synth_capture OUT [--frames N] [--size WxH] [--wrong-pixel] [--client-array] [--crafted KIND]
 *                 [--foreign-locations] [--pending-error]
 * --wrong-pixel alters one pixel of the last reference image (at x=3, y=2, origin bottom-left),
 * so verification must fail there. --client-array draws white full-viewport quads from client
 * memory in a compatibility context instead of clearing to frame colours. --crafted KIND adds one
 * hostile record to the first client-array frame (crafted_kinds below). Record encoding:
 * docs/GLCAP_FORMAT.md. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "capture/glcap_packed.h"
#include "registry/glr_call.h"
#include "registry/glr_gl_enums.h"

struct buf {
    uint8_t *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 256;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            exit(1);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void uvar(struct buf *b, uint64_t v)
{
    while (v >= 0x80) {
        uint8_t c = (uint8_t)(v | 0x80);
        put(b, &c, 1);
        v >>= 7;
    }
    uint8_t c = (uint8_t)v;
    put(b, &c, 1);
}

static void svar(struct buf *b, int64_t v)
{
    uvar(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static uint64_t seq;

/* Appends one record: u32 body size, then header and body fields. */
static void record(struct buf *stream, uint32_t cmd, uint32_t ctx, const struct buf *fields)
{
    struct buf body = { 0 };
    uvar(&body, cmd);
    uvar(&body, seq++);
    uvar(&body, ctx);
    uvar(&body, 0);
    if (fields && fields->n)
        put(&body, fields->p, fields->n);
    uint32_t size = (uint32_t)body.n;
    put(stream, &size, 4);
    put(stream, body.p, body.n);
    free(body.p);
}

/* A registry command with its arguments encoded by their registry kinds (and return value `ret`
 * for commands that return one); pointer parameters get no client memory (blob 0) unless `blob`
 * is given for parameter `blob_param`. */
static void call_ret(struct buf *stream, uint32_t cmd, const uint64_t *args, uint64_t ret, int blob_param,
                     const void *blob, size_t blob_size)
{
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    struct buf f = { 0 };
    for (int i = 0; i < ci->nparams; i++) {
        switch (glr_cmd_params(ci)[i].kind) {
        case GLR_KIND_I32:
        case GLR_KIND_I64:
            svar(&f, (int64_t)args[i]);
            break;
        case GLR_KIND_F32: {
            uint32_t b = (uint32_t)args[i];
            put(&f, &b, 4);
            break;
        }
        case GLR_KIND_F64:
            put(&f, &args[i], 8);
            break;
        default:
            uvar(&f, args[i]);
        }
    }
    if (ci->ret_kind == GLR_KIND_I32 || ci->ret_kind == GLR_KIND_I64)
        svar(&f, (int64_t)ret);
    else if (ci->ret_kind != GLR_KIND_VOID)
        uvar(&f, ret);
    for (int i = 0; i < ci->nparams; i++) {
        if (!glr_cmd_params(ci)[i].is_pointer)
            continue;
        if (i == blob_param) {
            uvar(&f, blob_size + 1);
            put(&f, blob, blob_size);
        } else {
            uvar(&f, 0);
        }
    }
    record(stream, cmd, 1, &f);
    free(f.p);
}

static void call(struct buf *stream, uint32_t cmd, const uint64_t *args, int blob_param, const void *blob,
                 size_t blob_size)
{
    call_ret(stream, cmd, args, 0, blob_param, blob, blob_size);
}

static uint64_t fbits(float v)
{
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
}

/* A compatibility context draws a full-viewport quad (white, fixed function) from a client
 * vertex array starting at vertex 3: the pointer the program gave (0xdead0000) is invalid in
 * the replay, so only a correctly applied CLIENT_ARRAY record makes the image white. */
static void client_array_frame(struct buf *stream, unsigned w, unsigned h, bool indexed)
{
    uint64_t vp[4] = { 0, 0, w, h };
    call(stream, GLR_CMD_glViewport, vp, -1, NULL, 0);
    uint64_t cc[4] = { fbits(0), fbits(0), fbits(0), fbits(1) };
    call(stream, GLR_CMD_glClearColor, cc, -1, NULL, 0);
    uint64_t cl[1] = { GL_COLOR_BUFFER_BIT };
    call(stream, GLR_CMD_glClear, cl, -1, NULL, 0);
    uint64_t vap[6] = { 0, 2, GL_FLOAT, 0, 0, 0xdead0000 };
    call(stream, GLR_CMD_glVertexAttribPointer, vap, -1, NULL, 0);
    uint64_t en[1] = { 0 };
    call(stream, GLR_CMD_glEnableVertexAttribArray, en, -1, NULL, 0);
    static const float quad[12] = { -1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1 };
    struct buf f = { 0 };
    uvar(&f, 0);          /* attrib index */
    uvar(&f, 2);          /* size */
    uvar(&f, GL_FLOAT);     /* type */
    uvar(&f, 0);          /* normalized */
    uvar(&f, 0);          /* integer */
    uvar(&f, 0);          /* stride */
    uvar(&f, 3);          /* first vertex */
    uvar(&f, 0xdead0000); /* the program's pointer */
    uvar(&f, sizeof quad + 1);
    put(&f, quad, sizeof quad);
    record(stream, GLR_PSEUDO_CLIENT_ARRAY, 1, &f);
    free(f.p);
    if (!indexed) {
        uint64_t da[3] = { GL_TRIANGLES, 3, 6 };
        call(stream, GLR_CMD_glDrawArrays, da, -1, NULL, 0);
        return;
    }
    /* --pending-error: a call the driver rejects (GL_INVALID_ENUM, left pending: programs rarely
     * ask), then the same quad drawn from an index buffer. The replayer must still see the index
     * buffer bound when it checks the draw. */
    uint64_t bad[1] = { 0x1234 };
    call(stream, GLR_CMD_glEnable, bad, -1, NULL, 0);
    const uint32_t name = 1;
    uint64_t gb[2] = { 1, 0 };
    call(stream, GLR_CMD_glGenBuffers, gb, 1, &name, 4);
    uint64_t bb[2] = { GL_ELEMENT_ARRAY_BUFFER, 1 };
    call(stream, GLR_CMD_glBindBuffer, bb, -1, NULL, 0);
    static const uint32_t idx[6] = { 3, 4, 5, 6, 7, 8 };
    uint64_t bd[4] = { GL_ELEMENT_ARRAY_BUFFER, sizeof idx, 0, GL_STATIC_DRAW };
    call(stream, GLR_CMD_glBufferData, bd, 2, idx, sizeof idx);
    uint64_t de[4] = { GL_TRIANGLES, 6, GL_UNSIGNED_INT, 0 };
    call(stream, GLR_CMD_glDrawElements, de, -1, NULL, 0);
}

/* Hostile records (--crafted KIND), after a frame's clear: each claims more than it carries or
 * more than the driver takes. A replayer that believes them corrupts memory or crashes Mesa; a
 * safe one skips the call with a reason. Buffer 1 is bound to GL_ARRAY_BUFFER first. */
static const char *const crafted_kinds[] = {
    "map-overflow",      /* a write claiming a 1 MiB mapping the stream made with 16 bytes */
    "map-whole-overflow", /* a write through a whole-buffer mapping past its real 16 bytes */
    "map-stale",         /* a write through a mapping after its unmap */
    "map-stale-delete",  /* a write through a mapping after its buffer was deleted */
    "bufferdata-short",  /* glBufferData of 256 MiB from 16 recorded bytes */
    "teximage-short",    /* glTexImage2D 2048x2048 RGBA8 from 16 recorded bytes */
    "uniform-short",     /* glUniform4fv count 2^20 from 16 recorded bytes */
    "gen-overflow",      /* glGenBuffers / glDeleteBuffers n 2^20 with one recorded name */
    "pointer-no-blob",   /* glBufferSubData with the program's pointer and no recorded bytes */
    "teximage-huge",     /* glTexImage2D 2^30 x 2^30 (no data) */
    "string-count",      /* glShaderSource count 1000 with one recorded string */
    "draw-huge",         /* glDrawArraysInstanced of 3 vertices x (2^31 - 1) instances */
    "target-huge",       /* a 16384 x 16384 RGBA32F renderbuffer attached and cleared */
    NULL,
};

static void crafted_calls(struct buf *stream, const char *kind)
{
    static const uint8_t bytes16[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    uint32_t one = 1;
    uint64_t gen[2] = { 1, 0x1000 };
    call(stream, GLR_CMD_glGenBuffers, gen, 1, &one, 4);
    uint64_t bind[2] = { GL_ARRAY_BUFFER, 1 };
    call(stream, GLR_CMD_glBindBuffer, bind, -1, NULL, 0);
    uint64_t bd[4] = { GL_ARRAY_BUFFER, 16, 0, GL_STATIC_DRAW };
    call(stream, GLR_CMD_glBufferData, bd, -1, NULL, 0);
    if (!strcmp(kind, "map-stale") || !strcmp(kind, "map-stale-delete")) {
        /* Map 16 bytes, write 16 through the mapping (accepted), end the mapping (unmap, or delete
         * the buffer), then write through the same captured pointer again: the replay must refuse
         * the second write, not put it into memory the driver no longer maps. */
        uint64_t map[4] = { GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT };
        call_ret(stream, GLR_CMD_glMapBufferRange, map, 0x7f0000001000ull, -1, NULL, 0);
        for (int k = 0; k < 2; k++) {
            struct buf f = { 0 };
            uvar(&f, 0x7f0000001000ull); /* captured map pointer */
            uvar(&f, 0);                 /* offset in the map */
            uvar(&f, 16);                /* the map length */
            uvar(&f, 1);                 /* buffer */
            uvar(&f, 0);                 /* offset in the buffer */
            uvar(&f, sizeof bytes16 + 1);
            put(&f, bytes16, sizeof bytes16);
            record(stream, GLR_PSEUDO_BUFFER_DATA, 1, &f);
            free(f.p);
            if (k)
                break;
            if (!strcmp(kind, "map-stale")) {
                uint64_t unmap[1] = { GL_ARRAY_BUFFER };
                call_ret(stream, GLR_CMD_glUnmapBuffer, unmap, 1, -1, NULL, 0);
            } else {
                uint64_t del[2] = { 1, 0x1000 };
                call(stream, GLR_CMD_glDeleteBuffers, del, 1, &one, 4);
            }
        }
    } else if (!strcmp(kind, "map-overflow") || !strcmp(kind, "map-whole-overflow")) {
        bool whole = !strcmp(kind, "map-whole-overflow");
        uint64_t map[4] = { GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT };
        uint64_t map_whole[2] = { GL_ARRAY_BUFFER, GL_WRITE_ONLY };
        if (whole)
            call_ret(stream, GLR_CMD_glMapBuffer, map_whole, 0x7f0000001000ull, -1, NULL, 0);
        else
            call_ret(stream, GLR_CMD_glMapBufferRange, map, 0x7f0000001000ull, -1, NULL, 0);
        static uint8_t big[65536];
        struct buf f = { 0 };
        uvar(&f, 0x7f0000001000ull); /* captured map pointer */
        uvar(&f, 0);                 /* offset in the map */
        uvar(&f, whole ? sizeof big : 1u << 20); /* the map length this record claims */
        uvar(&f, 1);                 /* buffer */
        uvar(&f, 0);                 /* offset in the buffer */
        uvar(&f, sizeof big + 1);
        put(&f, big, sizeof big);
        record(stream, GLR_PSEUDO_BUFFER_DATA, 1, &f);
        free(f.p);
    } else if (!strcmp(kind, "bufferdata-short")) {
        uint64_t a[4] = { GL_ARRAY_BUFFER, 256u << 20, 0x1000, GL_STATIC_DRAW };
        call(stream, GLR_CMD_glBufferData, a, 2, bytes16, sizeof bytes16);
    } else if (!strcmp(kind, "teximage-short") || !strcmp(kind, "teximage-huge")) {
        bool huge = !strcmp(kind, "teximage-huge");
        uint64_t gt[2] = { 1, 0x1000 };
        call(stream, GLR_CMD_glGenTextures, gt, 1, &one, 4);
        uint64_t bt[2] = { GL_TEXTURE_2D, 1 };
        call(stream, GLR_CMD_glBindTexture, bt, -1, NULL, 0);
        uint64_t side = huge ? 1u << 30 : 2048;
        uint64_t ti[9] = { GL_TEXTURE_2D, 0, GL_RGBA8, side, side, 0, GL_RGBA,
                           GL_UNSIGNED_BYTE, huge ? 0 : 0x1000 };
        call(stream, GLR_CMD_glTexImage2D, ti, huge ? -1 : 8, bytes16, sizeof bytes16);
    } else if (!strcmp(kind, "uniform-short")) {
        uint64_t u[3] = { 0, 1u << 20, 0x1000 };
        call(stream, GLR_CMD_glUniform4fv, u, 2, bytes16, sizeof bytes16);
    } else if (!strcmp(kind, "gen-overflow")) {
        uint64_t g[2] = { 1u << 20, 0x1000 };
        call(stream, GLR_CMD_glGenBuffers, g, 1, &one, 4);
        call(stream, GLR_CMD_glDeleteBuffers, g, 1, &one, 4);
    } else if (!strcmp(kind, "pointer-no-blob")) {
        uint64_t a[4] = { GL_ARRAY_BUFFER, 0, 16, 0xdead0000 };
        call(stream, GLR_CMD_glBufferSubData, a, -1, NULL, 0);
    } else if (!strcmp(kind, "string-count")) {
        uint64_t cs[1] = { GL_VERTEX_SHADER };
        call_ret(stream, GLR_CMD_glCreateShader, cs, 7, -1, NULL, 0);
        /* The recorder's string-array blob: u32 count, then u32 length and bytes per string. */
        static const char src[] = "void main() {}";
        uint8_t blob[4 + 4 + sizeof src - 1];
        uint32_t n = 1, len = sizeof src - 1;
        memcpy(blob, &n, 4);
        memcpy(blob + 4, &len, 4);
        memcpy(blob + 8, src, len);
        uint64_t ss[4] = { 7, 1000, 0x1000, 0 };
        call(stream, GLR_CMD_glShaderSource, ss, 2, blob, sizeof blob);
    } else if (!strcmp(kind, "draw-huge")) {
        uint64_t da[4] = { GL_TRIANGLES, 0, 3, 0x7fffffff };
        call(stream, GLR_CMD_glDrawArraysInstanced, da, -1, NULL, 0);
    } else if (!strcmp(kind, "target-huge")) {
        uint64_t gr[2] = { 1, 0x1000 };
        call(stream, GLR_CMD_glGenRenderbuffers, gr, 1, &one, 4);
        uint64_t br[2] = { GL_RENDERBUFFER, 1 };
        call(stream, GLR_CMD_glBindRenderbuffer, br, -1, NULL, 0);
        uint64_t rs[4] = { GL_RENDERBUFFER, GL_RGBA32F, 16384, 16384 };
        call(stream, GLR_CMD_glRenderbufferStorage, rs, -1, NULL, 0);
        uint64_t gf[2] = { 1, 0x1000 };
        call(stream, GLR_CMD_glGenFramebuffers, gf, 1, &one, 4);
        uint64_t bf[2] = { GL_FRAMEBUFFER, 1 };
        call(stream, GLR_CMD_glBindFramebuffer, bf, -1, NULL, 0);
        uint64_t fr[4] = { GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 1 };
        call(stream, GLR_CMD_glFramebufferRenderbuffer, fr, -1, NULL, 0);
        uint64_t vp[4] = { 0, 0, 16384, 16384 };
        call(stream, GLR_CMD_glViewport, vp, -1, NULL, 0);
        uint64_t cl[1] = { GL_COLOR_BUFFER_BIT };
        call(stream, GLR_CMD_glClear, cl, -1, NULL, 0);
        uint64_t bf0[2] = { GL_FRAMEBUFFER, 0 };
        call(stream, GLR_CMD_glBindFramebuffer, bf0, -1, NULL, 0);
        uint64_t vp0[4] = { 0, 0, 32, 16 };
        call(stream, GLR_CMD_glViewport, vp0, -1, NULL, 0);
    }
}

/* --foreign-locations: before the first frame, a fragment shader with two uniforms whose
 * locations the capturing driver said were 5 and 9 (glGetUniformLocation's recorded answers; Mesa
 * numbers them 0 and 1), then glUniform4f on 5 and 9. Only a replayer that maps the captured
 * locations to its own driver's sets them: the quads come out (255, 153, 51, 255), else black. */
static void foreign_location_program(struct buf *stream)
{
    static const char src[] = "uniform vec4 a; uniform vec4 b; void main() { gl_FragColor = vec4(a.rg, b.ba); }";
    uint8_t blob[8 + sizeof src - 1];
    uint32_t n = 1, len = sizeof src - 1;
    memcpy(blob, &n, 4);
    memcpy(blob + 4, &len, 4);
    memcpy(blob + 8, src, len);
    uint64_t cs[1] = { GL_FRAGMENT_SHADER };
    call_ret(stream, GLR_CMD_glCreateShader, cs, 3, -1, NULL, 0);
    uint64_t ss[4] = { 3, 1, 0x1000, 0 };
    call(stream, GLR_CMD_glShaderSource, ss, 2, blob, sizeof blob);
    uint64_t one[1] = { 3 };
    call(stream, GLR_CMD_glCompileShader, one, -1, NULL, 0);
    call_ret(stream, GLR_CMD_glCreateProgram, NULL, 4, -1, NULL, 0);
    uint64_t at[2] = { 4, 3 };
    call(stream, GLR_CMD_glAttachShader, at, -1, NULL, 0);
    uint64_t prog[1] = { 4 };
    call(stream, GLR_CMD_glLinkProgram, prog, -1, NULL, 0);
    uint64_t gl[2] = { 4, 0 };
    call_ret(stream, GLR_CMD_glGetUniformLocation, gl, 5, 1, "a", 2);
    call_ret(stream, GLR_CMD_glGetUniformLocation, gl, 9, 1, "b", 2);
    call(stream, GLR_CMD_glUseProgram, prog, -1, NULL, 0);
    uint64_t ua[5] = { 5, fbits(1.0f), fbits(0.6f), fbits(0), fbits(0) };
    call(stream, GLR_CMD_glUniform4f, ua, -1, NULL, 0);
    uint64_t ub[5] = { 9, fbits(0), fbits(0), fbits(0.2f), fbits(1.0f) };
    call(stream, GLR_CMD_glUniform4f, ub, -1, NULL, 0);
}

static void colour_of(unsigned frame, uint8_t rgba[4])
{
    rgba[0] = (uint8_t)(51 * (frame % 5));
    rgba[1] = (uint8_t)(255 - 17 * (frame % 15));
    rgba[2] = (uint8_t)(85 + 34 * (frame % 5));
    rgba[3] = 255;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: synth_capture OUT [--frames N] [--size WxH] [--wrong-pixel] [--client-array] [--crafted KIND] "
                        "[--foreign-locations] [--pending-error] [--packed]\n");
        return 2;
    }
    unsigned frames = 2, w = 32, h = 16;
    int wrong = 0, client = 0, foreign = 0, pending = 0, packed = 0;
    const char *crafted = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && sscanf(argv[++i], "%ux%u", &w, &h) == 2)
            ;
        else if (strcmp(argv[i], "--wrong-pixel") == 0)
            wrong = 1;
        else if (strcmp(argv[i], "--client-array") == 0)
            client = 1;
        else if (strcmp(argv[i], "--foreign-locations") == 0)
            client = foreign = 1;
        else if (strcmp(argv[i], "--pending-error") == 0)
            client = pending = 1;
        else if (strcmp(argv[i], "--packed") == 0)
            packed = 1;   /* the command stream as the shim writes it (compression 2, format 1.1) */
        else if (strcmp(argv[i], "--crafted") == 0 && i + 1 < argc) {
            crafted = argv[++i];
            bool known = false;
            for (int k = 0; crafted_kinds[k]; k++)
                known |= !strcmp(crafted, crafted_kinds[k]);
            if (!known) {
                fprintf(stderr, "synth_capture: unknown crafted record %s\n", crafted);
                return 2;
            }
            client = 1;   /* a compatibility context: every command above exists there */
        }
        else {
            fprintf(stderr, "synth_capture: bad argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!frames || w < 4 || h < 4) {
        fprintf(stderr, "synth_capture: need frames >= 1 and a size of at least 4x4\n");
        return 2;
    }
    struct buf stream = { 0 }, f = { 0 };
    uvar(&f, 1);  /* context id */
    uvar(&f, 1);  /* share group */
    uvar(&f, 2);  /* EGL */
    record(&stream, GLR_PSEUDO_CONTEXT_CREATE, 0, &f);
    /* MAKE_CURRENT carries the draw surface's width and height (0, 0: unknown). */
    f.n = 0;
    uvar(&f, 0);
    uvar(&f, 0);
    record(&stream, GLR_PSEUDO_MAKE_CURRENT, 1, &f);
    for (unsigned fr = 0; fr < frames; fr++) {
        uint8_t c[4];
        colour_of(fr, c);
        if (client) {
            if (foreign && fr == 0)
                foreign_location_program(&stream);
            client_array_frame(&stream, w, h, pending);
            if (crafted && fr == 0)
                crafted_calls(&stream, crafted);
            f.n = 0;
            uvar(&f, fr);
            record(&stream, GLR_PSEUDO_SWAP, 1, &f);
            continue;
        }
        f.n = 0;
        svar(&f, 0);
        svar(&f, 0);
        svar(&f, w);
        svar(&f, h);
        record(&stream, GLR_CMD_glViewport, 1, &f);
        f.n = 0;
        for (int k = 0; k < 4; k++) {
            float v = (float)c[k] / 255.0f;
            put(&f, &v, 4);
        }
        record(&stream, GLR_CMD_glClearColor, 1, &f);
        f.n = 0;
        uvar(&f, GL_COLOR_BUFFER_BIT); /* GL_COLOR_BUFFER_BIT */
        record(&stream, GLR_CMD_glClear, 1, &f);
        f.n = 0;
        uvar(&f, fr);
        record(&stream, GLR_PSEUDO_SWAP, 1, &f);
    }
    char err[512];
    glcap_writer_options wo = { .no_fsync = true };
    glcap_writer *wr = glcap_writer_create(argv[1], &wo, err, sizeof err);
    if (!wr) {
        fprintf(stderr, "synth_capture: %s\n", err);
        return 1;
    }
    int rc;
    if (packed) {
        glcap_pack_state ps;
        glcap_pack_init(&ps);
        size_t cap = stream.n + stream.n / 4 + 64, plen = 0;
        uint8_t *pk = malloc(cap);
        uint64_t records = 0;
        rc = pk && glcap_pack_block(&ps, stream.p, stream.n, pk, cap, &plen, &records) == stream.n ? 0 : -1;
        if (rc == 0)
            rc = glcap_writer_add_section(wr, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD_PACKED, pk, plen);
        free(pk);
    } else {
        rc = glcap_writer_add_section(wr, GLCAP_SECTION_COMMAND_STREAM, 0, GLCAP_COMPRESSION_ZSTD, stream.p, stream.n);
    }
    size_t img_size = 24 + (size_t)w * h * 4;
    uint8_t *img = malloc(img_size);
    for (unsigned fr = 0; rc == 0 && fr < frames; fr++) {
        uint32_t head[6] = { 1, fr, 1, w, h, 1 };
        memcpy(img, head, sizeof head);
        uint8_t c[4];
        colour_of(fr, c);
        if (client)
            memset(c, 255, 4);
        if (foreign)
            memcpy(c, (uint8_t[4]){ 255, 153, 51, 255 }, 4);
        for (size_t p = 0; p < (size_t)w * h; p++)
            memcpy(img + 24 + 4 * p, c, 4);
        if (wrong && fr == frames - 1)
            img[24 + 4 * (2 * w + 3)] ^= 0x10;
        rc = glcap_writer_add_section(wr, GLCAP_SECTION_REFERENCE_IMAGE, fr, GLCAP_COMPRESSION_ZSTD, img, img_size);
    }
    free(img);
    char meta[1024];
    snprintf(meta, sizeof meta,
             "{\"format\":\"glreplay capture\",\"program\":\"synth_capture\",\"pid\":1,\"first_frame\":0,"
             "\"last_frame\":%u,\"end\":\"last frame swapped\",\"initial_state\":\"default\",\"threads\":1,"
             "\"calls\":%llu,\"stream_bytes\":%zu,\"contexts\":[{\"id\":1,\"share_group\":1,\"api\":\"egl\","
             "\"es\":false,\"major\":%d,\"minor\":%d,\"profile_mask\":%d,\"flags\":0,\"version\":\"%s\","
             "\"renderer\":\"synthetic\",\"vendor\":\"test\",\"glsl\":\"3.30\"}],\"unsized_client_memory\":[]}",
             frames - 1, (unsigned long long)seq, stream.n, client ? 4 : 3, client ? 5 : 3, client ? 2 : 1,
             client ? "4.5 (Compatibility Profile)" : "3.3 (Core Profile)");
    if (rc == 0)
        rc = glcap_writer_add_section(wr, GLCAP_SECTION_METADATA, 0, GLCAP_COMPRESSION_NONE, meta, strlen(meta));
    if (rc == 0)
        rc = glcap_writer_finish(wr);
    if (rc != 0)
        fprintf(stderr, "synth_capture: %s\n", glcap_writer_error(wr));
    glcap_writer_destroy(wr);
    free(stream.p);
    free(f.p);
    return rc ? 1 : 0;
}
