#!/bin/bash
# Vendor-driver check (prepared by tests/device/make_bundle.sh): glreplay's replayer and shim on a
# GPU machine's own driver (EGL device platform, no display). Results in $OUT/results.txt.
B=$PWD/.devbundle; C=$PWD/.devcap; R=$OUT/results.txt
# Unpacks Debian's GL dispatch libraries into / (a disposable machine only; DRY=1 skips it).
[ -n "${DRY:-}" ] || { for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; }
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] && export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
{ grep PRETTY /etc/os-release; ldd --version | head -1; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; } > $OUT/machine.txt 2>&1
export LD_LIBRARY_PATH=$B/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib
G="$B/glreplay"
if ! $G --version >/dev/null 2>&1; then
  echo "system loader cannot run glreplay: $($G --version 2>&1 | head -2); using the bundled glibc" >> $OUT/machine.txt
  G="$B/libc/ld-linux-x86-64.so.2 --library-path $B/libc:$LD_LIBRARY_PATH:/usr/lib/x86_64-linux-gnu $B/glreplay"
fi
export GLREPLAY_SHIM=$B/libglreplay.so
$G --version >> $OUT/machine.txt 2>&1
# 1. Replays of captures made under llvmpipe, on the vendor driver.
for f in $C/*.glcap; do
  n=$(basename $f .glcap)
  o=$(timeout 60 $G replay $f --verify 2>&1); rc=$?
  echo "== $n rc=$rc" >> $R
  echo "$o" | grep -E "^replay:|^verify:|differ|DIFFERS|glreplay:|pixels" | head -8 >> $R
done
# 2. The shim on the vendor driver: the replayer itself (an EGL pbuffer program) captured under the
#    shim, then that capture replayed and verified on the same driver.
for n in gm_build gm_refract glxgears pg_1; do
  [ -f $C/$n.glcap ] || continue
  rm -f $OUT/self_$n.glcap
  o=$(LD_PRELOAD=$B/libglreplay.so GLREPLAY_CAPTURE_FRAMES=0 GLREPLAY_CAPTURE_OUT=/tmp/self_$n.glcap timeout 120 $G replay $C/$n.glcap 2>&1); rc=$?
  echo "== shim on $n rc=$rc" >> $R; echo "$o" | tail -2 >> $R
  o=$(timeout 60 $G replay /tmp/self_$n.glcap --verify 2>&1); rc=$?
  echo "== replay of self_$n rc=$rc" >> $R; echo "$o" | grep -E "^replay:|^verify:|DIFFERS|glreplay:" | head -6 >> $R
  timeout 60 $G info /tmp/self_$n.glcap 2>&1 | sed -n 1,6p >> $R
done
# 3. GL errors the vendor driver raised while replaying the captures that differ most.
for n in gm_jellyfish gm_refract gm_shading_shading_phong gm_texture gm_desktop gm_shadow glxgears pg_13 pg_12 pg_7; do
  echo "== gl-errors $n" >> $R
  timeout 60 $G replay $C/$n.glcap --gl-errors --png $OUT/png_$n 2>&1 | grep -v "matches" | head -40 >> $R
done
# 4. The GPU model against the vendor driver on one capture.
timeout 120 $G model $C/gm_build.glcap --compare 2>&1 | tail -3 >> $R
(cd $OUT && tar czf pngs.tgz png_* && rm -rf png_*)
echo done >> $R
