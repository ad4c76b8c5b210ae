"""The command classes of gl_annotations.txt ("COMMAND class TOKEN..." lines) and its value
families ("COMMAND family ..." lines): their vocabulary, the parser of those lines and the C they
become (struct glr_cmd_info: flags, writes, info, readback, gpu_copy, form, unsuffixed; the
glr_values table).

What a command is (a draw, a texture upload, run at once inside a display list, ...) is stated
per command in the annotation file, never worked out from its name: this module only knows the
words a line may use. tests/unit/test_registry_roles.c keeps the former run-time name tests and
proves the generated classes equal to them for every command, so a command left out of the
annotation file (or a new registry command that would need a class) shows up there.
"""

# GLR_CF_* bits of glr_cmd_info.flags, in bit order; the token is the name less GLR_CF_.
FLAGS = (
    'DRAW_NAMED',         # glDraw*: its count/instances bound a replayed draw
    'MULTI_DRAW',         # glMultiDraw*
    'ELEMENTS',           # reads an index array
    'IMAGE_SIDES',        # its width/height/depth are image sides
    'MAP_BUFFER',         # maps a buffer object
    'DISPATCH_COMPUTE',
    'COPY_TEX',           # reads the read framebuffer into a texture
    'TEX_WRITE',          # uploads or defines a texture's contents (event report)
    'BUF_WRITE',          # uploads or defines a buffer's contents (event report)
    'DRAW',               # draws (glEnd ends an immediate-mode draw, glRect* is one)
    'CLEAR',              # glClear and the per-attachment clears
    'BLIT',               # glBlitFramebuffer, glBlitNamedFramebuffer
    'BLIT_ANY',           # pixel history writer "blit" (multicast blits too)
    'COPY_ANY',           # pixel history writer "copy"
    'UPLOAD',             # pixel history writer "upload"
    'CLEAR_NAMED',        # glClear*, the setters of clear values too
    'READS_IMAGE',        # reads an image (pixel history sync point)
    'READS_FRAMEBUFFER',  # reads the framebuffer bound for reading
    'BEGIN_QUERY',
    'PIXELS',             # a readback that returns pixels (else a buffer or query value)
    'ARRAY_DRAW',         # the frame model's array/element draws
    'TEX_STATE',          # touches texture objects (frame model)
    'GPU_COPY',           # a copy on the GPU the frame model does not run
    'LIST_EXEC',          # executed at once between glNewList and glEndList (GL 4.6 compat 21.4.1)
    'EVALUATOR',          # evaluators: the frame model notes them as not modelled
    'NO_STATE',           # changes nothing the state model keeps
    'QUERY',              # returns state (glGet*, glIs*, ...): the frame model's vertex formats skip it
    'BEGIN_END',          # GL accepts it between glBegin and glEnd (GL 2.1 2.6.3; gmf_beginend.c)
    'IMAGE_UPLOAD',       # gl{Tex,CompressedTex}{Image,SubImage}*, gl{Compressed}TextureSubImage*: the
                          # frame model's image uploads (gmf_images.c)
    'MATERIAL',           # glMaterial*: the frame model's vertex formats count it as an attribute
)

# KEY:VALUE tokens: the enum each key fills, its C prefix and its values in enum order; a command
# with no token for a key has NONE.
ENUMS = {
    # What a command writes, for the pass reset plan (replay/player/pass_reset_walk.c).
    'writes': ('glr_writes', 'GLR_WRITES_', ('UNKNOWN', 'NONE', 'DRAW', 'BUFFER', 'TEXTURE', 'RENDERBUFFER',
                                             'PACK', 'QUERY_RESULT', 'COPY_IMAGE')),
    # `glreplay info`'s counter (replay/player/capture_stats.c).
    'info': ('glr_info_class', 'GLR_INFO_', ('NONE', 'SHADER_SOURCE', 'SHADER_PROGRAM_V', 'BUFFERS_CREATED',
                                             'TEXTURES_CREATED', 'BUFFER_UPLOAD', 'TEXTURE_UPLOAD')),
    # The call replay --verify repeats a readback with (replay/player/replay_readback.c).
    'readback': ('glr_readback_call', 'GLR_RBC_', ('NONE', 'READ_PIXELS', 'READN_PIXELS', 'GET_TEX_IMAGE',
                                                   'GETN_TEX_IMAGE', 'GET_TEXTURE_IMAGE', 'GET_BUFFER_SUB_DATA',
                                                   'GET_NAMED_BUFFER_SUB_DATA', 'GET_QUERY_OBJECT')),
    # What the frame model's copies run a command as (gpu_model/frame/gmf_copies.c).
    'gpu_copy': ('glr_gpu_copy_kind', 'GLR_GPU_COPY_', ('NONE', 'UPLOAD', 'COMPRESSED_UPLOAD', 'XFB_DRAW',
                                                        'COPY_TEX')),
}

# form:NAME tokens, GLR_FORM_* bits of glr_cmd_info.form in bit order: a command's form within its
# family, where a reader handles a family with one function.
FORMS = (
    'SUB_IMAGE',      # a part of an image
    'SUB_DATA',       # a part of a buffer
    'MULTISAMPLE',    # multisample storage
    'NAMED',          # direct state access: the object named by an argument
    '2D',             # two-dimensional
    'NAMED_FIRST',    # ARB program parameters: the program's name first (glNamedProgram*)
    'ENV',            # ARB program parameters: environment, not local
    'PARAMETERS4',    # ARB program parameters: several vectors
    'DOUBLE4',        # ARB program parameters: doubles
    'VECTOR4',        # ARB program parameters: a pointer to a vector
    'VAO_FIRST',      # vertex attribute formats: the vertex array object first (glVertexArray*)
    'FORMAT_I',       # vertex attribute formats: integer attributes
    'FORMAT_L',       # vertex attribute formats: 64-bit attributes
)

# unsuffixed:COMMAND: the command this one is applied as by the state model when the registry
# does not mark it an alias and their parameters agree (statemodel/sm_apply.c).


class CmdClass:
    __slots__ = ('flags', 'enums', 'forms', 'unsuffixed')

    def __init__(self):
        self.flags = set()
        self.enums = {}
        self.forms = set()
        self.unsuffixed = None


CLASSES = {}   # command name -> CmdClass, from the annotation file


def parse(cmd, tokens, by_name, where):
    """One 'COMMAND class TOKEN...' line; every token must be a known class."""
    if cmd in CLASSES:
        raise SystemExit('gen_registry: %s: a second class line for %s' % (where, cmd))
    k = CmdClass()
    for t in tokens:
        key, _, value = t.partition(':')
        if not value:
            if t not in FLAGS or t in k.flags:
                raise SystemExit('gen_registry: %s: unknown or repeated class %r' % (where, t))
            k.flags.add(t)
        elif key in ENUMS:
            if value not in ENUMS[key][2] or key in k.enums:
                raise SystemExit('gen_registry: %s: unknown or repeated %s %r' % (where, key, value))
            k.enums[key] = value
        elif key == 'form':
            if value not in FORMS or value in k.forms:
                raise SystemExit('gen_registry: %s: unknown or repeated form %r' % (where, value))
            k.forms.add(value)
        elif key == 'unsuffixed':
            if value not in by_name or value == cmd or k.unsuffixed:
                raise SystemExit('gen_registry: %s: unsuffixed %r is not another registry command' % (where, value))
            k.unsuffixed = value
        else:
            raise SystemExit('gen_registry: %s: unknown class key %r' % (where, key))
    CLASSES[cmd] = k


def header(f):
    """The enums and bits of the per-command class fields (glr_commands.h)."""
    assert len(FLAGS) <= 32, 'glr_cmd_info.flags: more than 32 classes'
    f.write('/* Command classes (struct glr_cmd_info.flags), from registry/gl_annotations.txt. */\n')
    for i, fl in enumerate(FLAGS):
        f.write('#define GLR_CF_%s (1u << %d)\n' % (fl, i))
    f.write('\n')
    for key, (enum, prefix, values) in ENUMS.items():
        f.write('/* struct glr_cmd_info.%s (gl_annotations.txt "%s:"). */\nenum %s {\n' % (key, key, enum))
        for v in values:
            f.write('    %s%s,\n' % (prefix, v))
        f.write('};\n\n')
    assert len(FORMS) <= 16, 'glr_cmd_info.form: more than 16 forms'
    f.write('/* Forms of a command within its family (struct glr_cmd_info.form). */\n')
    for i, name in enumerate(FORMS):
        f.write('#define GLR_FORM_%s (1u << %d)\n' % (name, i))
    f.write('\n')
    values_header(f)


def fields(n, index):
    """The row's class initialisers: flags, writes, then info, readback, gpu_copy, form, unsuffixed."""
    assert len(index) < 32768, 'glr_cmd_info.unsuffixed: an int16_t'
    k = CLASSES.get(n, CmdClass())
    flags = ' | '.join('GLR_CF_%s' % x for x in FLAGS if x in k.flags) or '0'
    e = {key: '%s%s' % (prefix, k.enums.get(key, 'NONE')) for key, (_, prefix, _) in ENUMS.items()}
    form = ' | '.join('GLR_FORM_%s' % x for x in FORMS if x in k.forms) or '0'
    unsuffixed = index[k.unsuffixed] if k.unsuffixed else -1
    return '%s, %s' % (flags, e['writes']), '%s, %s, %s, %s, %d' % (e['info'], e['readback'], e['gpu_copy'], form,
                                                                    unsuffixed)


# ---- Value families: "COMMAND family FAMILY [CxR] TYPE [store:TYPE] [FLAG...]" ----------------
# The commands that set values of one shape, handled by one function of a reader that needs their
# shape (the state model's uniforms, current vertex attributes and texture/sampler parameters), and
# the query-object reads with the type of the result they write (the frame model's query buffers),
# and the fixed-function setters of a pname's values (glLight*, glFog*, glTexEnv*, ...).
VALUE_FAMILIES = ('uniform', 'attrib', 'parameter', 'result', 'setter')
# Types of the values as the call passes them (and as the state model keeps them: store).
VALUE_TYPES = ('b', 'ub', 's', 'us', 'i', 'ui', 'f', 'd', 'i64', 'ui64')
VALUE_FLAGS = (
    'vector',       # the values come through a pointer (count of them for uniforms)
    'matrix',       # a uniform matrix: count, transpose, then the pointer
    'program',      # the program's name is the first argument (glProgramUniform*)
    'normalized',   # integers map to [-1, 1] or [0, 1] (glVertexAttrib*N*)
    'integer',      # pure integer texture/sampler values (gl*ParameterI*: the border colour kept as integers)
)
VALUES = {}   # command name -> (family, cols, rows, type, store, flags)


def parse_values(cmd, tokens, where):
    if cmd in VALUES:
        raise SystemExit('gen_registry: %s: a second family line for %s' % (where, cmd))
    if not tokens or tokens[0] not in VALUE_FAMILIES:
        raise SystemExit('gen_registry: %s: family FAMILY: one of %s' % (where, ', '.join(VALUE_FAMILIES)))
    cols, rows, vtype, store, flags = 1, 1, None, None, set()
    for t in tokens[1:]:
        if 'x' in t and t.replace('x', '', 1).isdigit():
            c, r = t.split('x')
            cols, rows = int(c), int(r)
            if not (1 <= cols <= 4 and 1 <= rows <= 4):
                raise SystemExit('gen_registry: %s: shape %r past 4x4' % (where, t))
        elif t in VALUE_TYPES and vtype is None:
            vtype = t
        elif t.startswith('store:') and t[6:] in VALUE_TYPES and store is None:
            store = t[6:]
        elif t in VALUE_FLAGS and t not in flags:
            flags.add(t)
        else:
            raise SystemExit('gen_registry: %s: unknown or repeated family word %r' % (where, t))
    if vtype is None:
        raise SystemExit('gen_registry: %s: family without a TYPE' % where)
    VALUES[cmd] = (tokens[0], cols, rows, vtype, store or vtype, flags)


def c_token(word):
    return word.upper()


def values_header(f):
    f.write('/* Value families (gl_annotations.txt "family" lines; struct glr_cmd_values). */\n'
            'enum glr_value_family {\n    GLR_VALUES_NONE,\n')
    for fam in VALUE_FAMILIES:
        f.write('    GLR_VALUES_%s,\n' % c_token(fam))
    f.write('};\n\nenum glr_value_type {\n    GLR_VT_NONE,\n')
    for t in VALUE_TYPES:
        f.write('    GLR_VT_%s,\n' % c_token(t))
    f.write('};\n\n')
    for i, fl in enumerate(VALUE_FLAGS):
        f.write('#define GLR_VF_%s (1u << %d)\n' % (c_token(fl), i))
    f.write('\n')


def values_table(f, names, index):
    """glr_values[]: one row per command with a family line, in command order."""
    rows = []
    for n in names:
        if n not in VALUES:
            continue
        fam, cols, nrows, vtype, store, flags = VALUES[n]
        assert index[n] < 65536, 'glr_cmd_values.cmd: a uint16_t'
        fl = ' | '.join('GLR_VF_%s' % c_token(x) for x in VALUE_FLAGS if x in flags) or '0'
        rows.append('    { %d, GLR_VALUES_%s, %d, %d, GLR_VT_%s, GLR_VT_%s, %s }, /* %s */\n' % (
            index[n], c_token(fam), cols, nrows, c_token(vtype), c_token(store), fl, n))
    f.write('\nconst struct glr_cmd_values glr_values[%d] = {\n%s};\n' % (max(len(rows), 1), ''.join(rows)))
    f.write('const unsigned glr_values_count = %d;\n' % len(rows))
