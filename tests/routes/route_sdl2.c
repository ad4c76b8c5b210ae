/* Loader route (e): SDL2. SDL dlopen()s libGL.so.1 and SDL_GL_GetProcAddress asks
 * glXGetProcAddressARB; SDL_GL_SwapWindow ends each frame. */
#include <SDL2/SDL.h>
#include <stdio.h>

#include "route_gl.h"
#include "route_report.h"

#define ROUTE "sdl2"
#define FRAMES 3u
#define W 64
#define H 48

static route_proc get_sdl(const char *name, void *user)
{
    (void)user;
    return (route_proc)SDL_GL_GetProcAddress(name);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "route " ROUTE ": SDL_Init: %s\n", SDL_GetError());
        return route_finish(ROUTE, 0, false);
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_Window *win = SDL_CreateWindow("route sdl2", 0, 0, W, H, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    SDL_GLContext ctx = win ? SDL_GL_CreateContext(win) : NULL;
    if (!ctx) {
        fprintf(stderr, "route " ROUTE ": no window or context: %s\n", SDL_GetError());
        SDL_Quit();
        return route_finish(ROUTE, 0, false);
    }
    struct route_gl gl;
    bool ok = SDL_GL_MakeCurrent(win, ctx) == 0;
    ok = ok && route_gl_load(&gl, ROUTE, get_sdl, NULL) && route_gl_is_real(&gl, ROUTE);
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = route_gl_frame(&gl, ROUTE, i, W, H);
        SDL_GL_SwapWindow(win);
    }
    SDL_GL_DeleteContext(ctx);
    SDL_DestroyWindow(win);
    SDL_Quit();
    route_expect_call("glClear", FRAMES);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glXSwapBuffers", FRAMES);
    route_expect("frames", FRAMES);
    /* SDL's X11 backend makes a throwaway GLX context to read the GLX extensions first. */
    route_expect("contexts", 2);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
