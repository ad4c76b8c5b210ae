"""Per-command classes for the readers that used to test command names at run time (issue 16 §3):
the display-list recorder, `glreplay info`'s counters, the readbacks' call forms, the frame
model's evaluator notes, its copies' per-command variants and the state model's ARB program
parameter forms and vertex attribute formats, and the state model's command classes (no state; the unsuffixed form). Worked out here from the registry's command names once, at build time;
gen_registry.py writes them into glr_cmd_info (flags, info, readback, gpu_copy, form, unsuffixed), and the unit test
registry_roles (tests/unit/test_registry_roles.c) proves each equal to the name test it replaced,
for every command.
"""


def starts(n, *prefixes):
    return any(n.startswith(x) for x in prefixes)


# GL executes these at once even between glNewList and glEndList (OpenGL 4.6 compatibility
# profile, 21.4.1 "Commands Not Usable In Display Lists"): queries, object names, client state and
# client-memory pointers, pixel store, buffer object data, shader/program building, framebuffer
# and renderbuffer objects, sync, feedback/select.
LIST_EXEC_PREFIXES = (
    'glGet', 'glIs', 'glGen', 'glDelete', 'glCreate', 'glNewList', 'glEndList', 'glFeedbackBuffer',
    'glSelectBuffer', 'glRenderMode', 'glReadPixels', 'glReadnPixels', 'glFlush', 'glFinish', 'glFenceSync',
    'glClientWaitSync', 'glWaitSync', 'glPixelStore', 'glClientActiveTexture', 'glEnableClientState',
    'glDisableClientState', 'glPushClientAttrib', 'glPopClientAttrib', 'glClientAttribDefault',
    'glInterleavedArrays', 'glEnableVertexAttribArray', 'glDisableVertexAttribArray', 'glEnableVertexArray',
    'glDisableVertexArray', 'glVertexAttribBinding', 'glVertexBindingDivisor', 'glBindVertexBuffer',
    'glBindVertexArray', 'glVertexArray', 'glBindBuffer', 'glBufferData', 'glBufferSubData', 'glBufferStorage',
    'glNamedBuffer', 'glMapBuffer', 'glMapNamedBuffer', 'glUnmapBuffer', 'glUnmapNamedBuffer',
    'glFlushMapped', 'glCopyBufferSubData', 'glCopyNamedBufferSubData', 'glClearBufferData',
    'glClearBufferSubData', 'glClearNamedBufferData', 'glClearNamedBufferSubData', 'glInvalidateBuffer',
    'glShaderSource', 'glCompileShader', 'glAttachShader', 'glAttachObject', 'glDetachShader', 'glDetachObject',
    'glLinkProgram', 'glValidateProgram', 'glBindAttribLocation', 'glBindFragDataLocation', 'glShaderBinary',
    'glProgramBinary', 'glProgramParameteri', 'glTransformFeedbackVaryings', 'glReleaseShaderCompiler',
    'glSpecializeShader', 'glBindFramebuffer', 'glBindRenderbuffer', 'glFramebufferTexture',
    'glFramebufferRenderbuffer', 'glFramebufferParameteri', 'glRenderbufferStorage', 'glNamedFramebuffer',
    'glNamedRenderbuffer', 'glCheckFramebufferStatus', 'glCheckNamedFramebufferStatus', 'glGenerateMipmap',
    'glGenerateTextureMipmap',
)


def list_exec(n):
    """GL runs the command at once inside a display list (registry/glr_dlist.c)."""
    # glVertexPointer, glVertexAttribPointer, glTexCoordPointer, ...; glVertexAttrib*Format.
    return starts(n, *LIST_EXEC_PREFIXES) or 'Pointer' in n or (starts(n, 'glVertexAttrib') and 'Format' in n)


def flags(n):
    """GLR_CF_* classes of these readers (appended to gen_registry.py CMD_FLAGS)."""
    f = []
    if list_exec(n):
        f.append('GLR_CF_LIST_EXEC')          # executed at once between glNewList and glEndList
    if starts(n, 'glEvalCoord', 'glEvalPoint', 'glEvalMesh'):
        f.append('GLR_CF_EVALUATOR')          # evaluators: the frame model notes them as not modelled
    if no_state(n):
        f.append('GLR_CF_NO_STATE')           # changes nothing the state model keeps
    return f


FLAGS = ('GLR_CF_LIST_EXEC', 'GLR_CF_EVALUATOR', 'GLR_CF_NO_STATE')

# Commands that read state or write only GPU-side contents (framebuffer pixels, buffer and texture
# data written by the GPU), and so change nothing the state model keeps (statemodel/sm_apply.c's
# command classes). Prefixes end with '*'.
NO_STATE = (
    'glGet*', 'glIs*', 'glDraw*', 'glMultiDraw*', 'glClear', 'glClearBuffer*',
    'glClearNamedFramebuffer*', 'glClearTexImage', 'glClearTexSubImage', 'glReadPixels',
    'glReadnPixels*', 'glFlush', 'glFinish', 'glDispatchCompute*', 'glDebugMessage*',
    'glPushDebugGroup*', 'glPopDebugGroup*', 'glObjectLabel*', 'glObjectPtrLabel*',
    'glInsertEventMarker*', 'glPushGroupMarker*', 'glPopGroupMarker*', 'glStringMarker*',
    'glFrameTerminator*', 'glCheckFramebufferStatus*', 'glCheckNamedFramebufferStatus*',
    'glBlitFramebuffer*', 'glBlitNamedFramebuffer', 'glCopyImageSubData*', 'glMemoryBarrier*',
    'glTextureBarrier*', 'glValidateProgram*', 'glInvalidate*', 'glClientWaitSync*',
    'glWaitSync*', 'glFlushMappedBufferRange*', 'glFlushMappedNamedBufferRange*',
    'glReleaseShaderCompiler', 'glGetnUniform*', 'glBeginConditionalRender*',
    'glEndConditionalRender*', 'glPolygonOffsetx*', 'glResolveMultisampleFramebuffer*',
    'glDiscardFramebuffer*', 'glCopyTexSubImage*', 'glCopyTextureSubImage*',
    'glMaxShaderCompilerThreads*', 'glSampleMaskIndexedNV',
)


def no_state(n):
    return any(n.startswith(p[:-1]) if p.endswith('*') else n == p for p in NO_STATE)


VENDOR_SUFFIXES = ('ARB', 'EXT', 'OES', 'KHR', 'NV', 'AMD', 'APPLE', 'ATI', 'MESA', 'INTEL')


def unsuffixed(n, index):
    """The command named like this one less its vendor suffix (glBindFramebufferEXT:
    glBindFramebuffer), or -1: the state model applies a suffixed command the registry does not
    mark as an alias as that one when their parameters agree (statemodel/sm_apply.c)."""
    assert len(index) < 32768, 'glr_cmd_info.unsuffixed: an int16_t'
    for sfx in VENDOR_SUFFIXES:
        if len(n) > len(sfx) + 2 and n.endswith(sfx):
            return index.get(n[:-len(sfx)], -1)
    return -1

# `glreplay info`'s counters (replay/player/capture_stats.c), one class per command.
INFO_CLASSES = ('NONE', 'SHADER_SOURCE', 'SHADER_PROGRAM_V', 'BUFFERS_CREATED', 'TEXTURES_CREATED',
                'BUFFER_UPLOAD', 'TEXTURE_UPLOAD')


def info_class(n):
    if starts(n, 'glShaderSource'):
        return 'SHADER_SOURCE'
    if starts(n, 'glCreateShaderProgramv'):
        return 'SHADER_PROGRAM_V'
    if starts(n, 'glGenBuffers', 'glCreateBuffers'):
        return 'BUFFERS_CREATED'
    if starts(n, 'glGenTextures', 'glCreateTextures'):
        return 'TEXTURES_CREATED'
    if starts(n, 'glBufferData', 'glBufferSubData', 'glBufferStorage', 'glNamedBufferData',
              'glNamedBufferSubData', 'glNamedBufferStorage'):
        return 'BUFFER_UPLOAD'
    if starts(n, 'glTex', 'glCompressedTex', 'glMultiTex', 'glCompressedMultiTex') and 'Image' in n:
        return 'TEXTURE_UPLOAD'
    return 'NONE'


# The call a readback is repeated with by replay --verify (replay/player/replay_readback.c), and the
# query-object reads whose destination may be a query buffer (shim/readback_rec.c). In the order
# the replay tested the names.
READBACK_CALLS = ('NONE', 'READ_PIXELS', 'READN_PIXELS', 'GET_TEX_IMAGE', 'GETN_TEX_IMAGE', 'GET_TEXTURE_IMAGE',
                  'GET_BUFFER_SUB_DATA', 'GET_NAMED_BUFFER_SUB_DATA', 'GET_QUERY_OBJECT')


def readback_call(n):
    if n == 'glReadPixels':
        return 'READ_PIXELS'
    if starts(n, 'glReadnPixels'):
        return 'READN_PIXELS'
    if n == 'glGetTexImage':
        return 'GET_TEX_IMAGE'
    if starts(n, 'glGetnTexImage'):
        return 'GETN_TEX_IMAGE'
    if n == 'glGetTextureImage':
        return 'GET_TEXTURE_IMAGE'
    if starts(n, 'glGetBufferSubData'):
        return 'GET_BUFFER_SUB_DATA'
    if starts(n, 'glGetNamedBufferSubData'):
        return 'GET_NAMED_BUFFER_SUB_DATA'
    if starts(n, 'glGetQueryObject'):
        return 'GET_QUERY_OBJECT'
    return 'NONE'


# What the frame model's copies (gpu_model/frame/gmf_copies.c gmf_copy_cmd) do with a command that
# its exact command ids do not pick, in the order it tested the names.
GPU_COPY_KINDS = ('NONE', 'UPLOAD', 'COMPRESSED_UPLOAD', 'XFB_DRAW', 'COPY_TEX')


def is_upload(n):
    """glTexImage{1,2,3}D*, glTexSubImage*, glTextureSubImage*: uploads the frame model runs."""
    return starts(n, 'glTexImage1D', 'glTexImage2D', 'glTexImage3D', 'glTexSubImage', 'glTextureSubImage')


def gpu_copy_kind(n):
    if is_upload(n):
        return 'UPLOAD'
    if starts(n, 'glCompressedTex'):
        return 'COMPRESSED_UPLOAD'
    if starts(n, 'glDrawTransformFeedback'):
        return 'XFB_DRAW'
    if starts(n, 'glCopyTex'):
        return 'COPY_TEX'
    return 'NONE'


# The forms a reader told apart within one of its families by a part of the name (struct
# glr_cmd_info.form): a part of an image or a buffer, multisample storage, the object named by
# the first argument ("Named" anywhere: glClearNamedBufferData), two-dimensional.
FORMS = (('SUB_IMAGE', lambda n: 'SubImage' in n),
         ('SUB_DATA', lambda n: 'SubData' in n),
         ('MULTISAMPLE', lambda n: 'Multisample' in n),
         ('NAMED', lambda n: 'Named' in n),
         ('2D', lambda n: '2D' in n),
         # ARB program parameters (statemodel/sm_apply_arb_program.c): the program's name first
         # (glNamedProgram*), environment not local, several vectors (Parameters4*), doubles, a pointer.
         ('NAMED_FIRST', lambda n: n.startswith('glNamed')),
         ('ENV', lambda n: 'Env' in n),
         ('PARAMETERS4', lambda n: 'Parameters4' in n),
         ('DOUBLE4', lambda n: '4d' in n),
         ('VECTOR4', lambda n: '4fv' in n or '4dv' in n),
         # Vertex attribute formats (statemodel/sm_apply_vertex.c h_attrib_format): the vertex array
         # object first (glVertexArray*), integer or 64-bit attributes (the letter before "Format").
         ('VAO_FIRST', lambda n: n.startswith('glVertexArray')),
         ('FORMAT_I', lambda n: 'Format' in n and n.index('Format') > 0 and n[n.index('Format') - 1] == 'I'),
         ('FORMAT_L', lambda n: 'Format' in n and n.index('Format') > 0 and n[n.index('Format') - 1] == 'L'))


def form(n):
    return ' | '.join('GLR_FORM_%s' % name for name, test in FORMS if test(n)) or '0'


def header(f):
    """The enums of the per-command fields (glr_commands.h)."""
    f.write('/* `glreplay info` counter of a command (struct glr_cmd_info.info). */\nenum glr_info_class {\n')
    for c in INFO_CLASSES:
        f.write('    GLR_INFO_%s,\n' % c)
    f.write('};\n\n')
    f.write('/* The call replay --verify repeats a readback with (struct glr_cmd_info.readback). */\n'
            'enum glr_readback_call {\n')
    for c in READBACK_CALLS:
        f.write('    GLR_RBC_%s,\n' % c)
    f.write('};\n\n')
    f.write('/* What the frame model\'s copies run a command as (struct glr_cmd_info.gpu_copy). */\n'
            'enum glr_gpu_copy_kind {\n')
    for c in GPU_COPY_KINDS:
        f.write('    GLR_GPU_COPY_%s,\n' % c)
    f.write('};\n\n')
    assert len(FORMS) <= 16, 'glr_cmd_info.form: more than 16 forms'
    f.write('/* Forms of a command within its family (struct glr_cmd_info.form). */\n')
    for i, (name, _) in enumerate(FORMS):
        f.write('#define GLR_FORM_%s (1u << %d)\n' % (name, i))
    f.write('\n')


def fields(n, index):
    """The row's trailing initialisers: info, readback, gpu_copy, form, unsuffixed."""
    return 'GLR_INFO_%s, GLR_RBC_%s, GLR_GPU_COPY_%s, %s, %d' % (info_class(n), readback_call(n), gpu_copy_kind(n),
                                                               form(n), unsuffixed(n, index))
