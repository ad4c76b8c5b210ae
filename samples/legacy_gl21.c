/* legacy_gl21: an OpenGL 2.1-style program created the way glmark2 does it: raw Xlib,
 * glXChooseFBConfig and glXCreateNewContext (a legacy context, no attribute list), GLSL 1.10
 * shaders with attribute/varying, gl_FragColor and texture2D, locations from
 * glBindAttribLocation, prefix and file joined into one glShaderSource string, and vertex and
 * index data drawn from client memory (no buffer objects, no VAO). glXSwapBuffers ends frames.
 * Animation depends only on the frame index. */
#include <epoxy/gl.h>
#include <epoxy/glx.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "common/gl_program.h"
#include "common/math3d.h"
#include "common/mesh_gen.h"
#include "common/proc_texture.h"
#include "common/sample_args.h"
#include "common/sample_frame.h"
#include "common/sample_util.h"

#define NAME "legacy_gl21"
#define LIGHT_COUNT 2

static const char shader_prefix[] =
    "#version 110\n"
    "#define LIGHT_COUNT 2\n"
    "const float SPECULAR_POWER = 24.0;\n";

/* Attribute names bound to locations 0, 1, 2 before linking. */
static const char *const attrib_names[] = {"position", "normal", "texcoord", NULL};
enum { LOC_POSITION, LOC_NORMAL, LOC_TEXCOORD };

typedef struct XWin {
    Display *dpy;
    Window win;
    Colormap cmap;
    Atom wm_delete;
    GLXContext ctx;
} XWin;

static Bool is_map_notify(Display *dpy, XEvent *ev, XPointer arg)
{
    (void)dpy;
    return ev->type == MapNotify && ev->xmap.window == *(Window *)arg;
}

static void xwin_open(XWin *x, int width, int height)
{
    x->dpy = XOpenDisplay(NULL);
    if (!x->dpy)
        sample_fatal(NAME ": cannot open X display (is DISPLAY set? run under xvfb-run)");
    int screen = DefaultScreen(x->dpy);
    static const int fb_attribs[] = {
        GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
        GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
        GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, GLX_DEPTH_SIZE, 24,
        None,
    };
    int count = 0;
    GLXFBConfig *configs = glXChooseFBConfig(x->dpy, screen, fb_attribs, &count);
    if (!configs || count == 0)
        sample_fatal(NAME ": no double-buffered RGB8/depth24 GLXFBConfig");
    GLXFBConfig fbc = configs[0]; /* the server sorts best first */
    XFree(configs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(x->dpy, fbc);
    if (!vi)
        sample_fatal(NAME ": GLXFBConfig has no X visual");

    Window root = RootWindow(x->dpy, screen);
    x->cmap = XCreateColormap(x->dpy, root, vi->visual, AllocNone);
    XSetWindowAttributes swa = {0};
    swa.colormap = x->cmap;
    swa.event_mask = StructureNotifyMask | ExposureMask | KeyPressMask;
    x->win = XCreateWindow(x->dpy, root, 0, 0, (unsigned)width, (unsigned)height, 0, vi->depth,
                           InputOutput, vi->visual, CWColormap | CWEventMask, &swa);
    XFree(vi);
    XStoreName(x->dpy, x->win, NAME);
    /* Fixed size: min = max hints, like GLFW's non-resizable windows. */
    XSizeHints *hints = XAllocSizeHints();
    if (hints) {
        hints->flags = PMinSize | PMaxSize;
        hints->min_width = hints->max_width = width;
        hints->min_height = hints->max_height = height;
        XSetWMNormalHints(x->dpy, x->win, hints);
        XFree(hints);
    }
    x->wm_delete = XInternAtom(x->dpy, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(x->dpy, x->win, &x->wm_delete, 1);
    XMapWindow(x->dpy, x->win);
    XEvent ev;
    XIfEvent(x->dpy, &ev, is_map_notify, (XPointer)&x->win);

    /* The legacy entry point: no attribs, so the driver picks its compatibility context. */
    x->ctx = glXCreateNewContext(x->dpy, fbc, GLX_RGBA_TYPE, NULL, True);
    if (!x->ctx)
        sample_fatal(NAME ": glXCreateNewContext failed");
    if (!glXMakeCurrent(x->dpy, x->win, x->ctx))
        sample_fatal(NAME ": glXMakeCurrent failed");

    /* Never wait for vblank; use whichever swap-control extension the server has. */
    if (epoxy_has_glx_extension(x->dpy, screen, "GLX_MESA_swap_control"))
        glXSwapIntervalMESA(0);
    else if (epoxy_has_glx_extension(x->dpy, screen, "GLX_EXT_swap_control"))
        glXSwapIntervalEXT(x->dpy, x->win, 0);
}

/* Drains pending X events; returns false when the window manager asked to close. */
static bool xwin_poll(XWin *x)
{
    bool keep_going = true;
    while (XPending(x->dpy)) {
        XEvent ev;
        XNextEvent(x->dpy, &ev);
        if (ev.type == ClientMessage && (Atom)ev.xclient.data.l[0] == x->wm_delete)
            keep_going = false;
    }
    return keep_going;
}

static void xwin_close(XWin *x)
{
    glXMakeCurrent(x->dpy, None, NULL);
    glXDestroyContext(x->dpy, x->ctx);
    XDestroyWindow(x->dpy, x->win);
    XFreeColormap(x->dpy, x->cmap);
    XCloseDisplay(x->dpy);
}

/* Points the three attributes at the mesh's client-memory vertices and draws it with
 * client-memory indices: the data is read by the driver at draw time. */
static void draw_client_mesh(const Mesh *m)
{
    const GLsizei stride = sizeof(MeshVertex);
    glVertexAttribPointer(LOC_POSITION, 3, GL_FLOAT, GL_FALSE, stride, m->vertices[0].pos);
    glVertexAttribPointer(LOC_NORMAL, 3, GL_FLOAT, GL_FALSE, stride, m->vertices[0].normal);
    glVertexAttribPointer(LOC_TEXCOORD, 2, GL_FLOAT, GL_FALSE, stride, m->vertices[0].uv);
    glDrawElements(GL_TRIANGLES, (GLsizei)m->index_count, GL_UNSIGNED_SHORT, m->indices);
}

int main(int argc, char **argv)
{
    SampleArgs args;
    sample_args_parse_or_exit(&args, NAME, argc, argv);
    XWin x;
    xwin_open(&x, args.width, args.height);
    fprintf(stderr, "%s: GL_RENDERER=%s GL_VERSION=%s\n", NAME,
            (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix, .vert_file = "legacy.vert",
                       .frag_file = "legacy.frag", .attribs = attrib_names,
                       .single_string = true};
    GLuint prog = gl_program_build(&args, &d);
    GLint u_mvp = gl_program_uniform(prog, "ModelViewProjectionMatrix");
    GLint u_model = gl_program_uniform(prog, "ModelMatrix");
    GLint u_light_pos = gl_program_uniform(prog, "LightPosition");
    GLint u_light_color = gl_program_uniform(prog, "LightColor");
    GLint u_eye = gl_program_uniform(prog, "EyePosition");
    GLint u_tex = gl_program_uniform(prog, "MaterialTexture");

    /* A legacy-style texture: unsized GL_RGBA internal format, no mipmaps. */
    static const uint8_t c0[4] = {250, 220, 80, 255}, c1[4] = {40, 90, 160, 255};
    uint8_t *pixels = proc_texture_checker(64, 64, 8, c0, c1);
    Mesh cube, torus;
    if (!pixels || !mesh_make_cube(&cube, 0.7f) || !mesh_make_torus(&torus, 0.9f, 0.3f, 36, 18))
        sample_fatal(NAME ": out of memory");
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    free(pixels);

    const int w = args.width, h = args.height;
    const Vec3 eye = vec3(0.0f, 0.5f, 5.0f);
    const Mat4 view = mat4_look_at(eye, vec3(0.0f, 0.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f));
    const Mat4 proj = mat4_perspective(0.8f, (float)w / (float)h, 0.5f, 20.0f);
    const float light_color[LIGHT_COUNT * 3] = {1.0f, 0.9f, 0.8f, 0.4f, 0.5f, 0.9f};

    int frame = args.first_frame;
    for (; frame < args.frames && xwin_poll(&x); ++frame) {
        const float angle = (float)frame * (2.0f * MATH3D_PI / 100.0f);
        const float light_pos[LIGHT_COUNT * 3] = {
            4.0f * sinf(angle), 3.0f, 4.0f * cosf(angle), -3.0f, -1.0f, 2.0f,
        };
        glViewport(0, 0, w, h);
        glEnable(GL_DEPTH_TEST);
        glClearColor(0.15f, 0.15f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        glUseProgram(prog);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, tex);
        glUniform1i(u_tex, 0);
        glUniform3fv(u_light_pos, LIGHT_COUNT, light_pos);
        glUniform3fv(u_light_color, LIGHT_COUNT, light_color);
        glUniform3f(u_eye, eye.x, eye.y, eye.z);
        glEnableVertexAttribArray(LOC_POSITION);
        glEnableVertexAttribArray(LOC_NORMAL);
        glEnableVertexAttribArray(LOC_TEXCOORD);

        Mat4 model = mat4_mul(mat4_translate(-1.3f, 0.0f, 0.0f),
                              mat4_rotate(angle, 1.0f, 1.0f, 0.0f));
        Mat4 mvp = mat4_mul(proj, mat4_mul(view, model));
        glUniformMatrix4fv(u_model, 1, GL_FALSE, model.m);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mvp.m);
        draw_client_mesh(&cube);

        model = mat4_mul(mat4_translate(1.4f, 0.0f, 0.0f),
                         mat4_rotate(-angle * 1.5f, 1.0f, 0.2f, 0.0f));
        mvp = mat4_mul(proj, mat4_mul(view, model));
        glUniformMatrix4fv(u_model, 1, GL_FALSE, model.m);
        glUniformMatrix4fv(u_mvp, 1, GL_FALSE, mvp.m);
        draw_client_mesh(&torus);

        glDisableVertexAttribArray(LOC_POSITION);
        glDisableVertexAttribArray(LOC_NORMAL);
        glDisableVertexAttribArray(LOC_TEXCOORD);

        sample_frame_end(&args, NAME, frame, w, h);
        glXSwapBuffers(x.dpy, x.win);
    }

    glDeleteTextures(1, &tex);
    glDeleteProgram(prog);
    mesh_free(&cube);
    mesh_free(&torus);
    int status = sample_finish(NAME, frame);
    xwin_close(&x);
    return status;
}
