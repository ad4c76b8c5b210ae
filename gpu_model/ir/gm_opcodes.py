"""The GPU model's IR opcodes (GM_OP_*), declared once, in the order of their values.

Read by gen_opcodes.py at build time (meson), which writes gm_opcode_enum.h (the gm_opcode enum
that gm_ir.h includes), gm_opcodes.h/.c (the table, the names the IR printer uses, and
gm_op_table_operands: the register words each instruction reads and writes) and the timing
model's per-opcode data. A new opcode is one line here; its executor case is written by hand
(exec/), and so is the operand rule of an opcode marked custom (gm_op_operands.c).

op(NAME, LATENCY, KIND, flags=(...), doc='...', d=, a=, b=, c=, custom=, nan=, what=, i64=, f64=):
  LATENCY  the timing model's class (gm_lat_class) of the result: alu, transcendental (the
           special-function unit: divisions; GLSL.std.450 functions are chosen by the
           instruction, EXT), texture, memory, branch
  KIND     how the scoreboard treats it (TM_K_*): plain; move (one issue cycle whatever the
           width); dyn_load / dyn_store (a register chosen at run time); mem_store (a memory
           write without a result). The timing model refines memory and texture ops by their
           descriptor (a uniform-buffer load, an image store, a texture query).
  flags    shared: touches state outside the warp's registers (memory, textures, barriers,
           geometry emission), so it never runs ahead of its issue cycle;
           unary: b is not an operand; quad: a lane's result reads its whole 2x2 quad
  d, a, b, c  the extent, in register words, of the destination and of each source operand, as
           a C expression of n (the instruction's n), x (its x), x0 = x & 0xff, x1 = x >> 8 & 0xff,
           x2 = x >> 16 & 0xff; '-': not an operand; 'opt1': one word when the field is not 0.
           Defaults: d and a n words, b n words (none when unary), no c. The timing model's
           scoreboard and the debugger's exception checks read these (gm_op_operands).
  custom   more operands than d/a/b/c say (aux lists, texture descriptors, GLSL.std.450
           operand counts, 64-bit sub-ops): gm_op_operands.c adds them
  nan      the result is a float computed by the instruction ('f32' or 'f64'), checked by the
           debugger's NaN/infinity exception breakpoints; nan_src: the sources' type when it
           differs from the result's
  what     how the debugger names the operation in a stop's text ("division")
  i64      how the decoder maps the 32-bit opcode onto 64-bit integer operands (GM_I64K_*):
           same (LALU, every operand 64-bit), shift (LALU, the count may be 32-bit), cmp (LALU,
           boolean results), f2i / i2f / resize (LCONV)
  f64      the opcode the decoder emits instead when the operands or the result are doubles
           (comparisons: DCMP, which keeps this opcode in x)
  doc      what the operand fields mean: d (destination word), a, b, c (source words), n (words
           per lane processed), x (immediate / aux index)
"""


def op(name, latency, kind, flags=(), doc='', f64=None, d='n', a='n', b=None, c='-', custom=False, nan=None,
       nan_src=None, what=None, i64=None):
    unary = 'unary' in flags
    return {'name': name, 'latency': latency, 'kind': kind, 'flags': tuple(flags), 'doc': doc, 'f64': f64,
            'd': d, 'a': a, 'b': ('-' if unary else 'n') if b is None else b, 'c': c, 'custom': custom,
            'nan': nan, 'nan_src': nan_src or nan, 'what': what, 'i64': i64}


OPCODES = [
    op('NOP',                 'alu',            'move', d='-', a='-', b='-'),
    # moves
    op('COPY',                'alu',            'move', i64='resize', flags=('unary',), doc='d[0..n) = a[0..n)'),
    op('COPY_LIST',           'alu',            'move', d='-', a='-', b='-', custom=True, doc='aux[x..x+2n): (dst word, src word) pairs'),
    op('STORE',               'alu',            'move', b='-', doc='masked copy to memory words; x&1: skip helper lanes'),
    op('PHI',                 'alu',            'move', a='-', b='-', custom=True, doc='aux[x]: count, then (pred block, src word) pairs'),
    op('UNI_LOAD',            'alu',            'move', a='-', b='-', doc='d[0..n) = broadcast(umem[a]) static address a'),
    op('UNI_LOAD_DYN',        'alu',            'move', a='1', b='-', doc='d = umem[addr[a][lane] + k]'),
    op('REG_LOAD_DYN',        'alu',            'dyn_load', a='1', b='-', doc='d = regs[addr[a][lane] + k][lane]'),
    op('REG_STORE_DYN',       'alu',            'dyn_store', d='-', a='1', b='n', doc='regs[addr[a][lane]+k][lane] = b[k]; x&1 skip helpers'),
    op('BUF_LOAD',            'memory',         'plain', a='1', b='-', what='buffer load', flags=('shared',), doc='d[k] = mem(binding x>>2,kind x&3)[addr a + aux[b+k]]'),
    op('BUF_STORE',           'memory',         'mem_store', d='-', a='1', b='-', c='n', what='buffer store', flags=('shared',), doc='mem[...] = c[k]; byte offsets aux[b+k]'),
    op('BUF_ATOMIC',          'memory',         'plain', d='1', a='1', b='opt1', c='opt1', flags=('shared',), doc='aux[x]: sub-op, binding, kind; a addr, b value, c comparator'),
    # x of BUF_LOAD/STORE and aux[x+1] of BUF_ATOMIC may carry
    # GM_BUF_ARRAYED (below)
    op('ADDR_ADD',            'alu',            'move', d='1', a='1', b='1', what='index', doc='d = a + index(b, aux[x+1], mode aux[x+2]) * aux[x] (per lane)'),
    op('ADDR_CONST',          'alu',            'move', a='1', b='-', doc='d = a + x'),
    # float arithmetic
    op('FADD',                'alu',            'plain', nan='f32', what='addition', f64='DADD'),
    op('FSUB',                'alu',            'plain', nan='f32', what='subtraction', f64='DSUB'),
    op('FMUL',                'alu',            'plain', nan='f32', what='multiplication', f64='DMUL'),
    op('FDIV',                'transcendental', 'plain', nan='f32', what='division', f64='DDIV'),
    op('FMOD',                'transcendental', 'plain', nan='f32', what='mod()', f64='DMOD'),
    op('FREM',                'transcendental', 'plain', nan='f32', what='remainder', f64='DREM'),
    op('FNEG',                'alu',            'plain', nan='f32', what='negation', flags=('unary',), f64='DNEG'),
    op('VEC_TIMES_SCALAR',    'alu',            'plain', b='1', nan='f32', what='vector * scalar', doc='d[k] = a[k] * b[0]'),
    op('MAT_TIMES_VEC',       'alu',            'plain', d='x0', a='x0 * x1', b='x1', nan='f32', what='matrix * vector', doc='x = rows | cols << 8'),
    op('VEC_TIMES_MAT',       'alu',            'plain', d='x1', a='x0', b='x0 * x1', nan='f32', what='vector * matrix'),
    op('MAT_TIMES_MAT',       'alu',            'plain', d='x0 * x2', a='x0 * x1', b='x1 * x2', nan='f32', what='matrix * matrix', doc='x = rows | inner << 8 | cols << 16'),
    op('OUTER',               'alu',            'plain', d='x0 * x1', a='x0', b='x1', nan='f32', what='outerProduct()', doc='x = rows | cols << 8'),
    op('TRANSPOSE',           'alu',            'plain', d='x0 * x1', a='x0 * x1', b='-', doc='x = rows | cols << 8 (of the source)'),
    op('DOT',                 'alu',            'plain', d='1', nan='f32', what='dot()', doc='n = source size'),
    # integer arithmetic
    op('IADD',                'alu',            'plain', i64='same'),
    op('ISUB',                'alu',            'plain', i64='same'),
    op('IMUL',                'alu',            'plain', i64='same'),
    op('SDIV',                'transcendental', 'plain', i64='same', what='division'),
    op('UDIV',                'transcendental', 'plain', i64='same', what='division'),
    op('SMOD',                'transcendental', 'plain', i64='same', what='mod()'),
    op('SREM',                'transcendental', 'plain', i64='same', what='remainder'),
    op('UMOD',                'transcendental', 'plain', i64='same', what='mod()'),
    op('SNEG',                'alu',            'plain', i64='same', flags=('unary',)),
    op('IADD_CARRY',          'alu',            'plain', d='2 * n'),
    op('ISUB_BORROW',         'alu',            'plain', d='2 * n'),
    op('UMUL_EXT',            'alu',            'plain', d='2 * n'),
    op('SMUL_EXT',            'alu',            'plain', d='2 * n', doc='d: 2n words'),
    # bits
    op('AND',                 'alu',            'plain', i64='same'),
    op('OR',                  'alu',            'plain', i64='same'),
    op('XOR',                 'alu',            'plain', i64='same'),
    op('NOT',                 'alu',            'plain', i64='same', flags=('unary',)),
    op('SHL',                 'alu',            'plain', i64='shift'),
    op('SHR_L',               'alu',            'plain', i64='shift'),
    op('SHR_A',               'alu',            'plain', i64='shift'),
    op('BIT_COUNT',           'alu',            'plain', flags=('unary',)),
    op('BIT_REVERSE',         'alu',            'plain', flags=('unary',)),
    op('BFI',                 'alu',            'plain', custom=True),
    op('BFE_S',               'alu',            'plain', b='1', c='1'),
    op('BFE_U',               'alu',            'plain', b='1', c='1'),
    # logic and comparisons (bools are 0/1)
    op('LNOT',                'alu',            'plain', flags=('unary',)),
    op('LAND',                'alu',            'plain'),
    op('LOR',                 'alu',            'plain'),
    op('LEQ',                 'alu',            'plain'),
    op('LNE',                 'alu',            'plain'),
    op('IEQ',                 'alu',            'plain', i64='cmp'),
    op('INE',                 'alu',            'plain', i64='cmp'),
    op('SLT',                 'alu',            'plain', i64='cmp'),
    op('SLE',                 'alu',            'plain', i64='cmp'),
    op('SGT',                 'alu',            'plain', i64='cmp'),
    op('SGE',                 'alu',            'plain', i64='cmp'),
    op('ULT',                 'alu',            'plain', i64='cmp'),
    op('ULE',                 'alu',            'plain', i64='cmp'),
    op('UGT',                 'alu',            'plain', i64='cmp'),
    op('UGE',                 'alu',            'plain', i64='cmp'),
    op('FOEQ',                'alu',            'plain', f64='DCMP'),
    op('FONE',                'alu',            'plain', f64='DCMP'),
    op('FOLT',                'alu',            'plain', f64='DCMP'),
    op('FOLE',                'alu',            'plain', f64='DCMP'),
    op('FOGT',                'alu',            'plain', f64='DCMP'),
    op('FOGE',                'alu',            'plain', f64='DCMP'),
    op('FUEQ',                'alu',            'plain', f64='DCMP'),
    op('FUNE',                'alu',            'plain', f64='DCMP'),
    op('FULT',                'alu',            'plain', f64='DCMP'),
    op('FULE',                'alu',            'plain', f64='DCMP'),
    op('FUGT',                'alu',            'plain', f64='DCMP'),
    op('FUGE',                'alu',            'plain', f64='DCMP'),
    op('ISNAN',               'alu',            'plain', flags=('unary',), f64='DISNAN'),
    op('ISINF',               'alu',            'plain', flags=('unary',), f64='DISINF'),
    op('ANY',                 'alu',            'plain', d='1', b='-'),
    op('ALL',                 'alu',            'plain', d='1', b='-', doc='any/all: n = source size'),
    op('SELECT',              'alu',            'plain', a='x ? 1 : n', c='n', what='selection (?: or mix() with a bool)', doc='d = a ? b : c; x=1: scalar condition for vector'),
    # conversions
    op('F2S',                 'alu',            'plain', i64='f2i', flags=('unary',), f64='D2S'),
    op('F2U',                 'alu',            'plain', i64='f2i', flags=('unary',), f64='D2U'),
    op('S2F',                 'alu',            'plain', i64='i2f', flags=('unary',), f64='S2D'),
    op('U2F',                 'alu',            'plain', i64='i2f', flags=('unary',), f64='U2D'),
    op('QUANT16',             'alu',            'plain', nan='f32', what='quantizeToF16', flags=('unary',)),
    # composites with per-lane indexes
    op('VEC_EXTRACT_DYN',     'alu',            'plain', d='1', a='x & 0xffff', b='1', what='vector component index', doc='d = a[b[lane]] (a has x & 0xffff words; GM_EXTRACT_UNDEF)'),
    op('VEC_INSERT_DYN',      'alu',            'plain', b='1', c='1', what='vector component index', doc='d = a; d[c[lane]] = b (n words)'),
    # derivatives: x = 0 coarse, 1 fine
    op('DPDX',                'alu',            'plain', nan='f32', what='dFdx()', flags=('unary', 'quad')),
    op('DPDY',                'alu',            'plain', nan='f32', what='dFdy()', flags=('unary', 'quad')),
    op('FWIDTH',              'alu',            'plain', nan='f32', what='fwidth()', flags=('unary', 'quad')),
    # GLSL.std.450: x = instruction number
    op('EXT',                 'alu',            'plain', a='-', b='-', custom=True, nan='f32'),
    # resources: x = descriptor index
    op('TEX',                 'texture',        'plain', a='-', b='-', custom=True, what='texture fetch', flags=('shared',)),
    op('IMAGE',               'memory',         'plain', a='-', b='-', custom=True, flags=('shared',)),
    # control flow (block terminators and calls)
    op('BRANCH',              'branch',         'plain', d='-', a='-', b='-', doc='x = block'),
    op('BRANCH_COND',         'branch',         'plain', d='-', a='1', b='-', what='branch condition', doc='a = condition, b = true block, c = false block'),
    op('SWITCH',              'branch',         'plain', d='-', a='1', b='-', doc='a = selector; aux[x]: count, default, (literal, block) pairs'),
    op('RETURN',              'branch',         'plain', d='-', a='-', b='-'),
    op('RETURN_VALUE',        'branch',         'move', b='-', doc="copy a (n words) to the function's return words d"),
    op('KILL',                'branch',         'plain', d='-', a='-', b='-', doc='OpKill / OpTerminateInvocation'),
    op('DEMOTE',              'branch',         'plain', d='-', a='-', b='-', doc='OpDemoteToHelperInvocation: lane becomes a helper'),
    op('UNREACHABLE',         'branch',         'plain', d='-', a='-', b='-'),
    op('CALL',                'branch',         'plain', d='-', a='-', b='-', doc='x = function; arguments were copied before'),
    op('IS_HELPER',           'alu',            'move', a='-', b='-', doc='d = helper lane ? 1 : 0'),
    # compute: workgroup shared memory (word addresses per lane in a) and barriers
    op('BARRIER',             'alu',            'plain', d='-', a='-', b='-', flags=('shared',), doc='OpControlBarrier: every invocation of the workgroup arrives before any goes on '
       '(the scheduler enforces it: timing model or lock-step)'),
    op('SH_LOAD',             'alu',            'plain', a='1', b='-', flags=('shared',), doc='d[k] = shared[a[lane] + k]'),
    op('SH_STORE',            'alu',            'plain', d='-', a='1', b='n', flags=('shared',), doc='shared[a[lane] + k] = b[k] (lanes in order; helpers skipped)'),
    op('SH_ATOMIC',           'alu',            'plain', d='1', a='1', b='opt1', c='opt1', flags=('shared',), doc='aux[x]: SPIR-V opcode; d = old shared[a]; b value, c comparator'),
    op('GS_EMIT',             'alu',            'plain', d='-', a='-', b='-', flags=('shared',), doc='geometry: x = GM_GS_EMIT_VERTEX/END_PRIMITIVE | stream << 1'),
    # 64-bit floats (exec/gm_exec_f64.c). A double component is two consecutive words:
    # low halves of the 32 lanes, then high halves, so moves, phis, blends and buffer
    # words need nothing new. n is always the result's words.
    op('DADD',                'alu',            'plain', nan='f64', what='addition'),
    op('DSUB',                'alu',            'plain', nan='f64', what='subtraction'),
    op('DMUL',                'alu',            'plain', nan='f64', what='multiplication'),
    op('DDIV',                'alu',            'plain', nan='f64', what='division'),
    op('DMOD',                'alu',            'plain', nan='f64', what='mod()'),
    op('DREM',                'alu',            'plain', nan='f64', what='remainder'),
    op('DNEG',                'alu',            'plain', b='-', nan='f64', what='negation'),
    op('DCMP',                'alu',            'plain', a='2 * n', b='2 * n', doc='x = the float comparison opcode (GM_OP_FOEQ..GM_OP_FUGE)'),
    op('DISNAN',              'alu',            'plain', a='2 * n', b='-'),
    op('DISINF',              'alu',            'plain', a='2 * n', b='-'),
    op('F2D',                 'alu',            'plain', a='n / 2', b='-'),
    op('D2F',                 'alu',            'plain', a='2 * n', b='-', nan='f32', nan_src='f64', what='double to float conversion'),
    op('S2D',                 'alu',            'plain', a='n / 2', b='-'),
    op('U2D',                 'alu',            'plain', a='n / 2', b='-'),
    op('D2S',                 'alu',            'plain', a='2 * n', b='-'),
    op('D2U',                 'alu',            'plain', a='2 * n', b='-'),
    op('DVEC_TIMES_SCALAR',   'alu',            'plain', b='2', nan='f64', what='dvec * double'),
    op('DMAT_TIMES_VEC',      'alu',            'plain', d='2 * x0', a='2 * x0 * x1', b='2 * x1', nan='f64', what='dmat * dvec'),
    op('DVEC_TIMES_MAT',      'alu',            'plain', d='2 * x1', a='2 * x0', b='2 * x0 * x1', nan='f64', what='dvec * dmat'),
    op('DMAT_TIMES_MAT',      'alu',            'plain', d='2 * x0 * x2', a='2 * x0 * x1', b='2 * x1 * x2', nan='f64', what='dmat * dmat'),
    op('DOUTER',              'alu',            'plain', d='2 * x0 * x1', a='2 * x0', b='2 * x1', nan='f64', what='outerProduct()'),
    op('DTRANSPOSE',          'alu',            'plain', d='2 * x0 * x1', a='2 * x0 * x1', b='-', doc='x as the float ops (rows | cols << 8 ...)'),
    op('DDOT',                'alu',            'plain', d='2', a='2 * x', b='2 * x', nan='f64', what='dot()', doc='x = source components'),
    op('DSELECT',             'alu',            'plain', a='x ? 1 : n / 2', c='n', what='selection (?: or mix() with a bool)', doc='d = a ? b : c per component; x=1: scalar condition'),
    op('DEXTRACT_DYN',        'alu',            'plain', d='2', a='2 * x', b='1', doc='d = a[b[lane]] (a has x components)'),
    op('DINSERT_DYN',         'alu',            'plain', b='2', c='1', doc='d = a; d[c[lane]] = b'),
    op('DEXT',                'alu',            'plain', a='-', b='-', custom=True, nan='f64', doc='GLSL.std.450 on doubles: x = instruction | operand words << 16'),
    # 64-bit integers (exec/gm_exec_i64.c), laid out as doubles. n is the result's words.
    op('LALU',                'alu',            'plain', a='-', b='-', custom=True, what='64-bit integer division', doc='x = the 32-bit opcode (GM_OP_IADD..GM_OP_SHR_A, GM_OP_IEQ..GM_OP_UGE; comparisons '
       'give n booleans) | GM_I64_B32 (b is 32-bit: shifts)'),
    op('LCONV',               'alu',            'plain', a='-', b='-', custom=True, doc='x = gm_i64_conv'),
    op('LEXT',                'alu',            'plain', a='-', b='-', custom=True, doc='GLSL.std.450 SAbs/SSign/SMin/SMax/UMin/UMax/SClamp/UClamp: x = inst'),
    # Subgroups (ARB_shader_ballot, ARB_shader_group_vote; exec/gm_exec_subgroup.c): lanes
    # form llvmpipe-sized subgroups (gm_warp_set_subgroups). x = gm_sg_op | operand words << 8;
    # a = value, b = invocation index (read_invocation). n = result words.
    op('SUBGROUP',            'alu',            'plain', a='-', b='-', custom=True),
    # OpArrayLength: d = elements of a block's trailing runtime array in the buffer bound at
    # binding x (GM_BUF_ARRAYED: + the element in a[lane]); aux[b]: its byte offset, stride
    op('BUF_LENGTH',          'alu',            'plain', a='1', b='-'),
]
