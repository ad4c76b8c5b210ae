/* gles3_egl: OpenGL ES 3.0 sample through EGL (GLFW_OPENGL_ES_API + GLFW_EGL_CONTEXT_API) with
 * `#version 300 es` shaders: a row of textured, lit, fogged cubes spinning at different rates.
 * Exercises the shim's EGL and GLES entry points (eglSwapBuffers ends the frame).
 * Animation depends only on the frame index. */
#include <math.h>
#include <stdlib.h>

#include "common/gl_program.h"
#include "common/gl_resources.h"
#include "common/glfw_app.h"
#include "common/math3d.h"
#include "common/proc_texture.h"
#include "common/sample_args.h"
#include "common/sample_frame.h"
#include "common/sample_util.h"

#define NAME "gles3_egl"
#define CUBES 5

static const char shader_prefix[] =
    "#version 300 es\n"
    "#define FOG_DENSITY 0.06\n";

int main(int argc, char **argv)
{
    SampleArgs args;
    sample_args_parse_or_exit(&args, NAME, argc, argv);
    glfw_app_init(NAME);
    GLFWwindow *win =
        glfw_app_create_window(NAME, args.width, args.height, GLFW_APP_GLES30_EGL,
                               GLFW_APP_WINDOW_PRESENTED, NULL);
    glfw_app_print_renderer(NAME);
    if (epoxy_is_desktop_gl())
        sample_fatal(NAME ": expected an OpenGL ES context");

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix,
                       .vert_file = "cube.vert", .frag_file = "cube.frag"};
    GLuint prog = gl_program_build(&args, &d);
    GLint u_model = gl_program_uniform(prog, "u_model");
    GLint u_view = gl_program_uniform(prog, "u_view");
    GLint u_proj = gl_program_uniform(prog, "u_proj");
    GLint u_light = gl_program_uniform(prog, "u_light_dir");
    GLint u_tint = gl_program_uniform(prog, "u_tint");
    GLint u_fog = gl_program_uniform(prog, "u_fog_color");
    glUseProgram(prog);
    glUniform1i(gl_program_uniform(prog, "u_tex"), 0);

    static const uint8_t c0[4] = {240, 240, 230, 255}, c1[4] = {60, 120, 200, 255};
    uint8_t *checker = proc_texture_checker(64, 64, 8, c0, c1);
    Mesh cube;
    if (!checker || !mesh_make_cube(&cube, 0.5f))
        sample_fatal(NAME ": out of memory");
    GLuint tex = gl_texture_rgba8(64, 64, checker, true);
    free(checker);
    GpuMesh g_cube = gl_mesh_upload(&cube);
    mesh_free(&cube);

    int fb_w, fb_h;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    const Mat4 view = mat4_look_at(vec3(0.0f, 1.5f, 5.5f), vec3(0.0f, 0.0f, -1.0f),
                                   vec3(0.0f, 1.0f, 0.0f));
    const Mat4 proj = mat4_perspective(0.9f, (float)fb_w / (float)fb_h, 0.1f, 30.0f);
    const Vec3 light = vec3_normalize(vec3(0.5f, 0.8f, 0.6f));
    const float fog[3] = {0.55f, 0.6f, 0.68f};

    int frame = args.first_frame;
    for (; frame < args.frames && !glfwWindowShouldClose(win); ++frame) {
        const float angle = (float)frame * (2.0f * MATH3D_PI / 80.0f);
        glViewport(0, 0, fb_w, fb_h);
        glEnable(GL_DEPTH_TEST);
        glEnable(GL_CULL_FACE);
        glClearColor(fog[0], fog[1], fog[2], 1.0f);
        glClearDepthf(1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        glUseProgram(prog);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, tex);
        glUniformMatrix4fv(u_view, 1, GL_FALSE, view.m);
        glUniformMatrix4fv(u_proj, 1, GL_FALSE, proj.m);
        glUniform3f(u_light, light.x, light.y, light.z);
        glUniform3fv(u_fog, 1, fog);
        for (int i = 0; i < CUBES; ++i) {
            /* A diagonal row receding into the fog, each cube spinning at its own rate. */
            float x = -2.4f + 1.4f * (float)i, z = -1.6f * (float)i + 1.0f;
            Mat4 model = mat4_mul(mat4_translate(x, 0.3f * sinf(angle + (float)i), z),
                                  mat4_rotate(angle * (1.0f + 0.25f * (float)i), 0.4f, 1.0f,
                                              0.2f * (float)i));
            glUniformMatrix4fv(u_model, 1, GL_FALSE, model.m);
            glUniform3f(u_tint, 1.0f - 0.12f * (float)i, 0.8f + 0.04f * (float)i, 1.0f);
            gl_mesh_draw(&g_cube);
        }
        glBindVertexArray(0);

        sample_frame_end(&args, NAME, frame, fb_w, fb_h);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }

    gl_mesh_destroy(&g_cube);
    glDeleteTextures(1, &tex);
    glDeleteProgram(prog);
    int status = sample_finish(NAME, frame);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
