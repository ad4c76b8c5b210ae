#!/usr/bin/env python3
"""The preloaded shim stays small and C-only (issue 16, ARCHITECTURE.md): it needs only the C
libraries the capture needs, no C++ runtime, no cJSON/libpng/glslang/EGL/GL, runs no C++ static
initializers, and its loaded image stays under a bound. The debugger engine beside it exports one
symbol. Both stages are checked: libglreplay.so (stage 1, what LD_PRELOAD names: libc only and
small) and libglreplay-core.so beside it (stage 2, exporting its entry point only); see
shim/stage_abi.h. Reads the ELF files with binutils' readelf and nm (no GL, no display).

Usage: check_shim_deps.py SHIM ENGINE [SANITIZE]
SANITIZE is meson's b_sanitize ('none' by default): in a sanitizer build the shim also needs the
sanitizer runtimes and has one instrumentation constructor per object file, so those two bounds
and the size bound are relaxed there; the C++ checks stay."""
import os
import re
import subprocess
import sys

# The libraries the shim may need at start: libc (libdl and libpthread are part of it since glibc
# 2.34) and the loader. libm and the capture's compression and hashing (libzstd, libxxhash) are
# loaded at their first use (shim/lazy_libs.c); a new function called from them needs its line there.
ALLOWED = {'libc.so.6', 'libdl.so.2', 'libpthread.so.0', 'ld-linux-x86-64.so.2'}
# Load-time relocation work: the generated tables hold no pointers (registry/glr_registry.h,
# statemodel/sm_enum_table.h) and the GetProcAddress table holds hidden aliases, so .data.rel.ro
# stays small and no relocation needs a symbol looked up by name but the GOT's (libc's functions).
MAX_DATA_REL_RO = 64 * 1024
MAX_SYMBOL_RELOCS = 200
# The loaded image (every SHF_ALLOC section: code, read-only data, relocations, data, bss). Stage 2
# is 4.5 MiB today, 3.6 MiB of it the generated GL wrappers and tables; the engine (glslang,
# SPIRV-Tools, the GPU model) alone is over 10 MiB, so linking it back in breaks this at once.
MAX_LOADED = 6 * 1024 * 1024
# Initializers a C library has: the toolchain's frame_dummy and the shim's own constructor(s).
MAX_INIT = 4
# Stage 1 (libglreplay.so, the preloaded file): the generated trampolines (3,578 of 32 bytes), the
# dynamic symbol table of their names (~200 KiB) and the loading code; it needs libc only (libdl
# is part of it since glibc 2.34) and has its one constructor (no C runtime start files).
STAGE1_ALLOWED = {'libc.so.6', 'libdl.so.2', 'ld-linux-x86-64.so.2'}
MAX_STAGE1_LOADED = 384 * 1024
MAX_STAGE1_INIT = 1
STAGE2_FILE = 'libglreplay-core.so'

failures = []


def readelf(*args):
    return subprocess.run(['readelf', '-W', *args], check=True, capture_output=True, text=True).stdout


def sections(path):
    out = {}
    for m in re.finditer(r'^\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+([A-Za-z]*)',
                         readelf('-S', path), re.M):
        out[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16), m.group(4))
    return out


def check(cond, msg):
    if not cond:
        failures.append(msg)


def check_lib(shim, allowed, sanitized, max_loaded, max_init):
    """The checks both stages of the shim pass; returns (NEEDED, init entries, loaded bytes)."""
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', readelf('-d', shim))
    check(needed, 'no NEEDED entries read from %s' % shim)
    for lib in needed:
        check(lib in allowed, '%s needs %s (allowed: %s; a function of libm, libzstd or libxxhash the shim '
              'calls needs its line in shim/lazy_libs.c)' % (shim, lib, ' '.join(sorted(allowed))))
    if not sanitized:
        rel_ro = sections(shim).get('.data.rel.ro', (0, 0, ''))[1]
        check(rel_ro <= MAX_DATA_REL_RO, '%s: .data.rel.ro is %d bytes (at most %d): a generated table holds '
              'pointers' % (shim, rel_ro, MAX_DATA_REL_RO))
        kinds = re.findall(r'^\s*[0-9a-f]+\s+[0-9a-f]+\s+(R_X86_64_\w+)', readelf('-r', shim), re.M)
        sym = [k for k in kinds if k != 'R_X86_64_RELATIVE']
        check(len(sym) <= MAX_SYMBOL_RELOCS, '%s: %d symbol relocations (at most %d)'
              % (shim, len(sym), MAX_SYMBOL_RELOCS))
    versions = readelf('-V', shim)
    for v in ('GLIBCXX', 'CXXABI'):
        check(v not in versions, '%s needs %s symbol versions (C++ runtime)' % (shim, v))

    secs = sections(shim)
    check('.text' in secs, 'no .text section read from %s' % shim)
    # C++ initializers: g++ names each translation unit's static-initializer function
    # _GLOBAL__sub_I_<file>; the symbol table (present unless the file was stripped) shows them
    # and any other C++ (mangled _Z names) that came in with a static archive.
    nm = subprocess.run(['nm', '--defined-only', shim], capture_output=True, text=True)
    if 'no symbols' not in nm.stderr:
        syms = [l.split()[-1] for l in nm.stdout.splitlines() if l.strip()]
        check(len(syms) > 1000, 'the symbol table of %s looks empty' % shim)
        cxx = [s for s in syms if s.startswith('_GLOBAL__sub_I_') or s.startswith('_Z')]
        check(not cxx, 'C++ code in %s: %s' % (shim, ' '.join(cxx[:8])))
    addr, size, _ = secs.get('.init_array', (0, 0, ''))
    n_init = size // 8
    loaded = sum(sz for (_, sz, flags) in secs.values() if 'A' in flags)
    if not sanitized:
        check(n_init <= max_init, '%s has %d .init_array entries (at most %d)' % (shim, n_init, max_init))
        check(loaded < max_loaded, '%s loads %d bytes (bound %d)' % (shim, loaded, max_loaded))
    return needed, n_init, loaded


def exports(path):
    return [l.split()[-1] for l in subprocess.run(['nm', '-D', '--defined-only', path], check=True,
                                                  capture_output=True, text=True).stdout.splitlines()]


def main():
    shim, engine = sys.argv[1], sys.argv[2]
    sanitized = len(sys.argv) > 3 and sys.argv[3] not in ('', 'none')
    allowed = set(ALLOWED)
    if sanitized:
        allowed |= {'libasan.so.8', 'libubsan.so.1', 'libtsan.so.2', 'liblsan.so.0', 'libasan.so.6', 'libubsan.so.0',
                    'libclang_rt.asan-x86_64.so', 'libclang_rt.ubsan_standalone-x86_64.so', 'libgcc_s.so.1'}
    # Stage 1, what LD_PRELOAD names: libc only, one constructor, small (shim/stage_abi.h).
    stage1 = check_lib(shim, STAGE1_ALLOWED | (allowed - ALLOWED), sanitized, MAX_STAGE1_LOADED, MAX_STAGE1_INIT)
    # Stage 2 beside it: the interception core, exporting its entry point only.
    core = os.path.join(os.path.dirname(shim), STAGE2_FILE)
    check(os.path.exists(core), 'no %s beside %s' % (STAGE2_FILE, shim))
    if os.path.exists(core):
        stage2 = check_lib(core, allowed, sanitized, MAX_LOADED, MAX_INIT)
        check(exports(core) == ['glr_stage2_entry'], 'stage 2 exports %s, not only glr_stage2_entry'
              % exports(core)[:8])

    # The engine: its own C++ and libraries, and only its entry point exported.
    exported = exports(engine)
    check(exported == ['glr_engine_entry'], 'the engine exports %s, not only glr_engine_entry' % exported[:8])

    print('shim stage 1: NEEDED %s; %d init_array entries; %d bytes loaded (%d bytes on disk with debug info)'
          % (' '.join(stage1[0]), stage1[1], stage1[2], os.path.getsize(shim)))
    if os.path.exists(core):
        print('shim stage 2: NEEDED %s; %d init_array entries; %d bytes loaded (%d bytes on disk with debug info)'
              % (' '.join(stage2[0]), stage2[1], stage2[2], os.path.getsize(core)))
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
