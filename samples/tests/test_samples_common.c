/* Unit tests of the samples' GL-free helpers: argument parsing, PAM writing, shader file
 * loading, meshes, textures and matrices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/math3d.h"
#include "common/mesh_gen.h"
#include "common/pam_writer.h"
#include "common/proc_texture.h"
#include "common/sample_args.h"
#include "common/shader_source.h"
#include "common/sample_util.h"

#include "../../tests/support/glr_check.h"   /* built without the top include dir */
static SampleArgsResult parse(SampleArgs *a, char **argv)
{
    int argc = 0;
    while (argv[argc])
        ++argc;
    char err[256] = "";
    return sample_args_parse(a, argc, argv, "/default", err, sizeof err);
}

static void test_args(void)
{
    SampleArgs a;
    char *none[] = {"x", NULL};
    CHECK(parse(&a, none) == SAMPLE_ARGS_OK);
    CHECK(a.frames == 100 && a.width == 640 && a.height == 360);
    CHECK(a.dump_count == 0 && a.dump_dir == NULL);
    CHECK(strcmp(a.shader_dir, "/default") == 0);

    char *full[] = {"x", "--frames", "7", "--size=320x200", "--dump-frames", "0,6,3",
                    "--dump-dir", "/tmp/d", "--shader-dir=/s", NULL};
    CHECK(parse(&a, full) == SAMPLE_ARGS_OK);
    CHECK(a.frames == 7 && a.width == 320 && a.height == 200);
    CHECK(a.dump_count == 3 && a.dump_frames[0] == 0 && a.dump_frames[1] == 6 &&
          a.dump_frames[2] == 3);
    CHECK(sample_args_wants_dump(&a, 6) && !sample_args_wants_dump(&a, 5));
    CHECK(strcmp(a.dump_dir, "/tmp/d") == 0 && strcmp(a.shader_dir, "/s") == 0);

    CHECK(a.first_frame == 0);
    char *first[] = {"x", "--first-frame", "5", "--frames", "6", NULL};
    CHECK(parse(&a, first) == SAMPLE_ARGS_OK && a.first_frame == 5 && a.frames == 6);
    char *late[] = {"x", "--first-frame", "6", "--frames", "6", NULL};   /* nothing to draw */
    CHECK(parse(&a, late) == SAMPLE_ARGS_ERROR);
    char *negative[] = {"x", "--first-frame", "-1", NULL};
    CHECK(parse(&a, negative) == SAMPLE_ARGS_ERROR);

    char *help[] = {"x", "--help", NULL};
    CHECK(parse(&a, help) == SAMPLE_ARGS_HELP);

    char *bad[][5] = {
        {"x", "--frames", NULL}, {"x", "--frames", "1x", NULL}, {"x", "--frames", "0", NULL},
        {"x", "--size", "3", NULL}, {"x", "--size", "x3", NULL}, {"x", "--size", "8193x1", NULL},
        {"x", "--dump-frames", "1,", "--dump-dir", "d"}, {"x", "--dump-frames", "2", NULL},
        {"x", "--unknown", NULL}, {"x", "--framesX", "3", NULL}, {"x", "-frames", "3", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *argv[6] = {0};
        for (int k = 0; k < 5 && bad[i][k]; ++k)
            argv[k] = bad[i][k];
        CHECK(parse(&a, argv) == SAMPLE_ARGS_ERROR);
    }
}

static void test_pam(void)
{
    char dir[] = "/tmp/samples-unit-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/a.pam", dir);
    /* 3x2 image, bottom-up in memory: row 0 (bottom) = 1s, row 1 (top) = 2s. */
    uint8_t px[3 * 2 * 4];
    memset(px, 1, 12);
    memset(px + 12, 2, 12);
    CHECK(pam_write_rgba(path, 3, 2, px, true));
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        char buf[256];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        const char *hdr = "P7\nWIDTH 3\nHEIGHT 2\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n";
        size_t hl = strlen(hdr);
        CHECK(n == hl + 24 && memcmp(buf, hdr, hl) == 0);
        CHECK(buf[hl] == 2 && buf[hl + 11] == 2 && buf[hl + 12] == 1); /* top row first */
    }
    CHECK(!pam_write_rgba("/nonexistent-dir/x.pam", 3, 2, px, false));
    CHECK(!pam_write_rgba(path, 0, 2, px, false));
    unlink(path);

    /* mkdir -p creates nested folders and accepts existing ones. */
    char nested[160];
    snprintf(nested, sizeof nested, "%s/a/b", dir);
    CHECK(sample_mkdir_p(nested) == 0);
    CHECK(sample_mkdir_p(nested) == 0);
    rmdir(nested);
    snprintf(nested, sizeof nested, "%s/a", dir);
    rmdir(nested);
    rmdir(dir);
}

static void test_shader_source(void)
{
    char err[512];
    CHECK(shader_source_prefix_lines("#version 330 core\n#define A 1\n") == 2);
    char *joined = shader_source_concat("#version 110\n", "void main(){}\n");
    CHECK(joined && strcmp(joined, "#version 110\nvoid main(){}\n") == 0);
    free(joined);
    err[0] = '\0';
    CHECK(shader_source_load("/nonexistent", "s", "a.vert", err, sizeof err) == NULL);
    CHECK(strstr(err, "/nonexistent/s/a.vert") != NULL);

    char dir[] = "/tmp/samples-src-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/f.frag", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("line1\nline2\n", f);
        fclose(f);
    }
    char *text = shader_source_read_file(path, err, sizeof err);
    CHECK(text && strcmp(text, "line1\nline2\n") == 0);
    free(text);
    f = fopen(path, "wb");
    if (f) {
        fwrite("a\0b", 1, 3, f);
        fclose(f);
    }
    CHECK(shader_source_read_file(path, err, sizeof err) == NULL); /* NUL byte rejected */
    unlink(path);
    rmdir(dir);
}

static void test_meshes(void)
{
    Mesh m;
    CHECK(mesh_make_cube(&m, 1.0f) && m.vertex_count == 24 && m.index_count == 36);
    for (size_t i = 0; i < m.index_count; i += 3) {
        /* Counter-clockwise seen from outside: the face normal agrees with the stored one. */
        const float *a = m.vertices[m.indices[i]].pos, *b = m.vertices[m.indices[i + 1]].pos,
                    *c = m.vertices[m.indices[i + 2]].pos;
        Vec3 n = vec3_cross(vec3(b[0] - a[0], b[1] - a[1], b[2] - a[2]),
                            vec3(c[0] - a[0], c[1] - a[1], c[2] - a[2]));
        const float *sn = m.vertices[m.indices[i]].normal;
        CHECK(n.x * sn[0] + n.y * sn[1] + n.z * sn[2] > 0.0f);
    }
    mesh_free(&m);
    CHECK(mesh_make_torus(&m, 1.0f, 0.25f, 8, 6) && m.vertex_count == 9 * 7 &&
          m.index_count == 8 * 6 * 6);
    for (size_t i = 0; i < m.vertex_count; ++i) {
        const float *n = m.vertices[i].normal;
        CHECK(fabsf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0f) < 1e-4f);
    }
    for (size_t i = 0; i < m.index_count; i += 3) {
        const float *a = m.vertices[m.indices[i]].pos, *b = m.vertices[m.indices[i + 1]].pos,
                    *c = m.vertices[m.indices[i + 2]].pos;
        Vec3 n = vec3_cross(vec3(b[0] - a[0], b[1] - a[1], b[2] - a[2]),
                            vec3(c[0] - a[0], c[1] - a[1], c[2] - a[2]));
        const float *sn = m.vertices[m.indices[i]].normal;
        CHECK(n.x * sn[0] + n.y * sn[1] + n.z * sn[2] > 0.0f);
    }
    mesh_free(&m);
    CHECK(mesh_make_plane(&m, 2.0f, 4.0f) && m.vertex_count == 4 && m.index_count == 6);
    mesh_free(&m);
}

static void test_textures_and_math(void)
{
    const uint8_t a[4] = {200, 100, 40, 255}, b[4] = {10, 20, 30, 255};
    uint8_t *t = proc_texture_checker(16, 16, 4, a, b);
    CHECK(t != NULL);
    if (t) {
        CHECK(memcmp(t + (1 * 16 + 1) * 4, a, 4) == 0);  /* cell (0,0), inside */
        CHECK(memcmp(t + (1 * 16 + 5) * 4, b, 4) == 0);  /* cell (1,0), inside */
        CHECK(t[0] == 150);                               /* border darkened to 3/4 */
        free(t);
    }
    CHECK(proc_texture_checker(0, 4, 1, a, b) == NULL);
    uint8_t *r = proc_texture_rings(32, 32, a, b);
    CHECK(r && memcmp(r + (16 * 32 + 16) * 4, a, 4) == 0);
    free(r);

    Mat4 m = mat4_mul(mat4_translate(1, 2, 3), mat4_identity());
    CHECK(m.m[12] == 1 && m.m[13] == 2 && m.m[14] == 3 && m.m[15] == 1);
    Mat4 rot = mat4_rotate(MATH3D_PI * 0.5f, 0, 0, 1); /* x axis -> y axis */
    CHECK(fabsf(rot.m[0]) < 1e-6f && fabsf(rot.m[1] - 1.0f) < 1e-6f);
    Mat4 v = mat4_look_at(vec3(0, 0, 5), vec3(0, 0, 0), vec3(0, 1, 0));
    CHECK(fabsf(v.m[14] + 5.0f) < 1e-6f);
    Mat4 p = mat4_perspective(1.0f, 2.0f, 1.0f, 10.0f);
    /* A point on the near plane maps to z_ndc = -1. */
    float z = -1.0f, zc = p.m[10] * z + p.m[14], wc = p.m[11] * z;
    CHECK(fabsf(zc / wc + 1.0f) < 1e-5f);
}

int main(void)
{
    test_args();
    test_pam();
    test_shader_source();
    test_meshes();
    test_textures_and_math();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("samples common: all checks passed\n");
    return 0;
}
