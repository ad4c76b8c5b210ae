#!/usr/bin/env python3
"""Checks where the generated recorded wrappers (build/shim/glr_shim_wrappers.c) record a call
against where they forward it to the driver (registry/gen_registry.py records_before_call).

A void command with only scalar arguments (an inline fast record) that nothing is tracked, linked,
noted or recorded around is recorded BEFORE it is forwarded: its glr_slow_ body writes the usual
fast record, then calls the driver, and otherwise hands the call to its general body glr_rec_slow_
(the body's last statement); the general body records, then calls the driver as its last
statement. Both are tail calls: nothing is kept across them. Every other recorded body forwards
first, so what the record describes (a created name, a read-back, a draw's arrays) is what the call
did.
Usage: check_record_order.py build/shim/glr_shim_wrappers.c"""
import re
import sys

AROUND = ('glr_track_', 'glr_rec_link_names', 'glr_capture_note_draw', 'glr_rec_client_arrays',
          'glr_rec_persistent_maps')
BODY = re.compile(r'^static __attribute__\(\(noinline(, cold)?\)\) (.+?) glr_(rec_)?slow_(\w+)\((.*?)\)\n\{\n(.*?)^\}\n',
                  re.S | re.M)


def main():
    src = open(sys.argv[1]).read()
    before = after = 0
    bad = []
    general = set()
    usual = {}
    for m in BODY.finditer(src):
        _, ret, rec_slow, name, _, body = m.groups()
        if 'glr_rec_fast_open' not in body and 'glr_rec_begin' not in body:
            continue   # not recorded (EGL/GLX, unsupported)
        real = body.find('GLR_REAL(%s)(' % name)
        rec = min(i for i in (body.find('glr_rec_fast_open'), body.find('glr_rec_begin')) if i >= 0)
        last = body.rstrip().splitlines()[-1].strip()
        eligible = (ret.strip() == 'void' and 'glr_rec_fast_open' in body and not any(a in body for a in AROUND))
        if rec_slow:
            general.add(name)
            if not eligible or not (0 <= rec < real) or not last.startswith('GLR_REAL(%s)(' % name):
                bad.append('%s: its general body does not record before a tail call to the driver' % name)
        elif eligible:
            before += 1
            usual[name] = body
            if not (0 <= rec < real) or not last.startswith('glr_rec_slow_%s(' % name) or \
                    body.count('GLR_REAL(') != 1 or 'return;' not in body[real:]:
                bad.append('%s: not recorded before a tail call to the driver' % name)
        else:
            after += 1
            if not (0 <= real < rec):
                bad.append('%s: recorded before the driver call, but its record describes what the call did' % name)
    bad += ['%s: no general body glr_rec_slow_' % n for n in sorted(set(usual) - general)]
    bad += ['%s: a general body without the usual one' % n for n in sorted(general - set(usual))]
    for b in bad[:20]:
        print(b)
    print('%d wrappers record before the driver call, %d after it; %d wrong' % (before, after, len(bad)))
    # The bench's and most programs' calls are of the first kind: a generator that stops emitting
    # them (or a parse that finds none) fails here.
    if before < 1000 or after < 500:
        print('too few wrappers of one kind: the generated file changed shape')
        return 1
    return 1 if bad else 0


sys.exit(main())
