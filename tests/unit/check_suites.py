#!/usr/bin/env python3
"""Checks the suites of every test of the build (meson introspect): exactly one of 'unit' and
'e2e', and exactly one module suite from MODULES, so `meson test --suite MODULE` runs a module's
tests and nothing is left out of both."""
import json
import subprocess
import sys

MODULES = {'build', 'registry', 'capture', 'compare', 'cli', 'editors', 'statemodel', 'shadow', 'gpu_model', 'replay', 'shim', 'debugger',
           'dap', 'report', 'install', 'fuzz', 'bench', 'programs', 'samples'}
KINDS = {'unit', 'e2e'}


def main():
    build = sys.argv[1]
    out = subprocess.run(['meson', 'introspect', '--tests', build], capture_output=True, text=True)
    if out.returncode != 0:
        print('meson introspect failed:', out.stderr.strip())
        return 1
    tests = json.loads(out.stdout)
    problems = 0
    for t in tests:
        suites = {s.split(':', 1)[-1] for s in t['suite']}
        kinds, mods, other = suites & KINDS, suites & MODULES, suites - KINDS - MODULES
        if len(kinds) != 1 or len(mods) != 1 or other:
            print(f"{t['name']}: suites {sorted(suites)}: want one of {sorted(KINDS)} and one module "
                  f"of {sorted(MODULES)}")
            problems += 1
    print(f'test_suites: {len(tests)} tests, {problems} problems')
    return 1 if problems or not tests else 0


if __name__ == '__main__':
    sys.exit(main())
