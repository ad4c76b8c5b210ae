/* instanced: GL 3.3 core sample. Two glDrawElementsInstanced calls (64 cubes, 8 tori) read their
 * per-instance transforms and colours from a std140 uniform block indexed by gl_InstanceID, a
 * camera uniform block shared by both shader stages, and a per-instance vertex attribute
 * (glVertexAttribDivisor). The camera block is updated with glBufferSubData and the instance
 * block through glMapBufferRange each frame. Animation depends only on the frame index. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "common/gl_program.h"
#include "common/gl_resources.h"
#include "common/glfw_app.h"
#include "common/math3d.h"
#include "common/sample_args.h"
#include "common/sample_frame.h"
#include "common/sample_util.h"

#define NAME "instanced"
#define MAX_INSTANCES 128
#define GRID 8
#define CUBE_COUNT (GRID * GRID)
#define TORUS_COUNT 8

static const char shader_prefix[] =
    "#version 330 core\n"
    "#define MAX_INSTANCES 128\n"
    "#define HIGHLIGHT_HEIGHT 0.25\n";

/* std140 mirrors of the shader's blocks: mat4 = 64 bytes, vec4 = 16, struct array stride 32. */
typedef struct CameraBlock {
    float view_proj[16];
    float light_dir[4];
    float animation[4];
} CameraBlock;

typedef struct InstanceData {
    float offset_scale[4];
    float color[4];
} InstanceData;

enum { CAMERA_BINDING = 0, INSTANCES_BINDING = 1, ATTR_PHASE = 3 };

_Static_assert(sizeof(CameraBlock) == 96, "std140 Camera block is 96 bytes");
_Static_assert(sizeof(InstanceData) == 32, "std140 Instance stride is 32 bytes");

/* Binds block `name` to `binding` and checks that the driver's size matches ours. */
static void bind_block(GLuint prog, const char *name, GLuint binding, GLint expected_size)
{
    GLuint index = glGetUniformBlockIndex(prog, name);
    if (index == GL_INVALID_INDEX)
        sample_fatal(NAME ": uniform block %s not found", name);
    GLint size = 0;
    glGetActiveUniformBlockiv(prog, index, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
    if (size != expected_size)
        sample_fatal(NAME ": block %s is %d bytes, expected %d (std140 mismatch)", name, size,
                     expected_size);
    glUniformBlockBinding(prog, index, binding);
}

/* Instance i's data at frame angle `angle`: cubes on a grid, tori in a ring above them. */
static void fill_instances(InstanceData *out, float angle)
{
    for (int i = 0; i < CUBE_COUNT; ++i) {
        int gx = i % GRID, gz = i / GRID;
        InstanceData *d = &out[i];
        d->offset_scale[0] = ((float)gx - (GRID - 1) * 0.5f) * 0.9f;
        d->offset_scale[1] = 0.0f;
        d->offset_scale[2] = ((float)gz - (GRID - 1) * 0.5f) * 0.9f;
        d->offset_scale[3] = 0.25f + 0.1f * sinf(angle + (float)(gx + gz) * 0.5f);
        d->color[0] = 0.3f + 0.7f * (float)gx / (GRID - 1);
        d->color[1] = 0.4f;
        d->color[2] = 0.3f + 0.7f * (float)gz / (GRID - 1);
        d->color[3] = (i % 3 == 0) ? 1.0f : -0.5f; /* spin speed */
    }
    for (int i = 0; i < TORUS_COUNT; ++i) {
        float a = angle * 0.3f + (float)i * (2.0f * MATH3D_PI / TORUS_COUNT);
        InstanceData *d = &out[CUBE_COUNT + i];
        d->offset_scale[0] = 4.2f * cosf(a);
        d->offset_scale[1] = 1.2f;
        d->offset_scale[2] = 4.2f * sinf(a);
        d->offset_scale[3] = 0.6f;
        d->color[0] = 1.0f;
        d->color[1] = 0.55f + 0.05f * (float)i;
        d->color[2] = 0.2f;
        d->color[3] = 2.0f;
    }
}

/* Adds the per-instance phase attribute to a mesh VAO, starting at instance `first`. */
static void add_phase_attribute(const GpuMesh *m, GLuint phase_vbo, int first)
{
    glBindVertexArray(m->vao);
    glBindBuffer(GL_ARRAY_BUFFER, phase_vbo);
    glEnableVertexAttribArray(ATTR_PHASE);
    glVertexAttribPointer(ATTR_PHASE, 1, GL_FLOAT, GL_FALSE, sizeof(float),
                          (const void *)(size_t)(first * sizeof(float)));
    glVertexAttribDivisor(ATTR_PHASE, 1);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
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
                       .vert_file = "instanced.vert", .frag_file = "instanced.frag"};
    GLuint prog = gl_program_build(&args, &d);
    bind_block(prog, "Camera", CAMERA_BINDING, (GLint)sizeof(CameraBlock));
    bind_block(prog, "Instances", INSTANCES_BINDING,
               (GLint)(MAX_INSTANCES * sizeof(InstanceData)));
    GLint u_first = gl_program_uniform(prog, "u_first_instance");

    GLuint ubo[2];
    glGenBuffers(2, ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo[0]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(CameraBlock), NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo[1]);
    glBufferData(GL_UNIFORM_BUFFER, MAX_INSTANCES * sizeof(InstanceData), NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    glBindBufferBase(GL_UNIFORM_BUFFER, CAMERA_BINDING, ubo[0]);
    glBindBufferBase(GL_UNIFORM_BUFFER, INSTANCES_BINDING, ubo[1]);

    Mesh cube, torus;
    if (!mesh_make_cube(&cube, 1.0f) || !mesh_make_torus(&torus, 0.7f, 0.25f, 32, 16))
        sample_fatal(NAME ": out of memory");
    GpuMesh g_cube = gl_mesh_upload(&cube), g_torus = gl_mesh_upload(&torus);
    mesh_free(&cube);
    mesh_free(&torus);

    /* Static per-instance phases, one float per instance (cubes then tori). */
    float phases[CUBE_COUNT + TORUS_COUNT];
    for (int i = 0; i < CUBE_COUNT + TORUS_COUNT; ++i)
        phases[i] = (float)((i * 37) % 64) * (2.0f * MATH3D_PI / 64.0f);
    GLuint phase_vbo;
    glGenBuffers(1, &phase_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, phase_vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof phases, phases, GL_STATIC_DRAW);
    add_phase_attribute(&g_cube, phase_vbo, 0);
    add_phase_attribute(&g_torus, phase_vbo, CUBE_COUNT);

    int fb_w, fb_h;
    glfwGetFramebufferSize(win, &fb_w, &fb_h);
    const Mat4 proj = mat4_perspective(0.85f, (float)fb_w / (float)fb_h, 0.5f, 40.0f);
    const Vec3 light = vec3_normalize(vec3(-0.4f, 0.8f, 0.45f));

    int frame = args.first_frame;
    for (; frame < args.frames && !glfwWindowShouldClose(win); ++frame) {
        const float angle = (float)frame * (2.0f * MATH3D_PI / 90.0f);

        CameraBlock cam;
        const float orbit = angle * 0.2f;
        Mat4 view = mat4_look_at(vec3(9.0f * sinf(orbit), 6.0f, 9.0f * cosf(orbit)),
                                 vec3(0.0f, 0.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f));
        Mat4 vp = mat4_mul(proj, view);
        memcpy(cam.view_proj, vp.m, sizeof vp.m);
        cam.light_dir[0] = light.x;
        cam.light_dir[1] = light.y;
        cam.light_dir[2] = light.z;
        cam.light_dir[3] = 0.0f;
        cam.animation[0] = angle;
        cam.animation[1] = 0.35f;
        cam.animation[2] = cam.animation[3] = 0.0f;
        glBindBuffer(GL_UNIFORM_BUFFER, ubo[0]);
        glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof cam, &cam);

        glBindBuffer(GL_UNIFORM_BUFFER, ubo[1]);
        InstanceData *inst = glMapBufferRange(GL_UNIFORM_BUFFER, 0,
                                              MAX_INSTANCES * sizeof(InstanceData),
                                              GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
        if (!inst)
            sample_fatal(NAME ": glMapBufferRange failed");
        memset(inst, 0, MAX_INSTANCES * sizeof(InstanceData));
        fill_instances(inst, angle);
        glUnmapBuffer(GL_UNIFORM_BUFFER);
        glBindBuffer(GL_UNIFORM_BUFFER, 0);

        glViewport(0, 0, fb_w, fb_h);
        glEnable(GL_DEPTH_TEST);
        glEnable(GL_CULL_FACE);
        glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

        glUseProgram(prog);
        glUniform1i(u_first, 0);
        gl_mesh_draw_instanced(&g_cube, CUBE_COUNT);
        glUniform1i(u_first, CUBE_COUNT);
        gl_mesh_draw_instanced(&g_torus, TORUS_COUNT);
        glBindVertexArray(0);

        sample_frame_end(&args, NAME, frame, fb_w, fb_h);
        glfwSwapBuffers(win);
        glfwPollEvents();
    }

    glDeleteBuffers(2, ubo);
    glDeleteBuffers(1, &phase_vbo);
    gl_mesh_destroy(&g_cube);
    gl_mesh_destroy(&g_torus);
    glDeleteProgram(prog);
    int status = sample_finish(NAME, frame);
    glfwDestroyWindow(win);
    glfwTerminate();
    return status;
}
