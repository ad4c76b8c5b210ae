#!/usr/bin/env python3
"""Time of one pixel history (`glreplay pixel`) on 1280x720 frames.

Captures frame 5 of glmark2 scenes at 1280x720 (or uses the captures given), then times
`glreplay pixel F --at X,Y --json` for pixels spread over the frame: wall time per history, and
the engine's own split (the model pass, the driver replay). Also the same without the driver
(--no-driver), and `glreplay model --no-timing` (the whole frame in the model) for scale.
Prints a table for docs/BENCHMARKS.md; timings are never asserted. The table says where the
earlier passes came from ("earlier passes": the driver's images, or the model).

--baseline OLD_GLREPLAY times another build on the same captures and pixels, each of its histories
right after the new one's (so both see the same load), and adds the ratio of the medians: the way
to compare builds on a loaded machine.

The on-disk cache of the driver's answers (debugger/pixel/pixel_disk_cache.c) lives in a folder of
this run, emptied before each capture: the first pixel's history replays the frame on the driver
and keeps its answers, the later pixels' histories take them ("first history s" and "later
histories": what a user clicking pixel after pixel of one capture sees). --no-cache times every
history without it (each one replays on the driver). The baseline build is run as it is.

--target T times histories of target T (fboN/colorK, as `glreplay pixel --target`) instead of the
back buffer. --debug also times debug this pixel (`glreplay debug F --pixel X,Y --json`: the
history behind the stop and the debugger's run to it) at the first pixel a draw wrote, for the
baseline too.

usage: bench_pixel_history.py GLREPLAY SHIM [--scenes a,b] [--pixels N] [--baseline OLD] [--target T]
                              [--debug] [--no-cache] [CAPTURE...]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def capture(shim, scene, out):
    env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="5", GLREPLAY_CAPTURE_OUT=out, LD_PRELOAD=shim)
    cmd = ["glmark2", "-s", "1280x720", "-b", scene + ":nframes=6"]
    if not os.environ.get("DISPLAY"):
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"] + cmd
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return os.path.exists(out)


def timed(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    return time.monotonic() - t0, p


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    glreplay, shim = args[0], args[1]
    rest = args[2:]
    scenes, npix = ["shading:shading=phong", "jellyfish", "terrain"], 5
    if "--scenes" in rest:
        i = rest.index("--scenes")
        scenes = rest[i + 1].split(",")
        del rest[i:i + 2]
    if "--pixels" in rest:
        i = rest.index("--pixels")
        npix = int(rest[i + 1])
        del rest[i:i + 2]
    baseline = None
    if "--baseline" in rest:
        i = rest.index("--baseline")
        baseline = rest[i + 1]
        del rest[i:i + 2]
    target = None
    if "--target" in rest:
        i = rest.index("--target")
        target = rest[i + 1]
        del rest[i:i + 2]
    debug = "--debug" in rest
    if debug:
        rest.remove("--debug")
    nocache = "--no-cache" in rest
    if nocache:
        rest.remove("--no-cache")
    tsel = ["--target", target] if target else []
    csel = ["--no-cache"] if nocache else []
    caps = list(rest)
    tmp = tempfile.mkdtemp(prefix="pxhbench")
    cache_dir = os.path.join(tmp, "pixel-cache")
    os.environ["GLREPLAY_PIXEL_CACHE"] = cache_dir
    if not caps:
        for sc in scenes:
            out = os.path.join(tmp, sc.replace(":", "_").replace("=", "_") + ".glcap")
            if capture(shim, sc, out):
                caps.append(out)
            else:
                print("%s: no capture" % sc)
    print("| capture | pixels | first history s | later histories median (max) s | model pass median s | driver replay median s | "
          "--no-driver median s | whole frame in the model s | earlier passes |" +
          (" baseline history median (max) s | baseline / new |" if baseline else "") +
          (" debug --pixel s |" + (" baseline debug --pixel s |" if baseline else "") if debug else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if baseline else "") +
          ("---|" + ("---|" if baseline else "") if debug else ""))
    for cap in caps:
        wall, model, driver, nodrv, base, source = [], [], [], [], [], set()
        dbg, dbg_base = [], []
        shutil.rmtree(cache_dir, ignore_errors=True)
        for k in range(npix):
            x, y = 1280 * (2 * k + 1) // (2 * npix), 720 * (k % 3 + 1) // 4
            dt, p = timed([glreplay, "pixel", cap, "--at", "%d,%d" % (x, y), "--json"] + tsel + csel)
            if p.returncode not in (0, 1):
                print("%s (%d,%d): %s" % (cap, x, y, p.stderr.strip()))
                continue
            j = json.loads(p.stdout)
            wall.append(dt)
            model.append(j["seconds"]["model"])
            driver.append(j["seconds"]["driver"])
            ep = j.get("earlier_passes", {})
            source.add(ep.get("from", "model") + (" (%d draws left out)" % ep["draws_left_out"]
                                                   if ep.get("draws_left_out") else ""))
            if baseline:
                dt, p = timed([baseline, "pixel", cap, "--at", "%d,%d" % (x, y), "--json"] + tsel)
                if p.returncode in (0, 1):
                    base.append(dt)
            dt, p = timed([glreplay, "pixel", cap, "--at", "%d,%d" % (x, y), "--no-driver", "--json"] + tsel)
            nodrv.append(dt)
            wrote = any(e.get("kind") == "draw" and not e.get("rejected") for e in j.get("events", []))
            if debug and wrote and not dbg:   # the first pixel a draw wrote (debug needs an invocation)
                for exe, out in [(glreplay, dbg)] + ([(baseline, dbg_base)] if baseline else []):
                    dt, p = timed([exe, "debug", cap, "--pixel", "%d,%d" % (x, y), "--json"] + tsel)
                    out.append("%.2f" % dt if p.returncode == 0 else "failed (%d)" % p.returncode)
        full, _ = timed([glreplay, "model", cap, "--no-timing"])
        if not wall:
            continue
        later = wall[1:] or wall
        row = "| %s | %d | %.2f | %.2f (%.2f) | %.2f | %.2f | %.2f | %.2f | %s |" % (
            os.path.basename(cap), len(wall), wall[0], statistics.median(later), max(later), statistics.median(model),
            statistics.median(driver), statistics.median(nodrv), full, ", ".join(sorted(source)))
        if baseline and base:
            row += " %.2f (%.2f) | %.2f |" % (statistics.median(base), max(base),
                                              statistics.median(base) / statistics.median(later))
        if debug:
            row += " %s |" % (dbg[0] if dbg else "-") + (" %s |" % (dbg_base[0] if dbg_base else "-") if baseline else "")
        print(row)


if __name__ == "__main__":
    main()
