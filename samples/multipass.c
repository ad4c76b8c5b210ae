/* multipass: GL 3.3 core sample. A geometry pass renders into a framebuffer object with two
 * colour attachments (lit colour; packed normal + linear depth) and a depth renderbuffer, then a
 * post-process pass draws a screen triangle into the default framebuffer that samples both
 * attachments (outlines, a normal debug view behind a moving split line, vignette).
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

#define NAME "multipass"

static const char shader_prefix[] =
    "#version 330 core\n"
    "#define EDGE_TAPS 4\n";

typedef struct GBuffer {
    GLuint fbo, color_tex, normal_depth_tex, depth_rb;
} GBuffer;

static GLuint make_target_texture(int w, int h)
{
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    /* Nearest + clamp: the post pass reads exact texels of the same-sized target. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return tex;
}

static GBuffer gbuffer_create(int w, int h)
{
    GBuffer g;
    g.color_tex = make_target_texture(w, h);
    g.normal_depth_tex = make_target_texture(w, h);
    glGenRenderbuffers(1, &g.depth_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, g.depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
    glGenFramebuffers(1, &g.fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g.fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g.color_tex, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D,
                           g.normal_depth_tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g.depth_rb);
    static const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(2, bufs);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        sample_fatal(NAME ": framebuffer incomplete (0x%04x)", status);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return g;
}

static void gbuffer_destroy(GBuffer *g)
{
    glDeleteFramebuffers(1, &g->fbo);
    glDeleteTextures(1, &g->color_tex);
    glDeleteTextures(1, &g->normal_depth_tex);
    glDeleteRenderbuffers(1, &g->depth_rb);
}

int main(int argc, char **argv)
{
    SampleArgs args;
    sample_args_parse_or_exit(&args, NAME, argc, argv);
    glfw_app_init(NAME);
    GLFWwindow *win =
        glfw_app_create_window(NAME, args.width, args.height, GLFW_APP_GL33_CORE,
                               GLFW_APP_WINDOW_PRESENTED, NULL);
    glfw_app_print_renderer(NAME);

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix,
                       .vert_file = "scene.vert", .frag_file = "scene.frag"};
    GLuint scene = gl_program_build(&args, &d);
    GLint s_model = gl_program_uniform(scene, "u_model");
    GLint s_view = gl_program_uniform(scene, "u_view");
    GLint s_proj = gl_program_uniform(scene, "u_proj");
    GLint s_base = gl_program_uniform(scene, "u_base_color");
    GLint s_light = gl_program_uniform(scene, "u_light_dir");
    GLint s_far = gl_program_uniform(scene, "u_far");
    d.vert_file = "post.vert";
    d.frag_file = "post.frag";
    GLuint post = gl_program_build(&args, &d);
    GLint p_texel = gl_program_uniform(post, "u_texel");
    GLint p_split = gl_program_uniform(post, "u_split");
    glUseProgram(scene);
    glUniform1i(gl_program_uniform(scene, "u_pattern"), 0);
    glUseProgram(post);
    glUniform1i(gl_program_uniform(post, "u_color"), 0);
    glUniform1i(gl_program_uniform(post, "u_normal_depth"), 1);
    glUseProgram(0);

    static const uint8_t ring_a[4] = {255, 255, 255, 255}, ring_b[4] = {170, 170, 190, 255};
    uint8_t *rings = proc_texture_rings(64, 64, ring_a, ring_b);
    Mesh torus, cube;
    if (!rings || !mesh_make_torus(&torus, 0.8f, 0.3f, 40, 20) || !mesh_make_cube(&cube, 0.45f))
        sample_fatal(NAME ": out of memory");
    GLuint pattern_tex = gl_texture_rgba8(64, 64, rings, true);
    free(rings);
    GpuMesh g_torus = gl_mesh_upload(&torus), g_cube = gl_mesh_upload(&cube);
    mesh_free(&torus);
    mesh_free(&cube);
    GLuint post_vao;
    glGenVertexArrays(1, &post_vao);

    int fb_w, fb_h;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    GBuffer gb = gbuffer_create(fb_w, fb_h);
    const float far_dist = 12.0f;
    const Mat4 view = mat4_look_at(vec3(0.0f, 2.0f, 6.0f), vec3(0.0f, 0.0f, 0.0f),
                                   vec3(0.0f, 1.0f, 0.0f));
    const Mat4 proj = mat4_perspective(0.8f, (float)fb_w / (float)fb_h, 0.5f, far_dist);
    const Vec3 light = vec3_normalize(vec3(0.4f, 0.7f, 0.6f));

    int frame = args.first_frame;
    for (; frame < args.frames && !glfwWindowShouldClose(win); ++frame) {
        const float angle = (float)frame * (2.0f * MATH3D_PI / 100.0f);

        /* Pass 1: geometry into the two attachments. */
        glBindFramebuffer(GL_FRAMEBUFFER, gb.fbo);
        glViewport(0, 0, fb_w, fb_h);
        glEnable(GL_DEPTH_TEST);
        glEnable(GL_CULL_FACE);
        static const float clear_color[4] = {0.10f, 0.12f, 0.18f, 1.0f};
        static const float clear_normal_depth[4] = {0.5f, 0.5f, 1.0f, 1.0f};
        glClearBufferfv(GL_COLOR, 0, clear_color);
        glClearBufferfv(GL_COLOR, 1, clear_normal_depth);
        static const float clear_depth = 1.0f;
        glClearBufferfv(GL_DEPTH, 0, &clear_depth);

        glUseProgram(scene);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, pattern_tex);
        glUniformMatrix4fv(s_view, 1, GL_FALSE, view.m);
        glUniformMatrix4fv(s_proj, 1, GL_FALSE, proj.m);
        /* The light direction is given in view space (rotation part of the view matrix). */
        Vec3 lv = vec3(view.m[0] * light.x + view.m[4] * light.y + view.m[8] * light.z,
                       view.m[1] * light.x + view.m[5] * light.y + view.m[9] * light.z,
                       view.m[2] * light.x + view.m[6] * light.y + view.m[10] * light.z);
        glUniform3f(s_light, lv.x, lv.y, lv.z);
        glUniform1f(s_far, far_dist);

        Mat4 model = mat4_mul(mat4_rotate(angle, 0.0f, 1.0f, 0.0f),
                              mat4_rotate(1.1f, 1.0f, 0.0f, 0.0f));
        glUniformMatrix4fv(s_model, 1, GL_FALSE, model.m);
        glUniform3f(s_base, 1.0f, 0.75f, 0.3f);
        gl_mesh_draw(&g_torus);
        for (int i = 0; i < 4; ++i) {
            float a = angle * 0.5f + (float)i * (MATH3D_PI * 0.5f);
            model = mat4_mul(mat4_translate(2.2f * cosf(a), -0.3f + 0.2f * (float)(i & 1),
                                            2.2f * sinf(a)),
                             mat4_rotate(-angle + (float)i, 0.3f, 1.0f, 0.2f));
            glUniformMatrix4fv(s_model, 1, GL_FALSE, model.m);
            glUniform3f(s_base, 0.3f + 0.2f * (float)i, 0.6f, 1.0f - 0.2f * (float)i);
            gl_mesh_draw(&g_cube);
        }

        /* Pass 2: post-process into the default framebuffer, sampling both attachments. */
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fb_w, fb_h);
        glDisable(GL_DEPTH_TEST);
        glDisable(GL_CULL_FACE);
        glUseProgram(post);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, gb.color_tex);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, gb.normal_depth_tex);
        glUniform2f(p_texel, 1.0f / (float)fb_w, 1.0f / (float)fb_h);
        glUniform1f(p_split, 0.5f + 0.3f * sinf(angle));
        glBindVertexArray(post_vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        glActiveTexture(GL_TEXTURE0);

        sample_frame_end(&args, NAME, frame, fb_w, fb_h);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }

    gbuffer_destroy(&gb);
    glDeleteVertexArrays(1, &post_vao);
    gl_mesh_destroy(&g_torus);
    gl_mesh_destroy(&g_cube);
    glDeleteTextures(1, &pattern_tex);
    glDeleteProgram(scene);
    glDeleteProgram(post);
    int status = sample_finish(NAME, frame);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
