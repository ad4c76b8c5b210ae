/* In-process comparison of an interposer's wrapper with the real entry point it forwards to.
 *
 * Separate processes (native run, shim run) differ by more than the wrapper on a busy machine:
 * other processes, frequency, code and heap layout move a 20 ns call by several ns. Here one
 * process calls the entry point its PLT is bound to (the interposer's wrapper under LD_PRELOAD, the
 * library's own function natively) and the linked GL library's own definition, in alternating
 * 10k-call slices (ABBA order), so both see the same machine state. Natively both pointers are
 * the same function: the figure is then a control that shows the noise floor.
 *
 * Both sides are called through a function pointer, so the figure is the wrapper alone (the PLT
 * hop that both the native and the interposed program pay is left out).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "idle_cost.h"

typedef void (*uniform4f_fn)(GLint, GLfloat, GLfloat, GLfloat, GLfloat);
typedef void (*bind_texture_fn)(GLenum, GLuint);
typedef void (*bind_vertex_array_fn)(GLuint);

struct entries {
    uniform4f_fn uniform4f;
    bind_texture_fn bind_texture;
    bind_vertex_array_fn bind_vertex_array;
};

/* Not inlined, so the pointer stays a run-time value and each call is one indirect call. */
static __attribute__((noinline)) long loop_uniform(const struct entries *e, const struct scene *s, long n)
{
    uniform4f_fn f = e->uniform4f;
    for (long i = 0; i < n; i++)
        f(s->loc, (float)(i & 255), 0.5f, 0.25f, 1.0f);
    return n;
}

static __attribute__((noinline)) long loop_bind_texture(const struct entries *e, const struct scene *s, long n)
{
    bind_texture_fn f = e->bind_texture;
    for (long i = 0; i < n; i++)
        f(GL_TEXTURE_2D, s->tex[i & 1]);
    return n;
}

static __attribute__((noinline)) long loop_bind_vertex_array(const struct entries *e, const struct scene *s, long n)
{
    bind_vertex_array_fn f = e->bind_vertex_array;
    for (long i = 0; i < n; i++)
        f(s->vao[i & 1]);
    return n;
}

struct paired_bench {
    const char *name;
    long (*run)(const struct entries *, const struct scene *, long);
};

static const struct paired_bench paired_benches[] = {
    { "glUniform4f", loop_uniform },
    { "glBindTexture", loop_bind_texture },
    { "glBindVertexArray", loop_bind_vertex_array },
};

/* The GL library this program linked, as already loaded. dlmopen on the base namespace with
 * RTLD_NOLOAD returns that object without loading anything; interposers redirect dlopen of GL
 * libraries to themselves (the glreplay shim does), not dlmopen. */
static void *linked_gl_library(const char **soname)
{
    static const char *const sonames[] = { "libOpenGL.so.0", "libGL.so.1" };
    for (size_t i = 0; i < sizeof sonames / sizeof sonames[0]; i++) {
        void *h = dlmopen(LM_ID_BASE, sonames[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            *soname = sonames[i];
            return h;
        }
    }
    return NULL;
}

/* dlsym answers an object pointer; convert without a cast between pointer kinds. */
static int lookup(void *lib, const char *name, void *fn_out, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return -1;
    memcpy(fn_out, &p, size);
    return 0;
}

static const char *library_of(const void *fn)
{
    Dl_info info;
    return dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "?";
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int idle_cost_paired(const struct scene *s, long n, int reps)
{
    const char *soname = NULL;
    void *lib = linked_gl_library(&soname);
    if (!lib) {
        fprintf(stderr, "idle_cost: the linked GL library (libOpenGL.so.0 or libGL.so.1) is not loaded\n");
        return -1;
    }
    /* The PLT-bound entry points: taking the address in a PIE gives what the dynamic linker bound. */
    const struct entries plt = { glUniform4f, glBindTexture, glBindVertexArray };
    struct entries real;
    if (lookup(lib, "glUniform4f", &real.uniform4f, sizeof real.uniform4f) != 0 ||
        lookup(lib, "glBindTexture", &real.bind_texture, sizeof real.bind_texture) != 0 ||
        lookup(lib, "glBindVertexArray", &real.bind_vertex_array, sizeof real.bind_vertex_array) != 0) {
        fprintf(stderr, "idle_cost: %s lacks glUniform4f, glBindTexture or glBindVertexArray\n", soname);
        dlclose(lib);
        return -1;
    }
    void *plt_uniform;
    memcpy(&plt_uniform, &plt.uniform4f, sizeof plt_uniform);
    const char *interposer = library_of(plt_uniform);

    long slice = n < SLICE_CALLS ? n : SLICE_CALLS;
    long slices = n / slice;
    size_t max_pairs = (size_t)slices * (size_t)reps;
    if (max_pairs > (1u << 20))
        max_pairs = 1u << 20; /* enough for a median; bounds memory for absurd --calls/--reps */
    double *diffs = malloc(max_pairs * sizeof *diffs);
    if (!diffs) {
        fprintf(stderr, "idle_cost: out of memory for %zu paired slices\n", max_pairs);
        dlclose(lib);
        return -1;
    }
    for (size_t b = 0; b < sizeof paired_benches / sizeof paired_benches[0]; b++) {
        const struct paired_bench *pb = &paired_benches[b];
        pb->run(&plt, s, slice); /* warm-up of both paths */
        pb->run(&real, s, slice);
        double best_plt = -1.0, best_real = -1.0;
        size_t pairs = 0;
        for (int r = 0; r < reps; r++) {
            for (long k = 0; k < slices; k++) {
                double t[2];
                /* ABBA: alternate which side goes first so a drift in speed favours neither. */
                int first = (int)((k + r) & 1);
                for (int side = 0; side < 2; side++) {
                    int which = side == 0 ? first : !first;
                    double t0 = idle_cost_now_ns();
                    long got = pb->run(which ? &real : &plt, s, slice);
                    t[which] = (idle_cost_now_ns() - t0) / (double)got;
                }
                if (best_plt < 0.0 || t[0] < best_plt)
                    best_plt = t[0];
                if (best_real < 0.0 || t[1] < best_real)
                    best_real = t[1];
                if (pairs < max_pairs)
                    diffs[pairs++] = t[0] - t[1];
            }
        }
        GLenum err = glGetError();
        if (err != GL_NO_ERROR) {
            fprintf(stderr, "idle_cost: GL error 0x%x in the paired %s loop\n", err, pb->name);
            free(diffs);
            dlclose(lib);
            return -1;
        }
        qsort(diffs, pairs, sizeof *diffs, cmp_double);
        double median = pairs % 2 ? diffs[pairs / 2] : (diffs[pairs / 2 - 1] + diffs[pairs / 2]) / 2.0;
        printf("idle_cost_paired call=%s bound=\"%s\" real=\"%s\" slices=%zu slice_calls=%ld "
               "best_bound_ns=%.3f best_real_ns=%.3f added_ns=%.3f median_pair_added_ns=%.3f\n",
               pb->name, interposer, soname, pairs, slice, best_plt, best_real, best_plt - best_real, median);
        fflush(stdout);
    }
    free(diffs);
    dlclose(lib);
    return 0;
}
