/* snap_objects: a test program whose later frames depend on state made only in frame 0, so a
 * capture of frame N replays correctly only if the initial-state snapshot restored it all.
 *
 * EGL pbuffer (no X), GL 4.5 core. Made once, never touched again: textures of many kinds (2D with
 * hand-made mip levels, cube map, 2D array, 3D, RGBA16F, R32UI integer, immutable storage with a
 * swizzle), a sampler object overriding a texture's filter, a renderbuffer whose contents are drawn
 * once and blitted to the window every frame, a UBO, a VAO with an instanced attribute, a program
 * whose shaders were deleted after linking, uniforms of several types, blend/cull state, and a
 * second context (sharing objects) whose FBO binding and clear colour are set once. Each frame:
 * the second context clears a shared texture to a frame-dependent colour through its FBO, then the
 * first draws instanced quads sampling everything on top of the previous frames (the window is
 * never cleared after frame 0, so its contents matter too).
 *
 *   snap_objects [--frames N]      (default 8); exits 0 when GL raised no error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#define W 128
#define H 96

static const char *vs_src =
    "#version 450 core\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(location = 3) in vec4 a_tint;\n"
    "uniform vec2 u_offsets[4];\n"
    "uniform mat3 u_xform;\n"
    "uniform float u_time;\n"
    "out vec2 v_uv;\n"
    "out vec4 v_tint;\n"
    "flat out int v_inst;\n"
    "void main() {\n"
    "    vec3 p = u_xform * vec3(a_pos * 0.22, 1.0);\n"
    "    vec2 o = u_offsets[gl_InstanceID] + vec2(0.02 * u_time, 0.0);\n"
    "    gl_Position = vec4(p.xy + o, 0.0, 1.0);\n"
    "    v_uv = a_pos * 0.5 + 0.5;\n"
    "    v_tint = a_tint;\n"
    "    v_inst = gl_InstanceID;\n"
    "}\n";

static const char *fs_src =
    "#version 450 core\n"
    "in vec2 v_uv;\n"
    "in vec4 v_tint;\n"
    "flat in int v_inst;\n"
    "layout(std140, binding = 0) uniform Palette { vec4 colors[4]; } pal;\n"
    "uniform sampler2D u_mip;\n"
    "uniform samplerCube u_cube;\n"
    "uniform sampler2DArray u_array;\n"
    "uniform sampler3D u_vol;\n"
    "uniform sampler2D u_half;\n"
    "uniform usampler2D u_uint;\n"
    "uniform sampler2D u_imm;\n"
    "uniform sampler2D u_shared;\n"
    "uniform ivec2 u_pick;\n"
    "uniform uint u_mask;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec4 c = textureLod(u_mip, v_uv, float(v_inst & 3));\n"
    "    c += 0.5 * texture(u_cube, normalize(vec3(v_uv * 2.0 - 1.0, 0.7)));\n"
    "    c += 0.25 * texture(u_array, vec3(v_uv, float(v_inst % 3)));\n"
    "    c += 0.25 * texture(u_vol, vec3(v_uv, 0.4));\n"
    "    c += texture(u_half, v_uv) - 1.0;\n"
    "    uint u = texelFetch(u_uint, ivec2(v_uv * 7.0), 0).r & u_mask;\n"
    "    c.g += float(u) / 255.0;\n"
    "    c = mix(c, texture(u_imm, v_uv), 0.3);\n"
    "    c = mix(c, texture(u_shared, v_uv), 0.4);\n"
    "    c = c * pal.colors[(v_inst + u_pick.x) & 3] * v_tint;\n"
    "    o_color = vec4(clamp(c.rgb, 0.0, 1.0), 0.75);\n"
    "}\n";

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "snap_objects: shader: %s\n", log);
        exit(1);
    }
    return s;
}

static void fill(unsigned char *p, int n, unsigned seed)
{
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

static GLuint tex_units[8];

static void make_textures(GLuint shared_tex)
{
    unsigned char buf[64 * 64 * 4 * 4];
    glGenTextures(8, tex_units);
    /* 0: 2D with four hand-made levels. */
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex_units[0]);
    for (int l = 0; l < 4; l++) {
        fill(buf, (64 >> l) * (64 >> l) * 4, 10u + (unsigned)l);
        glTexImage2D(GL_TEXTURE_2D, l, GL_RGBA8, 64 >> l, 64 >> l, 0, GL_RGBA, GL_UNSIGNED_BYTE, buf);
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 3);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    /* 1: cube map, one colour pattern per face. */
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_CUBE_MAP, tex_units[1]);
    for (int f = 0; f < 6; f++) {
        fill(buf, 16 * 16 * 4, 100u + (unsigned)f);
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     buf);
    }
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    /* 2: 2D array, three layers. */
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D_ARRAY, tex_units[2]);
    fill(buf, 8 * 8 * 3 * 4, 200u);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 8, 8, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, buf);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    /* 3: 3D with an odd size (rows not 4-byte aligned in RGB). */
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_3D, tex_units[3]);
    fill(buf, 7 * 5 * 4 * 3, 300u);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGB8, 7, 5, 4, 0, GL_RGB, GL_UNSIGNED_BYTE, buf);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_MIRRORED_REPEAT);
    /* 4: half floats (values above 1). */
    glActiveTexture(GL_TEXTURE4);
    glBindTexture(GL_TEXTURE_2D, tex_units[4]);
    float f16[16 * 16 * 4];
    for (int i = 0; i < 16 * 16 * 4; i++)
        f16[i] = 1.0f + (float)(i % 37) / 40.0f;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, 16, 16, 0, GL_RGBA, GL_FLOAT, f16);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    /* 5: unsigned integers. */
    glActiveTexture(GL_TEXTURE5);
    glBindTexture(GL_TEXTURE_2D, tex_units[5]);
    unsigned u32[8 * 8];
    for (int i = 0; i < 64; i++)
        u32[i] = (unsigned)(i * 37 + 5);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32UI, 8, 8, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, u32);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    /* 6: immutable storage, level 1 set by a sub-image, red and blue swapped. */
    glActiveTexture(GL_TEXTURE6);
    glBindTexture(GL_TEXTURE_2D, tex_units[6]);
    glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 32, 32);
    fill(buf, 32 * 32 * 4, 600u);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 32, 32, GL_RGBA, GL_UNSIGNED_BYTE, buf);
    fill(buf, 16 * 16 * 4, 601u);
    glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, buf);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, GL_BLUE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_B, GL_RED);
    /* 7: the texture the second context renders into (made there). */
    glActiveTexture(GL_TEXTURE7);
    glBindTexture(GL_TEXTURE_2D, shared_tex);
    glActiveTexture(GL_TEXTURE0);
}

int main(int argc, char **argv)
{
    int frames = 8;
    if (argc == 3 && strcmp(argv[1], "--frames") == 0)
        frames = atoi(argv[2]);
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "snap_objects: no EGL surfaceless display\n");
        return 1;
    }
    static const EGLint cfg_attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24,
                                        EGL_STENCIL_SIZE, 8, EGL_NONE };
    /* Exactly 8 bits per channel, as the replayer's pbuffers (EGL lists deeper configs first). */
    EGLConfig cfgs[64], cfg = NULL;
    EGLint n = 0;
    eglChooseConfig(dpy, cfg_attrs, cfgs, 64, &n);
    for (EGLint i = 0; i < n && !cfg; i++) {
        EGLint r = 0, g = 0, b = 0, a = 0;
        eglGetConfigAttrib(dpy, cfgs[i], EGL_RED_SIZE, &r);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_GREEN_SIZE, &g);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_BLUE_SIZE, &b);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_ALPHA_SIZE, &a);
        if (r == 8 && g == 8 && b == 8 && a == 8)
            cfg = cfgs[i];
    }
    if (!cfg) {
        fprintf(stderr, "snap_objects: no RGBA8 pbuffer config\n");
        return 1;
    }
    static const EGLint ctx_attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE };
    static const EGLint pb_attrs[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    static const EGLint pb2_attrs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attrs);
    EGLContext ctx2 = eglCreateContext(dpy, cfg, ctx, ctx_attrs);
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attrs);
    EGLSurface surf2 = eglCreatePbufferSurface(dpy, cfg, pb2_attrs);
    if (!ctx || !ctx2 || !surf || !surf2 || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "snap_objects: no GL 4.5 core contexts\n");
        return 1;
    }
    /* The shared texture, and the second context's FBO onto it (state set once, there). */
    GLuint shared_tex;
    glGenTextures(1, &shared_tex);
    glBindTexture(GL_TEXTURE_2D, shared_tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 32, 32);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFinish();
    eglMakeCurrent(dpy, surf2, surf2, ctx2);
    GLuint fbo2;
    glGenFramebuffers(1, &fbo2);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo2);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, shared_tex, 0);
    glEnable(GL_SCISSOR_TEST);
    glScissor(4, 4, 20, 24);
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    eglMakeCurrent(dpy, surf, surf, ctx);

    make_textures(shared_tex);
    GLuint sampler;
    glGenSamplers(1, &sampler);
    glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glBindSampler(2, sampler);

    GLuint vs = shader(GL_VERTEX_SHADER, vs_src), fs = shader(GL_FRAGMENT_SHADER, fs_src);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);   /* the driver cannot give their sources back: the shim's tracking keeps them */
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "snap_objects: link failed\n");
        return 1;
    }
    glUseProgram(prog);
    static const char *samplers[] = { "u_mip", "u_cube", "u_array", "u_vol", "u_half", "u_uint", "u_imm", "u_shared" };
    for (int i = 0; i < 8; i++)
        glUniform1i(glGetUniformLocation(prog, samplers[i]), i);
    const float offsets[8] = { -0.6f, -0.5f, 0.3f, -0.4f, -0.4f, 0.4f, 0.5f, 0.35f };
    glUniform2fv(glGetUniformLocation(prog, "u_offsets"), 4, offsets);
    const float xform[9] = { 0.9f, 0.3f, 0.0f, -0.3f, 0.9f, 0.0f, 0.05f, 0.0f, 1.0f };
    glUniformMatrix3fv(glGetUniformLocation(prog, "u_xform"), 1, GL_FALSE, xform);
    glUniform2i(glGetUniformLocation(prog, "u_pick"), 1, 0);
    glUniform1ui(glGetUniformLocation(prog, "u_mask"), 0x7fu);
    GLint u_time = glGetUniformLocation(prog, "u_time");

    GLuint bufs[3];
    glGenBuffers(3, bufs);
    const float quad[8] = { -1, -1, 1, -1, -1, 1, 1, 1 };
    const float tints[16] = { 1, 0.9f, 0.8f, 1, 0.7f, 1, 0.9f, 1, 1, 1, 0.6f, 1, 0.8f, 0.8f, 1, 1 };
    const float palette[16] = { 1, 0.5f, 0.5f, 1, 0.5f, 1, 0.5f, 1, 0.5f, 0.5f, 1, 1, 1, 1, 0.4f, 1 };
    glBindBuffer(GL_UNIFORM_BUFFER, bufs[2]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof palette, palette, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, bufs[2]);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof tints, tints, GL_STATIC_DRAW);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    glVertexAttribDivisor(3, 1);
    glEnableVertexAttribArray(3);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    /* A second vertex array with separate formats: positions at a relative offset in 16-byte
     * records of binding 1, tints from binding 2 (one per instance). */
    GLuint vao2, sep_buf;
    const float records[16] = { 9, 9, -0.5f, -1, 9, 9, 1, -0.5f, 9, 9, -1, 1, 9, 9, 0.5f, 0.8f };
    glGenBuffers(1, &sep_buf);
    glBindBuffer(GL_ARRAY_BUFFER, sep_buf);
    glBufferData(GL_ARRAY_BUFFER, sizeof records, records, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glGenVertexArrays(1, &vao2);
    glBindVertexArray(vao2);
    glVertexAttribFormat(0, 2, GL_FLOAT, GL_FALSE, 8);
    glVertexAttribBinding(0, 1);
    glBindVertexBuffer(1, sep_buf, 0, 16);
    glEnableVertexAttribArray(0);
    glVertexAttribFormat(3, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexAttribBinding(3, 2);
    glBindVertexBuffer(2, bufs[1], 16, 16);
    glVertexBindingDivisor(2, 1);
    glEnableVertexAttribArray(3);
    glBindVertexArray(vao);

    /* A renderbuffer drawn once, blitted every frame. */
    GLuint rb, rb_fbo;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 40, 30);
    glGenFramebuffers(1, &rb_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, rb_fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glViewport(0, 0, 40, 30);
    glClearColor(0.9f, 0.4f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glUniform1f(u_time, 3.0f);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 2);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    /* State set once. */
    glViewport(2, 3, W - 6, H - 5);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);
    glFrontFace(GL_CW);
    glClearColor(0.05f, 0.1f, 0.15f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, rb_fbo);
    /* The program's own pack state at every swap: the snapshot reads textures through pixel buffer
     * objects of its own and must leave these exactly as they were. */
    GLuint pack_pbo;
    glGenBuffers(1, &pack_pbo);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, pack_pbo);
    glBufferData(GL_PIXEL_PACK_BUFFER, 256, NULL, GL_STREAM_READ);
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glPixelStorei(GL_PACK_ROW_LENGTH, 7);

    for (int f = 0; f < frames; f++) {
        eglMakeCurrent(dpy, surf2, surf2, ctx2);
        glClearColor(0.1f * (float)(f % 7), 0.5f, 1.0f - 0.1f * (float)(f % 5), 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glFinish();
        eglMakeCurrent(dpy, surf, surf, ctx);
        glUniform1f(u_time, (float)f);
        glBlitFramebuffer(0, 0, 40, 30, 4 + 3 * f, 50, 44 + 3 * f, 80, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 4);
        glBindVertexArray(vao2);
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 2);
        glBindVertexArray(vao);
        eglSwapBuffers(dpy, surf);
        GLint pack_binding = 0, align = 0, row = 0;
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_binding);
        glGetIntegerv(GL_PACK_ALIGNMENT, &align);
        glGetIntegerv(GL_PACK_ROW_LENGTH, &row);
        if ((GLuint)pack_binding != pack_pbo || align != 2 || row != 7) {
            fprintf(stderr, "snap_objects: pack state changed at frame %d: buffer %d alignment %d row length %d\n",
                    f, pack_binding, align, row);
            return 1;
        }
    }
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, "snap_objects: GL error 0x%04x\n", e);
        return 1;
    }
    printf("snap_objects: %d frames\n", frames);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
