/* Drawing and checking one frame through function pointers (see route_gl.h). */
#include "route_gl.h"
#include "route_report.h"

#include <stdio.h>
#include <string.h>
#include "registry/glr_gl_enums.h"   /* values only: nothing links libGL here */


static bool load_one(route_proc *slot, const char *name, const char *route, route_getproc get, void *user)
{
    *slot = get(name, user);
    if (!*slot)
        fprintf(stderr, "route %s: %s not found through this route\n", route, name);
    return *slot != NULL;
}

/* Function pointers of different types share one representation on every platform GL runs on;
 * memcpy keeps the conversion explicit and warning-free. */
#define LOAD(member, name)                                                                   \
    do {                                                                                     \
        route_proc p_;                                                                       \
        ok = load_one(&p_, name, route, get, user) && ok;                                    \
        memcpy(&gl->member, &p_, sizeof p_);                                                 \
    } while (0)

bool route_gl_load(struct route_gl *gl, const char *route, route_getproc get, void *user)
{
    bool ok = true;
    LOAD(ClearColor, "glClearColor");
    LOAD(Clear, "glClear");
    LOAD(ReadPixels, "glReadPixels");
    LOAD(GetString, "glGetString");
    LOAD(Finish, "glFinish");
    return ok;
}

bool route_gl_is_real(const struct route_gl *gl, const char *route)
{
    const unsigned char *version = gl->GetString(GL_VERSION);
    const unsigned char *renderer = gl->GetString(GL_RENDERER);
    if (!version || !*version || !renderer || !*renderer) {
        fprintf(stderr, "route %s: glGetString gave no GL_VERSION/GL_RENDERER: no current context\n", route);
        return false;
    }
    return true;
}

bool route_gl_frame(const struct route_gl *gl, const char *route, unsigned index, int w, int h)
{
    /* Distinct, exactly representable 8-bit colours per frame. */
    const unsigned char want[4] = { (unsigned char)(20 + 40 * (index % 6)), (unsigned char)(200 - 30 * (index % 6)),
                                    (unsigned char)(60 + 17 * (index % 6)), 255 };
    gl->ClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    gl->ReadPixels(w / 2, h / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    return route_pixel_is(route, got, want);
}
