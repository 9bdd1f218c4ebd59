#!/usr/bin/env python3
"""In-process latency of `shellgate.check` (p50, p90, p99) on typical agent commands, and
the batch rate of `check_many`. Run it against an installed wheel (release or wheel-ci
profile; a dev build is many times slower):

    python examples/python/bench_check.py [--iterations 20000]

Reports, per command and overall: config=False (the analyzer alone) and the default
config lookup (the user's config file and project files read on every call, as `shellgate
check` does). Figures on a shared, loaded machine are noisy; say so when quoting them.
"""

import argparse
import os
import statistics
import tempfile
import time

import shellgate

TYPICAL = [
    "git status",
    "ls -la src",
    "cargo test -q --lib model::",
    "grep -rn 'TODO' src | head -20",
    "cd /home/user/project && npm run build 2>&1 | tail -40",
    "python3 -m pytest -x tests/test_api.py -k check",
    "git diff --stat HEAD~1",
    "find . -name '*.py' -not -path './.venv/*' | xargs wc -l",
]


def percentiles(ns):
    s = sorted(ns)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))] / 1000
    return pick(0.5), pick(0.9), pick(0.99)


def bench(cmds, iterations, **kwargs):
    for c in cmds:  # warm the allocator and the parser's thread-local state
        shellgate.check(c, **kwargs)
    out = {}
    for c in cmds:
        ns = []
        for _ in range(iterations // len(cmds)):
            t = time.perf_counter_ns()
            shellgate.check(c, **kwargs)
            ns.append(time.perf_counter_ns() - t)
        out[c] = ns
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=20000)
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="sg-bench-home-")
    work = os.path.join(home, "project")
    os.makedirs(work)
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, ".config")  # no user config: defaults
    for label, kwargs in (("config=False", {"config": False}), ("default config", {})):
        res = bench(TYPICAL, args.iterations, cwd=work, home=home, **kwargs)
        allns = [x for ns in res.values() for x in ns]
        p50, p90, p99 = percentiles(allns)
        print(f"check ({label}): p50 {p50:.1f} us, p90 {p90:.1f} us, p99 {p99:.1f} us over {len(allns)} calls")
        for c, ns in res.items():
            print(f"    p50 {percentiles(ns)[0]:7.1f} us  {c}")
    batch = TYPICAL * 2000
    t = time.perf_counter()
    shellgate.check_many(batch, config=False, cwd=work, home=home)
    took = time.perf_counter() - t
    cores = os.cpu_count() or 1
    print(f"check_many: {len(batch)} commands in {took:.2f} s on {cores} cores: "
          f"{len(batch) / took:.0f}/s ({len(batch) / took / cores:.0f}/s per core)")


if __name__ == "__main__":
    main()
