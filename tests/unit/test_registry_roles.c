/* Unit test: the generated parameter roles and command classes (registry/gen_registry.py) give, for
 * every command of the registry, the same answers as the run-time name matching they replaced:
 * glr_cmd_param_role against the by-name lookup, GLR_PF_TARGET against the "...arget" suffix test,
 * each GLR_CF_* class and glr_cmd_info.writes against the name tests replay/dispatch.c,
 * shim/client_arrays.c, replay/player/capture_load.c, replay/player/pass_reset_walk.c,
 * replay/player/capture_stats.c, ui_ipc/report/report_events.c, registry/glr_dlist.c,
 * replay/player/replay_readback.c, shim/readback_rec.c, gpu_model/frame/gmf_immediate.c,
 * gpu_model/frame/gmf_copies.c, statemodel/sm_apply_arb_program.c and statemodel/sm_apply.c made before (copied here, and only here, as the reference). */
#include <stdio.h>
#include <string.h>
#include "registry/glr_registry.h"
#include "replay/player/player.h"
#include "statemodel/sm_current.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool starts_any(const char *n, const char *const *prefixes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (starts(n, prefixes[i]))
            return true;
    return false;
}

/* The former replay/player/capture_stats.c glrh_cmd_is_draw/is_blit/is_clear. */
static bool old_is_draw(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    return (starts(n, "glDraw") && !starts(n, "glDrawBuffer")) || starts(n, "glMultiDraw") ||
           cmd == GLR_CMD_glEnd || sm_imm_kind_of(cmd) == SM_IMM_RECT;
}

static bool old_is_blit(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    return starts(n, "glBlitFramebuffer") || starts(n, "glBlitNamedFramebuffer");
}

static bool old_is_clear(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    if (strcmp(n, "glClear") == 0 || starts(n, "glClearNamedFramebuffer"))
        return true;
    return starts(n, "glClearBuffer") && !starts(n, "glClearBufferData") && !starts(n, "glClearBufferSubData");
}

/* The former pass_reset_walk.c classify(), verbatim but for the result names. */
static int old_classify(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    if (old_is_draw(cmd) || old_is_clear(cmd) || !strcmp(n, "glBlitFramebuffer") ||
        !strcmp(n, "glBlitNamedFramebuffer") || starts(n, "glDispatchCompute") || !strcmp(n, "glEnd") ||
        !strcmp(n, "glDrawPixels") || !strcmp(n, "glCopyPixels") || !strcmp(n, "glBitmap") ||
        !strcmp(n, "glAccum") || starts(n, "glCallList") || starts(n, "glRect") || starts(n, "glEvalMesh"))
        return GLR_WRITES_DRAW;
    if (starts(n, "glGet") || starts(n, "glBind") || starts(n, "glIs") || starts(n, "glDelete") ||
        starts(n, "glGen") || starts(n, "glCreate")) {
        if (!strcmp(n, "glGetTexImage") || !strcmp(n, "glGetnTexImage") || starts(n, "glGetCompressedTex") ||
            starts(n, "glGetTextureImage") || starts(n, "glGetTextureSubImage") || starts(n, "glGetCompressedTexture"))
            return GLR_WRITES_PACK;
        if (starts(n, "glGetQueryObject") || starts(n, "glGetQueryBufferObject"))
            return GLR_WRITES_QUERY_RESULT;
        if (starts(n, "glGenerate"))
            return GLR_WRITES_TEXTURE;
        return GLR_WRITES_NONE;
    }
    if (!strcmp(n, "glReadPixels") || !strcmp(n, "glReadnPixels"))
        return GLR_WRITES_PACK;
    if (!strcmp(n, "glCopyImageSubData"))
        return GLR_WRITES_COPY_IMAGE;
    if (strstr(n, "RenderbufferStorage"))
        return GLR_WRITES_RENDERBUFFER;
    if (strstr(n, "Framebuffer"))
        return GLR_WRITES_NONE;
    if (strstr(n, "Buffer") && (strstr(n, "Data") || strstr(n, "Storage") || strstr(n, "Map") ||
                                strstr(n, "Invalidate")))
        return GLR_WRITES_BUFFER;
    if (strstr(n, "Tex") && (strstr(n, "Image") || strstr(n, "Storage") || strstr(n, "Buffer")))
        return GLR_WRITES_TEXTURE;
    return GLR_WRITES_NONE;
}

/* The former debugger/pixel/pixel_feed.c and pixel_history.c name tests, verbatim but for the names. */
static const char *old_pxh_writer_kind(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    if (strstr(n, "BlitFramebuffer") || strstr(n, "BlitNamedFramebuffer"))
        return "blit";
    if (starts(n, "glCopy") || strstr(n, "CopyImageSubData"))
        return "copy";
    if (strstr(n, "TexSubImage") || strstr(n, "TexImage") || starts(n, "glClearTex") || starts(n, "glDrawPixels") ||
        strstr(n, "GenerateMipmap") || strstr(n, "GenerateTextureMipmap"))
        return "upload";
    return NULL;
}

static bool old_sync_rest(const char *n)   /* sync_cmd after its class tests */
{
    return strstr(n, "ReadPixels") || strstr(n, "ReadnPixels") || strstr(n, "GetTexImage") ||
           strstr(n, "GetTextureImage") || strstr(n, "GetTextureSubImage") || strstr(n, "GetnTexImage") ||
           starts(n, "glAccum") || strstr(n, "DispatchCompute");
}

static bool old_reads_framebuffer(const char *n)
{
    return strstr(n, "ReadPixels") || strstr(n, "ReadnPixels") || starts(n, "glCopyTex") ||
           starts(n, "glCopyTexture") || starts(n, "glCopyPixels") || strstr(n, "BlitFramebuffer") ||
           strstr(n, "BlitNamedFramebuffer") || strstr(n, "CopyColorSubTable") || starts(n, "glCopyColor") ||
           starts(n, "glCopyConvolution") || starts(n, "glAccum");
}

/* replay/player/replay_readback.c and shim/readback_rec.c: a readback that returns pixels. */
static bool old_readback_pixels(const char *n)
{
    return starts(n, "glReadPixels") || starts(n, "glReadnPixels") || strstr(n, "TexImage") ||
           strstr(n, "TextureImage");
}

/* gpu_model/frame/gmf_runner.c is_draw_cmd, touches_textures, gpu_copy_cmd; gmf_copies.c's copy test. */
static bool old_gmf_draw(const char *n)
{
    return starts(n, "glDrawArrays") || starts(n, "glDrawElements") ||
           starts(n, "glDrawRangeElements") || starts(n, "glMultiDrawArrays") ||
           starts(n, "glMultiDrawElements");
}

static bool old_gmf_touches_textures(const char *n)
{
    return starts(n, "glTex") || starts(n, "glTexture") || starts(n, "glCompressedTex") ||
           starts(n, "glCopyTex") || starts(n, "glBindTexture") || starts(n, "glDeleteTextures");
}

static bool old_gmf_copies_gpu(const char *n)
{
    return starts(n, "glCopyTex") || starts(n, "glCopyTexture") || starts(n, "glCopyImageSubData") ||
           starts(n, "glClearTex") || starts(n, "glCopyBufferSubData") ||
           starts(n, "glCopyNamedBufferSubData") || starts(n, "glBeginTransformFeedback");
}

static bool old_gmf_gpu_copy(const char *n)
{
    return starts(n, "glBlitFramebuffer") || starts(n, "glBlitNamedFramebuffer") ||
           starts(n, "glCopyTex") || starts(n, "glCopyTexture") || starts(n, "glCopyImageSubData") ||
           starts(n, "glClearTex") || starts(n, "glDispatchCompute") ||
           starts(n, "glCopyBufferSubData") || starts(n, "glCopyNamedBufferSubData") ||
           starts(n, "glBeginTransformFeedback");
}

/* The reader classes (gen_registry.py reader_flags) as the readers tested them by name. */
static unsigned old_reader_flags(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    unsigned f = 0;
    if (strstr(n, "BlitFramebuffer") || strstr(n, "BlitNamedFramebuffer"))
        f |= GLR_CF_BLIT_ANY;
    /* COPY_ANY/UPLOAD hold whatever matched, blit or not: the writer kind tests GLR_CF_BLIT_ANY first. */
    if (starts(n, "glCopy") || strstr(n, "CopyImageSubData"))
        f |= GLR_CF_COPY_ANY;
    if (strstr(n, "TexSubImage") || strstr(n, "TexImage") || starts(n, "glClearTex") || starts(n, "glDrawPixels") ||
        strstr(n, "GenerateMipmap") || strstr(n, "GenerateTextureMipmap"))
        f |= GLR_CF_UPLOAD;
    if (starts(n, "glClear"))
        f |= GLR_CF_CLEAR_NAMED;
    if (old_sync_rest(n))
        f |= GLR_CF_READS_IMAGE;
    if (old_reads_framebuffer(n))
        f |= GLR_CF_READS_FRAMEBUFFER;
    if (starts(n, "glBeginQuery"))
        f |= GLR_CF_BEGIN_QUERY;
    if (old_readback_pixels(n))
        f |= GLR_CF_PIXELS;
    if (old_gmf_draw(n))
        f |= GLR_CF_ARRAY_DRAW;
    if (old_gmf_touches_textures(n))
        f |= GLR_CF_TEX_STATE;
    if (old_gmf_copies_gpu(n))
        f |= GLR_CF_GPU_COPY;
    return f;
}

/* The new readers' expressions (as written at each reader), against the old ones. */
static const char *new_pxh_writer_kind(uint32_t cmd)
{
    uint32_t f = glr_cmds[cmd].flags;
    return f & GLR_CF_BLIT_ANY ? "blit" : f & GLR_CF_COPY_ANY ? "copy" : f & GLR_CF_UPLOAD ? "upload" : NULL;
}

static void check_readers(uint32_t k, long *hits)
{
    const char *n = glr_cmd_name(k);
    uint32_t f = glr_cmds[k].flags;
    const char *ow = old_pxh_writer_kind(k), *nw = new_pxh_writer_kind(k);
    CHECK((ow == NULL) == (nw == NULL) && (!ow || !strcmp(ow, nw)), "%s: writer kind %s, by name %s", n,
          nw ? nw : "-", ow ? ow : "-");
    bool old_draws = starts(n, "glDraw") || starts(n, "glMultiDraw");
    CHECK(old_draws == ((f & (GLR_CF_DRAW_NAMED | GLR_CF_MULTI_DRAW)) != 0), "%s: glDraw*/glMultiDraw*", n);
    bool old_may = old_draws || starts(n, "glClear");
    CHECK(old_may == ((f & (GLR_CF_DRAW_NAMED | GLR_CF_MULTI_DRAW | GLR_CF_CLEAR_NAMED)) != 0), "%s: may write", n);
    CHECK(starts(n, "glDrawPixels") == (k == GLR_CMD_glDrawPixels), "%s: glDrawPixels", n);
    CHECK(old_gmf_gpu_copy(n) == ((f & (GLR_CF_BLIT | GLR_CF_DISPATCH_COMPUTE | GLR_CF_GPU_COPY)) != 0),
          "%s: GPU copy", n);
    *hits += ow != NULL;
}

/* The former registry/glr_dlist.c executed_immediately(), verbatim. */
static bool old_list_exec(const char *n)
{
    static const char *const prefixes[] = {
        "glGet", "glIs", "glGen", "glDelete", "glCreate", "glNewList", "glEndList", "glFeedbackBuffer",
        "glSelectBuffer", "glRenderMode", "glReadPixels", "glReadnPixels", "glFlush", "glFinish", "glFenceSync",
        "glClientWaitSync", "glWaitSync", "glPixelStore", "glClientActiveTexture", "glEnableClientState",
        "glDisableClientState", "glPushClientAttrib", "glPopClientAttrib", "glClientAttribDefault",
        "glInterleavedArrays", "glEnableVertexAttribArray", "glDisableVertexAttribArray", "glEnableVertexArray",
        "glDisableVertexArray", "glVertexAttribBinding", "glVertexBindingDivisor", "glBindVertexBuffer",
        "glBindVertexArray", "glVertexArray", "glBindBuffer", "glBufferData", "glBufferSubData", "glBufferStorage",
        "glNamedBuffer", "glMapBuffer", "glMapNamedBuffer", "glUnmapBuffer", "glUnmapNamedBuffer",
        "glFlushMapped", "glCopyBufferSubData", "glCopyNamedBufferSubData", "glClearBufferData",
        "glClearBufferSubData", "glClearNamedBufferData", "glClearNamedBufferSubData", "glInvalidateBuffer",
        "glShaderSource", "glCompileShader", "glAttachShader", "glAttachObject", "glDetachShader", "glDetachObject",
        "glLinkProgram", "glValidateProgram", "glBindAttribLocation", "glBindFragDataLocation", "glShaderBinary",
        "glProgramBinary", "glProgramParameteri", "glTransformFeedbackVaryings", "glReleaseShaderCompiler",
        "glSpecializeShader", "glBindFramebuffer", "glBindRenderbuffer", "glFramebufferTexture",
        "glFramebufferRenderbuffer", "glFramebufferParameteri", "glRenderbufferStorage", "glNamedFramebuffer",
        "glNamedRenderbuffer", "glCheckFramebufferStatus", "glCheckNamedFramebufferStatus", "glGenerateMipmap",
        "glGenerateTextureMipmap",
    };
    if (starts_any(n, prefixes, sizeof prefixes / sizeof prefixes[0]))
        return true;
    return strstr(n, "Pointer") != NULL || (starts(n, "glVertexAttrib") && strstr(n, "Format"));
}

/* The former gpu_model/frame/gmf_immediate.c find_unmodelled() prefixes. */
static bool old_evaluator(const char *n)
{
    return starts(n, "glEvalCoord") || starts(n, "glEvalPoint") || starts(n, "glEvalMesh");
}

/* The former replay/player/capture_stats.c counters: a bit per counter the name raised (the new
 * reader raises one, the class's), 1 << enum glr_info_class. */
static unsigned old_info_counters(const char *n)
{
    static const char *const buf[] = { "glBufferData", "glBufferSubData", "glBufferStorage", "glNamedBufferData",
                                       "glNamedBufferSubData", "glNamedBufferStorage" };
    unsigned f = 0;
    if (starts(n, "glShaderSource"))
        f |= 1u << GLR_INFO_SHADER_SOURCE;
    if (starts(n, "glCreateShaderProgramv"))
        f |= 1u << GLR_INFO_SHADER_PROGRAM_V;
    if (starts(n, "glGenBuffers") || starts(n, "glCreateBuffers"))
        f |= 1u << GLR_INFO_BUFFERS_CREATED;
    if (starts(n, "glGenTextures") || starts(n, "glCreateTextures"))
        f |= 1u << GLR_INFO_TEXTURES_CREATED;
    if (starts_any(n, buf, sizeof buf / sizeof buf[0]))
        f |= 1u << GLR_INFO_BUFFER_UPLOAD;
    else if ((starts(n, "glTex") || starts(n, "glTexture") || starts(n, "glCompressedTex") ||
              starts(n, "glMultiTex") || starts(n, "glCompressedMultiTex")) && strstr(n, "Image"))
        f |= 1u << GLR_INFO_TEXTURE_UPLOAD;
    return f;
}

/* The former replay/player/replay_readback.c read_again() chain (and shim/readback_rec.c's
 * glGetQueryObject prefix, its last branch). */
static int old_readback_call(const char *n)
{
    if (strcmp(n, "glReadPixels") == 0)
        return GLR_RBC_READ_PIXELS;
    if (starts(n, "glReadnPixels"))
        return GLR_RBC_READN_PIXELS;
    if (strcmp(n, "glGetTexImage") == 0)
        return GLR_RBC_GET_TEX_IMAGE;
    if (starts(n, "glGetnTexImage"))
        return GLR_RBC_GETN_TEX_IMAGE;
    if (strcmp(n, "glGetTextureImage") == 0)
        return GLR_RBC_GET_TEXTURE_IMAGE;
    if (starts(n, "glGetBufferSubData"))
        return GLR_RBC_GET_BUFFER_SUB_DATA;
    if (starts(n, "glGetNamedBufferSubData"))
        return GLR_RBC_GET_NAMED_BUFFER_SUB_DATA;
    if (starts(n, "glGetQueryObject"))
        return GLR_RBC_GET_QUERY_OBJECT;
    return GLR_RBC_NONE;
}

/* The former gpu_model/frame/gmf_copies.c upload_cmd() and gmf_copy_cmd() name branches. */
static int old_gpu_copy(const char *n)
{
    if (starts(n, "glTexImage1D") || starts(n, "glTexImage2D") || starts(n, "glTexImage3D") ||
        starts(n, "glTexSubImage") || starts(n, "glTextureSubImage"))
        return GLR_GPU_COPY_UPLOAD;
    if (starts(n, "glCompressedTex"))
        return GLR_GPU_COPY_COMPRESSED_UPLOAD;
    if (starts(n, "glDrawTransformFeedback"))
        return GLR_GPU_COPY_XFB_DRAW;
    if (starts(n, "glCopyTex") || starts(n, "glCopyTexture"))
        return GLR_GPU_COPY_COPY_TEX;
    return GLR_GPU_COPY_NONE;
}

/* The parts of the name gmf_copies.c, sm_apply_arb_program.c and sm_apply_vertex.c told a command's form by. */
static unsigned old_form(const char *n)
{
    unsigned f = 0;
    if (strstr(n, "SubImage"))
        f |= GLR_FORM_SUB_IMAGE;
    if (strstr(n, "SubData"))
        f |= GLR_FORM_SUB_DATA;
    if (strstr(n, "Multisample"))
        f |= GLR_FORM_MULTISAMPLE;
    if (strstr(n, "Named"))
        f |= GLR_FORM_NAMED;
    if (strstr(n, "2D"))
        f |= GLR_FORM_2D;
    /* statemodel/sm_apply_arb_program.c shape_of() */
    if (!strncmp(n, "glNamed", 7))
        f |= GLR_FORM_NAMED_FIRST;
    if (strstr(n, "Env") != NULL)
        f |= GLR_FORM_ENV;
    if (strstr(n, "Parameters4") != NULL)
        f |= GLR_FORM_PARAMETERS4;
    if (strstr(n, "4d") != NULL)
        f |= GLR_FORM_DOUBLE4;
    if (strstr(n, "4fv") || strstr(n, "4dv"))
        f |= GLR_FORM_VECTOR4;
    /* statemodel/sm_apply_vertex.c h_attrib_format() (where its commands have "Format") */
    if (!strncmp(n, "glVertexArray", 13))
        f |= GLR_FORM_VAO_FIRST;
    const char *fm = strstr(n, "Format");
    if (fm && fm > n && fm[-1] == 'I')
        f |= GLR_FORM_FORMAT_I;
    if (fm && fm > n && fm[-1] == 'L')
        f |= GLR_FORM_FORMAT_L;
    return f;
}

/* The former statemodel/sm_apply.c is_no_state(), verbatim. */
static bool old_no_state(const char *name)
{
    static const char *const no_state[] = {
        "glGet*", "glIs*", "glDraw*", "glMultiDraw*", "glClear", "glClearBuffer*",
        "glClearNamedFramebuffer*", "glClearTexImage", "glClearTexSubImage", "glReadPixels",
        "glReadnPixels*", "glFlush", "glFinish", "glDispatchCompute*", "glDebugMessage*",
        "glPushDebugGroup*", "glPopDebugGroup*", "glObjectLabel*", "glObjectPtrLabel*",
        "glInsertEventMarker*", "glPushGroupMarker*", "glPopGroupMarker*", "glStringMarker*",
        "glFrameTerminator*", "glCheckFramebufferStatus*", "glCheckNamedFramebufferStatus*",
        "glBlitFramebuffer*", "glBlitNamedFramebuffer", "glCopyImageSubData*", "glMemoryBarrier*",
        "glTextureBarrier*", "glValidateProgram*", "glInvalidate*", "glClientWaitSync*",
        "glWaitSync*", "glFlushMappedBufferRange*", "glFlushMappedNamedBufferRange*",
        "glReleaseShaderCompiler", "glGetnUniform*", "glBeginConditionalRender*",
        "glEndConditionalRender*", "glPolygonOffsetx*", "glResolveMultisampleFramebuffer*",
        "glDiscardFramebuffer*", "glCopyTexSubImage*", "glCopyTextureSubImage*",
        "glMaxShaderCompilerThreads*", "glSampleMaskIndexedNV",
    };
    for (size_t i = 0; i < sizeof no_state / sizeof *no_state; i++) {
        const char *p = no_state[i];
        size_t n = strlen(p);
        if (p[n - 1] == '*' ? strncmp(name, p, n - 1) == 0 : strcmp(name, p) == 0)
            return true;
    }
    return false;
}

/* The former statemodel/sm_apply.c suffix_fallback()'s name part: the command named like this one
 * less its vendor suffix, or -1. */
static int old_unsuffixed(const char *name)
{
    static const char *const vendor_suffixes[] = { "ARB", "EXT", "OES", "KHR", "NV", "AMD", "APPLE",
                                                   "ATI", "MESA", "INTEL", NULL };
    size_t len = strlen(name);
    for (int k = 0; vendor_suffixes[k]; k++) {
        size_t sl = strlen(vendor_suffixes[k]);
        if (len <= sl + 2 || strcmp(name + len - sl, vendor_suffixes[k]) != 0)
            continue;
        char base[128];
        if (len - sl >= sizeof base)
            return -1;
        memcpy(base, name, len - sl);
        base[len - sl] = 0;
        return glr_cmd_find(base);
    }
    return -1;
}

/* The readers converted in session 9 (names16b): the list recorder, `info`, the readbacks and the
 * evaluator note. Counts what the reference found, so that the comparison compares something. */
static void check_reader_fields(uint32_t k, long found[8])
{
    const struct glr_cmd_info *ci = &glr_cmds[k];
    const char *n = glr_cmd_name(k);
    bool old_compiled = ci->api == GLR_API_GL && !old_list_exec(n);
    CHECK(glr_cmd_compiled_into_list(k) == old_compiled, "%s: compiled into a list %d, by name %d", n,
          glr_cmd_compiled_into_list(k), old_compiled);
    unsigned oi = old_info_counters(n), ni = ci->info == GLR_INFO_NONE ? 0 : 1u << ci->info;
    CHECK(oi == ni, "%s: info counters 0x%x, by name 0x%x", n, ni, oi);
    int rc = old_readback_call(n);
    CHECK(ci->readback == rc, "%s: readback call %d, by name %d", n, ci->readback, rc);
    int gc = old_gpu_copy(n);
    CHECK(ci->gpu_copy == gc, "%s: frame model copy kind %d, by name %d", n, ci->gpu_copy, gc);
    CHECK(ci->form == old_form(n), "%s: form 0x%x, by name 0x%x", n, (unsigned)ci->form, old_form(n));
    int un = old_unsuffixed(n);
    CHECK(ci->unsuffixed == un, "%s: unsuffixed form %d, by name %d", n, ci->unsuffixed, un);
    found[6] += un >= 0;
    found[7] += old_no_state(n);
    found[4] += gc != GLR_GPU_COPY_NONE;
    found[5] += old_form(n) != 0;
    found[0] += !old_compiled && ci->api == GLR_API_GL;
    found[1] += oi != 0;
    found[2] += rc != GLR_RBC_NONE;
    found[3] += old_evaluator(n);
}

/* The former gpu_model/frame/gmf_beginend.c find_allowed(): the commands GL accepts between glBegin
 * and glEnd, verbatim but for the table it filled. */
static bool old_counted(const char *rest)
{
    if (rest[0] == 'I' || rest[0] == 'L' || rest[0] == 'P')
        rest++;
    return rest[0] >= '0' && rest[0] <= '9';
}

static bool old_suffix_of(const char *rest, const char *const *forms)
{
    for (; *forms; forms++)
        if (!strcmp(rest, *forms))
            return true;
    return false;
}

static bool old_begin_end(const char *n)
{
    static const char *const counted_families[] = { "glVertexAttrib", "glVertex", "glColor",
        "glSecondaryColor", "glNormal", "glTexCoord", "glMultiTexCoord" };
    static const char *const fog[] = { "f", "fv", "d", "dv", "fEXT", "fvEXT", "dEXT", "dvEXT", "hNV",
                                       "hvNV", NULL };
    static const char *const index[] = { "s", "sv", "i", "iv", "f", "fv", "d", "dv", "ub", "ubv", NULL };
    static const char *const edge[] = { "", "v", NULL };
    static const char *const material[] = { "f", "fv", "i", "iv", NULL };
    static const char *const exact[] = { "glArrayElement", "glArrayElementEXT", "glCallList", "glCallLists",
                                         "glEnd", NULL };
    bool ok = old_suffix_of(n, exact) || !strncmp(n, "glEvalCoord", 11) || !strncmp(n, "glEvalPoint", 11);
    for (size_t i = 0; !ok && i < sizeof counted_families / sizeof *counted_families; i++) {
        size_t l = strlen(counted_families[i]);
        ok = !strncmp(n, counted_families[i], l) && old_counted(n + l);
    }
    if (!ok && !strncmp(n, "glFogCoord", 10))
        ok = old_suffix_of(n + 10, fog);
    if (!ok && !strncmp(n, "glIndex", 7))
        ok = old_suffix_of(n + 7, index);
    if (!ok && !strncmp(n, "glEdgeFlag", 10))
        ok = old_suffix_of(n + 10, edge);
    if (!ok && !strncmp(n, "glMaterial", 10))
        ok = old_suffix_of(n + 10, material);
    return ok;
}

/* The former gmf_vbo_format.c is_query() and its glMaterial test, and gmf_images.c upload_target()'s
 * names, verbatim. */
static bool old_vbo_query(const char *n)
{
    return !strncmp(n, "glGet", 5) || !strncmp(n, "glIs", 4) || !strcmp(n, "glAreTexturesResident") ||
           !strcmp(n, "glCheckFramebufferStatus");
}

static bool old_image_upload(const char *n)
{
    bool dsa = !strncmp(n, "glTextureSubImage", 17) || !strncmp(n, "glCompressedTextureSubImage", 27);
    return dsa || !strncmp(n, "glTexImage", 10) || !strncmp(n, "glTexSubImage", 13) ||
           !strncmp(n, "glCompressedTexImage", 20) || !strncmp(n, "glCompressedTexSubImage", 23);
}

/* The frame model's other name tests against what its readers now ask (gmf_xfb.c: the transform
 * feedback draws and their stream/instanced forms; gmf_queries.c: the query-object reads;
 * gmf_images.c: a DSA upload names its texture first). */
static void check_frame_readers(uint32_t k, long *hits)
{
    const char *n = glr_cmd_name(k);
    const struct glr_cmd_info *ci = &glr_cmds[k];
    bool xfb = !strncmp(n, "glDrawTransformFeedback", 23);
    CHECK(xfb == (ci->gpu_copy == GLR_GPU_COPY_XFB_DRAW), "%s: transform feedback draw", n);
    if (xfb) {
        CHECK((strstr(n, "Stream") != NULL) == (glr_cmd_param_role(ci, GLR_ROLE_stream) >= 0), "%s: stream", n);
        CHECK((strstr(n, "Instanced") != NULL) == (glr_cmd_param_role(ci, GLR_ROLE_instancecount) >= 0),
              "%s: instanced", n);
        ++*hits;
    }
    bool qobj = starts(n, "glGetQueryObject"), qbuf = starts(n, "glGetQueryBufferObject");
    CHECK(qobj == (ci->readback == GLR_RBC_GET_QUERY_OBJECT), "%s: query object read", n);
    CHECK(qbuf == (!qobj && ci->writes == GLR_WRITES_QUERY_RESULT), "%s: query buffer object read", n);
    /* gmf_lists.c: the array draws a display list may hold directly, not the indirect ones. */
    if (ci->flags & GLR_CF_ARRAY_DRAW)
        CHECK((strstr(n, "Indirect") != NULL) == (glr_cmd_param_role(ci, GLR_ROLE_indirect) >= 0), "%s: indirect", n);
    if (old_image_upload(n)) {
        bool dsa = !strncmp(n, "glTextureSubImage", 17) || !strncmp(n, "glCompressedTextureSubImage", 27);
        CHECK(dsa == (ci->nparams > 0 && glr_cmd_params(ci)[0].obj_class == GLR_OBJ_TEXTURE), "%s: DSA upload", n);
    }
}

/* The classes as the former call sites tested them by name. */
static unsigned old_flags(uint32_t cmd)
{
    const char *n = glr_cmd_name(cmd);
    static const char *const tex_calls[] = { "glTexImage", "glTexSubImage", "glCompressedTexImage",
        "glCompressedTexSubImage", "glTexStorage", "glCopyTexImage", "glCopyTexSubImage", "glGenerateMipmap",
        "glTextureSubImage", "glTextureStorage", "glCompressedTextureSubImage", "glCopyTextureSubImage",
        "glGenerateTextureMipmap", "glTextureImage" };
    static const char *const buf_calls[] = { "glBufferData", "glBufferSubData", "glBufferStorage", "glNamedBufferData",
        "glNamedBufferSubData", "glNamedBufferStorage", "glCopyBufferSubData", "glCopyNamedBufferSubData" };
    unsigned f = 0;
    if (strncmp(n, "glDraw", 6) == 0)
        f |= GLR_CF_DRAW_NAMED;
    if (!strncmp(n, "glMultiDraw", 11))
        f |= GLR_CF_MULTI_DRAW;
    if (strstr(n, "Elements"))
        f |= GLR_CF_ELEMENTS;
    if (strstr(n, "Tex") || strstr(n, "Renderbuffer"))
        f |= GLR_CF_IMAGE_SIDES;
    if (!strncmp(n, "glMap", 5) && strstr(n, "Buffer"))
        f |= GLR_CF_MAP_BUFFER;
    if (starts(n, "glDispatchCompute"))
        f |= GLR_CF_DISPATCH_COMPUTE;
    if (starts(n, "glCopyTex") || starts(n, "glCopyTexture"))
        f |= GLR_CF_COPY_TEX;
    if (starts_any(n, tex_calls, sizeof tex_calls / sizeof tex_calls[0]))
        f |= GLR_CF_TEX_WRITE;
    if (starts_any(n, buf_calls, sizeof buf_calls / sizeof buf_calls[0]))
        f |= GLR_CF_BUF_WRITE;
    if (old_is_draw(cmd))
        f |= GLR_CF_DRAW;
    if (old_is_clear(cmd))
        f |= GLR_CF_CLEAR;
    if (old_is_blit(cmd))
        f |= GLR_CF_BLIT;
    if (old_list_exec(n))
        f |= GLR_CF_LIST_EXEC;
    if (old_evaluator(n))
        f |= GLR_CF_EVALUATOR;
    if (old_no_state(n))
        f |= GLR_CF_NO_STATE;
    if (old_vbo_query(n))
        f |= GLR_CF_QUERY;
    if (old_begin_end(n))
        f |= GLR_CF_BEGIN_END;
    if (old_image_upload(n))
        f |= GLR_CF_IMAGE_UPLOAD;
    if (!strncmp(n, "glMaterial", 10))
        f |= GLR_CF_MATERIAL;
    return f | old_reader_flags(cmd);
}

int main(void)
{
    long roles_found = 0, targets = 0, flagged = 0, writing = 0, writers = 0, xfb_draws = 0, found[8] = { 0 };
    for (uint32_t k = 0; k < GLR_CMD_COUNT; k++) {
        const struct glr_cmd_info *ci = &glr_cmds[k];
        const char *n = glr_cmd_name(k);
        for (int r = GLR_ROLE_NONE + 1; r < GLR_ROLE_COUNT_; r++) {
            int by_role = glr_cmd_param_role(ci, (enum glr_role)r);
            int by_name = glr_cmd_param_index(ci, glr_role_names[r]);
            CHECK(by_role == by_name, "%s: role %s gives parameter %d, its name %d", n, glr_role_names[r], by_role,
                  by_name);
            roles_found += by_role >= 0;
        }
        for (int i = 0; i < ci->nparams; i++) {
            const char *pn = glr_param_name(&glr_cmd_params(ci)[i]);
            size_t len = strlen(pn);
            bool target = len >= 6 && strcmp(pn + len - 5, "arget") == 0;
            CHECK(target == ((glr_cmd_params(ci)[i].flags & GLR_PF_TARGET) != 0), "%s: parameter %s target flag", n, pn);
            targets += target;
        }
        unsigned want = old_flags(k);
        CHECK(ci->flags == want, "%s: classes 0x%x, by name 0x%x", n, (unsigned)ci->flags, want);
        flagged += want != 0;
        int w = old_classify(k);
        CHECK(ci->writes == w, "%s: writes %d, by name %d", n, ci->writes, w);
        writing += w != GLR_WRITES_NONE;
        check_readers(k, &writers);
        check_reader_fields(k, found);
        check_frame_readers(k, &xfb_draws);
    }
    CHECK(found[6] > 300 && found[7] > 300, "too few unsuffixed forms (%ld) or no-state commands (%ld)", found[6],
          found[7]);
    CHECK(found[4] > 50 && found[5] > 200, "too few frame model copies (%ld) or forms (%ld)", found[4], found[5]);
    CHECK(found[0] > 500 && found[1] > 40 && found[2] > 15 && found[3] >= 7,
          "too few executed-at-once (%ld), info-counted (%ld), readback (%ld) or evaluator (%ld) commands", found[0],
          found[1], found[2], found[3]);
    /* The comparison compares something: the reference finds roles, targets and classes. */
    CHECK(writers > 100, "too few pixel-history writers (%ld)", writers);
    CHECK(xfb_draws >= 4, "too few transform feedback draws (%ld)", xfb_draws);
    CHECK(roles_found > 3000 && targets > 500 && flagged > 300 && writing > 300,
          "too few roles (%ld), targets (%ld), classed (%ld) or writing (%ld) commands", roles_found, targets,
          flagged, writing);
    CHECK(glr_cmd_param_role(&glr_cmds[GLR_CMD_glDrawElementsInstancedBaseVertex], GLR_ROLE_basevertex) == 5,
          "glDrawElementsInstancedBaseVertex basevertex");
    CHECK(glr_cmds[GLR_CMD_glTexImage2D].writes == GLR_WRITES_TEXTURE, "glTexImage2D writes a texture");
    CHECK(glrh_cmd_is_draw(GLR_CMD_glRectf) && !glrh_cmd_is_draw(GLR_CMD_glDrawBuffers) &&
          glrh_cmd_is_clear(GLR_CMD_glClearBufferfv) && !glrh_cmd_is_clear(GLR_CMD_glClearColor) &&
          glrh_cmd_is_blit(GLR_CMD_glBlitFramebuffer) && !glrh_cmd_is_draw(GLR_CMD_COUNT),
          "glrh_cmd_is_draw/clear/blit on known commands");
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("registry roles: %d commands, %ld roles, %ld targets, %ld classed, %ld writing, %ld executed at once "
               "in a list, %ld info-counted, %ld readback, %ld evaluator, %ld frame model copies, %ld with a form, "
               "%ld unsuffixed, %ld no-state: same as by name\n", GLR_CMD_COUNT, roles_found, targets, flagged, writing,
               found[0], found[1], found[2], found[3], found[4], found[5], found[6], found[7]);
    return failures ? 1 : 0;
}
