/* The textures a draw samples, as the driver has them right before the draw (report_thumbs.c
 * calls glrr_dtex_before_draw from the driver replay's before_draw hook). The events pass can
 * picture only textures whose contents the capture uploads in an 8-bit format; this pass reads
 * whatever the driver holds: render targets drawn earlier in the frame, float and compressed
 * formats (the driver converts them to RGBA8 in glGetTexImage), depth textures (as grey).
 *
 * Every texture bound to a unit of the draw's context is read (level 0; the first layer of an
 * array or 3D texture, the +X face of a cube map), each distinct image written once as
 * data/dtex/<hash>.png (256 pixels on its longest side at most), and data/dtex.js lists per draw
 * record [unit, target, texture (the replay's name), file]. The reads are bounded (GLRR_DTEX_BUDGET bytes over the
 * report, 4096 texels a side): past the budget the remaining draws list no driver images and
 * dtex.js says so. Every GL state touched (active unit, pack state, pixel pack buffer) is put
 * back, so the replay goes on exactly as without this pass. Integer and multisample textures are
 * not pictured (glGetTexImage cannot convert them to RGBA8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glcorearb.h>
#include <xxhash.h>
#include "ui_ipc/report/report.h"
#include "replay/player/player.h"
#include "statemodel/statemodel.h"

#define GLRR_DTEX_BUDGET (1024ull << 20)
#define GLRR_DTEX_MAX_SIDE 4096
#define GLRR_DTEX_UNITS 32
#define GLRR_DTEX_PNG_SIDE 256

struct glrr_dtex {
    const char *dir;
    cJSON *by_record;       /* "record" -> [[unit, target, texture, file], ...] */
    cJSON *written;         /* hash -> true */
    uint64_t bytes_read, images, over_budget_draws;
    bool loaded, usable, warned;
    PFNGLGETINTEGERVPROC GetIntegerv;
    PFNGLACTIVETEXTUREPROC ActiveTexture;
    PFNGLGETTEXLEVELPARAMETERIVPROC GetTexLevelParameteriv;
    PFNGLGETTEXIMAGEPROC GetTexImage;
    PFNGLPIXELSTOREIPROC PixelStorei;
    PFNGLBINDBUFFERPROC BindBuffer;
    PFNGLGETERRORPROC GetError;
};

struct glrr_dtex *glrr_dtex_new(const char *out_dir)
{
    struct glrr_dtex *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->dir = out_dir;
    t->by_record = cJSON_CreateObject();
    t->written = cJSON_CreateObject();
    if (!t->by_record || !t->written) {
        glrr_dtex_free(t);
        return NULL;
    }
    return t;
}

void glrr_dtex_free(struct glrr_dtex *t)
{
    if (!t)
        return;
    cJSON_Delete(t->by_record);
    cJSON_Delete(t->written);
    free(t);
}

static bool load_gl(struct glrr_dtex *t)
{
    if (t->loaded)
        return t->usable;
    t->loaded = true;
    t->GetIntegerv = (PFNGLGETINTEGERVPROC)glrh_get_proc(NULL, "glGetIntegerv");
    t->ActiveTexture = (PFNGLACTIVETEXTUREPROC)glrh_get_proc(NULL, "glActiveTexture");
    t->GetTexLevelParameteriv = (PFNGLGETTEXLEVELPARAMETERIVPROC)glrh_get_proc(NULL, "glGetTexLevelParameteriv");
    t->GetTexImage = (PFNGLGETTEXIMAGEPROC)glrh_get_proc(NULL, "glGetTexImage");
    t->PixelStorei = (PFNGLPIXELSTOREIPROC)glrh_get_proc(NULL, "glPixelStorei");
    t->BindBuffer = (PFNGLBINDBUFFERPROC)glrh_get_proc(NULL, "glBindBuffer");
    t->GetError = (PFNGLGETERRORPROC)glrh_get_proc(NULL, "glGetError");
    t->usable = t->GetIntegerv && t->ActiveTexture && t->GetTexLevelParameteriv && t->GetTexImage &&
                t->PixelStorei && t->BindBuffer && t->GetError;
    return t->usable;
}

static void drain_errors(const struct glrr_dtex *t)
{
    for (int i = 0; i < 16 && t->GetError() != GL_NO_ERROR; i++)
        ;
}

/* The texture targets a unit can have bound, the binding query of each and the image target read
 * (a cube map's +X face). The report names a target by the registry's name (sm_enum_name). */
static const struct {
    GLenum target, binding, image;
} TARGETS[] = {
    { GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D, GL_TEXTURE_1D },
    { GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, GL_TEXTURE_2D },
    { GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D, GL_TEXTURE_3D },
    { GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, GL_TEXTURE_RECTANGLE },
    { GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY, GL_TEXTURE_1D_ARRAY },
    { GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, GL_TEXTURE_2D_ARRAY },
    { GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, GL_TEXTURE_CUBE_MAP_POSITIVE_X },
};

/* Depth (and depth-stencil) images as grey, stretched over the range they use so that a shadow
 * map's 0.98..1.0 is visible; other channels are not read. */
static void depth_to_grey(const float *z, uint8_t *rgba, size_t n)
{
    float lo = 1.0f, hi = 0.0f;
    for (size_t i = 0; i < n; i++) {
        if (z[i] < lo)
            lo = z[i];
        if (z[i] > hi)
            hi = z[i];
    }
    float scale = hi > lo ? 255.0f / (hi - lo) : 0.0f;
    for (size_t i = 0; i < n; i++) {
        uint8_t g = (uint8_t)((z[i] - lo) * scale + 0.5f);
        rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = g;
        rgba[4 * i + 3] = 255;
    }
}

/* Reads the image bound to `target` on the active unit into a new RGBA8 buffer (rows bottom-up,
 * w x h: the first layer); NULL when it cannot be pictured or the budget is spent. */
static uint8_t *read_image(struct glrr_dtex *t, GLenum image_target, GLenum query_target, int *w, int *h,
                           bool *over_budget)
{
    GLint tw = 0, th = 0, td = 0, depth_bits = 0, red_type = 0, samples = 0;
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_WIDTH, &tw);
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_HEIGHT, &th);
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_DEPTH, &td);
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_DEPTH_SIZE, &depth_bits);
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_RED_TYPE, &red_type);
    t->GetTexLevelParameteriv(image_target, 0, GL_TEXTURE_SAMPLES, &samples);
    if (t->GetError() != GL_NO_ERROR || tw <= 0 || th <= 0 || tw > GLRR_DTEX_MAX_SIDE || th > GLRR_DTEX_MAX_SIDE ||
        td > GLRR_DTEX_MAX_SIDE || samples > 0 || red_type == GL_INT || red_type == GL_UNSIGNED_INT)
        return NULL;
    (void)query_target;
    uint64_t layers = td > 0 ? (uint64_t)td : 1;
    uint64_t texels = (uint64_t)tw * (uint64_t)th * layers;
    uint64_t bytes = texels * 4;
    if (t->bytes_read + bytes > GLRR_DTEX_BUDGET) {
        *over_budget = true;
        return NULL;
    }
    uint8_t *all = malloc(bytes);
    if (!all)
        return NULL;
    if (depth_bits > 0)
        t->GetTexImage(image_target, 0, GL_DEPTH_COMPONENT, GL_FLOAT, all);
    else
        t->GetTexImage(image_target, 0, GL_RGBA, GL_UNSIGNED_BYTE, all);
    if (t->GetError() != GL_NO_ERROR) {
        free(all);
        return NULL;
    }
    t->bytes_read += bytes;
    size_t n = (size_t)tw * (size_t)th;
    if (depth_bits > 0) {
        uint8_t *rgba = malloc(n * 4);
        if (rgba)
            depth_to_grey((const float *)all, rgba, n);
        free(all);
        all = rgba;
    }
    *w = tw;
    *h = th;
    return all;
}

/* Writes the image once (by content) and returns its file name relative to the report folder. */
static const char *write_once(struct glrr_dtex *t, const uint8_t *rgba, int w, int h, char *file, size_t n)
{
    XXH64_hash_t hv = XXH3_64bits(rgba, (size_t)w * (size_t)h * 4);
    char hash[40];
    snprintf(hash, sizeof hash, "%016llx_%dx%d", (unsigned long long)hv, w, h);
    snprintf(file, n, "data/dtex/%s.png", hash);
    if (cJSON_GetObjectItemCaseSensitive(t->written, hash))
        return file;
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/%s", t->dir, file);
    if (glrr_write_thumb_png(path, rgba, (unsigned)w, (unsigned)h, GLRR_DTEX_PNG_SIDE, err, sizeof err) != 0) {
        if (!t->warned)
            fprintf(stderr, "glreplay: warning: report: %s\n", err);
        t->warned = true;
        return NULL;
    }
    t->images++;
    cJSON_AddTrueToObject(t->written, hash);
    return file;
}

void glrr_dtex_before_draw(struct glrr_dtex *t, uint64_t record, const struct glrh_context *ctx)
{
    /* glGetTexImage is desktop GL only. */
    if (!t || (ctx && ctx->es) || !load_gl(t))
        return;
    drain_errors(t);
    GLint active = GL_TEXTURE0, units = 0, pack_buffer = 0, align = 4, row = 0, skip_rows = 0, skip_pixels = 0,
          skip_images = 0, image_height = 0, swap = 0, lsb = 0;
    t->GetIntegerv(GL_ACTIVE_TEXTURE, &active);
    t->GetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
    t->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
    static const GLenum pack[] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
                                   GL_PACK_SKIP_IMAGES, GL_PACK_IMAGE_HEIGHT, GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST };
    GLint *saved[] = { &align, &row, &skip_rows, &skip_pixels, &skip_images, &image_height, &swap, &lsb };
    static const GLint packed[] = { 1, 0, 0, 0, 0, 0, 0, 0 };
    for (size_t i = 0; i < sizeof pack / sizeof *pack; i++)
        t->GetIntegerv(pack[i], saved[i]);
    drain_errors(t);
    if (pack_buffer)
        t->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    for (size_t i = 0; i < sizeof pack / sizeof *pack; i++)
        t->PixelStorei(pack[i], packed[i]);
    if (units > GLRR_DTEX_UNITS)
        units = GLRR_DTEX_UNITS;
    cJSON *list = NULL;
    bool over_budget = false;
    for (GLint u = 0; u < units; u++) {
        t->ActiveTexture(GL_TEXTURE0 + (GLenum)u);
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++) {
            GLint name = 0;
            t->GetIntegerv(TARGETS[k].binding, &name);
            if (t->GetError() != GL_NO_ERROR || name <= 0)
                continue;
            int w = 0, h = 0;
            uint8_t *rgba = read_image(t, TARGETS[k].image, TARGETS[k].target, &w, &h, &over_budget);
            char file[96];
            const char *f = rgba ? write_once(t, rgba, w, h, file, sizeof file) : NULL;
            free(rgba);
            if (!f)
                continue;
            if (!list)
                list = cJSON_CreateArray();
            cJSON *e = cJSON_CreateArray();
            cJSON_AddItemToArray(e, cJSON_CreateNumber(u));
            cJSON_AddItemToArray(e, cJSON_CreateString(sm_enum_name(TARGETS[k].target)));
            cJSON_AddItemToArray(e, cJSON_CreateNumber(name));
            cJSON_AddItemToArray(e, cJSON_CreateString(f));
            cJSON_AddItemToArray(list, e);
        }
    }
    t->ActiveTexture((GLenum)active);
    for (size_t i = 0; i < sizeof pack / sizeof *pack; i++)
        t->PixelStorei(pack[i], *saved[i]);
    if (pack_buffer)
        t->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buffer);
    drain_errors(t);
    t->over_budget_draws += over_budget;
    if (list) {
        char key[32];
        snprintf(key, sizeof key, "%llu", (unsigned long long)record);
        cJSON_AddItemToObject(t->by_record, key, list);
    }
}

int glrr_dtex_finish(struct glrr_dtex *t, uint64_t *images, char *err, size_t err_size)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    cJSON_AddItemReferenceToObject(root, "draws", t->by_record);
    cJSON_AddNumberToObject(root, "images", (double)t->images);
    cJSON_AddNumberToObject(root, "bytes_read", (double)t->bytes_read);
    cJSON_AddNumberToObject(root, "budget_bytes", (double)GLRR_DTEX_BUDGET);
    cJSON_AddNumberToObject(root, "draws_over_budget", (double)t->over_budget_draws);
    char path[4200];
    snprintf(path, sizeof path, "%s/data/dtex.js", t->dir);
    int rc = glrr_write_js(path, "glrReport.dtex", root, err, err_size);
    cJSON_Delete(root);
    *images = t->images;
    return rc;
}
