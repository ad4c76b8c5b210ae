/* The shader and program lists of a capture (dbg_capture_shaders.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_capture.h"
#include "debugger/dbg_capture_shaders.h"

const char *dbg_stage_short(int stage)
{
    static const char *n[] = { "VS", "TCS", "TES", "GS", "FS", "CS" };
    return stage >= 0 && stage < 6 ? n[stage] : "?";
}

static const char *stage_ext(int stage)
{
    static const char *n[] = { "vert", "tesc", "tese", "geom", "frag", "comp" };
    return stage >= 0 && stage < 6 ? n[stage] : "glsl";
}

static int count_lines(const char *s)
{
    int n = 1;
    for (; *s; s++)
        if (*s == '\n' && s[1])
            n++;
    return n;
}

int dbg_capture_find_shader(const struct dbg_capture *c, int stage, const char *source)
{
    for (int i = 0; i < c->n_shaders; i++)
        if (c->shaders[i].stage == stage && strcmp(c->shaders[i].source, source) == 0)
            return c->shaders[i].id;
    return 0;
}

const struct dbg_shader *dbg_capture_shader(const struct dbg_capture *c, int id)
{
    return id >= 1 && id <= c->n_shaders ? &c->shaders[id - 1] : NULL;
}

int dbg_capture_add_named_shader(struct dbg_capture *c, int stage, const char *source, uint32_t gl_name, uint32_t program)
{
    int id = dbg_capture_find_shader(c, stage, source);
    if (id)
        return id - 1;
    struct dbg_shader *p = realloc(c->shaders, (size_t)(c->n_shaders + 1) * sizeof *p);
    if (!p)
        return -1;
    c->shaders = p;
    struct dbg_shader *s = &c->shaders[c->n_shaders];
    memset(s, 0, sizeof *s);
    s->source = strdup(source);
    if (!s->source)
        return -1;
    s->id = c->n_shaders + 1;
    s->stage = stage;
    s->gl_name = gl_name;
    s->program = program;
    s->line_count = count_lines(source);
    /* The name says what the shader is (its program and stage), keeps the stage's extension
     * (editors pick the language from it) and the GL shader object when there was one. */
    if (gl_name)
        snprintf(s->name, sizeof s->name, "program%u-%s-shader%u.%s", program, dbg_stage_short(stage), gl_name,
                 stage_ext(stage));
    else
        snprintf(s->name, sizeof s->name, "program%u-%s.%s", program, dbg_stage_short(stage), stage_ext(stage));
    return c->n_shaders++;
}

int dbg_capture_add_shader(struct dbg_capture *c, int stage, const char *source, uint32_t program)
{
    return dbg_capture_add_named_shader(c, stage, source, 0, program);
}

int dbg_capture_add_program(struct dbg_capture *c, const struct dbg_program *p)
{
    struct dbg_program *np = realloc(c->programs, (size_t)(c->n_programs + 1) * sizeof *np);
    if (!np)
        return -1;
    c->programs = np;
    c->programs[c->n_programs++] = *p;
    return 0;
}
