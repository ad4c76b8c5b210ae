#!/usr/bin/env bash
# The acceptance of issue 18 on a fresh Debian 12 machine, for real: build the package from a
# clone, install it, and capture, replay, report and debug a glmark2 frame using only installed
# files. Not part of the test suite (it takes tens of minutes and downloads about 1 GB).
#
#   sudo tests/install/fresh_machine.sh [WORK_DIR]      (default /var/tmp/glr-fresh)
#
# 1. debootstrap a minimal Debian 12 (bookworm) root from Debian's mirror: the pristine base.
# 2. Build root = a copy of the base. A `git clone` of this repository (its HEAD: commit first)
#    goes into it; inside: `apt-get build-dep ./` (the Build-Depends of debian/control, from
#    Debian), `dpkg-buildpackage -b -us -uc`, lintian (no errors, no warnings).
# 3. Run root = another copy of the base (no build tree, no build dependencies). Inside:
#    `apt-get install ./glreplay_*.deb` plus glmark2-x11, xvfb and python3 (the DAP client), then
#    tests/install/fresh_checks.sh, which starts an Xvfb in the root and runs every glreplay
#    command with nothing in its environment but DISPLAY: run, capture, info, replay --verify,
#    report, debug, and a DAP session over `glreplay dap --stdio` (tests/install/dap_stdio_client.py).
#
# The heavy steps run under nice -n 10 (the machine may be shared). Each step's time is printed
# and the whole log is WORK_DIR/fresh.log. Needs root (debootstrap, chroot, mounts) and network.
# Exit status 0: every step passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${1:-/var/tmp/glr-fresh}
mirror=${GLR_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || { echo "fresh_machine: run as root (debootstrap, chroot)" >&2; exit 2; }

mkdir -p "$work"
exec > >(tee "$work/fresh.log") 2>&1
t_start=$(date +%s)
step() { echo "fresh_machine: [$(($(date +%s) - t_start)) s] $*"; }
fail() { echo "fresh_machine: FAIL: $*" >&2; exit 1; }

mounted=()
mount_root() {  # ROOT: what a chroot needs of the host's kernel interfaces
    local r=$1
    mount -t proc proc "$r/proc"; mounted+=("$r/proc")
    mount --bind /dev "$r/dev"; mounted+=("$r/dev")
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" 2>/dev/null && mounted+=("$r/dev/pts") || true
    mount -t tmpfs tmpfs "$r/dev/shm"; mounted+=("$r/dev/shm")
    mount -t sysfs sysfs "$r/sys"; mounted+=("$r/sys")
}
unmount_all() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
    mounted=()
}
trap unmount_all EXIT
# A root is deleted only when nothing is mounted below it (a bind mount of /dev would be deleted too).
remove_root() {
    local r=$1
    [ -d "$r" ] || return 0
    if findmnt -rn -o TARGET | grep -q "^$r/"; then fail "$r still has mounts; not deleting it"; fi
    rm -rf --one-file-system "$r"
}
in_root() {  # ROOT COMMAND...: as root in the chroot, with a minimal environment
    local r=$1
    shift
    chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

# ---- 0. the host's tools
if ! command -v debootstrap >/dev/null; then
    step "installing debootstrap on the host"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 debootstrap >/dev/null
fi
git -C "$repo" diff --quiet HEAD -- || step "note: uncommitted changes are not in the clone (it is of HEAD $(git -C "$repo" rev-parse --short HEAD))"

# ---- 1. the pristine base
base=$work/base
if [ ! -f "$base/.glr-base-complete" ]; then
    remove_root "$base"
    step "debootstrap bookworm (minbase) from $mirror"
    nice -n 10 debootstrap --variant=minbase bookworm "$base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -30 "$work/debootstrap.log"; fail "debootstrap"; }
    cat >"$base/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
    touch "$base/.glr-base-complete"
fi
step "base root ready: $(cat "$base/etc/debian_version"), $(du -sh --exclude=proc "$base" 2>/dev/null | cut -f1)"

# ---- 2. build root: a clone, the build dependencies from Debian, dpkg-buildpackage, lintian
build=$work/build
remove_root "$build"
cp -a "$base" "$build"
cp /etc/resolv.conf "$build/etc/resolv.conf"
git clone -q "$repo" "$build/src/glreplay"
step "cloned $(git -C "$build/src/glreplay" log -1 --format='%h %s' | cut -c1-80)"
mount_root "$build"
in_root "$build" apt-get update -q >"$work/build-apt.log" 2>&1 || { tail "$work/build-apt.log"; fail "apt-get update (build root)"; }
step "installing the Build-Depends (apt-get build-dep ./) and lintian"
in_root "$build" sh -c 'cd /src/glreplay && apt-get build-dep -y -q ./ && apt-get install -y -q --no-install-recommends lintian' \
    >>"$work/build-apt.log" 2>&1 || { tail -30 "$work/build-apt.log"; fail "installing the build dependencies"; }
step "build dependencies installed: $(in_root "$build" dpkg-query -W -f='.\n' | wc -l) packages in the build root"
step "dpkg-buildpackage -b -us -uc (nice -n 10)"
t0=$(date +%s)
in_root "$build" sh -c 'cd /src/glreplay && nice -n 10 dpkg-buildpackage -b -us -uc' >"$work/dpkg-buildpackage.log" 2>&1 ||
    { tail -60 "$work/dpkg-buildpackage.log"; fail "dpkg-buildpackage (log: $work/dpkg-buildpackage.log)"; }
t_build=$(($(date +%s) - t0))
deb=$(cd "$build/src" && ls glreplay_*.deb)
step "built $deb in $t_build s ($(du -h "$build/src/$deb" | cut -f1))"
in_root "$build" sh -c 'cd /src && lintian --info glreplay_*.deb glreplay_*.changes' >"$work/lintian.log" 2>&1 || true
cat "$work/lintian.log"
if grep -q '^[EW]:' "$work/lintian.log"; then fail "lintian reports errors or warnings"; fi
step "lintian: no errors, no warnings ($(grep -c '^[IPN]:' "$work/lintian.log" || true) info/pedantic/notes)"
cp "$build/src/$deb" "$work/"
unmount_all
remove_root "$build"

# ---- 3. run root: install the .deb on a fresh copy of the base, then only installed files
run=$work/run
remove_root "$run"
cp -a "$base" "$run"
cp /etc/resolv.conf "$run/etc/resolv.conf"
cp "$work/$deb" "$run/root/"
mkdir -p "$run/root/checks"
cp "$here/fresh_checks.sh" "$here/dap_stdio_client.py" "$run/root/checks/"
mount_root "$run"
in_root "$run" apt-get update -q >"$work/run-apt.log" 2>&1 || fail "apt-get update (run root)"
step "apt-get install ./$deb glmark2-x11 xvfb xauth python3"
in_root "$run" sh -c "cd /root && apt-get install -y -q ./$deb glmark2-x11 xvfb xauth python3" >>"$work/run-apt.log" 2>&1 ||
    { tail -30 "$work/run-apt.log"; fail "apt-get install ./$deb"; }
step "installed: $(in_root "$run" dpkg-query -W -f='${Package} ${Version}\n' glreplay); no build tree in the root: $(ls "$run/src" 2>/dev/null | wc -l) entries in /src"
[ ! -e "$run/src/glreplay" ] || fail "a build tree is in the run root"
# The display: a number no X server of the host uses (an X server also listens on the abstract
# socket @/tmp/.X11-unix/XN, which the chroot shares with the host).
disp=""
for n in $(seq 142 199); do
    if ! grep -q "/tmp/.X11-unix/X$n\$" /proc/net/unix && [ ! -e "/tmp/.X$n-lock" ]; then disp=$n; break; fi
done
[ -n "$disp" ] || fail "no free X display number"
step "checks with only installed files (display :$disp)"
in_root "$run" nice -n 10 bash /root/checks/fresh_checks.sh "$disp" || fail "the checks of the installed package"
unmount_all
step "all steps passed in $(($(date +%s) - t_start)) s (package build $t_build s); log $work/fresh.log"
