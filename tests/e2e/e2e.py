#!/usr/bin/env python3
"""End-to-end hook tests with the real, released harnesses (stdlib only).

For each scenario: a throwaway HOME and work directory, the scripted model server
(model_server.py) on 127.0.0.1, ``shellgate install HARNESS`` to set up the hook, one whole
non-interactive turn of the harness, then assertions on disk: a denied command never ran
(its marker file is absent), an allowed one ran, an asked one did not run when nobody could
answer.

The whole run happens in a fresh network namespace (``unshare -n``) holding only a loopback
interface, so neither the harness nor anything it starts can reach another address.

Usage: e2e.py --shellgate PATH --harnesses DIR [--only claude,hermes] [--record DIR]
              [--transcripts DIR]

--transcripts DIR keeps the transcripts each harness wrote (Claude Code's projects, Codex's
rollouts, Gemini CLI's chats and logs, Hermes's session store) under
DIR/HARNESS-SCENARIO/home/, as they lay in the scenario's home: `shellgate audit` is tested
on them (tests/e2e/audit_transcripts.py).

DIR is where tests/e2e/install-harnesses.sh put the pinned harnesses. A missing harness is
a failure. Only outside CI, and only when SHELLGATE_E2E_SKIP_MISSING=1 is set, is it
skipped with a message instead.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TURN_TIMEOUT = 240  # seconds for one harness turn; a hung harness fails the scenario


def harness_bin(root, name):
    return {
        "claude": os.path.join(root, "claude", "node_modules", ".bin", "claude"),
        "hermes": os.path.join(root, "hermes-venv", "bin", "hermes"),
        "gemini": os.path.join(root, "gemini", "node_modules", ".bin", "gemini"),
        "codex": os.path.join(root, "codex", "node_modules", ".bin", "codex"),
        "opencode": os.path.join(root, "opencode", "node_modules", ".bin", "opencode"),
        "pi": os.path.join(root, "pi", "node_modules", ".bin", "pi"),
        "qwen": os.path.join(root, "qwen", "node_modules", ".bin", "qwen"),
        "amp": os.path.join(root, "amp", "node_modules", ".bin", "amp"),
    }[name]


class Server:
    def __init__(self, tmp, command, tool=None, tool_input=None, shell_tools=""):
        self.log = os.path.join(tmp, "model-requests.jsonl")
        port_file = os.path.join(tmp, "port")
        env = dict(os.environ, SG_E2E_COMMAND=command, SG_E2E_LOG=self.log,
                   SG_E2E_SHELL_TOOLS=shell_tools)
        if tool:
            env["SG_E2E_TOOL"] = tool
            env["SG_E2E_TOOL_INPUT"] = json.dumps(tool_input)
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "model_server.py"), port_file], env=env)
        for _ in range(200):
            if os.path.exists(port_file):
                break
            time.sleep(0.05)
        with open(port_file) as f:
            self.port = int(f.read())

    def requests(self):
        try:
            with open(self.log) as f:
                return [json.loads(l) for l in f]
        except FileNotFoundError:
            return []

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)


def run(cmd, env, cwd, timeout=TURN_TIMEOUT):
    p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p


def base_env(home):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "USER": os.environ.get("USER", "root"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "TMPDIR": os.path.join(home, "tmp"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
    }
    os.makedirs(env["TMPDIR"], exist_ok=True)
    return env


def recording_binary(shellgate, record_dir, tmp, harness):
    """A wrapper that saves each event the harness sends, then runs the real hook."""
    path = os.path.join(tmp, "shellgate-record")
    with open(path, "w") as f:
        f.write(f"""#!{sys.executable}
import os, subprocess, sys, time
data = sys.stdin.buffer.read()
os.makedirs({record_dir!r}, exist_ok=True)
with open(os.path.join({record_dir!r}, {harness!r} + "-%d.json" % time.time_ns()), "wb") as f:
    f.write(data)
p = subprocess.run([{shellgate!r}] + sys.argv[1:], input=data, capture_output=True)
sys.stdout.buffer.write(p.stdout); sys.stderr.buffer.write(p.stderr); sys.exit(p.returncode)
""")
    os.chmod(path, 0o755)
    return path


def scene(harness, scenario, dirs=()):
    """A throwaway home and work directory for one scenario; the command with its marker."""
    tmp = tempfile.mkdtemp(prefix=f"sg-e2e-{harness}-{scenario['name']}-")
    home, work = os.path.join(tmp, "home"), os.path.join(tmp, "work")
    for d in (home, work) + tuple(os.path.join(home, d) for d in dirs):
        os.makedirs(d, exist_ok=True)
    marker = os.path.join(work, "MARKER")
    command = scenario["command"].replace("MARKER", marker)
    return tmp, home, work, marker, command, base_env(home)


def installed(args, harness, scenario, env, work, binary, *flags):
    """Set up shellgate's hook, unless the scenario runs the harness without it (`"hook":
    False`: what an agent ran before shellgate was there, for `audit` to find)."""
    if scenario.get("hook", True) is False:
        return True
    inst = run([args.shellgate, "install", harness, *flags, "--binary", binary], env, work)
    if inst.returncode != 0:
        print(f"    install failed: {inst.stderr}")
    return inst.returncode == 0


# A command shellgate asks about, run by a harness with no hook installed: its transcript
# shows it ran (`audit`'s headline).
UNGUARDED = {"name": "unguarded", "command": "touch MARKER; git reset --hard", "runs": True,
             "hook": False}


def placeholders(value, home, work):
    """`HOME/` and `WORK/` in a scenario's tool input or marker path, filled in."""
    return json.loads(json.dumps(value).replace("HOME/", home + "/").replace("WORK/", work + "/"))


def ran_marker(scenario, marker, home, work):
    if scenario.get("path_marker"):
        return os.path.exists(placeholders(scenario["path_marker"], home, work))
    return os.path.exists(marker)


def outcome(scenario, ran, results, server, proc, what):
    """(ok, why): did the command run as expected, did the model hear the reason?"""
    problems = []
    if ran != scenario["runs"]:
        problems.append(f"the command {'ran' if ran else 'did not run'}; expected it to "
                        f"{'run' if scenario['runs'] else 'be blocked'}")
    want = scenario.get("reason")
    if want and not any(want in json.dumps(r) for r in results):
        problems.append(f"no {what} sent back to the model mentions {want!r}: "
                        f"{json.dumps(results)[:400]}")
    if not any(r.get("method") == "POST" for r in server.requests()):
        problems.append("the harness never called the model server")
    detail = f"exit {proc.returncode}; stdout={proc.stdout[-400:]!r}; stderr={proc.stderr[-600:]!r}"
    return not problems, "; ".join(problems) + ("\n    " + detail if problems else "")


def bodies(server, key):
    """Every element of `key` (messages, contents, input) in the requests the harness sent."""
    return [x for r in server.requests() for x in (r.get("body") or {}).get(key) or []
            if isinstance(x, dict)]


# ---- Claude Code ----------------------------------------------------------------------

def claude_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("claude", scenario)
    binary = args.shellgate
    if args.record:
        binary = recording_binary(args.shellgate, args.record, tmp, "claude")
    if not installed(args, "claude", scenario, env, work, binary, "--user"):
        return tmp, False, "install failed"
    if scenario.get("config"):
        cfg = os.path.join(env["XDG_CONFIG_HOME"], "shellgate")
        os.makedirs(cfg, exist_ok=True)
        with open(os.path.join(cfg, "config.toml"), "w") as f:
            f.write(scenario["config"])
    if scenario.get("setup"):
        scenario["setup"](work)
    server = Server(tmp, command, scenario.get("tool"), placeholders(scenario.get("tool_input"), home, work))
    try:
        env.update({
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.port}",
            "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
        })
        allowed = scenario.get("allowed_tools", "Bash")
        p = run([harness_bin(args.harnesses, "claude"), "-p", "Do the task.", "--allowedTools", allowed,
                 "--output-format", "json"], env, work)
    finally:
        server.stop()
    try:
        out = json.loads(p.stdout or "{}")
    except ValueError:
        out = {}
    # What the model was told about the blocked call: the hook's reason must be in it.
    results = [b for m in bodies(server, "messages") if isinstance(m.get("content"), list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    ok, why = outcome(scenario, ran_marker(scenario, marker, home, work), results, server, p, "tool result")
    if ok and scenario.get("hook", True) and not scenario["runs"] and not out.get("permission_denials"):
        return tmp, False, "Claude reported no permission_denials"
    if ok and scenario.get("after"):
        ok, why = scenario["after"](args, env, work)
    return tmp, ok, why


def tree(root):
    """Every file, link and directory below `root`: kind, mode and content."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            st = os.lstat(p)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = ("l", os.readlink(p))
            elif os.path.isdir(p):
                out[rel] = ("d", st.st_mode & 0o7777)
            else:
                with open(p, "rb") as f:
                    out[rel] = ("f", st.st_mode & 0o7777, f.read())
    return out


BUILD_BEFORE = {}


def make_build(work):
    """A build directory with binary content, modes, a link and an empty directory."""
    build = os.path.join(work, "build")
    os.makedirs(os.path.join(build, "obj", "empty"))
    for i in range(20):
        with open(os.path.join(build, "obj", f"m{i}.o"), "wb") as f:
            f.write(bytes((i * 7 + j) % 256 for j in range(4096)))
    with open(os.path.join(build, "run.sh"), "w") as f:
        f.write("#!/bin/sh\necho built\n")
    os.chmod(os.path.join(build, "run.sh"), 0o755)
    os.chmod(os.path.join(build, "obj", "m3.o"), 0o600)
    os.symlink("obj/m1.o", os.path.join(build, "latest.o"))
    BUILD_BEFORE[work] = tree(build)


def undo_brings_build_back(args, env, work):
    """The harness ran `rm -rf ./build`; `shellgate undo` must put it back byte for byte."""
    build = os.path.join(work, "build")
    if os.path.exists(build):
        return False, "the harness did not run the delete (build/ is still there)"
    u = run([args.shellgate, "undo"], env, work)
    if u.returncode != 0:
        return False, f"shellgate undo failed: exit {u.returncode}: {u.stdout[-400:]} {u.stderr[-400:]}"
    if not os.path.isdir(build) or tree(build) != BUILD_BEFORE[work]:
        return False, f"build/ was not restored byte for byte: {u.stdout[-400:]}"
    return True, ""


CLAUDE_SCENARIOS = [
    # Smart mode lets a workspace delete through; shellgate checkpoints it before answering,
    # Claude runs it, and `shellgate undo` restores the directory (issue 25).
    {"name": "smart-delete-undo", "command": "rm -rf ./build && touch MARKER", "runs": True,
     "config": "mode = \"smart\"\n", "setup": make_build, "after": undo_brings_build_back},
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    {"name": "ask-unattended", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    {"name": "write-protected", "command": "", "tool": "Write",
     "tool_input": {"file_path": "HOME/.config/shellgate/config.toml", "content": "mode = \"off\"\n"},
     "allowed_tools": "Bash,Write", "path_marker": "HOME/.config/shellgate/config.toml", "runs": False,
     "reason": "shellgate's own config"},
    {"name": "write-allowed", "command": "", "tool": "Write",
     "tool_input": {"file_path": "HOME/notes.txt", "content": "hello\n"},
     "allowed_tools": "Bash,Write", "path_marker": "HOME/notes.txt", "runs": True},
    UNGUARDED,
]


# ---- Codex CLI ------------------------------------------------------------------------

CODEX_CONFIG = """\
model = "gpt-5"
model_provider = "scripted"

[model_providers.scripted]
name = "scripted"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "SG_E2E_API_KEY"
"""


def codex_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("codex", scenario, dirs=(".codex",))
    env["CODEX_HOME"] = os.path.join(home, ".codex")
    binary = args.shellgate
    if args.record:
        binary = recording_binary(args.shellgate, args.record, tmp, "codex")
    if not installed(args, "codex", scenario, env, work, binary, "--user"):
        return tmp, False, "install failed"
    server = Server(tmp, command)
    try:
        with open(os.path.join(home, ".codex", "config.toml"), "w") as f:
            f.write(CODEX_CONFIG.format(port=server.port))
        env["SG_E2E_API_KEY"] = "e2e-dummy"
        # Codex runs a new hook only once a person trusted it (/hooks in the TUI);
        # --dangerously-bypass-hook-trust is its switch for vetted automation like this.
        p = run([harness_bin(args.harnesses, "codex"), "exec", "--skip-git-repo-check",
                 "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
                 "Do the task."], env, work)
    finally:
        server.stop()
    results = [i for i in bodies(server, "input") if i.get("type") == "function_call_output"]
    ok, why = outcome(scenario, ran_marker(scenario, marker, home, work), results, server, p,
                      "function_call_output")
    return tmp, ok, why


CODEX_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # Codex hooks cannot ask: shellgate's ask arrives as a deny with the reason.
    {"name": "ask-as-deny", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    UNGUARDED,
]


# ---- Gemini CLI -----------------------------------------------------------------------

def gemini_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("gemini", scenario, dirs=(".gemini",))
    # API-key auth against the loopback server; no folder-trust prompt in a throwaway dir.
    with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
        json.dump({"security": {"auth": {"selectedType": "gemini-api-key"},
                                "folderTrust": {"enabled": False}}}, f, indent=2)
    binary = args.shellgate
    if args.record:
        binary = recording_binary(args.shellgate, args.record, tmp, "gemini")
    if not installed(args, "gemini", scenario, env, work, binary, "--user"):
        return tmp, False, "install failed"
    server = Server(tmp, command, scenario.get("tool"), placeholders(scenario.get("tool_input"), home, work))
    try:
        env.update({
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{server.port}",
            "GEMINI_API_KEY": "e2e-dummy",
            "GEMINI_CLI_NO_RELAUNCH": "1",
        })
        # An explicit model skips Gemini's model router (extra classifier requests).
        p = run([harness_bin(args.harnesses, "gemini"), "-p", "Do the task.", "--yolo",
                 "-m", "gemini-2.5-flash", "--output-format", "json"], env, work)
    finally:
        server.stop()
    results = [part for c in bodies(server, "contents") for part in c.get("parts") or []
               if isinstance(part, dict) and "functionResponse" in part]
    ok, why = outcome(scenario, ran_marker(scenario, marker, home, work), results, server, p,
                      "function response")
    return tmp, ok, why


GEMINI_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # Gemini hooks cannot ask: shellgate's ask arrives as a deny with the reason.
    {"name": "ask-as-deny", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    # Gemini confines file tools to the workspace (and refuses .env there itself); another
    # harness's hook settings inside the workspace are shellgate's call.
    {"name": "write-protected", "command": "", "tool": "write_file",
     "tool_input": {"file_path": "WORK/.github/hooks/off.json", "content": "{}\n"},
     "path_marker": "WORK/.github/hooks/off.json", "runs": False,
     "reason": "an agent harness's config"},
    {"name": "write-allowed", "command": "", "tool": "write_file",
     "tool_input": {"file_path": "WORK/notes.md", "content": "hi\n"},
     "path_marker": "WORK/notes.md", "runs": True},
    UNGUARDED,
]


# ---- Hermes Agent ---------------------------------------------------------------------

def hermes_turn(args, scenario, plugin=False):
    tmp, home, work, marker, command, env = scene("hermes-plugin" if plugin else "hermes", scenario,
                                                  dirs=(".hermes",))
    hermes_home = os.path.join(home, ".hermes")
    env["HERMES_HOME"] = hermes_home
    server = Server(tmp, command)
    try:
        with open(os.path.join(hermes_home, "config.yaml"), "w") as f:
            f.write(HERMES_CONFIG.format(port=server.port, work=work))
            if plugin:
                f.write("plugins:\n  enabled:\n    - shellgate\n")
        if plugin:
            # The plugin, copied as a user installs it; it finds shellgate via SHELLGATE_BIN.
            shutil.copytree(os.path.join(HERE, "..", "..", "integrations", "hermes", "shellgate"),
                            os.path.join(hermes_home, "plugins", "shellgate"))
            env["SHELLGATE_BIN"] = args.shellgate
        else:
            binary = args.shellgate
            if args.record:
                binary = recording_binary(args.shellgate, args.record, tmp, "hermes")
            if not installed(args, "hermes", scenario, env, work, binary):
                return tmp, False, "install failed"
        env.update({
            "OPENAI_API_KEY": "sk-e2e-dummy",
            "HERMES_ACCEPT_HOOKS": "1",
        })
        # Only the tools under test: other toolsets install optional packages on first use.
        p = run([harness_bin(args.harnesses, "hermes"), "-z", "Do the task.", "--toolsets", "terminal,file"],
                env, work)
    finally:
        server.stop()
    results = [m for m in bodies(server, "messages") if m.get("role") == "tool"]
    ok, why = outcome(scenario, ran_marker(scenario, marker, home, work), results, server, p, "tool result")
    return tmp, ok, why


HERMES_CONFIG = """\
model:
  provider: custom
  base_url: http://127.0.0.1:{port}/v1
  default: scripted-model
terminal:
  backend: local
  cwd: {work}
approvals:
  mode: manual
"""

HERMES_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    {"name": "ask-unattended", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    UNGUARDED,
]


HERMES_PLUGIN_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # ask escalates to Hermes's own approval prompt only when a person can answer; in
    # `hermes -z` (yolo, nobody there) the plugin blocks with shellgate's reason.
    {"name": "ask-unattended", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
]

# ---- Shared by the hosts below: a broken shellgate for the fail-closed scenarios -------

def broken_binary(tmp, how):
    """A stand-in for shellgate that crashes, prints garbage, or hangs."""
    path = os.path.join(tmp, "shellgate")
    body = {"crash": "echo 'boom' >&2\nexit 3\n", "garbage": "echo 'all good'\nexit 0\n",
            "hang": "sleep 600\n"}[how]
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


def hook_binary(args, tmp, harness, scenario):
    if scenario.get("broken"):
        return broken_binary(tmp, scenario["broken"])
    if args.record:
        return recording_binary(args.shellgate, args.record, tmp, harness)
    return args.shellgate


def chat_results(server):
    """Tool results an OpenAI chat-completions harness sent back to the model."""
    return [m for m in bodies(server, "messages") if m.get("role") == "tool"]


# ---- OpenCode (plugin) ----------------------------------------------------------------

OPENCODE_CONFIG = {
    "$schema": "https://opencode.ai/config.json",
    "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "scripted",
                              "options": {"baseURL": "http://127.0.0.1:{port}/v1", "apiKey": "e2e-dummy"},
                              "models": {"scripted-model": {"name": "scripted", "tool_call": True}}}},
    "model": "scripted/scripted-model",
    "autoupdate": False,
    "share": "disabled",
}


def opencode_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("opencode", scenario)
    inst = run([args.shellgate, "install", "opencode", "--user", "--binary",
                hook_binary(args, tmp, "opencode", scenario)], env, work)
    if inst.returncode != 0:
        return tmp, False, f"install failed: {inst.stderr}"
    server = Server(tmp, command, shell_tools="bash")
    try:
        cfg = json.loads(json.dumps(OPENCODE_CONFIG).replace("{port}", str(server.port)))
        with open(os.path.join(env["XDG_CONFIG_HOME"], "opencode", "opencode.json"), "w") as f:
            json.dump(cfg, f, indent=2)
        # OpenCode looks up its plugin SDK on the npm registry at start; the scripted server
        # answers 404 at once (there is no other network here).
        registry = f"http://127.0.0.1:{server.port}/npm/"
        env.update({"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
                    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
                    "OPENCODE_DISABLE_SHARE": "1", "NPM_CONFIG_REGISTRY": registry,
                    "BUN_CONFIG_REGISTRY": registry})
        p = run([harness_bin(args.harnesses, "opencode"), "run", "Do the task."], env, work)
    finally:
        server.stop()
    return (tmp,) + outcome(scenario, ran_marker(scenario, marker, home, work), chat_results(server),
                            server, p, "tool result")


OPENCODE_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # tool.execute.before cannot ask: shellgate's ask arrives as a deny with the reason.
    {"name": "ask-as-deny", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    # The plugin fails closed: a shellgate that crashes or answers garbage blocks the call.
    {"name": "crash", "command": "touch MARKER", "runs": False, "broken": "crash",
     "reason": "could not judge"},
    {"name": "garbage", "command": "touch MARKER", "runs": False, "broken": "garbage",
     "reason": "not JSON"},
]


# ---- Pi (extension) -------------------------------------------------------------------

def pi_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("pi", scenario)
    inst = run([args.shellgate, "install", "pi", "--user", "--binary",
                hook_binary(args, tmp, "pi", scenario)], env, work)
    if inst.returncode != 0:
        return tmp, False, f"install failed: {inst.stderr}"
    server = Server(tmp, command, shell_tools="bash")
    try:
        models = {"providers": {"scripted": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions",
            "apiKey": "e2e-dummy",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "scripted-model"}]}}}
        with open(os.path.join(home, ".pi", "agent", "models.json"), "w") as f:
            json.dump(models, f)
        p = run([harness_bin(args.harnesses, "pi"), "--provider", "scripted", "--model", "scripted-model",
                 "--no-session", "-p", "Do the task."], env, work)
    finally:
        server.stop()
    return (tmp,) + outcome(scenario, ran_marker(scenario, marker, home, work), chat_results(server),
                            server, p, "tool result")


PI_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # `pi -p` has no UI to confirm in: the extension blocks an ask with the reason.
    {"name": "ask-unattended", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
    {"name": "crash", "command": "touch MARKER", "runs": False, "broken": "crash",
     "reason": "could not judge"},
    {"name": "garbage", "command": "touch MARKER", "runs": False, "broken": "garbage",
     "reason": "not JSON"},
]


# ---- Qwen Code ------------------------------------------------------------------------

def qwen_turn(args, scenario):
    tmp, home, work, marker, command, env = scene("qwen", scenario, dirs=(".qwen",))
    with open(os.path.join(home, ".qwen", "settings.json"), "w") as f:
        json.dump({"security": {"auth": {"selectedType": "openai"}}}, f, indent=2)
    inst = run([args.shellgate, "install", "qwen", "--user", "--binary",
                hook_binary(args, tmp, "qwen", scenario)], env, work)
    if inst.returncode != 0:
        return tmp, False, f"install failed: {inst.stderr}"
    server = Server(tmp, command)
    try:
        env.update({"OPENAI_BASE_URL": f"http://127.0.0.1:{server.port}/v1",
                    "OPENAI_API_KEY": "e2e-dummy", "OPENAI_MODEL": "scripted-model",
                    "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"})
        p = run([harness_bin(args.harnesses, "qwen"), "-p", "Do the task.", "--yolo"], env, work)
    finally:
        server.stop()
    return (tmp,) + outcome(scenario, ran_marker(scenario, marker, home, work), chat_results(server),
                            server, p, "tool result")


QWEN_SCENARIOS = [
    {"name": "allow", "command": "touch MARKER", "runs": True},
    {"name": "deny", "command": "touch MARKER; mkfs.ext4 -q /dev/sdzz9", "runs": False,
     "reason": "SG1201"},
    # `qwen -p` has nobody to answer Qwen's approval prompt: an ask blocks with the reason.
    {"name": "ask-unattended", "command": "touch MARKER; git reset --hard", "runs": False,
     "reason": "SG3301"},
]


# ---- Amp (permission delegation, judged by the released binary's own evaluator) -------

def amp_turn(args, scenario):
    """Amp needs an ampcode.com account to run a turn; `amp permissions test` runs the
    released binary's permission evaluator, delegate program included, offline."""
    tmp, home, work, _marker, _command, env = scene("amp", dict(scenario, command=""))
    inst = run([args.shellgate, "install", "amp", "--binary",
                hook_binary(args, tmp, "amp", scenario)], env, work)
    if inst.returncode != 0:
        return tmp, False, f"install failed: {inst.stderr}"
    # The released binary sometimes exits 0 before it writes its answer to a pipe; a run
    # without output says nothing either way, so it is run again (at most five times).
    for _ in range(5):
        p = run([harness_bin(args.harnesses, "amp"), "permissions", "test", scenario["tool"],
                 "--json"] + scenario["args"], env, work, timeout=60)
        if p.stdout.strip():
            break
    try:
        got = json.loads(p.stdout)
    except ValueError:
        return tmp, False, f"no JSON from amp permissions test: {p.stdout!r} {p.stderr[-400:]!r}"
    problems = []
    if got.get("action") != scenario["action"]:
        problems.append(f"action {got.get('action')!r}, expected {scenario['action']!r}")
    if (got.get("matchedEntry") or {}).get("action") != "delegate":
        problems.append(f"no shellgate delegate rule matched: {got.get('matchedEntry')}")
    want = scenario.get("reason")
    if want and want not in (got.get("error") or ""):
        problems.append(f"the rejection does not mention {want!r}: {got.get('error')!r}")
    return tmp, not problems, "; ".join(problems) + (f"\n    {p.stdout[-600:]}" if problems else "")


AMP_SCENARIOS = [
    {"name": "allow", "tool": "shell_command", "args": ["--command", "ls -la"], "action": "allow"},
    {"name": "ask", "tool": "shell_command", "args": ["--command", "git reset --hard"], "action": "ask"},
    {"name": "deny", "tool": "Bash", "args": ["--cmd", "mkfs.ext4 -q /dev/sdzz9"], "action": "reject",
     "reason": "SG1201"},
    {"name": "crash", "tool": "shell_command", "args": ["--command", "ls"], "action": "reject",
     "broken": "crash", "reason": "boom"},
]


HARNESSES = {
    "claude": (claude_turn, CLAUDE_SCENARIOS, "claude"),
    "gemini": (gemini_turn, GEMINI_SCENARIOS, "gemini"),
    "codex": (codex_turn, CODEX_SCENARIOS, "codex"),
    "hermes": (hermes_turn, HERMES_SCENARIOS, "hermes"),
    "hermes-plugin": (lambda a, s: hermes_turn(a, s, plugin=True), HERMES_PLUGIN_SCENARIOS, "hermes"),
    "opencode": (opencode_turn, OPENCODE_SCENARIOS, "opencode"),
    "pi": (pi_turn, PI_SCENARIOS, "pi"),
    "qwen": (qwen_turn, QWEN_SCENARIOS, "qwen"),
    "amp": (amp_turn, AMP_SCENARIOS, "amp"),
}


# Where each harness leaves its transcripts, relative to its home.
TRANSCRIPTS = (".claude/projects", ".codex/sessions", ".gemini/tmp", ".hermes/state.db",
               ".hermes/sessions", ".local/share/opencode/storage")


def keep_transcripts(tmp, dest):
    """Copy the transcripts under the scenario's home into dest/home (same layout)."""
    home = os.path.join(tmp, "home")
    for rel in TRANSCRIPTS:
        src = os.path.join(home, rel)
        out = os.path.join(dest, "home", rel)
        if os.path.isdir(src):
            shutil.copytree(src, out, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.sock", "bin"))
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            shutil.copy2(src, out)


def in_netns():
    """Re-run this script inside a new network namespace with only loopback up."""
    if os.environ.get("SG_E2E_IN_NETNS") == "1":
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        return None
    env = dict(os.environ, SG_E2E_IN_NETNS="1")
    return subprocess.call(["unshare", "--net", sys.executable] + sys.argv, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shellgate", required=True)
    ap.add_argument("--harnesses", required=True)
    ap.add_argument("--only", default=",".join(HARNESSES))
    ap.add_argument("--record", help="save every hook event the harnesses send into this directory")
    ap.add_argument("--transcripts", help="keep the transcripts each harness wrote in this directory")
    args = ap.parse_args()
    args.shellgate = os.path.abspath(args.shellgate)
    args.harnesses = os.path.abspath(args.harnesses)
    if args.record:
        args.record = os.path.abspath(args.record)
    if args.transcripts:
        args.transcripts = os.path.abspath(args.transcripts)
    code = in_netns()
    if code is not None:
        return code
    in_ci = os.environ.get("CI") == "true"
    may_skip = os.environ.get("SHELLGATE_E2E_SKIP_MISSING") == "1" and not in_ci
    failures, passed = [], 0
    for name in args.only.split(","):
        turn, scenarios, exe_name = HARNESSES[name]
        exe = harness_bin(args.harnesses, exe_name)
        if not os.access(exe, os.X_OK):
            msg = f"{name}: harness not installed at {exe} (run tests/e2e/install-harnesses.sh {args.harnesses})"
            if may_skip:
                print(f"SKIP {msg} [SHELLGATE_E2E_SKIP_MISSING=1]")
                continue
            failures.append(msg)
            print(f"FAIL {msg}")
            continue
        for sc in scenarios:
            t0 = time.time()
            try:
                tmp, ok, why = turn(args, sc)
            except subprocess.TimeoutExpired as e:
                tmp, ok, why = None, False, f"timed out: {e}"
            label = f"{name}/{sc['name']}"
            if args.transcripts and tmp:
                keep_transcripts(tmp, os.path.join(args.transcripts, f"{name}-{sc['name']}"))
            print(f"{'ok  ' if ok else 'FAIL'} {label} ({time.time() - t0:.1f}s){'' if ok else ': ' + why}")
            if ok:
                passed += 1
                if tmp:
                    shutil.rmtree(tmp, ignore_errors=True)
            else:
                failures.append(f"{label}: {why} (kept {tmp})")
    print(f"\n{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
