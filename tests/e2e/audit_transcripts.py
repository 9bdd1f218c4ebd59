#!/usr/bin/env python3
"""`shellgate audit` on the transcripts the real harnesses wrote in the end-to-end run
(tests/e2e/e2e.py --transcripts DIR), stdlib only.

For every harness: the scenario whose command shellgate denied is judged deny and shows
as refused (the hook's block is the tool result); the one it asked about is judged ask and
refused; the one run with no hook installed (`unguarded`) is judged ask, shows as run, and
is in the headline list of what ran although shellgate would ask; the allowed one is
judged allow and ran. Then the HTML report is loaded in headless Chromium: a DOM assertion
on --dump-dom (the headline lists each harness's unguarded command) and a screenshot.

Usage: audit_transcripts.py --shellgate PATH --transcripts DIR [--chromium PATH] [--out DIR]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HOSTS = ("claude", "codex", "gemini", "hermes")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def audit(shellgate, paths, *extra):
    p = subprocess.run([shellgate, "audit", "--json", "--no-config", *extra, *paths],
                       capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        raise SystemExit(f"audit exited {p.returncode}: {p.stderr}")
    return p.returncode, json.loads(p.stdout)


def check_host(shellgate, root, host):
    """Problems with what audit found in one harness's transcripts."""
    problems = []
    scen = {name[len(host) + 1:]: os.path.join(root, name) for name in os.listdir(root)
            if name.startswith(host + "-") and not name.startswith(host + "-plugin")}
    expect = {
        "allow": ("touch", "allow", "ran"),
        "deny": ("mkfs.ext4", "deny", "refused"),
        "ask-unattended": ("git reset --hard", "ask", "refused"),
        "ask-as-deny": ("git reset --hard", "ask", "refused"),
        "unguarded": ("git reset --hard", "ask", "ran"),
    }
    for name, (needle, decision, ran) in expect.items():
        if name not in scen:
            continue
        code, out = audit(shellgate, [scen[name]])
        calls = [c for c in out["calls"] if c.get("kind") == "shell" and needle in c["command"]]
        if [c["host"] for c in calls] != [host]:
            problems.append(f"{host}/{name}: expected one {host} call with {needle!r}, got {out['calls']}")
            continue
        c = calls[0]
        if (c["decision"], c["ran"]) != (decision, ran):
            problems.append(f"{host}/{name}: {c['command']!r} judged {c['decision']}/{c['ran']}, "
                            f"expected {decision}/{ran}")
        headline = [h["command"] for h in out["ran_unsafe"] if h.get("kind") == "shell"]
        want_headline = decision != "allow" and ran == "ran"
        if (c["command"] in headline) != want_headline or code != (1 if want_headline else 0):
            problems.append(f"{host}/{name}: headline {headline} (exit {code}) is wrong for {c['command']!r}")
        if out["summary"]["malformed"]:
            problems.append(f"{host}/{name}: malformed lines in a real transcript: {out['malformed']}")
    if "unguarded" not in scen or "deny" not in scen:
        problems.append(f"{host}: the end-to-end run kept no deny/unguarded transcripts ({sorted(scen)})")
    return problems


def check_html(shellgate, root, chromium, out_dir):
    """Render the report in headless Chromium: each host's unguarded command is in the headline."""
    problems = []
    html = os.path.join(out_dir, "audit-report.html")
    code, _ = audit(shellgate, [root], "--html", html)
    with tempfile.TemporaryDirectory() as profile:
        url = "file://" + html
        base = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
        dom = subprocess.run(base + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
        shot = os.path.join(out_dir, "audit-report.png")
        subprocess.run(base + [f"--screenshot={shot}", "--window-size=1200,1600", url],
                       capture_output=True, text=True, timeout=120)
    page = dom.stdout
    start = page.find('id="headline"')
    end = page.find("</section>", start)
    headline = page[start:end] if start >= 0 else ""
    for host in HOSTS:
        if "git reset --hard" not in headline or f" · {host} · " not in headline:
            problems.append(f"html: the headline in Chromium's DOM lacks {host}'s unguarded command")
    if 'class="call deny refused"' not in page:
        problems.append("html: no refused deny call in the session timelines")
    if not os.path.exists(shot) or os.path.getsize(shot) < 1000:
        problems.append(f"html: Chromium wrote no screenshot at {shot}")
    if dom.returncode != 0 or not page:
        problems.append(f"html: chromium --dump-dom failed: {dom.stderr[-500:]}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shellgate", required=True)
    ap.add_argument("--transcripts", required=True)
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--out", default=None, help="where the HTML report and screenshot go")
    args = ap.parse_args()
    out_dir = os.path.abspath(args.out or tempfile.mkdtemp(prefix="sg-audit-"))
    os.makedirs(out_dir, exist_ok=True)
    failures, passed = [], 0
    for host in HOSTS:
        problems = check_host(args.shellgate, args.transcripts, host)
        print(f"{'ok  ' if not problems else 'FAIL'} audit/{host}" + "".join(f"\n    {p}" for p in problems))
        failures += problems
        passed += not problems
    problems = check_html(args.shellgate, args.transcripts, args.chromium, out_dir)
    print(f"{'ok  ' if not problems else 'FAIL'} audit/html ({out_dir}/audit-report.html, .png)"
          + "".join(f"\n    {p}" for p in problems))
    failures += problems
    passed += not problems
    print(f"\n{passed} passed, {len(HOSTS) + 1 - passed} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
