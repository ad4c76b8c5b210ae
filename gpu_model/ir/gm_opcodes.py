"""The GPU model's IR opcodes (GM_OP_*), declared once, in the order of their values.

Read by gen_opcodes.py at build time (meson), which writes gm_opcodes.h (the gm_opcode enum, the
per-opcode data the timing model reads) and gm_opcodes.c (the table and the names the IR printer,
gm_ir_print.c, uses). A new opcode is one line here; its executor case is written by hand (exec/).

op(NAME, LATENCY, KIND, flags=(...), doc='...'):
  LATENCY  the timing model's class (gm_lat_class) of the result: alu, transcendental (the
           special-function unit: divisions; GLSL.std.450 functions are chosen by the
           instruction, EXT), texture, memory, branch
  KIND     how the scoreboard treats it (TM_K_*): plain; move (one issue cycle whatever the
           width); dyn_load / dyn_store (a register chosen at run time); mem_store (a memory
           write without a result). The timing model refines memory and texture ops by their
           descriptor (a uniform-buffer load, an image store, a texture query).
  flags    shared: touches state outside the warp's registers (memory, textures, barriers,
           geometry emission), so it never runs ahead of its issue cycle;
           unary: b is not an operand
  f64      the opcode the decoder emits instead when the operands or the result are doubles
           (comparisons: DCMP, which keeps this opcode in x)
  doc      what the operand fields mean: d (destination word), a, b, c (source words), n (words
           per lane processed), x (immediate / aux index)
"""


def op(name, latency, kind, flags=(), doc='', f64=None):
    return {'name': name, 'latency': latency, 'kind': kind, 'flags': tuple(flags), 'doc': doc, 'f64': f64}


OPCODES = [
    op('NOP',                 'alu',            'move'),
    # moves
    op('COPY',                'alu',            'move', flags=('unary',), doc='d[0..n) = a[0..n)'),
    op('COPY_LIST',           'alu',            'move', doc='aux[x..x+2n): (dst word, src word) pairs'),
    op('STORE',               'alu',            'move', doc='masked copy to memory words; x&1: skip helper lanes'),
    op('PHI',                 'alu',            'move', doc='aux[x]: count, then (pred block, src word) pairs'),
    op('UNI_LOAD',            'alu',            'move', doc='d[0..n) = broadcast(umem[a]) static address a'),
    op('UNI_LOAD_DYN',        'alu',            'move', doc='d = umem[addr[a][lane] + k]'),
    op('REG_LOAD_DYN',        'alu',            'dyn_load', doc='d = regs[addr[a][lane] + k][lane]'),
    op('REG_STORE_DYN',       'alu',            'dyn_store', doc='regs[addr[a][lane]+k][lane] = b[k]; x&1 skip helpers'),
    op('BUF_LOAD',            'memory',         'plain', flags=('shared',), doc='d[k] = mem(binding x>>2,kind x&3)[addr a + aux[b+k]]'),
    op('BUF_STORE',           'memory',         'mem_store', flags=('shared',), doc='mem[...] = c[k]; byte offsets aux[b+k]'),
    op('BUF_ATOMIC',          'memory',         'plain', flags=('shared',), doc='aux[x]: sub-op, binding, kind; a addr, b value, c comparator'),
    # x of BUF_LOAD/STORE and aux[x+1] of BUF_ATOMIC may carry
    # GM_BUF_ARRAYED (below)
    op('ADDR_ADD',            'alu',            'move', doc='d = a + index(b, aux[x+1], mode aux[x+2]) * aux[x] (per lane)'),
    op('ADDR_CONST',          'alu',            'move', doc='d = a + x'),
    # float arithmetic
    op('FADD',                'alu',            'plain', f64='DADD'),
    op('FSUB',                'alu',            'plain', f64='DSUB'),
    op('FMUL',                'alu',            'plain', f64='DMUL'),
    op('FDIV',                'transcendental', 'plain', f64='DDIV'),
    op('FMOD',                'transcendental', 'plain', f64='DMOD'),
    op('FREM',                'transcendental', 'plain', f64='DREM'),
    op('FNEG',                'alu',            'plain', flags=('unary',), f64='DNEG'),
    op('VEC_TIMES_SCALAR',    'alu',            'plain', doc='d[k] = a[k] * b[0]'),
    op('MAT_TIMES_VEC',       'alu',            'plain', doc='x = rows | cols << 8'),
    op('VEC_TIMES_MAT',       'alu',            'plain'),
    op('MAT_TIMES_MAT',       'alu',            'plain', doc='x = rows | inner << 8 | cols << 16'),
    op('OUTER',               'alu',            'plain', doc='x = rows | cols << 8'),
    op('TRANSPOSE',           'alu',            'plain', doc='x = rows | cols << 8 (of the source)'),
    op('DOT',                 'alu',            'plain', doc='n = source size'),
    # integer arithmetic
    op('IADD',                'alu',            'plain'),
    op('ISUB',                'alu',            'plain'),
    op('IMUL',                'alu',            'plain'),
    op('SDIV',                'transcendental', 'plain'),
    op('UDIV',                'transcendental', 'plain'),
    op('SMOD',                'transcendental', 'plain'),
    op('SREM',                'transcendental', 'plain'),
    op('UMOD',                'transcendental', 'plain'),
    op('SNEG',                'alu',            'plain', flags=('unary',)),
    op('IADD_CARRY',          'alu',            'plain'),
    op('ISUB_BORROW',         'alu',            'plain'),
    op('UMUL_EXT',            'alu',            'plain'),
    op('SMUL_EXT',            'alu',            'plain', doc='d: 2n words'),
    # bits
    op('AND',                 'alu',            'plain'),
    op('OR',                  'alu',            'plain'),
    op('XOR',                 'alu',            'plain'),
    op('NOT',                 'alu',            'plain', flags=('unary',)),
    op('SHL',                 'alu',            'plain'),
    op('SHR_L',               'alu',            'plain'),
    op('SHR_A',               'alu',            'plain'),
    op('BIT_COUNT',           'alu',            'plain', flags=('unary',)),
    op('BIT_REVERSE',         'alu',            'plain', flags=('unary',)),
    op('BFI',                 'alu',            'plain'),
    op('BFE_S',               'alu',            'plain'),
    op('BFE_U',               'alu',            'plain'),
    # logic and comparisons (bools are 0/1)
    op('LNOT',                'alu',            'plain', flags=('unary',)),
    op('LAND',                'alu',            'plain'),
    op('LOR',                 'alu',            'plain'),
    op('LEQ',                 'alu',            'plain'),
    op('LNE',                 'alu',            'plain'),
    op('IEQ',                 'alu',            'plain'),
    op('INE',                 'alu',            'plain'),
    op('SLT',                 'alu',            'plain'),
    op('SLE',                 'alu',            'plain'),
    op('SGT',                 'alu',            'plain'),
    op('SGE',                 'alu',            'plain'),
    op('ULT',                 'alu',            'plain'),
    op('ULE',                 'alu',            'plain'),
    op('UGT',                 'alu',            'plain'),
    op('UGE',                 'alu',            'plain'),
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
    op('ANY',                 'alu',            'plain'),
    op('ALL',                 'alu',            'plain', doc='any/all: n = source size'),
    op('SELECT',              'alu',            'plain', doc='d = a ? b : c; x=1: scalar condition for vector'),
    # conversions
    op('F2S',                 'alu',            'plain', flags=('unary',), f64='D2S'),
    op('F2U',                 'alu',            'plain', flags=('unary',), f64='D2U'),
    op('S2F',                 'alu',            'plain', flags=('unary',), f64='S2D'),
    op('U2F',                 'alu',            'plain', flags=('unary',), f64='U2D'),
    op('QUANT16',             'alu',            'plain', flags=('unary',)),
    # composites with per-lane indexes
    op('VEC_EXTRACT_DYN',     'alu',            'plain', doc='d = a[b[lane]] (a has x & 0xffff words; GM_EXTRACT_UNDEF)'),
    op('VEC_INSERT_DYN',      'alu',            'plain', doc='d = a; d[c[lane]] = b (n words)'),
    # derivatives: x = 0 coarse, 1 fine
    op('DPDX',                'alu',            'plain', flags=('unary',)),
    op('DPDY',                'alu',            'plain', flags=('unary',)),
    op('FWIDTH',              'alu',            'plain', flags=('unary',)),
    # GLSL.std.450: x = instruction number
    op('EXT',                 'alu',            'plain'),
    # resources: x = descriptor index
    op('TEX',                 'texture',        'plain', flags=('shared',)),
    op('IMAGE',               'memory',         'plain', flags=('shared',)),
    # control flow (block terminators and calls)
    op('BRANCH',              'branch',         'plain', doc='x = block'),
    op('BRANCH_COND',         'branch',         'plain', doc='a = condition, b = true block, c = false block'),
    op('SWITCH',              'branch',         'plain', doc='a = selector; aux[x]: count, default, (literal, block) pairs'),
    op('RETURN',              'branch',         'plain'),
    op('RETURN_VALUE',        'branch',         'move', doc="copy a (n words) to the function's return words d"),
    op('KILL',                'branch',         'plain', doc='OpKill / OpTerminateInvocation'),
    op('DEMOTE',              'branch',         'plain', doc='OpDemoteToHelperInvocation: lane becomes a helper'),
    op('UNREACHABLE',         'branch',         'plain'),
    op('CALL',                'branch',         'plain', doc='x = function; arguments were copied before'),
    op('IS_HELPER',           'alu',            'move', doc='d = helper lane ? 1 : 0'),
    # compute: workgroup shared memory (word addresses per lane in a) and barriers
    op('BARRIER',             'alu',            'plain', flags=('shared',), doc='OpControlBarrier: every invocation of the workgroup arrives before any goes on '
       '(the scheduler enforces it: timing model or lock-step)'),
    op('SH_LOAD',             'alu',            'plain', flags=('shared',), doc='d[k] = shared[a[lane] + k]'),
    op('SH_STORE',            'alu',            'plain', flags=('shared',), doc='shared[a[lane] + k] = b[k] (lanes in order; helpers skipped)'),
    op('SH_ATOMIC',           'alu',            'plain', flags=('shared',), doc='aux[x]: SPIR-V opcode; d = old shared[a]; b value, c comparator'),
    op('GS_EMIT',             'alu',            'plain', flags=('shared',), doc='geometry: x = GM_GS_EMIT_VERTEX/END_PRIMITIVE | stream << 1'),
    # 64-bit floats (exec/gm_exec_f64.c). A double component is two consecutive words:
    # low halves of the 32 lanes, then high halves, so moves, phis, blends and buffer
    # words need nothing new. n is always the result's words.
    op('DADD',                'alu',            'plain'),
    op('DSUB',                'alu',            'plain'),
    op('DMUL',                'alu',            'plain'),
    op('DDIV',                'alu',            'plain'),
    op('DMOD',                'alu',            'plain'),
    op('DREM',                'alu',            'plain'),
    op('DNEG',                'alu',            'plain'),
    op('DCMP',                'alu',            'plain', doc='x = the float comparison opcode (GM_OP_FOEQ..GM_OP_FUGE)'),
    op('DISNAN',              'alu',            'plain'),
    op('DISINF',              'alu',            'plain'),
    op('F2D',                 'alu',            'plain'),
    op('D2F',                 'alu',            'plain'),
    op('S2D',                 'alu',            'plain'),
    op('U2D',                 'alu',            'plain'),
    op('D2S',                 'alu',            'plain'),
    op('D2U',                 'alu',            'plain'),
    op('DVEC_TIMES_SCALAR',   'alu',            'plain'),
    op('DMAT_TIMES_VEC',      'alu',            'plain'),
    op('DVEC_TIMES_MAT',      'alu',            'plain'),
    op('DMAT_TIMES_MAT',      'alu',            'plain'),
    op('DOUTER',              'alu',            'plain'),
    op('DTRANSPOSE',          'alu',            'plain', doc='x as the float ops (rows | cols << 8 ...)'),
    op('DDOT',                'alu',            'plain', doc='x = source components'),
    op('DSELECT',             'alu',            'plain', doc='d = a ? b : c per component; x=1: scalar condition'),
    op('DEXTRACT_DYN',        'alu',            'plain', doc='d = a[b[lane]] (a has x components)'),
    op('DINSERT_DYN',         'alu',            'plain', doc='d = a; d[c[lane]] = b'),
    op('DEXT',                'alu',            'plain', doc='GLSL.std.450 on doubles: x = instruction | operand words << 16'),
    # 64-bit integers (exec/gm_exec_i64.c), laid out as doubles. n is the result's words.
    op('LALU',                'alu',            'plain', doc='x = the 32-bit opcode (GM_OP_IADD..GM_OP_SHR_A, GM_OP_IEQ..GM_OP_UGE; comparisons '
       'give n booleans) | GM_I64_B32 (b is 32-bit: shifts)'),
    op('LCONV',               'alu',            'plain', doc='x = gm_i64_conv'),
    op('LEXT',                'alu',            'plain', doc='GLSL.std.450 SAbs/SSign/SMin/SMax/UMin/UMax/SClamp/UClamp: x = inst'),
    # Subgroups (ARB_shader_ballot, ARB_shader_group_vote; exec/gm_exec_subgroup.c): lanes
    # form llvmpipe-sized subgroups (gm_warp_set_subgroups). x = gm_sg_op | operand words << 8;
    # a = value, b = invocation index (read_invocation). n = result words.
    op('SUBGROUP',            'alu',            'plain'),
    # OpArrayLength: d = elements of a block's trailing runtime array in the buffer bound at
    # binding x (GM_BUF_ARRAYED: + the element in a[lane]); aux[b]: its byte offset, stride
    op('BUF_LENGTH',          'alu',            'plain'),
]
