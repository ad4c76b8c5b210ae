/* Uniform block bindings of draws, fed records built by hand (no GL driver): a full-screen
 * triangle whose fragment shader outputs a colour read from a uniform block must take the
 * buffer GL would: the source's layout(binding = N) when the program never called
 * glUniformBlockBinding (even with no recorded glGetUniformBlockIndex), the binding set by
 * glUniformBlockBinding once called, and GL's default binding 0 for a block without a layout
 * binding in a program whose other block has one. Buffers at bindings 0..3 hold different
 * colours, so any other choice shows in the pixels. */
#include "gmf_test_feed.h"

static const char *vs_src =
    "#version 430\n"
    "void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0,\n"
    "                                 gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }\n";
/* explicit binding 2 */
static const char *fs_explicit =
    "#version 430\n"
    "layout(std140, binding = 2) uniform U { vec4 color; };\n"
    "out vec4 o;\n"
    "void main() { o = color; }\n";
/* W has binding 3 (all zero), U none: GL gives U binding 0 */
static const char *fs_mixed =
    "#version 430\n"
    "layout(std140, binding = 3) uniform W { vec4 w; };\n"
    "layout(std140) uniform U { vec4 color; };\n"
    "out vec4 o;\n"
    "void main() { o = color + w; }\n";

static void ubo(struct feeder *f, uint32_t name, uint32_t binding, const float rgba[4])
{
    struct glr_call *c = call(GLR_CMD_glGenBuffers);
    c->args[0] = 1;
    c->blobs[1].data = &name;
    c->blobs[1].size = 4;
    feed(f, c);
    c = call(GLR_CMD_glBindBuffer);
    c->args[0] = GL_UNIFORM_BUFFER;
    c->args[1] = name;
    feed(f, c);
    c = call(GLR_CMD_glBufferData);
    c->args[0] = GL_UNIFORM_BUFFER;
    c->args[1] = 16;
    c->blobs[2].data = rgba;
    c->blobs[2].size = 16;
    c->args[3] = GL_STATIC_DRAW;
    feed(f, c);
    c = call(GLR_CMD_glBindBufferBase);
    c->args[0] = GL_UNIFORM_BUFFER;
    c->args[1] = binding;
    c->args[2] = name;
    feed(f, c);
}

static void run(int timing)
{
    struct feeder f;
    if (start(&f, timing) != 0)
        return;
    struct glr_call *c;
    const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 }, blue[4] = { 0, 0, 1, 1 };
    const float zero[4] = { 0, 0, 0, 0 };
    ubo(&f, 10, 0, red);
    ubo(&f, 11, 1, blue);
    ubo(&f, 12, 2, green);
    ubo(&f, 13, 3, zero);
    shader(&f, 1, GL_VERTEX_SHADER, vs_src);
    shader(&f, 2, GL_FRAGMENT_SHADER, fs_explicit);
    shader(&f, 3, GL_FRAGMENT_SHADER, fs_mixed);
    program(&f, 4, 1, 2);
    program(&f, 5, 1, 3);

    /* layout(binding = 2), nothing recorded: binding 2 */
    draw_expect(&f, 4, __LINE__, 0, 255, 0);
    /* glUniformBlockBinding(4, 0, 1) overrides the layout */
    c = call(GLR_CMD_glUniformBlockBinding);
    c->args[0] = 4;
    c->args[1] = 0;
    c->args[2] = 1;
    feed(&f, c);
    draw_expect(&f, 4, __LINE__, 0, 0, 255);
    /* U without a layout binding: GL's default 0 (red), W from its layout (zero) */
    draw_expect(&f, 5, __LINE__, 255, 0, 0);
    /* with the indices asked for (U 1, W 0) and U moved to binding 1 */
    const char *names[2] = { "U", "W" };
    for (int i = 0; i < 2; i++) {
        c = call(GLR_CMD_glGetUniformBlockIndex);
        c->args[0] = 5;
        c->blobs[1].data = names[i];
        c->blobs[1].size = strlen(names[i]) + 1;
        ret(c, (uint64_t)(1 - i));
        feed(&f, c);
    }
    c = call(GLR_CMD_glUniformBlockBinding);
    c->args[0] = 5;
    c->args[1] = 1;
    c->args[2] = 1;
    feed(&f, c);
    draw_expect(&f, 5, __LINE__, 0, 0, 255);
    gmf_destroy(f.r);
}

int main(void)
{
    run(1);
    run(0);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
