/* Shader corpus driver: draws one shader pair (files given on the command line) for a few frames on
 * an EGL surfaceless pbuffer, so that the corpus test (corpus.py) can capture it under the shim and
 * compare the GPU model's images with llvmpipe's.
 *
 *   corpus_draw --vs FILE --fs FILE [--frames N] [--size WxH]
 *
 * The context comes from the fragment shader's #version line: "es" -> a GLES context of that
 * version (100 -> 2.0), "compatibility" or a version below 150 -> a compatibility context, anything
 * else -> a core context of that version. The geometry is a quad of two triangles plus an inner
 * triangle with per-vertex position (a_pos, location 0, also gl_Vertex), colour (a_color, 1, also
 * gl_Color) and texture coordinate (a_uv, 2, also gl_MultiTexCoord0). Every active uniform gets a
 * deterministic value that depends on its type, element and the frame; sampler2D uniforms sample a
 * mipmapped checkerboard (even units) or a nearest-filtered gradient (odd units); every uniform
 * block is backed by a buffer of floats. In compatibility contexts the legacy matrix stacks are
 * set (an ortho projection and a rotation) for gl_ModelViewProjectionMatrix and ftransform().
 * The last frame must show at least MIN_COLORS distinct colours (else exit 1): a flat image could
 * not reveal a wrong model result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include "../../../tests/support/gl_test_util.h"

#define WHO "corpus_draw"
/* Fewest distinct colours a case's image must have (see distinct_colors). */
#define MIN_COLORS 8

struct ctx_req {
    int es, core, major, minor;
};

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, WHO ": cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, WHO ": cannot read %s\n", path);
        exit(2);
    }
    s[n] = 0;
    fclose(f);
    return s;
}

/* Context from "#version N [profile]" on the shader's first line. */
static int parse_version(const char *src, struct ctx_req *r)
{
    int v = 0;
    char prof[32] = "";
    if (sscanf(src, " #version %d %31s", &v, prof) < 1 || v < 100) {
        fprintf(stderr, WHO ": the fragment shader does not start with a #version line\n");
        return -1;
    }
    if (!strcmp(prof, "es") || v == 100) {
        r->es = 1;
        r->core = 0;
        r->major = v == 100 ? 2 : v / 100;
        r->minor = v == 100 ? 0 : (v % 100) / 10;
        return 0;
    }
    r->es = 0;
    r->core = strcmp(prof, "compatibility") != 0 && v >= 150;
    r->major = v < 330 ? 3 : v / 100;
    r->minor = v < 330 ? 3 : (v % 100) / 10;
    return 0;
}

static int egl_open_es(struct glt_egl *e, int w, int h, int major, int minor)
{
    e->dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!e->dpy || !eglInitialize(e->dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API)) {
        fprintf(stderr, WHO ": no EGL surfaceless display for GLES\n");
        return -1;
    }
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_RENDERABLE_TYPE,
                                major >= 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(e->dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, WHO ": no RGBA8 GLES pbuffer config\n");
        return -1;
    }
    const EGLint pb[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    e->surf = eglCreatePbufferSurface(e->dpy, cfg, pb);
    const EGLint attr[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE };
    e->ctx = eglCreateContext(e->dpy, cfg, EGL_NO_CONTEXT, attr);
    if (!e->surf || !e->ctx || !eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx)) {
        fprintf(stderr, WHO ": no GLES %d.%d context\n", major, minor);
        return -1;
    }
    return 0;
}

/* Mipmapped checkerboard, each level a different tint so the chosen LOD shows in the image. */
static GLuint make_checker(void)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    unsigned char px[64 * 64 * 4];
    for (int lvl = 0, sz = 64; sz >= 1; lvl++, sz /= 2) {
        for (int y = 0; y < sz; y++)
            for (int x = 0; x < sz; x++) {
                unsigned char *p = px + 4 * (y * sz + x);
                int on = ((x >> 2) ^ (y >> 2)) & 1;
                p[0] = (unsigned char)(on ? 230 - 30 * lvl : 20 + 25 * lvl);
                p[1] = (unsigned char)(on ? 40 * lvl : 200 - 20 * lvl);
                p[2] = (unsigned char)(x * 255 / (sz > 1 ? sz - 1 : 1));
                p[3] = (unsigned char)(on ? 255 : 160);
            }
        glTexImage2D(GL_TEXTURE_2D, lvl, GL_RGBA, sz, sz, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
    return t;
}

/* 16x16 gradient, nearest filtering, clamped, no mipmaps. */
static GLuint make_gradient(void)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    unsigned char px[16 * 16 * 4];
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            unsigned char *p = px + 4 * (y * 16 + x);
            p[0] = (unsigned char)(x * 17);
            p[1] = (unsigned char)(y * 17);
            p[2] = (unsigned char)((x * y) & 255);
            p[3] = 255;
        }
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

/* Deterministic values for one uniform of `type` and array size `n`: component k of element j. */
static void set_uniform(GLenum type, GLint loc, GLint n, int frame, int *sampler_count)
{
    enum { MAXC = 16 * 64 };
    static GLfloat f[MAXC];
    static GLint iv[MAXC];
    static GLuint uv[MAXC];
    static GLdouble dv[MAXC];
    if (n > 64)
        n = 64;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 16; k++) {
            int i = j * 16 + k;
            f[i] = 0.1f + 0.13f * (float)k + 0.07f * (float)j + 0.05f * (float)frame;
            iv[i] = (k + 1) * (j + 2) - 3 + frame;
            uv[i] = (GLuint)(3 + 5 * k + j + frame);
            dv[i] = 0.1 + 0.13 * k + 0.07 * j + 0.05 * frame;
        }
    /* Packed per element: the arrays above are per element 16 wide, so re-pack to the type's
     * component count. */
    int comps = 1;
    switch (type) {
    case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: case GL_BOOL_VEC2: case GL_DOUBLE_VEC2: comps = 2; break;
    case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: case GL_BOOL_VEC3: case GL_DOUBLE_VEC3: comps = 3; break;
    case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_BOOL_VEC4: case GL_DOUBLE_VEC4:
    case GL_FLOAT_MAT2: comps = 4; break;
    case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT3x2: comps = 6; break;
    case GL_FLOAT_MAT2x4: case GL_FLOAT_MAT4x2: comps = 8; break;
    case GL_FLOAT_MAT3: comps = 9; break;
    case GL_FLOAT_MAT3x4: case GL_FLOAT_MAT4x3: comps = 12; break;
    case GL_FLOAT_MAT4: comps = 16; break;
    default: break;
    }
    for (int j = 0; j < n; j++)
        for (int k = 0; k < comps; k++) {
            f[j * comps + k] = f[j * 16 + k];
            iv[j * comps + k] = iv[j * 16 + k];
            uv[j * comps + k] = uv[j * 16 + k];
            dv[j * comps + k] = dv[j * 16 + k];
        }
    switch (type) {
    case GL_FLOAT: glUniform1fv(loc, n, f); break;
    case GL_FLOAT_VEC2: glUniform2fv(loc, n, f); break;
    case GL_FLOAT_VEC3: glUniform3fv(loc, n, f); break;
    case GL_FLOAT_VEC4: glUniform4fv(loc, n, f); break;
    case GL_FLOAT_MAT2: glUniformMatrix2fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT3: glUniformMatrix3fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT4: glUniformMatrix4fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT2x3: glUniformMatrix2x3fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT3x2: glUniformMatrix3x2fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT2x4: glUniformMatrix2x4fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT4x2: glUniformMatrix4x2fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT3x4: glUniformMatrix3x4fv(loc, n, GL_FALSE, f); break;
    case GL_FLOAT_MAT4x3: glUniformMatrix4x3fv(loc, n, GL_FALSE, f); break;
    case GL_INT: case GL_BOOL: glUniform1iv(loc, n, iv); break;
    case GL_INT_VEC2: case GL_BOOL_VEC2: glUniform2iv(loc, n, iv); break;
    case GL_INT_VEC3: case GL_BOOL_VEC3: glUniform3iv(loc, n, iv); break;
    case GL_INT_VEC4: case GL_BOOL_VEC4: glUniform4iv(loc, n, iv); break;
    case GL_UNSIGNED_INT: glUniform1uiv(loc, n, uv); break;
    case GL_UNSIGNED_INT_VEC2: glUniform2uiv(loc, n, uv); break;
    case GL_UNSIGNED_INT_VEC3: glUniform3uiv(loc, n, uv); break;
    case GL_UNSIGNED_INT_VEC4: glUniform4uiv(loc, n, uv); break;
    case GL_DOUBLE: glUniform1dv(loc, n, dv); break;
    case GL_DOUBLE_VEC2: glUniform2dv(loc, n, dv); break;
    case GL_DOUBLE_VEC3: glUniform3dv(loc, n, dv); break;
    case GL_DOUBLE_VEC4: glUniform4dv(loc, n, dv); break;
    case GL_SAMPLER_2D:
        for (int j = 0; j < n; j++)
            iv[j] = (*sampler_count)++ % 4;
        glUniform1iv(loc, n, iv);
        break;
    default:
        fprintf(stderr, WHO ": uniform type 0x%x is not handled by the corpus driver\n", type);
        exit(2);
    }
}

static void set_uniforms(GLuint prog, int frame)
{
    GLint count = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &count);
    int samplers = 0;
    for (GLint i = 0; i < count; i++) {
        char name[256];
        GLint size = 0;
        GLenum type = 0;
        glGetActiveUniform(prog, (GLuint)i, sizeof name, NULL, &size, &type, name);
        GLint loc = glGetUniformLocation(prog, name);
        if (loc < 0)
            continue; /* a block member or a built-in */
        set_uniform(type, loc, size, frame, &samplers);
    }
}

/* Every uniform block (index b) gets binding b and a buffer of floats 0.05*b + 0.01*word. */
static void bind_blocks(GLuint prog)
{
    GLint blocks = 0;
    glGetProgramiv(prog, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    for (GLint i = 0; i < blocks; i++) {
        /* Looked up by name as applications do: a capture records the index a name maps to. */
        char name[256];
        glGetActiveUniformBlockName(prog, (GLuint)i, sizeof name, NULL, name);
        GLuint b = glGetUniformBlockIndex(prog, name);
        GLint size = 0;
        glGetActiveUniformBlockiv(prog, b, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        GLfloat *data = calloc((size_t)size / 4 + 1, sizeof *data);
        for (GLint w = 0; w < size / 4; w++)
            data[w] = 0.05f * (float)b + 0.01f * (float)(w % 97);
        GLuint buf;
        glGenBuffers(1, &buf);
        glBindBuffer(GL_UNIFORM_BUFFER, buf);
        glBufferData(GL_UNIFORM_BUFFER, size, data, GL_STATIC_DRAW);
        glUniformBlockBinding(prog, b, b);
        glBindBufferBase(GL_UNIFORM_BUFFER, b, buf);
        free(data);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    GLuint x = *(const GLuint *)a, y = *(const GLuint *)b;
    return x < y ? -1 : x > y;
}

/* Distinct RGBA values in the w x h framebuffer: a case whose image is (nearly) constant could
 * not show a wrong model result, so it is refused. */
static int distinct_colors(int w, int h)
{
    GLuint *px = malloc((size_t)w * (size_t)h * sizeof *px);
    if (!px)
        return 0;
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px);
    qsort(px, (size_t)w * (size_t)h, sizeof *px, cmp_u32);
    int n = 1;
    for (size_t i = 1; i < (size_t)w * (size_t)h; i++)
        n += px[i] != px[i - 1];
    free(px);
    return n;
}

static GLuint link_program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, glt_shader(WHO, GL_VERTEX_SHADER, vs));
    glAttachShader(p, glt_shader(WHO, GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "a_pos");
    glBindAttribLocation(p, 1, "a_color");
    glBindAttribLocation(p, 2, "a_uv");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, WHO ": link failed: %s\n", log);
        exit(1);
    }
    return p;
}

/* pos.xyzw, color.rgba, uv.st: a quad (two triangles) and an inner triangle over it. */
static const GLfloat verts[] = {
    -1, -1, 0, 1,  1.0f, 0.1f, 0.1f, 1,  -0.3f, -0.2f,
     1, -1, 0, 1,  0.1f, 1.0f, 0.2f, 1,   2.3f, -0.2f,
     1,  1, 0, 1,  0.1f, 0.2f, 1.0f, 1,   2.3f,  1.7f,
    -1, -1, 0, 1,  1.0f, 0.1f, 0.1f, 1,  -0.3f, -0.2f,
     1,  1, 0, 1,  0.1f, 0.2f, 1.0f, 1,   2.3f,  1.7f,
    -1,  1, 0, 1,  0.9f, 0.9f, 0.2f, 0.5f, -0.3f,  1.7f,
    -0.6f, -0.5f, 0, 1,  0.2f, 0.8f, 0.8f, 1,  0.0f, 0.0f,
     0.7f, -0.3f, 0, 1,  0.8f, 0.3f, 0.9f, 1,  8.0f, 0.5f,
     0.1f,  0.8f, 0, 1,  0.5f, 0.5f, 0.5f, 1,  0.3f, 6.0f,
};

int main(int argc, char **argv)
{
    const char *vs_path = NULL, *fs_path = NULL;
    int frames = 3, width = 64, height = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vs") && i + 1 < argc)
            vs_path = argv[++i];
        else if (!strcmp(argv[i], "--fs") && i + 1 < argc)
            fs_path = argv[++i];
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, WHO ": bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: " WHO " --vs FILE --fs FILE [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    if (!vs_path || !fs_path || frames < 1) {
        fprintf(stderr, "usage: " WHO " --vs FILE --fs FILE [--frames N] [--size WxH]\n");
        return 2;
    }
    char *vs = read_text(vs_path), *fs = read_text(fs_path);
    struct ctx_req req;
    if (parse_version(fs, &req) != 0)
        return 2;
    struct glt_egl egl;
    int rc = req.es ? egl_open_es(&egl, width, height, req.major, req.minor)
                    : glt_egl_open(&egl, WHO, width, height, 0, req.major, req.minor, req.core);
    if (rc != 0)
        return 1;
    GLuint prog = link_program(vs, fs);
    int legacy = !req.es && !req.core;

    GLuint vao = 0, vbo;
    if (!req.es || req.major >= 3) {
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
    }
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof verts, verts, GL_STATIC_DRAW);
    const GLsizei stride = 10 * sizeof(GLfloat);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, (void *)(4 * sizeof(GLfloat)));
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (void *)(8 * sizeof(GLfloat)));
    for (GLuint a = 0; a < 3; a++)
        glEnableVertexAttribArray(a);
    if (legacy) {
        /* The same data through the fixed-function arrays for gl_Vertex/gl_Color/gl_MultiTexCoord0. */
        glVertexPointer(4, GL_FLOAT, stride, (void *)0);
        glColorPointer(4, GL_FLOAT, stride, (void *)(4 * sizeof(GLfloat)));
        glClientActiveTexture(GL_TEXTURE0);
        glTexCoordPointer(2, GL_FLOAT, stride, (void *)(8 * sizeof(GLfloat)));
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        glEnableClientState(GL_TEXTURE_COORD_ARRAY);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glOrtho(-1.25, 1.25, -1.1, 1.1, -2, 2);
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();
        glRotatef(12.0f, 0, 0, 1);
        glScalef(1.1f, 0.95f, 1.0f);
    }
    GLuint checker = make_checker(), grad = make_gradient();
    for (int u = 0; u < 4; u++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)u);
        glBindTexture(GL_TEXTURE_2D, u % 2 ? grad : checker);
    }
    glActiveTexture(GL_TEXTURE0);
    glUseProgram(prog);
    if (!req.es ? (req.major > 3 || req.minor >= 1 || req.core) : req.major >= 3)
        bind_blocks(prog);

    glViewport(0, 0, width, height);
    int colors = 0;
    for (int fr = 0; fr < frames; fr++) {
        if (legacy) {
            glMatrixMode(GL_MODELVIEW);
            glRotatef(3.0f, 0, 0, 1);
        }
        set_uniforms(prog, fr);
        glClearColor(0.1f, 0.15f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 9);
        /* Checked on the last frame only: the corpus test captures the frames before it. */
        if (fr == frames - 1 && frames > 1 && (colors = distinct_colors(width, height)) < MIN_COLORS) {
            fprintf(stderr, WHO ": %s draws only %d distinct colours (< %d): too flat to test\n",
                    fs_path, colors, MIN_COLORS);
            return 1;
        }
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    GLenum err = glGetError();
    glt_egl_close(&egl);
    free(vs);
    free(fs);
    if (err != GL_NO_ERROR) {
        fprintf(stderr, WHO ": GL error 0x%x\n", err);
        return 1;
    }
    return 0;
}
