"""shellgate plugin for Hermes Agent: every terminal command and file write goes to
shellgate before it runs.

``pre_tool_call`` sends the call to ``shellgate hook hermes-plugin`` (the same event JSON
Hermes's shell hooks send) and returns shellgate's directive:

* deny  -> ``{"action": "block", "message": reason}``: the call does not run and the model
  sees the reason;
* ask   -> ``{"action": "approve", "message": reason}``: Hermes shows its own approval
  prompt (once / session / always / deny). Only when a person can answer it: in
  ``hermes -z`` (oneshot) Hermes turns on yolo mode and its gate approves every
  escalation unasked, so where no person can answer, or yolo is on, ask blocks;
* allow -> ``None``: Hermes goes on as it would without the plugin.

It fails closed: if shellgate cannot be found, does not answer in time, exits with an
unexpected code or prints something that is not a directive, the call is blocked.

Where it asks: ``$SHELLGATE_BIN`` when set (that binary); else, when the ``shellgate``
Python package is importable in Hermes's environment (``pip install shellgate``), in
process (the same answer, no process per call); else ``shellgate`` on ``PATH``. Standard
library only.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict, Optional, Tuple

# The tools shellgate judges; every other tool passes untouched.
JUDGED_TOOLS = frozenset({"terminal", "write_file", "patch"})
# shellgate answers deny on its own after 20 s; this only guards against a hung process.
TIMEOUT_SECONDS = float(os.environ.get("SHELLGATE_PLUGIN_TIMEOUT", "45"))


def _block(message: str) -> Dict[str, str]:
    return {"action": "block", "message": f"shellgate plugin: {message}; the call is blocked"}


def _binary() -> Optional[str]:
    configured = os.environ.get("SHELLGATE_BIN")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("shellgate")


def _is_self(mod: Any) -> bool:
    return getattr(mod, "pre_tool_call", None) is pre_tool_call


def _load_installed() -> Any:
    """The installed shellgate package, loaded under another name: for when this plugin
    itself was imported as ``shellgate`` (its own tests do; Hermes imports it as
    ``hermes_plugins.shellgate``)."""
    name = "_shellgate_inprocess"
    if name in sys.modules:
        return sys.modules[name]
    try:
        init = importlib.metadata.distribution("shellgate").locate_file("shellgate/__init__.py")
    except importlib.metadata.PackageNotFoundError:
        return None
    if not os.path.exists(str(init)):
        return None
    spec = importlib.util.spec_from_file_location(
        name, str(init), submodule_search_locations=[os.path.dirname(str(init))])
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception:  # noqa: BLE001 — a broken install: use the binary
        sys.modules.pop(name, None)
        return None
    return mod


def inprocess_api() -> Any:
    """The shellgate package's in-process API when it is installed, else ``None``."""
    try:
        mod = importlib.import_module("shellgate")
    except Exception:  # noqa: BLE001 — not installed (or broken): use the binary
        mod = None
    if mod is None or _is_self(mod):
        mod = _load_installed()
    return mod if mod is not None and callable(getattr(mod, "hook", None)) else None


def _ask(event: Dict[str, Any]) -> Tuple[int, str, str]:
    """shellgate's answer to the event: ``(exit code, stdout, stderr)`` as the binary
    gives them; in process when the package is installed and no binary was named."""
    if not os.environ.get("SHELLGATE_BIN"):
        api = inprocess_api()
        if api is not None:
            out, err, block = api.hook("hermes-plugin", json.dumps(event, default=str),
                                       own_binary=api.binary())
            return (2 if block else 0), out, err
    binary = _binary()
    if binary is None:
        raise LookupError("the shellgate binary was not found (set SHELLGATE_BIN or put shellgate on PATH)")
    proc = subprocess.run([binary, "hook", "hermes-plugin"], input=json.dumps(event, default=str),
                          capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
    return proc.returncode, proc.stdout, proc.stderr


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def human_can_answer() -> bool:
    """Would Hermes's approval gate put an ``approve`` in front of a person? Not in yolo
    mode (``hermes -z`` sets it) and not without an interactive CLI or a gateway."""
    try:
        from tools import approval  # Hermes's own gate, when running inside Hermes

        if getattr(approval, "_YOLO_MODE_FROZEN", False) or approval.is_current_session_yolo_enabled():
            return False
        return bool(approval._is_interactive_cli() or approval._is_gateway_approval_context())
    except Exception:  # noqa: BLE001 — outside Hermes, or its internals moved: use the env
        if _truthy("HERMES_YOLO_MODE"):
            return False
        return _truthy("HERMES_INTERACTIVE") or _truthy("HERMES_GATEWAY_SESSION")


def decide(tool_name: str, args: Any, session_id: str = "", cwd: Optional[str] = None,
           extra: Optional[Dict[str, Any]] = None) -> Optional[Dict[str, str]]:
    """shellgate's directive for one tool call (``None`` to let it run)."""
    if tool_name not in JUDGED_TOOLS:
        return None
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = ""
    event = {
        "hook_event_name": "pre_tool_call",
        "tool_name": tool_name,
        "tool_input": args if isinstance(args, dict) else {},
        "session_id": session_id or "",
        "cwd": cwd,
        "extra": extra or {},
    }
    try:
        code, stdout, stderr = _ask(event)
    except LookupError as exc:
        return _block(str(exc))
    except subprocess.TimeoutExpired:
        return _block(f"shellgate did not answer within {TIMEOUT_SECONDS:g} s")
    except OSError as exc:
        return _block(f"shellgate could not be run ({exc})")
    if code not in (0, 2):
        return _block(f"shellgate exited with code {code}: {stderr.strip()[:300]}")
    out = stdout.strip()
    if not out:
        if code == 0:
            return None
        return _block(stderr.strip()[:500] or "shellgate blocked the call without a reason")
    try:
        answer = json.loads(out)
    except ValueError:
        return _block(f"shellgate's answer is not JSON: {out[:200]!r}")
    if not isinstance(answer, dict):
        return _block(f"shellgate's answer is not an object: {out[:200]!r}")
    action = answer.get("action")
    message = answer.get("message")
    if not isinstance(message, str) or not message:
        message = "shellgate gave no reason"
    if action == "block":
        return {"action": "block", "message": message}
    if action == "approve":
        if not human_can_answer():
            return {"action": "block", "message": f"{message}. A person must approve this, and "
                    "no one can answer here (non-interactive or yolo mode), so shellgate blocked it"}
        return {"action": "approve", "message": message}
    return _block(f"shellgate's answer has an unknown action {action!r}")


def pre_tool_call(tool_name: str = "", args: Any = None, session_id: str = "", **kwargs: Any):
    """Hermes ``pre_tool_call`` hook. Never raises: an exception here would be ignored by
    Hermes's hook loop and the call would run, so every failure becomes a block."""
    try:
        extra = {k: kwargs.get(k) for k in ("task_id", "tool_call_id", "turn_id", "api_request_id")
                 if kwargs.get(k) is not None}
        return decide(tool_name, args, session_id=session_id, extra=extra)
    except Exception as exc:  # noqa: BLE001 — fail closed on anything
        if tool_name in JUDGED_TOOLS:
            return _block(f"internal error ({type(exc).__name__}: {exc})")
        return None


def register(ctx) -> None:
    ctx.register_hook("pre_tool_call", pre_tool_call)
