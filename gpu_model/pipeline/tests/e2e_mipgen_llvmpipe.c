/* e2e_mipgen_llvmpipe.c - glGenerateMipmap of the model (gm_tex_blit_downsample) against the
 * real llvmpipe (EGL surfaceless, GL 3.3 core): random level-0 images of even and odd sizes
 * (glmark2's refract scene mipmaps a 640x480 target: 15 -> 7, 7 -> 3, 5 -> 2 and 3 -> 1 on
 * the way down), RGBA8 and RGBA32F, 2D textures and the layers of a 2D array. Every level
 * llvmpipe generates is read back with glGetTexImage; RGBA8 levels must equal the model's bytes
 * exactly, RGBA32F ones within 1e-4 (texels in [-0.5, 2]; llvmpipe interpolates the blit's
 * texture coordinate across the rectangle, the model computes it per texel: the float lerp
 * weights differ in their last bits; a box filter is off by up to 1 at odd sizes). sRGB levels are not modelled this way (gmf_images.c keeps a box
 * filter for them). Exit 77 (skip) when no EGL/llvmpipe is available. */
#include "gm_pipeline.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fmt_case {
    GLenum internal, type;
    gm_format model;
    int texel_bytes;
    const char *name;
} fmt_case;

static const fmt_case fmts[] = {
    {GL_RGBA8, GL_UNSIGNED_BYTE, GM_FMT_RGBA8, 4, "RGBA8"},
    {GL_RGBA32F, GL_FLOAT, GM_FMT_RGBA32F, 16, "RGBA32F"},
};

static const int sizes[][2] = {{640, 480}, {15, 7}, {5, 3}, {37, 23}, {1, 9}, {64, 64}, {33, 2}};

static int levels_of(int w, int h)
{
    int n = 1;
    while (w > 1 || h > 1) { w = w > 1 ? w / 2 : 1; h = h > 1 ? h / 2 : 1; n++; }
    return n;
}

static void fill(unsigned *seed, const fmt_case *f, uint8_t *p, size_t texels)
{
    for (size_t i = 0; i < texels * 4; i++) {
        if (f->type == GL_FLOAT) {
            float v = gm_test_randf(seed, -0.5f, 2.0f);
            memcpy(p + i * 4, &v, 4);
        } else {
            p[i] = (uint8_t)gm_test_rand(seed);
        }
    }
}

/* Generates the mip chain of one image (layers: 1 for GL_TEXTURE_2D) on llvmpipe and in the
 * model; returns the number of levels whose bytes differ. */
static int run_case(unsigned *seed, const fmt_case *f, int w, int h, int layers)
{
    GLenum target = layers > 1 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
    int nl = levels_of(w, h);
    size_t bytes0 = (size_t)w * h * layers * f->texel_bytes;
    uint8_t *img = malloc(bytes0), *back = malloc(bytes0);
    gm_surface lv[GM_TEX_MAX_LEVELS];
    memset(lv, 0, sizeof(lv));
    if (!img || !back) { free(img); free(back); return nl; }
    fill(seed, f, img, (size_t)w * h * layers);

    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(target, tex);
    if (layers > 1)
        glTexImage3D(target, 0, (GLint)f->internal, w, h, layers, 0, GL_RGBA, f->type, img);
    else
        glTexImage2D(target, 0, (GLint)f->internal, w, h, 0, GL_RGBA, f->type, img);
    glGenerateMipmap(target);

    int bad = 0;
    for (int l = 0; l < nl; l++) {
        int lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        if (gm_surface_alloc(&lv[l], f->model, lw, lh, layers, 1) != 0) { bad++; break; }
        if (l == 0) {
            memcpy(lv[0].data, img, bytes0);
            continue;
        }
        for (int z = 0; z < layers; z++)
            gm_tex_blit_downsample(&lv[l - 1], z, &lv[l], z);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTexImage(target, l, GL_RGBA, f->type, back);
        size_t n = (size_t)lw * lh * layers * f->texel_bytes;
        if (f->type == GL_FLOAT) {
            float worst = 0.0f;
            for (size_t i = 0; i < n / 4; i++) {
                float a, b;
                memcpy(&a, back + 4 * i, 4);
                memcpy(&b, lv[l].data + 4 * i, 4);
                float d = fabsf(a - b);
                if (!(d <= worst)) worst = d;
            }
            if (!(worst <= 1e-4f)) {
                fprintf(stderr, "%s %dx%d x%d level %d (%dx%d): difference %g\n",
                        f->name, w, h, layers, l, lw, lh, (double)worst);
                bad++;
            }
        } else if (memcmp(back, lv[l].data, n) != 0) {
            size_t diff = 0, first = n;
            for (size_t i = 0; i < n; i++)
                if (back[i] != lv[l].data[i]) { diff++; if (first == n) first = i; }
            fprintf(stderr, "%s %dx%d x%d level %d (%dx%d): %zu of %zu bytes differ (first at "
                    "byte %zu: llvmpipe %u, model %u)\n", f->name, w, h, layers, l, lw, lh, diff,
                    n, first, back[first], lv[l].data[first]);
            bad++;
        }
    }
    for (int l = 0; l < nl; l++) gm_surface_free(&lv[l]);
    glDeleteTextures(1, &tex);
    free(img);
    free(back);
    return bad;
}

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                              NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "no EGL surfaceless display: skipping\n");
        return 77;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                        EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx)) {
        fprintf(stderr, "cannot create a GL 3.3 context: skipping\n");
        return 77;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    unsigned seed = 20261128u;
    int cases = 0, bad_cases = 0;
    for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (int layers = 1; layers <= 3; layers += 2) {
                if (layers > 1 && sizes[s][0] * sizes[s][1] > 4096) continue;
                cases++;
                if (run_case(&seed, &fmts[f], sizes[s][0], sizes[s][1], layers))
                    bad_cases++;
            }
    printf("%d of %d mip chains agree with llvmpipe's\n", cases - bad_cases, cases);
    CHECK(bad_cases == 0);
    TEST_DONE();
}
