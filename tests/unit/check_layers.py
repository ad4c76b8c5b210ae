#!/usr/bin/env python3
"""Checks that dependencies between the project's libraries run one way (issue 16 §4).

check_layers.py BUILD_DIR BASELINE.json [--write]

Reads every object file of the project's libraries in BUILD_DIR with `nm` (the symbols each file
defines and the ones it uses), so the graph is what the linker sees, not what the #includes say:
  - folder level: one node per folder that builds a library (shim, debugger, gpu_model/frame ...);
    an edge when a file of one uses a symbol defined by a file of another. A cycle fails the test.
    GL, GLX and EGL entry points are not edges: the shim defines them (it interposes them), every
    replayer calls the driver's; nor are the libc functions the shim interposes (INTERPOSED_LIBC:
    dlopen), which a library calling them means to reach libc's.
  - file level, inside each library: the files that call each other in circles (strongly connected
    components of the call graph). These are the remaining work of issue 16 §4; the test fails
    when a library has more such files than BASELINE.json records, so new circles cannot land
    unnoticed, and prints the figures (--write records the current ones as the baseline).
"""
import collections
import json
import os
import re
import subprocess
import sys

API = re.compile(r'^(gl|egl|glX)[A-Z]')
# libc functions the shim defines to interpose them (shim/stage1_dlopen.c): a call from another
# library is a call to libc's, not a dependency on the shim.
INTERPOSED_LIBC = {'dlopen'}
# Libraries the shim loads at first use (shim/lazy_libs.c defines their functions as forwarders):
# their symbols belong to the system library, whichever object of ours defines them.
LAZY_LIBS = ('libzstd.so.1', 'libxxhash.so.0', 'libm.so.6')


def system_symbols():
    """The functions the lazily loaded system libraries export."""
    paths = {}
    for line in subprocess.run(['ldconfig', '-p'], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if parts and parts[0] in LAZY_LIBS and '=>' in parts:
            paths.setdefault(parts[0], parts[-1])
    names = set()
    for path in paths.values():
        out = subprocess.run(['nm', '-D', '--defined-only', path], capture_output=True, text=True).stdout
        names.update(l.split()[-1].split('@')[0] for l in out.splitlines() if l.strip())
    return names


def objects(build):
    for root, dirs, files in os.walk(build):
        dirs[:] = [d for d in dirs if d not in ('tests', 'meson-private', 'meson-logs', 'meson-info')]
        if not os.path.basename(root).endswith('.p'):
            continue
        target = os.path.basename(root)[:-2]
        if not (target.startswith('lib') and (target.endswith('.a') or '.so' in target)):
            continue   # executables (CLI, tests, benchmarks) sit on top of everything
        for f in files:
            if f.endswith('.c.o'):
                yield os.path.join(root, f)


def symbols(obj):
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRVW' and parts[1].isupper():
            defined.add(parts[2])
    return defined, used


def sccs(nodes, edges):
    """Tarjan's strongly connected components, iterative."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in nodes:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def show_circles(lib, circles, file_edges, uses, owner):
    """--show: each circle's files and, per edge inside it, one symbol that makes the call, so whoever
    breaks the circle sees which calls to move or pass in."""
    name = lambda o: os.path.basename(o)[:-4]
    for comp in circles:
        print('  circle in %s: %s' % (lib, ' '.join(sorted(name(o) for o in comp))))
        for a in sorted(comp):
            for b in sorted(file_edges[a] & set(comp)):
                syms = sorted(s for s in uses[a] if owner.get(s) == b)
                print('    %s -> %s: %s' % (name(a), name(b), ', '.join(syms[:4])))


def main(argv):
    if len(argv) < 3:
        raise SystemExit('usage: check_layers.py BUILD_DIR BASELINE.json [--write] [--show]')
    build, baseline_path = argv[1], argv[2]
    objs = sorted(objects(build))
    if not objs:
        raise SystemExit('check_layers: no library objects under %s (build it first)' % build)
    defs, uses = {}, {}
    for o in objs:
        defs[o], uses[o] = symbols(o)
    external = system_symbols() | INTERPOSED_LIBC
    owner = {}
    for o in objs:
        for s in defs[o]:
            if s not in external:
                owner.setdefault(s, o)
    lib_dir = {o: os.path.relpath(os.path.dirname(os.path.dirname(o)), build) for o in objs}
    lib_name = {o: os.path.join(lib_dir[o], os.path.basename(os.path.dirname(o))[:-2]) for o in objs}
    file_edges = collections.defaultdict(set)
    folder_edges = collections.defaultdict(set)
    why = {}
    for o in objs:
        for s in uses[o]:
            t = owner.get(s)
            if not t or t == o or API.match(s):
                continue
            file_edges[o].add(t)
            a, b = lib_dir[o], lib_dir[t]
            if a != b:
                folder_edges[a].add(b)
                why.setdefault((a, b), '%s uses %s (%s)' % (os.path.basename(o)[:-4], s, os.path.basename(t)[:-4]))
    failures = 0
    folders = set(lib_dir.values())
    for comp in sccs(folders, folder_edges):
        if len(comp) > 1:
            failures += 1
            print('FAIL folders depend on each other in a circle: %s' % ' <-> '.join(sorted(comp)))
            for a in sorted(comp):
                for b in sorted(folder_edges[a] & set(comp)):
                    print('    %s -> %s: %s' % (a, b, why[(a, b)]))
    by_lib = collections.defaultdict(list)
    for o in objs:
        by_lib[lib_name[o]].append(o)
    figures = {}
    for lib in sorted(by_lib):
        members = set(by_lib[lib])
        circles = [c for c in sccs(members, file_edges) if len(c) > 1]
        in_cycles = sum(len(c) for c in circles)
        figures[lib] = [in_cycles, len(members)]
        if '--show' in argv:
            show_circles(lib, circles, file_edges, uses, owner)
    if '--write' in argv:
        with open(baseline_path, 'w') as f:
            json.dump({k: v[0] for k, v in figures.items() if v[0]}, f, indent=1, sort_keys=True)
            f.write('\n')
    baseline = json.load(open(baseline_path))
    total = 0
    for lib, (n, count) in figures.items():
        total += n
        allowed = baseline.get(lib, 0)
        if n > allowed:
            failures += 1
            print('FAIL %s: %d of %d files call each other in circles (baseline %d)' % (lib, n, count, allowed))
        elif n:
            print('     %s: %d of %d files in circles (baseline %d)' % (lib, n, count, allowed))
    print('%d libraries, %d objects; %d files in circles inside libraries; folder graph %s'
          % (len(by_lib), len(objs), total, 'has cycles' if failures else 'one way'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
