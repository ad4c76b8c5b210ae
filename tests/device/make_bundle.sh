#!/bin/bash
# Prepares a vendor-driver check (tests/device/vendor_driver_check.sh) for a machine that has a
# GPU but not this build: copies the CLI and the shim with their non-GL libraries into .devbundle/,
# captures glmark2 scenes, glxgears and 60 piglit shader tests under llvmpipe into .devcap/, and
# downloads Debian's GL dispatch libraries (glvnd) into .gl/. Run from the repository root, under
# Xvfb (the programs are captured in windows):
#   xvfb-run -a bash tests/device/make_bundle.sh build
# then on the GPU machine, from a copy of the tree with those three folders:
#   OUT=/some/dir bash .devbundle/vendor_driver_check.sh
set -eu
build=${1:-build}
rm -rf .devbundle .devcap .gl
mkdir -p .devbundle/lib .devbundle/libc .devcap .gl
cp "$build/ui_ipc/cli/glreplay" "$build/shim/libglreplay.so" .devbundle/
cp tests/device/vendor_driver_check.sh .devbundle/
for f in "$build/ui_ipc/cli/glreplay" "$build/shim/libglreplay.so"; do ldd "$f" | awk '/=>/ {print $3}'; done | sort -u |
  grep -vE 'libEGL|libGL|libGLX|libGLdispatch|libOpenGL' | while read -r l; do cp -L "$l" .devbundle/lib/; done
# glibc apart: used only when the machine's own is older than this one's.
mv .devbundle/lib/libc.so.6 .devbundle/lib/libm.so.6 .devbundle/libc/
cp -L /lib64/ld-linux-x86-64.so.2 .devbundle/libc/
strip --strip-debug .devbundle/glreplay .devbundle/libglreplay.so
(cd .gl && apt-get download libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
shim=$PWD/.devbundle/libglreplay.so; out=$PWD/.devcap
for sc in build shading:shading=phong texture refract jellyfish ideas desktop shadow; do
  n=$(echo "$sc" | tr ':=' '__')
  GLREPLAY_CAPTURE_FRAMES=5 GLREPLAY_CAPTURE_OUT="$out/gm_$n.glcap" LD_PRELOAD=$shim \
    timeout 120 glmark2 -s 320x240 -b "$sc:nframes=6" >/dev/null 2>&1 || true
done
GLREPLAY_CAPTURE_FRAMES=10 GLREPLAY_CAPTURE_OUT="$out/glxgears.glcap" LD_PRELOAD=$shim timeout 20 glxgears >/dev/null 2>&1 || true
cd /usr/lib/x86_64-linux-gnu/piglit
ls tests/spec/glsl-1.10/execution/*.shader_test tests/spec/glsl-1.30/execution/*.shader_test \
   tests/spec/arb_gpu_shader5/execution/*.shader_test tests/spec/glsl-1.50/execution/*.shader_test \
   tests/spec/arb_tessellation_shader/execution/*.shader_test | shuf --random-source=<(yes) | head -60 > "$out/piglit_list.txt"
i=0
while read -r t; do
  i=$((i + 1))
  GLREPLAY_CAPTURE_FRAMES=0 GLREPLAY_CAPTURE_OUT="$out/pg_$i.glcap" LD_PRELOAD=$shim PIGLIT_PLATFORM=surfaceless_egl \
    timeout 30 bin/shader_runner "$t" -auto -fbo >/dev/null 2>&1 || true
  echo "pg_$i $t" >> "$out/piglit_map.txt"
done < "$out/piglit_list.txt"
echo "$(ls "$out"/*.glcap | wc -l) captures; $(du -sh .devbundle "$out" | tr '\n' ' ')"
