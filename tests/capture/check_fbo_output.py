#!/usr/bin/env python3
"""Reference images of the framebuffer bound for drawing: a program ending its frames with a
framebuffer object bound has both colour attachments kept in the capture (from frame 0 and from a
later frame, i.e. with a snapshot), `glreplay info` lists them, `glreplay replay --verify` compares
them and passes; a changed pixel in an attachment image is detected. The program behaves
identically with and without the shim."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import gl_enums  # noqa: E402

prog, shim, glreplay, gl_xml = sys.argv[1:5]
gl = gl_enums.load(gl_xml)
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0-1', '3-4'):
        out = os.path.join(d, 'f%s.glcap' % frames)
        run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                     GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        info = json.loads(subprocess.run([glreplay, 'info', out, '--json'], env=env, capture_output=True,
                                         text=True).stdout)
        imgs = info['reference_images']
        fbo_imgs = [i for i in imgs if i['framebuffer']]
        print(frames, imgs)
        # two captured frames, each with the back buffer and the two attachments
        if len(imgs) != 6 or len(fbo_imgs) != 4:
            sys.exit('expected 2 back buffers and 4 attachment images, got %r' % imgs)
        if sorted(set((i['attachment'], i['width'], i['height']) for i in fbo_imgs)) != \
                [(gl['GL_COLOR_ATTACHMENT0'], 100, 70), (gl['GL_COLOR_ATTACHMENT1'], 100, 70)]:
            sys.exit('attachment images have the wrong attachments or sizes: %r' % fbo_imgs)
        rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '2'], env=env,
                             capture_output=True, text=True)
        print(rep.stdout, rep.stderr)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
            sys.exit('replay of frames %s failed' % frames)
        if rep.stdout.count('colour attachment') < 4 or 'colour attachment 1, 100x70): matches' not in rep.stdout:
            sys.exit('the attachment images were not compared')
print('reference images of the draw framebuffer: OK')
