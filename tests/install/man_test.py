#!/usr/bin/env python3
"""The manual page and the bash completion document the whole CLI.

For every verb that `glreplay --help` lists: the man page has its subsection, and every option
that `glreplay VERB --help` names appears in that subsection and in the completion's option list
for the verb. Every GLREPLAY_* environment variable the C sources read (outside tests) is in the
man page's ENVIRONMENT section. The page renders without groff warnings.

usage: man_test.py GLREPLAY MAN_PAGE COMPLETION_FILE SOURCE_ROOT
"""
import os
import re
import subprocess
import sys


def main():
    glreplay, man_path, comp_path, src_root = sys.argv[1:5]
    problems = []
    man = open(man_path, encoding='utf-8').read()
    # roff: \- is a minus, \fB...\fR are font changes.
    text = re.sub(r'\\f[BIRP]', '', man.replace('\\-', '-'))
    sections = {}
    for m in re.finditer(r'^\.SS "glreplay (\w+)[^\n]*\n(.*?)(?=^\.S[SH] )', text, re.M | re.S):
        sections[m.group(1)] = m.group(0)
    env = re.search(r'^\.SH ENVIRONMENT\n(.*?)^\.SH ', text, re.M | re.S)
    env = env.group(1) if env else ''
    comp = open(comp_path, encoding='utf-8').read()
    comp_opts = {m.group(1): set(m.group(2).split())
                 for m in re.finditer(r'^\s*(\w+)\) opts="([^"]*)"', comp, re.M)}

    top = subprocess.run([glreplay, '--help'], capture_output=True, text=True, check=True).stdout
    verbs = re.findall(r'^  glreplay (\w+)', top, re.M)
    if len(verbs) < 9:
        problems.append('glreplay --help lists only %s' % verbs)
    for verb in verbs:
        r = subprocess.run([glreplay, verb, '--help'], capture_output=True, text=True)
        if r.returncode != 0 or not r.stdout.startswith('usage: glreplay ' + verb):
            problems.append('glreplay %s --help: status %d, %r' % (verb, r.returncode, r.stdout[:80]))
            continue
        opts = set(re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*)', r.stdout)) - {'--help'}
        if not opts:
            problems.append('glreplay %s --help names no option' % verb)
        if verb not in sections:
            problems.append('man page: no subsection for %s' % verb)
        for o in sorted(opts):
            if verb in sections and not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(o), sections[verb]):
                problems.append('man page: %s %s is not documented in its subsection' % (verb, o))
            if o not in comp_opts.get(verb, set()):
                problems.append('completion: %s %s is missing' % (verb, o))

    names = set()
    for d in ('shim', 'replay', 'gpu_model', 'shadow', 'statemodel', 'ui_ipc'):
        for dirpath, _, files in os.walk(os.path.join(src_root, d)):
            if '/tests' in dirpath.replace(src_root, ''):
                continue
            for f in files:
                if f.endswith(('.c', '.h')):
                    src = open(os.path.join(dirpath, f), encoding='utf-8', errors='replace').read()
                    names.update(n.rstrip('_') for n in re.findall(r'"(GLREPLAY_[A-Z0-9_]+)', src))
    if len(names) < 10:
        problems.append('found only %d GLREPLAY_* variables in the sources: %s' % (len(names), names))
    for n in sorted(names):
        if not re.search(r'(?<![\w])%s(?![\w])' % n, env):
            problems.append('man page: environment variable %s is not documented' % n)

    r = subprocess.run(['groff', '-man', '-ww', '-z', man_path], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        problems.append('groff warnings: %s' % r.stderr.strip())

    for p in problems:
        print('man_test: ' + p)
    print('man_test: %d verbs, %d variables, %d problems' % (len(verbs), len(names), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
