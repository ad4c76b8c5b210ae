# Sourced by the editor tests: captures piglit's glsl-1.10/execution/fs-open-coded-mix-float
# (shader_runner, surfaceless EGL: no X) into $tmp/mix.glcap and writes its fragment shader to
# $tmp/mix.frag, as a user has the file on disk (a breakpoint binds to the captured shader by its
# text). Sets `line` to the line of `if (abs(result - 11.0) <= 0.001)`, where `result` is 11.
# Needs: glreplay, piglit, tmp, name (the test's name, for messages).
spec=$piglit/tests/spec/glsl-1.10/execution/fs-open-coded-mix-float.shader_test
[ -f "$spec" ] || { echo "$name: FAIL: $spec is missing (Debian package piglit)" >&2; exit 1; }
PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless \
  timeout 90 "$glreplay" capture --frame 0 --out "$tmp/mix.glcap" -- \
  "$piglit/bin/shader_runner" "$spec" -auto -fbo >"$tmp/capture.log" 2>&1 ||
  { echo "$name: FAIL: capture failed: $(tail -3 "$tmp/capture.log")" >&2; exit 1; }
awk '/^\[fragment shader\]/{on=1; next} /^\[/{on=0} on' "$spec" > "$tmp/mix.frag"
line=$(grep -n 'if (abs(result - 11.0)' "$tmp/mix.frag" | cut -d: -f1)
[ -n "$line" ] && [ "$(sed -n "$((line - 1))p" "$tmp/mix.frag")" = "    float result = (-x + y) * a + x;" ] ||
  { echo "$name: FAIL: unexpected shader text in $spec" >&2; exit 1; }
