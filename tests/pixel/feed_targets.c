/* feed_targets: earlier passes into the kinds of image the pixel history takes from the driver
 * (issue 15: integer, a layer of an array, a mip level, a cube face, a separate stencil image,
 * multisample images, a layered attachment), then a back-buffer draw that shows each of them in a
 * strip of its own. OpenGL 3.3 core on EGL surfaceless (tests/support/gl_test_util.h: a pbuffer is
 * the default framebuffer, no DISPLAY needed). Per frame:
 *   P1 (fbo A): colour 0 = RGBA8UI texture, colour 1 = layer 2 of an RGBA8 2D array texture;
 *   P2 (fbo B): colour 0 = mip level 1 of an RGBA16F texture (values outside [0, 1]);
 *   P3 (fbo C): colour 0 = the +Z face of an RGBA8 cube map; stencil = a STENCIL_INDEX8
 *               renderbuffer, 0x5a written where its triangle covers;
 *   P4 (fbo D): colour 0 = an RGBA8 texture; the same stencil renderbuffer, drawn where it is 0x5a;
 *   P5 (fbo E): colour 0 = a 4-sample RGBA8 texture, depth = a 4-sample D24S8 renderbuffer, two
 *               overlapping depth-tested triangles; then resolved (glBlitFramebuffer) into an RGBA8
 *               texture (fbo R);
 *   P6 (fbo F): colour 0 = a 3-layer RGBA8 array texture attached layered; a geometry shader sends
 *               its triangle to layers 1 and 2 (gl_Layer);
 *   back buffer: eight vertical strips, each showing one of those images at the pixel (texelFetch,
 *               sample 2 of the multisample texture, nearest cube lookups; the layered texture's
 *               layer 1 below y 45, layer 2 above), no blending.
 * Every image is cleared first; the frame index moves the triangles. usage: feed_targets FRAMES
 * (the shim's GLREPLAY_CAPTURE_FRAMES picks one). Exit 1 on a GL error or incomplete framebuffer. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 256
#define H 90
#define S 64   /* the earlier passes' images */
#define WHO "feed_targets"

static void die(const char *what)
{
    fprintf(stderr, WHO ": %s\n", what);
    exit(1);
}

/* A triangle scaled and moved by u_tri (scale xy, offset zw), v_uv over it; the geometry shader
 * (gs, may be NULL) and fragment shader fs. */
static GLuint program3(const char *gs, const char *fs)
{
    static const char vs[] =
        "#version 330 core\n"
        "uniform vec4 u_tri;\n"
        "out vec2 v_uv;\n"
        "void main() {\n"
        "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
        "    v_uv = p * 0.5 + 0.5;\n"
        "    gl_Position = vec4(p * u_tri.xy + u_tri.zw, 0.0, 1.0);\n"
        "}\n";
    if (!gs)
        return glt_program(WHO, GL_VERTEX_SHADER, vs, GL_FRAGMENT_SHADER, fs);
    GLuint p = glCreateProgram();   /* three stages: glt_program links two */
    glAttachShader(p, glt_shader(WHO, GL_VERTEX_SHADER, vs));
    glAttachShader(p, glt_shader(WHO, GL_GEOMETRY_SHADER, gs));
    glAttachShader(p, glt_shader(WHO, GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok)
        die("link failed");
    return p;
}

static GLuint program(const char *fs)
{
    return program3(NULL, fs);
}

static const char fs_p1[] =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "layout(location = 0) out uvec4 o_int;\n"
    "layout(location = 1) out vec4 o_layer;\n"
    "void main() {\n"
    "    uvec2 c = uvec2(gl_FragCoord.xy);\n"
    "    o_int = uvec4(c.x * 3u + 7u, c.y * 3u + 11u, (c.x ^ c.y) & 255u, 200u);\n"
    "    o_layer = vec4(v_uv, 0.5, 1.0);\n"
    "}\n";
static const char fs_p2[] =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(v_uv * 2.5 - 0.5, -1.5 + v_uv.x, 1.0); }\n";
static const char fs_p3[] =
    "#version 330 core\n"
    "in vec2 v_uv;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(1.0 - v_uv.x, v_uv.y, 0.75, 1.0); }\n";
static const char fs_p4[] =
    "#version 330 core\n"
    "uniform vec4 u_color;\n"
    "out vec4 o;\n"
    "void main() { o = u_color; }\n";
static const char gs_p6[] =
    "#version 330 core\n"
    "layout(triangles) in;\n"
    "layout(triangle_strip, max_vertices = 6) out;\n"
    "in vec2 v_uv[];\n"
    "out vec2 g_uv;\n"
    "flat out int g_layer;\n"
    "void main() {\n"
    "    for (int l = 1; l <= 2; l++) {\n"
    "        for (int i = 0; i < 3; i++) {\n"
    "            gl_Layer = l;\n"
    "            g_layer = l;\n"
    "            g_uv = v_uv[i];\n"
    "            gl_Position = gl_in[i].gl_Position * vec4(l == 1 ? 1.0 : 0.6, 1.0, 1.0, 1.0);\n"
    "            EmitVertex();\n"
    "        }\n"
    "        EndPrimitive();\n"
    "    }\n"
    "}\n";
static const char fs_p6[] =
    "#version 330 core\n"
    "in vec2 g_uv;\n"
    "flat in int g_layer;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(g_uv.yx, g_layer == 1 ? 0.2 : 0.9, 1.0); }\n";
/* the strips: x in [0, W) -> 8 strips of 32 pixels, each reading texel (x mod 32 + 16, min(y, 63)) */
static const char fs_show[] =
    "#version 330 core\n"
    "uniform usampler2D u_int;\n"
    "uniform sampler2DArray u_layers;\n"
    "uniform sampler2D u_mip;\n"
    "uniform samplerCube u_cube;\n"
    "uniform sampler2D u_d;\n"
    "uniform sampler2DMS u_ms;\n"
    "uniform sampler2D u_resolved;\n"
    "uniform sampler2DArray u_lay;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "    int strip = p.x / 32;\n"
    "    ivec2 t = ivec2(p.x % 32 + 16, min(p.y, 63));\n"
    "    if (strip == 0) o = vec4(texelFetch(u_int, t, 0)) / 255.0;\n"
    "    else if (strip == 1) o = texelFetch(u_layers, ivec3(t, 2), 0);\n"
    "    else if (strip == 2) { vec4 m = texelFetch(u_mip, t / 2, 1); o = vec4(m.rg * 0.4, fract(m.b), 1.0); }\n"
    "    else if (strip == 3) { vec2 q = (vec2(t) + 0.5) / 32.0 - 1.0; o = texture(u_cube, vec3(q, 1.0)); }\n"
    "    else if (strip == 4) o = texelFetch(u_d, t, 0);\n"
    "    else if (strip == 5) o = texelFetch(u_ms, t, 2);\n"
    "    else if (strip == 6) o = texelFetch(u_resolved, t, 0);\n"
    "    else o = texelFetch(u_lay, ivec3(t, p.y < 45 ? 1 : 2), 0);\n"
    "}\n";

static GLuint tex(GLenum target)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(target, t);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static GLuint fbo(void)
{
    GLuint f;
    glGenFramebuffers(1, &f);
    glBindFramebuffer(GL_FRAMEBUFFER, f);
    return f;
}

static void complete(const char *which)
{
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "feed_targets: framebuffer %s is incomplete\n", which);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 3;
    struct glt_egl egl;
    if (glt_egl_open(&egl, WHO, W, H, 0, 3, 3, 1) != 0)
        return 1;

    GLuint p1 = program(fs_p1), p2 = program(fs_p2), p3 = program(fs_p3), p4 = program(fs_p4),
           show = program(fs_show);
    GLuint t_int = tex(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8UI, S, S, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, NULL);
    GLuint t_layers = tex(GL_TEXTURE_2D_ARRAY);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, S, S, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLuint t_mip = tex(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, 2 * S, 2 * S, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA16F, S, S, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    GLuint t_cube = tex(GL_TEXTURE_CUBE_MAP);
    for (int f = 0; f < 6; f++)
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLuint t_d = tex(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLuint t_ms;
    glGenTextures(1, &t_ms);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t_ms);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, S, S, GL_TRUE);
    GLuint t_resolved = tex(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, S, S, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLuint t_lay = tex(GL_TEXTURE_2D_ARRAY);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, S, S, 3, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    GLuint rb_ms_depth;
    glGenRenderbuffers(1, &rb_ms_depth);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_ms_depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH24_STENCIL8, S, S);
    GLuint rb_stencil;
    glGenRenderbuffers(1, &rb_stencil);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_stencil);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, S, S);

    GLuint fa = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t_int, 0);
    glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, t_layers, 0, 2);
    static const GLenum two[] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
    glDrawBuffers(2, two);
    complete("A");
    GLuint fb = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t_mip, 1);
    complete("B");
    GLuint fc = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_POSITIVE_Z, t_cube, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb_stencil);
    complete("C");
    GLuint fd = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t_d, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb_stencil);
    complete("D");
    GLuint fe = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, t_ms, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb_ms_depth);
    complete("E");
    GLuint fr = fbo();
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t_resolved, 0);
    complete("R");
    GLuint ff = fbo();
    glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t_lay, 0);
    complete("F");
    GLuint p6 = program3(gs_p6, fs_p6);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);

    glUseProgram(show);
    glUniform1i(glGetUniformLocation(show, "u_int"), 0);
    glUniform1i(glGetUniformLocation(show, "u_layers"), 1);
    glUniform1i(glGetUniformLocation(show, "u_mip"), 2);
    glUniform1i(glGetUniformLocation(show, "u_cube"), 3);
    glUniform1i(glGetUniformLocation(show, "u_d"), 4);
    glUniform1i(glGetUniformLocation(show, "u_ms"), 5);
    glUniform1i(glGetUniformLocation(show, "u_resolved"), 6);
    glUniform1i(glGetUniformLocation(show, "u_lay"), 7);

    for (int frame = 0; frame < frames; frame++) {
        float d = 0.05f * (float)(frame % 5);
        glViewport(0, 0, S, S);
        /* P1: integer and array layer */
        glBindFramebuffer(GL_FRAMEBUFFER, fa);
        static const GLuint zero_u[4] = { 1, 2, 3, 4 };
        static const GLfloat grey[4] = { 0.25f, 0.25f, 0.25f, 1.0f };
        glClearBufferuiv(GL_COLOR, 0, zero_u);
        glClearBufferfv(GL_COLOR, 1, grey);
        glUseProgram(p1);
        glUniform4f(glGetUniformLocation(p1, "u_tri"), 0.6f, 0.6f, d, 0.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        /* P2: mip level 1, float */
        glBindFramebuffer(GL_FRAMEBUFFER, fb);
        glClearColor(-0.5f, 2.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(p2);
        glUniform4f(glGetUniformLocation(p2, "u_tri"), 0.5f, 0.7f, -d, 0.1f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        /* P3: cube face, stencil 0x5a where the triangle covers */
        glBindFramebuffer(GL_FRAMEBUFFER, fc);
        glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
        glClearStencil(0);
        glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        glEnable(GL_STENCIL_TEST);
        glStencilFunc(GL_ALWAYS, 0x5a, 0xff);
        glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
        glUseProgram(p3);
        glUniform4f(glGetUniformLocation(p3, "u_tri"), 0.45f, 0.55f, 0.0f, -d);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        /* P4: where the stencil is 0x5a */
        glBindFramebuffer(GL_FRAMEBUFFER, fd);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glStencilFunc(GL_EQUAL, 0x5a, 0xff);
        glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
        glUseProgram(p4);
        glUniform4f(glGetUniformLocation(p4, "u_tri"), 1.0f, 1.0f, 0.0f, 0.0f);
        glUniform4f(glGetUniformLocation(p4, "u_color"), 0.9f, 0.6f, 0.2f + d, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_STENCIL_TEST);
        /* P5: multisample colour and depth, two depth-tested triangles, then the resolve */
        glBindFramebuffer(GL_FRAMEBUFFER, fe);
        glClearColor(0.2f, 0.0f, 0.4f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glEnable(GL_DEPTH_TEST);
        glUseProgram(p4);
        glUniform4f(glGetUniformLocation(p4, "u_tri"), 0.5f, 0.45f, d, 0.05f);
        glUniform4f(glGetUniformLocation(p4, "u_color"), 0.1f, 0.8f, 0.3f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glUniform4f(glGetUniformLocation(p4, "u_tri"), -0.4f, 0.5f, 0.1f, -d);
        glUniform4f(glGetUniformLocation(p4, "u_color"), 0.95f, 0.1f, 0.5f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisable(GL_DEPTH_TEST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fe);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fr);
        glBlitFramebuffer(0, 0, S, S, 0, 0, S, S, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        /* P6: both layers through the geometry shader */
        glBindFramebuffer(GL_FRAMEBUFFER, ff);
        glClearColor(0.3f, 0.3f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(p6);
        glUniform4f(glGetUniformLocation(p6, "u_tri"), 0.55f, 0.5f, -d, 0.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        /* the back buffer: the five strips */
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, W, H);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(show);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, t_int);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D_ARRAY, t_layers);
        glActiveTexture(GL_TEXTURE2);
        glBindTexture(GL_TEXTURE_2D, t_mip);
        glActiveTexture(GL_TEXTURE3);
        glBindTexture(GL_TEXTURE_CUBE_MAP, t_cube);
        glActiveTexture(GL_TEXTURE4);
        glBindTexture(GL_TEXTURE_2D, t_d);
        glActiveTexture(GL_TEXTURE5);
        glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t_ms);
        glActiveTexture(GL_TEXTURE6);
        glBindTexture(GL_TEXTURE_2D, t_resolved);
        glActiveTexture(GL_TEXTURE7);
        glBindTexture(GL_TEXTURE_2D_ARRAY, t_lay);
        glUniform4f(glGetUniformLocation(show, "u_tri"), 1.0f, 1.0f, 0.0f, 0.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        if (glGetError() != GL_NO_ERROR)
            die("GL error");
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glt_egl_close(&egl);
    return 0;
}
