/* Writes the generated part of the fuzz targets' seed corpora (tests/fuzz/corpus/TARGET), once,
 * by hand (run_fuzz.sh --seeds): serialized state models (binary and JSON) and SPIR-V modules the
 * model's front end compiles from the samples' shaders. The files are kept in the repository. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_model/gpu_model.h"
#include "registry/glr_call.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/statemodel.h"

static int write_seed(const char *dir, const char *name, int mode, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    if (mode >= 0)
        fputc(mode, f);
    fwrite(data, 1, size, f);
    return fclose(f);
}

static void call(struct sm_state *s, uint32_t cmd, uint64_t a0, uint64_t a1, uint64_t a2)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = 1;
    c.args[0] = a0;
    c.args[1] = a1;
    c.args[2] = a2;
    sm_apply(s, &c);
}

/* A context with a few objects and states, as a capture's initial state holds them. */
static int state_seeds(const char *dir)
{
    struct sm_state *s = sm_state_new();
    if (!s)
        return -1;
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = GLR_PSEUDO_CONTEXT_CREATE;
    c.ctx_id = 1;
    c.args[0] = 1;
    c.args[1] = 1;
    sm_apply(s, &c);
    call(s, GLR_CMD_glBindBuffer, GL_ARRAY_BUFFER, 3, 0);
    call(s, GLR_CMD_glBindTexture, GL_TEXTURE_2D, 5, 0);
    call(s, GLR_CMD_glEnable, GL_DEPTH_TEST, 0, 0);
    call(s, GLR_CMD_glViewport, 0, 0, 64);
    call(s, GLR_CMD_glUseProgram, 7, 0, 0);
    size_t n = 0;
    uint8_t *bin = sm_serialize(s, &n);
    char *json = sm_to_json(s);
    int rc = bin && json && write_seed(dir, "state-binary", 0, bin, n) == 0 &&
             write_seed(dir, "state-json", 1, json, strlen(json)) == 0 ? 0 : -1;
    free(bin);
    free(json);
    sm_state_free(s);
    return rc;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    if (buf)
        fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    return buf;
}

/* SPIR-V of shader files (each a whole GLSL source with #version). */
static int spirv_seeds(const char *dir, int nfiles, char **files)
{
    int made = 0;
    for (int i = 0; i < nfiles; i++) {
        char *src = read_text(files[i]);
        if (!src)
            continue;
        const char *dot = strrchr(files[i], '.');
        gm_shader_source ss = { dot && !strcmp(dot, ".frag") ? GM_STAGE_FRAGMENT : GM_STAGE_VERTEX, src, NULL };
        gm_compile_result cr;
        if (gm_compile_program(&ss, 1, &cr) == 0) {
            const char *base = strrchr(files[i], '/');
            char name[256];
            snprintf(name, sizeof name, "spirv-%s", base ? base + 1 : files[i]);
            if (write_seed(dir, name, -1, cr.shaders[0].spirv, cr.shaders[0].word_count * 4) == 0)
                made++;
        } else {
            fprintf(stderr, "make_seeds: %s: %s\n", files[i], cr.log);
        }
        gm_compile_result_free(&cr);
        free(src);
    }
    return made;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: make_seeds STATE_DIR SPIRV_DIR [SHADER_FILE...]\n");
        return 2;
    }
    if (state_seeds(argv[1]) != 0) {
        fprintf(stderr, "make_seeds: cannot write the state seeds into %s\n", argv[1]);
        return 1;
    }
    int n = spirv_seeds(argv[2], argc - 3, argv + 3);
    printf("make_seeds: 2 state seeds, %d SPIR-V seeds\n", n);
    return 0;
}
