/* lit_mesh: GL 3.3 core sample. A textured, lit torus spins above a textured ground plane with
 * three orbiting cubes and a sky, so one frame has several draws through three programs
 * (mesh, ground, sky), two textures, depth testing and uniform arrays.
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

#define NAME "lit_mesh"
#define LIGHT_COUNT 2

/* Prepended to every shader file (the files carry no #version line). */
static const char shader_prefix[] =
    "#version 330 core\n"
    "#define LIGHT_COUNT 2\n"
    "#define AMBIENT 0.15\n";

typedef struct MeshProgram {
    GLuint prog;
    GLint model, view_proj, albedo, tint, shininess, eye_pos, light_pos, light_color;
} MeshProgram;

typedef struct GroundProgram {
    GLuint prog;
    GLint model, view_proj, tex, light_pos, light_color, shadow_center, fog_color, fog_distance;
} GroundProgram;

typedef struct SkyProgram {
    GLuint prog;
    GLint horizon, zenith, sun, aspect;
} SkyProgram;

static const float horizon_color[3] = {0.72f, 0.80f, 0.88f};

static void load_programs(const SampleArgs *args, MeshProgram *mp, GroundProgram *gp,
                          SkyProgram *sp)
{
    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix};
    d.vert_file = "mesh.vert";
    d.frag_file = "mesh.frag";
    mp->prog = gl_program_build(args, &d);
    mp->model = gl_program_uniform(mp->prog, "u_model");
    mp->view_proj = gl_program_uniform(mp->prog, "u_view_proj");
    mp->albedo = gl_program_uniform(mp->prog, "u_albedo");
    mp->tint = gl_program_uniform(mp->prog, "u_tint");
    mp->shininess = gl_program_uniform(mp->prog, "u_shininess");
    mp->eye_pos = gl_program_uniform(mp->prog, "u_eye_pos");
    mp->light_pos = gl_program_uniform(mp->prog, "u_light_pos");
    mp->light_color = gl_program_uniform(mp->prog, "u_light_color");

    d.vert_file = "ground.vert";
    d.frag_file = "ground.frag";
    gp->prog = gl_program_build(args, &d);
    gp->model = gl_program_uniform(gp->prog, "u_model");
    gp->view_proj = gl_program_uniform(gp->prog, "u_view_proj");
    gp->tex = gl_program_uniform(gp->prog, "u_ground_tex");
    gp->light_pos = gl_program_uniform(gp->prog, "u_light_pos");
    gp->light_color = gl_program_uniform(gp->prog, "u_light_color");
    gp->shadow_center = gl_program_uniform(gp->prog, "u_shadow_center");
    gp->fog_color = gl_program_uniform(gp->prog, "u_fog_color");
    gp->fog_distance = gl_program_uniform(gp->prog, "u_fog_distance");

    d.vert_file = "sky.vert";
    d.frag_file = "sky.frag";
    sp->prog = gl_program_build(args, &d);
    sp->horizon = gl_program_uniform(sp->prog, "u_horizon_color");
    sp->zenith = gl_program_uniform(sp->prog, "u_zenith_color");
    sp->sun = gl_program_uniform(sp->prog, "u_sun_screen");
    sp->aspect = gl_program_uniform(sp->prog, "u_aspect");

    /* Sampler units never change: set them once, as most programs do. */
    glUseProgram(mp->prog);
    glUniform1i(mp->albedo, 0);
    glUseProgram(gp->prog);
    glUniform1i(gp->tex, 1);
    glUseProgram(0);
}

static GLuint make_textures(GLuint *ground_tex)
{
    static const uint8_t warm[4] = {235, 190, 120, 255}, dark[4] = {150, 60, 45, 255};
    static const uint8_t grass[4] = {110, 150, 90, 255}, moss[4] = {80, 115, 70, 255};
    uint8_t *a = proc_texture_checker(128, 128, 16, warm, dark);
    uint8_t *b = proc_texture_checker(64, 64, 32, grass, moss);
    if (!a || !b)
        sample_fatal(NAME ": out of memory");
    GLuint mesh_tex = gl_texture_rgba8(128, 128, a, false);
    *ground_tex = gl_texture_rgba8(64, 64, b, true);
    free(a);
    free(b);
    return mesh_tex;
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

    MeshProgram mp;
    GroundProgram gp;
    SkyProgram sp;
    load_programs(&args, &mp, &gp, &sp);

    Mesh torus, cube, plane;
    if (!mesh_make_torus(&torus, 1.0f, 0.38f, 48, 24) || !mesh_make_cube(&cube, 0.25f) ||
        !mesh_make_plane(&plane, 30.0f, 30.0f))
        sample_fatal(NAME ": out of memory");
    GpuMesh g_torus = gl_mesh_upload(&torus), g_cube = gl_mesh_upload(&cube),
            g_plane = gl_mesh_upload(&plane);
    mesh_free(&torus);
    mesh_free(&cube);
    mesh_free(&plane);
    GLuint sky_vao; /* core profile needs a VAO bound even for attribute-less draws */
    glGenVertexArrays(1, &sky_vao);

    GLuint ground_tex;
    GLuint mesh_tex = make_textures(&ground_tex);

    int fb_w, fb_h;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    const Vec3 eye = vec3(0.0f, 1.6f, 4.8f);
    const Mat4 view = mat4_look_at(eye, vec3(0.0f, 0.1f, 0.0f), vec3(0.0f, 1.0f, 0.0f));
    const Mat4 proj = mat4_perspective(0.9f, (float)fb_w / (float)fb_h, 0.1f, 40.0f);
    const Mat4 view_proj = mat4_mul(proj, view);
    const float light_color[LIGHT_COUNT * 3] = {1.0f, 0.92f, 0.8f, 0.35f, 0.5f, 1.0f};

    int frame = args.first_frame;
    for (; frame < args.frames && !glfwWindowShouldClose(win); ++frame) {
        /* One full turn every 120 frames; everything derives from this angle. */
        const float angle = (float)frame * (2.0f * MATH3D_PI / 120.0f);
        const float light_pos[LIGHT_COUNT * 3] = {
            3.0f * cosf(angle * 0.5f), 3.0f, 3.0f * sinf(angle * 0.5f), -2.5f, 1.0f, 1.5f,
        };

        glViewport(0, 0, fb_w, fb_h);
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glEnable(GL_CULL_FACE);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClearDepth(1.0);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        /* Draws 1-4: the torus and three cubes with the mesh program. */
        glUseProgram(mp.prog);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, mesh_tex);
        glUniformMatrix4fv(mp.view_proj, 1, GL_FALSE, view_proj.m);
        glUniform3f(mp.eye_pos, eye.x, eye.y, eye.z);
        glUniform3fv(mp.light_pos, LIGHT_COUNT, light_pos);
        glUniform3fv(mp.light_color, LIGHT_COUNT, light_color);

        Mat4 model = mat4_mul(mat4_translate(0.0f, 0.35f, 0.0f),
                              mat4_mul(mat4_rotate(angle, 0.0f, 1.0f, 0.0f),
                                       mat4_rotate(0.9f + 0.5f * angle, 1.0f, 0.0f, 0.3f)));
        glUniformMatrix4fv(mp.model, 1, GL_FALSE, model.m);
        glUniform3f(mp.tint, 1.0f, 1.0f, 1.0f);
        glUniform1f(mp.shininess, 48.0f);
        gl_mesh_draw(&g_torus);

        static const float tints[3][3] = {{1.0f, 0.5f, 0.4f}, {0.5f, 1.0f, 0.5f},
                                          {0.5f, 0.6f, 1.0f}};
        for (int i = 0; i < 3; ++i) {
            float a = -angle * 1.5f + (float)i * (2.0f * MATH3D_PI / 3.0f);
            model = mat4_mul(mat4_translate(2.0f * cosf(a), 0.2f + 0.3f * sinf(a * 2.0f),
                                            2.0f * sinf(a)),
                             mat4_rotate(angle * 2.0f + (float)i, 1.0f, 1.0f, 0.0f));
            glUniformMatrix4fv(mp.model, 1, GL_FALSE, model.m);
            glUniform3fv(mp.tint, 1, tints[i]);
            glUniform1f(mp.shininess, 16.0f);
            gl_mesh_draw(&g_cube);
        }

        /* Draw 5: the ground plane with its own program and mipmapped texture. */
        glUseProgram(gp.prog);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, ground_tex);
        model = mat4_translate(0.0f, -1.2f, 0.0f);
        glUniformMatrix4fv(gp.model, 1, GL_FALSE, model.m);
        glUniformMatrix4fv(gp.view_proj, 1, GL_FALSE, view_proj.m);
        glUniform3fv(gp.light_pos, LIGHT_COUNT, light_pos);
        glUniform3fv(gp.light_color, LIGHT_COUNT, light_color);
        glUniform3f(gp.shadow_center, 0.0f, -1.2f, 0.0f);
        glUniform3fv(gp.fog_color, 1, horizon_color);
        glUniform1f(gp.fog_distance, 14.0f);
        gl_mesh_draw(&g_plane);

        /* Draw 6: the sky last, on the far plane, only where the depth buffer is still clear. */
        glDepthFunc(GL_LEQUAL);
        glDisable(GL_CULL_FACE);
        glUseProgram(sp.prog);
        glUniform3fv(sp.horizon, 1, horizon_color);
        glUniform3f(sp.zenith, 0.25f, 0.42f, 0.75f);
        glUniform2f(sp.sun, 0.5f + 0.35f * cosf(angle * 0.25f), 0.82f);
        glUniform1f(sp.aspect, (float)fb_w / (float)fb_h);
        glBindVertexArray(sky_vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);

        sample_frame_end(&args, NAME, frame, fb_w, fb_h);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }

    glDeleteVertexArrays(1, &sky_vao);
    gl_mesh_destroy(&g_torus);
    gl_mesh_destroy(&g_cube);
    gl_mesh_destroy(&g_plane);
    glDeleteTextures(1, &mesh_tex);
    glDeleteTextures(1, &ground_tex);
    glDeleteProgram(mp.prog);
    glDeleteProgram(gp.prog);
    glDeleteProgram(sp.prog);
    int status = sample_finish(NAME, frame);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
