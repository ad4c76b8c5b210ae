#!/usr/bin/env python3
"""The one source of GL knowledge stays one (issue 16 §3): no GL enum value, hand #define of one,
or run-time comparison of a command name outside registry/ (the generators and
gl_annotations.txt). Scans the C and Python sources of the tree for

  hex     a hex literal whose value is a gl.xml enum value (0x200 and up, not a run of set bits
          such as 0xFFFF or 0x8000, which are masks far more often than enums), or any hex literal
          followed by a comment naming a GL_ enum;
  define  a #define of a name containing GL_ / EGL_ / GLX_ to a hex value;
  cmp     strcmp/strncmp/strstr/strcasecmp of a gl*/egl*/glX* command name literal (C);

and fails on every one beyond the allow-list file (PATH RULE COUNT  reason: a file may keep at
most COUNT hits of RULE, each kept for the reason given).

Usage: check_gl_literals.py SOURCE_ROOT gl.xml ALLOW_LIST
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SKIP_DIRS = {'node_modules', 'subprojects', '__pycache__'}
EXTS = ('.c', '.h', '.cpp', '.py')
HEX = re.compile(r'\b0[xX]([0-9A-Fa-f]{3,8})[uUlL]*\b(\s*/\*\s*GL_)?')
DEFINE = re.compile(r'#\s*define\s+\w*\b(?:GL|EGL|GLX)_\w*\s+\(?\s*0[xX][0-9A-Fa-f]+')
DEFINE_INNER = re.compile(r'#\s*define\s+\w*(?:GL|EGL|GLX)_\w*\s+\(?\s*0[xX][0-9A-Fa-f]+')
CMP = re.compile(r'\b(?:strn?cmp|strstr|strcasecmp)\s*\([^;]*"(?:e?gl[A-Z]|glX)\w*"')


def enum_values(gl_xml):
    vals = set()
    for e in ET.parse(gl_xml).getroot().iter('enum'):
        if e.get('value'):
            v = int(e.get('value'), 0)
            if 0 <= v <= 0xFFFFFFFF:
                vals.add(v)
    return vals


def bit_run(v):
    """True for 0b0..01..10..0 values (one bit, 0xFFFF, 0x7C00): masks, not enums."""
    low = v & -v
    return (v + low) & v == 0


def scan_file(path, vals):
    """{rule: [(line number, text)]} of path."""
    hits = {}
    in_py = path.endswith('.py')
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            if DEFINE_INNER.search(line):
                hits.setdefault('define', []).append((n, line.strip()))
                continue
            if not in_py and CMP.search(line):
                hits.setdefault('cmp', []).append((n, line.strip()))
            for m in HEX.finditer(line):
                v = int(m.group(1), 16)
                if m.group(2) or (v >= 0x200 and v in vals and not bit_run(v)):
                    hits.setdefault('hex', []).append((n, line.strip()))
    return hits


def read_allow(path):
    allow = {}
    for lineno, line in enumerate(open(path), 1):
        words = line.split('#')[0].split()
        if not words:
            continue
        if len(words) < 4 or words[1] not in ('hex', 'define', 'cmp') or not words[2].isdigit():
            raise SystemExit('%s:%d: expected PATH hex|define|cmp COUNT reason' % (path, lineno))
        allow[(words[0], words[1])] = int(words[2])
    return allow


def main(argv):
    root, gl_xml, allow_path = argv[1:4]
    vals = enum_values(gl_xml)
    allow = read_allow(allow_path)
    seen = {}
    failures = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        # build folders at the top (build, build-dev, ...) and hidden ones hold generated copies
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('.') and not
                             (rel_dir == '.' and (d.startswith('build') or d == 'registry')))
        for name in sorted(filenames):
            if not name.endswith(EXTS):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, name))
            for rule, lines in scan_file(os.path.join(dirpath, name), vals).items():
                seen[(rel, rule)] = len(lines)
                if len(lines) > allow.get((rel, rule), 0):
                    failures.append('%s: %d %s hit(s), %d allowed:\n%s' % (
                        rel, len(lines), rule, allow.get((rel, rule), 0),
                        ''.join('    %d: %s\n' % (n, t[:120]) for n, t in lines)))
    stale = ['%s %s (allows %d, has %d)' % (k[0], k[1], allow[k], seen.get(k, 0))
             for k in sorted(allow) if seen.get(k, 0) < allow[k]]
    for f in failures:
        print('hand-written GL knowledge outside registry/: ' + f, end='')
    for s in stale:
        print('allow-list entry larger than needed (lower it): ' + s)
    if failures or stale:
        print('Use the generated registry/glr_gl_enums.h names (C), tests/support/gl_enums.py (Python), '
              'or the registry tables (glr_cmds flags, gl_annotations.txt) instead.')
        return 1
    print('no hand-written GL enum values or command-name comparisons outside registry/ '
          '(%d allowed exceptions in %d files)' % (sum(allow.values()), len({k[0] for k in allow})))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
