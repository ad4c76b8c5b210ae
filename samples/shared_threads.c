/* shared_threads: two threads, two shared GL 3.3 core contexts. A worker thread owns a hidden
 * GLFW window whose context shares objects with the main window's context; each frame it
 * renders an animated pattern into a shared texture through its own FBO. The main thread then
 * draws two spinning cubes textured with it and swaps.
 *
 * Hand-off per frame N, fully deterministic (lock-step, no timing dependence):
 *   main:   request N (mutex + condvar), passing the fence it put after its last use of the
 *           texture; wait until the worker reports N done.
 *   worker: glWaitSync(main's fence) so it never overwrites a texture still being sampled,
 *           render, glFenceSync + glFlush, report N done with that fence.
 *   main:   glWaitSync(worker's fence), draw with the texture, glFenceSync, swap.
 * Animation depends only on the frame index. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "common/gl_program.h"
#include "common/gl_resources.h"
#include "common/glfw_app.h"
#include "common/math3d.h"
#include "common/sample_args.h"
#include "common/sample_frame.h"
#include "common/sample_util.h"

#define NAME "shared_threads"
#define TEX_SIZE 256

static const char shader_prefix[] =
    "#version 330 core\n"
    "#define BLOB_COUNT 3\n";

typedef struct Handoff {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int requested_frame;   /* set by main: the frame the worker must render next */
    int completed_frame;   /* set by worker: the last frame it finished */
    bool quit;
    GLsync main_fence;     /* main -> worker: main is done sampling the texture */
    GLsync worker_fence;   /* worker -> main: the texture for completed_frame is rendered */
} Handoff;

typedef struct Worker {
    const SampleArgs *args;
    GLFWwindow *window;    /* hidden, created on the main thread (GLFW requires it) */
    GLuint texture;        /* shared object, created by the main context */
    Handoff *handoff;
} Worker;

static float frame_angle(int frame) { return (float)frame * (2.0f * MATH3D_PI / 120.0f); }

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Handoff *h = w->handoff;
    glfwMakeContextCurrent(w->window);

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix,
                       .vert_file = "pattern.vert", .frag_file = "pattern.frag"};
    GLuint prog = gl_program_build(w->args, &d);
    GLint u_angle = gl_program_uniform(prog, "u_angle");
    /* FBOs and VAOs are container objects: never shared, so the worker makes its own. */
    GLuint fbo, vao;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, w->texture, 0);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        sample_fatal(NAME ": worker framebuffer incomplete (0x%04x)", status);
    glGenVertexArrays(1, &vao);

    int last_done = -1;
    for (;;) {
        pthread_mutex_lock(&h->mutex);
        while (!h->quit && h->requested_frame == last_done)
            pthread_cond_wait(&h->cond, &h->mutex);
        if (h->quit) {
            pthread_mutex_unlock(&h->mutex);
            break;
        }
        int frame = h->requested_frame;
        GLsync wait_for = h->main_fence;
        h->main_fence = NULL;
        pthread_mutex_unlock(&h->mutex);

        if (wait_for) {
            glWaitSync(wait_for, 0, GL_TIMEOUT_IGNORED);
            glDeleteSync(wait_for);
        }
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glViewport(0, 0, TEX_SIZE, TEX_SIZE);
        glUseProgram(prog);
        glUniform1f(u_angle, frame_angle(frame));
        glBindVertexArray(vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        GLsync done = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        /* Flush so the fence reaches the server before the other context waits on it. */
        glFlush();
        sample_gl_check(NAME, "worker frame");

        pthread_mutex_lock(&h->mutex);
        h->worker_fence = done;
        h->completed_frame = frame;
        last_done = frame;
        pthread_cond_broadcast(&h->cond);
        pthread_mutex_unlock(&h->mutex);
    }

    glDeleteFramebuffers(1, &fbo);
    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    glFinish();
    glfwMakeContextCurrent(NULL);
    return NULL;
}

/* Asks the worker for `frame`, hands it `main_fence`, and returns the worker's fence. */
static GLsync request_worker_frame(Handoff *h, int frame, GLsync main_fence)
{
    pthread_mutex_lock(&h->mutex);
    h->main_fence = main_fence;
    h->requested_frame = frame;
    pthread_cond_broadcast(&h->cond);
    while (h->completed_frame != frame)
        pthread_cond_wait(&h->cond, &h->mutex);
    GLsync fence = h->worker_fence;
    h->worker_fence = NULL;
    pthread_mutex_unlock(&h->mutex);
    return fence;
}

static GLuint make_shared_texture(void)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, TEX_SIZE, TEX_SIZE, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    /* Make sure the storage exists server-side before the other context attaches it. */
    glFinish();
    return tex;
}

int main(int argc, char **argv)
{
    SampleArgs args;
    sample_args_parse_or_exit(&args, NAME, argc, argv);
    glfw_app_init(NAME);
    GLFWwindow *win =
        glfw_app_create_window(NAME, args.width, args.height, GLFW_APP_GL33_CORE,
                               GLFW_APP_WINDOW_PRESENTED, NULL);
    GLFWwindow *worker_win =
        glfw_app_create_window(NAME " worker", 64, 64, GLFW_APP_GL33_CORE,
                               GLFW_APP_WINDOW_OFFSCREEN, win);
    /* glfw_app_create_window made the worker's context current here: take the main one back so
     * the worker's context is free to become current on the worker thread. */
    glfwMakeContextCurrent(win);
    glfw_app_print_renderer(NAME);

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix,
                       .vert_file = "display.vert", .frag_file = "display.frag"};
    GLuint prog = gl_program_build(&args, &d);
    GLint u_model = gl_program_uniform(prog, "u_model");
    GLint u_view_proj = gl_program_uniform(prog, "u_view_proj");
    GLint u_light = gl_program_uniform(prog, "u_light_dir");
    glUseProgram(prog);
    glUniform1i(gl_program_uniform(prog, "u_worker_tex"), 0);

    Mesh cube;
    if (!mesh_make_cube(&cube, 0.8f))
        sample_fatal(NAME ": out of memory");
    GpuMesh g_cube = gl_mesh_upload(&cube);
    mesh_free(&cube);
    GLuint shared_tex = make_shared_texture();

    Handoff handoff = {.requested_frame = -1, .completed_frame = -1};
    pthread_mutex_init(&handoff.mutex, NULL);
    pthread_cond_init(&handoff.cond, NULL);
    Worker worker = {.args = &args, .window = worker_win, .texture = shared_tex,
                     .handoff = &handoff};
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker_main, &worker) != 0)
        sample_fatal(NAME ": cannot start the worker thread");

    int fb_w, fb_h;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    const Mat4 view_proj =
        mat4_mul(mat4_perspective(0.8f, (float)fb_w / (float)fb_h, 0.5f, 20.0f),
                 mat4_look_at(vec3(0.0f, 1.2f, 5.0f), vec3(0.0f, 0.0f, 0.0f),
                              vec3(0.0f, 1.0f, 0.0f)));
    const Vec3 light = vec3_normalize(vec3(0.3f, 0.6f, 0.8f));

    GLsync main_fence = NULL;
    int frame = args.first_frame;
    for (; frame < args.frames && !glfwWindowShouldClose(win); ++frame) {
        GLsync worker_fence = request_worker_frame(&handoff, frame, main_fence);
        main_fence = NULL;
        /* GPU-side wait: our later commands see the worker's rendering. */
        glWaitSync(worker_fence, 0, GL_TIMEOUT_IGNORED);
        glDeleteSync(worker_fence);

        const float angle = frame_angle(frame);
        glViewport(0, 0, fb_w, fb_h);
        glEnable(GL_DEPTH_TEST);
        glEnable(GL_CULL_FACE);
        glClearColor(0.12f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glUseProgram(prog);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, shared_tex);
        glUniformMatrix4fv(u_view_proj, 1, GL_FALSE, view_proj.m);
        glUniform3f(u_light, light.x, light.y, light.z);
        for (int i = 0; i < 2; ++i) {
            float side = i == 0 ? -1.0f : 1.0f;
            Mat4 model = mat4_mul(mat4_translate(1.3f * side, 0.0f, 0.0f),
                                  mat4_rotate(angle * side + 0.6f, 0.3f, 1.0f, 0.1f * side));
            glUniformMatrix4fv(u_model, 1, GL_FALSE, model.m);
            gl_mesh_draw(&g_cube);
        }
        glBindVertexArray(0);
        /* The worker waits on this before it overwrites the texture next frame. */
        main_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        glFlush();

        sample_frame_end(&args, NAME, frame, fb_w, fb_h);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }

    pthread_mutex_lock(&handoff.mutex);
    handoff.quit = true;
    pthread_cond_broadcast(&handoff.cond);
    pthread_mutex_unlock(&handoff.mutex);
    pthread_join(thread, NULL);
    if (main_fence)
        glDeleteSync(main_fence);
    pthread_cond_destroy(&handoff.cond);
    pthread_mutex_destroy(&handoff.mutex);

    gl_mesh_destroy(&g_cube);
    glDeleteTextures(1, &shared_tex);
    glDeleteProgram(prog);
    int status = sample_finish(NAME, frame);
    glfwDestroyWindow(worker_win);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
