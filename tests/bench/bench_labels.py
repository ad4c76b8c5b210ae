"""`--label NAME=PATH` options of the side-by-side benchmarks: more binaries measured in the same
interleaved rounds (e.g. a build from before a change)."""


def parse_labels(first, specs, what, fail):
    """[first] + one (NAME, PATH) per spec; fail(message) on a malformed one. `what` names the
    PATH in the message (e.g. "SHIM")."""
    out = [first]
    for spec in specs:
        name, _, path = spec.partition("=")
        if not name or not path:
            fail(f"--label wants NAME={what}, not {spec!r}")
        out.append((name, path))
    return out
