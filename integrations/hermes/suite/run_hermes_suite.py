#!/usr/bin/env python3
"""Hermes's own approval tests against shellgate's drop-in (`shellgate.hermes`).

Two checks, both in a Python environment that has hermes-agent (the pinned release),
shellgate and pytest installed (`--python`):

1. Hermes's approval tests (`tests/tools/test_approval*.py` of hermes-agent), when a copy
   is at hand: `--tests DIR`, `$SHELLGATE_HERMES_TESTS`, or `../shared/hermes-agent-tests`
   beside the repository. hermes-agent ships none of them on PyPI (neither sdist nor
   wheel), and they are Hermes's code, so the repository does not carry them. Each test
   runs twice: with Hermes's own detection (the release), then with shellgate's drop-in
   patched in. Tests the release itself fails are not the release's expectations (a newer
   or forked test file) and are set aside. Of the rest, every drop-in failure must be
   listed in expected.toml with whose answer is right under the risk model; an unlisted
   failure, or a listed one that now passes, fails the run.
2. Always: a differential over the repository's corpus commands against the installed
   release's own functions: nothing Hermes's hardline tier blocks may be called safe by the
   drop-in unless the corpus labels it allow (then it is a false positive of Hermes's regexes),
   and the drop-in's keys are Hermes's keys (or `shellgate SG...` for rules Hermes
   has no key for). Exceptions are listed in expected.toml with the reason.

Ends with `N passed, M failed`.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

DIFFERENTIAL = r'''
import json, sys, tomllib, glob
import tools.approval as real
from shellgate import hermes
keys = set(__import__("shellgate").hermes_keys())
out = []
for path in sorted(glob.glob(sys.argv[1] + "/corpus/*.toml")):
    with open(path, "rb") as f:
        for case in tomllib.load(f).get("case", []):
            cmd = case.get("cmd")
            if not isinstance(cmd, str):
                continue
            rh = real.detect_hardline_command(cmd)[0]
            rd = real.detect_dangerous_command(cmd)[0]
            d = hermes.detect_dangerous_command(cmd)
            h = hermes.detect_hardline_command(cmd)
            out.append({"cmd": cmd, "expect": case.get("expect"), "hermes_hardline": rh, "hermes_dangerous": rd,
                        "dangerous": d[0], "key": d[1], "hardline": h[0],
                        "key_ok": d[1] is None or d[1] in keys or d[1].startswith(("shellgate ", "arbitrary program execution via "))})
print(json.dumps(out))
'''


def tests_dir(arg):
    for d in (arg, os.environ.get("SHELLGATE_HERMES_TESTS"), os.path.join(REPO, "..", "shared", "hermes-agent-tests")):
        if d and glob.glob(os.path.join(d, "**", "test_approval*.py"), recursive=True):
            return os.path.abspath(d)
    return None


def run_pytest(python, files, dropin, cwd):
    """{test id: passed?} for one run."""
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "r.xml")
        env = dict(os.environ, PYTHONPATH=HERE, SHELLGATE_HERMES_DROPIN="1" if dropin else "0",
                   HERMES_HOME=os.path.join(tmp, "hermes-home"), PYTHONDONTWRITEBYTECODE="1")
        env.pop("HERMES_YOLO_MODE", None)
        subprocess.run([python, "-m", "pytest", "-q", "-p", "shellgate_hermes_dropin", "-p", "no:cacheprovider",
                        "--junitxml", xml, "-o", "junit_family=xunit1", *files],
                       cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
        results = {}
        for case in ET.parse(xml).iter("testcase"):
            tid = f"{case.get('classname')}::{case.get('name')}"
            failed = any(c.tag in ("failure", "error") for c in case)
            skipped = any(c.tag == "skipped" for c in case)
            if not skipped:
                results[tid] = not failed
        return results


def load_expected():
    with open(os.path.join(HERE, "expected.toml"), "rb") as f:
        data = tomllib.load(f)
    return ({d["test"]: d for d in data.get("test", [])}, {d["cmd"]: d for d in data.get("hardline", [])})


def suite(python, tdir, expected):
    files = sorted(glob.glob(os.path.join(tdir, "**", "test_approval*.py"), recursive=True))
    release = run_pytest(python, files, False, tdir)
    dropin = run_pytest(python, files, True, tdir)
    own = {t for t, ok in release.items() if ok}
    failed = sorted(t for t in own if not dropin.get(t, False))
    print(f"hermes tests: {len(release)} ran; the release passes {len(own)} (the {len(release) - len(own)} others "
          f"are not its expectations and are set aside); the drop-in passes {len(own) - len(failed)} of those")
    for t in sorted(set(release) - own):
        print(f"  set aside (the release fails it): {t}")
    problems = []
    for t in failed:
        e = expected.get(t)
        if e is None:
            problems.append(f"unexpected drop-in failure: {t}")
        else:
            print(f"  expected disagreement ({e['right']} is right): {t}\n      {e['reason']}")
    for t in sorted(expected):
        if t in own and dropin.get(t, False):
            problems.append(f"listed as a disagreement but passes now (remove it from expected.toml): {t}")
    return problems


def differential(python, expected_hardline):
    p = subprocess.run([python, "-c", DIFFERENTIAL, REPO], capture_output=True, text=True, timeout=1800,
                       env=dict(os.environ, HERMES_HOME=tempfile.mkdtemp(prefix="sg-hermes-home-")))
    if p.returncode != 0:
        return [f"the differential did not run: {p.stderr[-800:]}"]
    rows = json.loads(p.stdout)
    problems = []
    agree = sum(r["hermes_dangerous"] == r["dangerous"] for r in rows)
    print(f"differential: {len(rows)} corpus commands; drop-in and Hermes {os.environ.get('HERMES_AGENT_VERSION', '')} "
          f"agree on dangerous-or-not for {agree}; Hermes hardline: {sum(r['hermes_hardline'] for r in rows)}, "
          f"shellgate hardline: {sum(r['hardline'] for r in rows)}")
    for r in rows:
        # A case the corpus labels allow (by the risk model) is a false positive of Hermes's
        # regexes when its hardline tier blocks it; anything else must not be called safe.
        if (r["hermes_hardline"] and not r["dangerous"] and r["expect"] != "allow"
                and r["cmd"] not in expected_hardline):
            problems.append(f"Hermes's hardline tier blocks it, the drop-in calls it safe: {r['cmd']!r}")
        if not r["key_ok"]:
            problems.append(f"the drop-in gave a key that is not Hermes's: {r['key']!r} for {r['cmd']!r}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True, help="a Python with hermes-agent, shellgate and pytest installed")
    ap.add_argument("--tests", help="a copy of hermes-agent's tests (tests/tools/test_approval*.py)")
    args = ap.parse_args()
    args.python = os.path.abspath(args.python)  # pytest runs in the tests' directory
    expected, expected_hardline = load_expected()
    passed, failed = 0, 0
    tdir = tests_dir(args.tests)
    if tdir is None:
        print("hermes tests: no copy at hand (hermes-agent ships them neither in its sdist nor its wheel; "
              "pass --tests, set SHELLGATE_HERMES_TESTS or put them in ../shared/hermes-agent-tests); "
              "the differential below still runs")
    else:
        problems = suite(args.python, tdir, expected)
        for pr in problems:
            print(f"FAIL {pr}")
        passed, failed = passed + (not problems), failed + bool(problems)
    problems = differential(args.python, expected_hardline)
    for pr in problems:
        print(f"FAIL {pr}")
    passed, failed = passed + (not problems), failed + bool(problems)
    print(f"\n{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
